//! An AAS file opened in the app, browsed as the tree browses every source: real
//! published files (../shared/aas-files) grouped by the asset types or kinds they give,
//! each shell's submodels, their elements with the text the file has for them; a file
//! that is no AAS refused with words; a closed file's number refused; a long reading's
//! progress and Cancel.

use std::path::{Path, PathBuf};

use aas_app::{App, FileOpened, FileProgress, SourceRef};
use aas_client::ElementAddress;
use aas_model::AssetType;
use aas_source::{ErrorKind, NodePath};

fn shared(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/aas-files")
        .join(path)
}

async fn app() -> App {
    App::start_with_demo().await.expect("demo service")
}

/// Opens the shared file `path`; its number, and the first shell of its first asset type.
async fn first_shell(app: &App, path: &str) -> (FileOpened, SourceRef, String) {
    let opened = app.open_file(shared(path), |_| ()).await.expect("opened");
    let source = SourceRef::File { file: opened.file };
    let group = opened.asset_types[0].asset_type.clone();
    let shells = app
        .children(&source, &NodePath::AasList { asset_type: group })
        .await
        .expect("shells");
    let aas_id = shells[0].id.clone().expect("an id");
    (opened, source, aas_id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v3_package_with_an_xml_part_is_browsed_shell_submodel_element() {
    let app = app().await;
    let opened = app
        .open_file(shared("C-v3.0/FAAAST-Service/model.aasx"), |_| ())
        .await
        .expect("opened");
    assert_eq!(opened.name, "model.aasx");
    assert_eq!(
        (opened.shells, opened.submodels),
        (1, 5),
        "as SOURCES.md counts"
    );
    let part = &opened.parts[0];
    assert_eq!(serde_json::to_value(part).expect("JSON")["version"], "3.0");
    let source = SourceRef::File { file: opened.file };
    let group = opened.asset_types[0].asset_type.clone();
    assert_eq!(opened.asset_types[0].shells, 1);
    assert_eq!(app.shell_count(&source, &group).await.expect("count"), 1);

    let shells = app
        .children(
            &source,
            &NodePath::AasList {
                asset_type: group.clone(),
            },
        )
        .await
        .expect("shells");
    let shell_id = shells[0].id.clone().expect("an id");
    let shell = app
        .shell_json(&source, &group, &shell_id)
        .await
        .expect("its text");
    assert!(
        shell.trim_start().starts_with('<') && shell.contains(&shell_id),
        "{shell}"
    );

    let submodels = app
        .children(
            &source,
            &NodePath::Submodels {
                aas_id: shell_id.clone(),
            },
        )
        .await
        .expect("submodels");
    assert!(!submodels.is_empty());
    let with_elements = &submodels[0];
    let elements = app
        .children(
            &source,
            &NodePath::Elements {
                aas_id: shell_id,
                submodel: with_elements.id_short.clone().expect("an idShort"),
            },
        )
        .await
        .expect("elements");
    assert!(!elements.is_empty());
    for element in &elements {
        let id_short = element.id_short.as_deref().expect("an idShort");
        assert!(
            element.raw.starts_with('<'),
            "XML as the file has it: {}",
            element.raw
        );
        assert!(
            element.raw.contains(&format!("idShort>{id_short}</")),
            "{}",
            element.raw
        );
        assert!(element.model_type.is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shells_are_grouped_by_the_asset_kind_a_v2_file_gives() {
    let app = app().await;
    let opened = app
        .open_file(
            shared("A-v2.0-aasx-xml/basyx-python-sdk/test_demo_full_example2.aasx"),
            |_| (),
        )
        .await
        .expect("opened");
    assert_eq!(
        (opened.shells, opened.submodels),
        (4, 7),
        "as SOURCES.md counts"
    );
    let counted: usize = opened.asset_types.iter().map(|t| t.shells).sum();
    assert_eq!(counted, 4, "{:?}", opened.asset_types);
    let names: Vec<&str> = opened
        .asset_types
        .iter()
        .map(|t| t.asset_type.code())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_by_key(|name| AssetType::named(*name));
    assert_eq!(names, sorted, "in the tree's order");
    assert!(
        names
            .iter()
            .all(|n| ["Instance", "Type", "no asset type"].contains(n)),
        "{names:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_packages_thumbnail_is_shown_where_it_is_a_picture() {
    use base64::Engine as _;
    let app = app().await;
    // Festo's package names /thumbnail.jpg as its thumbnail.
    let festo = (app
        .open_file(shared("A-v2.0-aasx-xml/AASPortal/24_Festo.aasx"), |_| ())
        .await)
        .expect("opened");
    let url = festo.thumbnail.expect("a thumbnail");
    let jpeg = url.strip_prefix("data:image/jpeg;base64,").expect("a JPEG");
    let bytes = (base64::engine::general_purpose::STANDARD.decode(jpeg)).expect("base64");
    assert_eq!(&bytes[..3], b"\xFF\xD8\xFF", "a JPEG's start");
    // BaSyx Java's names none; an environment file carries none.
    for file in [
        "A-v2.0-aasx-xml/basyx-java-sdk/TestPackage.aasx",
        "C-v3.0/basyx-java-server-sdk/testEnvironment.xml",
    ] {
        let opened = app.open_file(shared(file), |_| ()).await.expect("opened");
        assert_eq!(opened.thumbnail, None, "{file}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v3_json_file_keeps_each_elements_json() {
    let app = app().await;
    let (_, source, aas_id) = first_shell(
        &app,
        "C-v3.0/basyx-python-sdk/test_demo_full_example_json.aasx",
    )
    .await;
    let submodels = app
        .children(
            &source,
            &NodePath::Submodels {
                aas_id: aas_id.clone(),
            },
        )
        .await
        .expect("submodels");
    for submodel in submodels {
        let json: serde_json::Value = serde_json::from_str(&submodel.raw).expect("its JSON");
        assert_eq!(json["modelType"], "Submodel");
        let elements = app
            .children(
                &source,
                &NodePath::Elements {
                    aas_id: aas_id.clone(),
                    submodel: submodel.id_short.clone().expect("an idShort"),
                },
            )
            .await
            .expect("elements");
        for element in elements {
            let json: serde_json::Value = serde_json::from_str(&element.raw).expect("its JSON");
            assert_eq!(json["idShort"].as_str(), element.id_short.as_deref());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_no_aas_file_is_refused_with_words_and_a_closed_file_is_said() {
    let app = app().await;
    let dir = std::env::temp_dir().join(format!("aas-open-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let notes = dir.join("notes.json");
    std::fs::write(&notes, "[1, 2, 3]").expect("written");
    let refused = app.open_file(notes, |_| ()).await.expect_err("no AAS");
    assert_eq!(refused.kind(), ErrorKind::BadData);
    assert!(refused.to_string().contains("notes.json"), "{refused}");
    let missing = app
        .open_file(dir.join("gone.aasx"), |_| ())
        .await
        .expect_err("missing");
    assert_eq!(missing.kind(), ErrorKind::Io);
    assert!(missing.to_string().contains("gone.aasx"), "{missing}");

    let first = app
        .open_file(shared("D-v3.1/aas-specs-metamodel/maximal.json"), |_| ())
        .await
        .expect("opened");
    assert_eq!((first.shells, first.submodels), (0, 1));
    let _second = app
        .open_file(
            shared("C-v3.0/basyx-java-server-sdk/testEnvironment.xml"),
            |_| (),
        )
        .await
        .expect("opened");
    let closed = SourceRef::File { file: first.file };
    let asked = app
        .children(
            &closed,
            &NodePath::AasList {
                asset_type: AssetType::named("Instance"),
            },
        )
        .await
        .expect_err("no longer open");
    assert!(asked.to_string().contains("open it again"), "{asked}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_file_is_let_go_and_closing_another_number_keeps_the_one_open() {
    let app = app().await;
    let (opened, source, _) = first_shell(&app, "C-v3.0/FAAAST-Service/model.aasx").await;
    app.close_file(opened.file + 1);
    let group = NodePath::AasList {
        asset_type: opened.asset_types[0].asset_type.clone(),
    };
    app.children(&source, &group).await.expect("still open");
    app.close_file(opened.file);
    let asked = app.children(&source, &group).await.expect_err("let go");
    assert!(asked.to_string().contains("open it again"), "{asked}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_files_part_of_the_package_is_saved_where_the_user_chooses() {
    let app = app().await;
    let (opened, _, aas_id) = first_shell(&app, "C-v3.0/FAAAST-Service/model.aasx").await;
    let at = |id_shorts: &[&str]| ElementAddress {
        aas_id: aas_id.clone(),
        submodel: "Nameplate".into(),
        id_shorts: id_shorts.iter().map(|s| s.to_string()).collect(),
    };
    let dir = tempfile::tempdir().expect("a folder");
    let chosen = dir.path().join("logo.png");
    let offered = std::sync::Mutex::new(None);
    let saved = app
        .save_file_content(opened.file, &at(&["CompanyLogo"]), |offer| {
            *offered.lock().expect("offer") = Some(offer.name().to_owned());
            std::future::ready(Ok(Some(chosen.clone())))
        })
        .await
        .expect("saved");
    assert_eq!(saved.as_deref(), Some(chosen.as_path()));
    // The part's own name is offered; its bytes are the PNG the package carries.
    assert_eq!(
        offered.lock().expect("offer").as_deref(),
        Some("example.png")
    );
    let bytes = std::fs::read(&chosen).expect("written");
    assert!(
        bytes.starts_with(b"\x89PNG"),
        "{:?}",
        &bytes[..bytes.len().min(8)]
    );
    // A Property holds nothing to save; nothing is asked or written.
    let refused = app
        .save_file_content(opened.file, &at(&["SerialNumber"]), |_| async {
            panic!("no dialog for what holds no file")
        })
        .await
        .expect_err("nothing to save");
    assert!(
        refused.to_string().contains("nothing") || refused.to_string().contains("no file"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_reading_tells_how_far_it_came_and_cancel_keeps_the_file_shown_before() {
    use std::sync::{Arc, Mutex};
    let app = Arc::new(app().await);
    // Read at a glance: nothing told.
    let told = Arc::new(Mutex::new(Vec::<FileProgress>::new()));
    let hear = |told: &Arc<Mutex<Vec<FileProgress>>>| {
        let told = Arc::clone(told);
        move |p| told.lock().expect("told").push(p)
    };
    let shown = (app.open_file(shared("C-v3.0/FAAAST-Service/model.aasx"), hear(&told)))
        .await
        .expect("opened");
    assert!(told.lock().expect("told").is_empty());

    // 300,000 shells: seconds of reading.
    let dir = tempfile::tempdir().expect("a folder");
    let large = dir.path().join("large.xml");
    let shell = |i| {
        format!("<assetAdministrationShell><id>urn:shell:{i}</id><assetInformation><assetKind>Instance</assetKind></assetInformation></assetAdministrationShell>")
    };
    let shells: String = (0..300_000).map(shell).collect();
    let xml = format!(
        r#"<environment xmlns="https://admin-shell.io/aas/3/0"><assetAdministrationShells>{shells}</assetAdministrationShells></environment>"#
    );
    std::fs::write(&large, &xml).expect("written");
    let reading = tokio::spawn({
        let (app, on_progress) = (Arc::clone(&app), hear(&told));
        async move { app.open_file(large, on_progress).await }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while told.lock().expect("told").is_empty() {
        assert!(std::time::Instant::now() < deadline, "no progress told");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // One reading at a time.
    let second = app
        .open_file(shared("C-v3.0/FAAAST-Service/model.aasx"), |_| ())
        .await
        .expect_err("busy");
    assert_eq!(second.kind(), ErrorKind::Busy);
    app.cancel_file_reading();
    let why = reading.await.expect("the reading").expect_err("cancelled");
    assert_eq!(why.kind(), ErrorKind::Interrupted, "{why}");

    let told = told.lock().expect("told").clone();
    let (last, under_way) = told.split_last().expect("told");
    assert!(last.done && last.failed, "{told:?}");
    assert!(under_way.iter().all(|p| !p.done && !p.failed), "{told:?}");
    assert!(told
        .iter()
        .all(|p| p.name == "large.xml" && p.size == xml.len() as u64));
    assert!(told.windows(2).all(|w| w[0].read <= w[1].read), "{told:?}");
    assert!(last.read < last.size, "stopped before its end: {last:?}");
    // The file shown before is still there to browse.
    let source = SourceRef::File { file: shown.file };
    let group = shown.asset_types[0].asset_type.clone();
    (app.children(&source, &NodePath::AasList { asset_type: group }))
        .await
        .expect("still open");
}

/// An environment of three shells, each referring to one of `submodels` submodels after
/// them, as XML or JSON.
fn shells_then_submodels(submodels: usize, json: bool) -> String {
    if json {
        let shell = |i| {
            format!(
                r#"{{"modelType":"AssetAdministrationShell","id":"urn:shell:{i}","assetInformation":{{"assetKind":"Instance"}},"submodels":[{{"type":"ModelReference","keys":[{{"type":"Submodel","value":"urn:sm:{i}"}}]}}]}}"#
            )
        };
        let submodel =
            |i| format!(r#"{{"modelType":"Submodel","id":"urn:sm:{i}","idShort":"S{i}"}}"#);
        return format!(
            r#"{{"assetAdministrationShells":[{}],"submodels":[{}]}}"#,
            (0..3).map(shell).collect::<Vec<_>>().join(","),
            (0..submodels).map(submodel).collect::<Vec<_>>().join(",")
        );
    }
    let reference = |i| {
        format!("<submodels><reference><type>ModelReference</type><keys><key><type>Submodel</type><value>urn:sm:{i}</value></key></keys></reference></submodels>")
    };
    let shell = |i| {
        format!("<assetAdministrationShell><id>urn:shell:{i}</id><assetInformation><assetKind>Instance</assetKind></assetInformation>{}</assetAdministrationShell>", reference(i))
    };
    let submodel = |i| format!("<submodel><id>urn:sm:{i}</id><idShort>S{i}</idShort></submodel>");
    format!(
        r#"<environment xmlns="https://admin-shell.io/aas/3/0"><assetAdministrationShells>{}</assetAdministrationShells><submodels>{}</submodels></environment>"#,
        (0..3).map(shell).collect::<String>(),
        (0..submodels).map(submodel).collect::<String>()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shells_are_browsed_while_the_rest_is_read_and_go_when_it_is_cancelled() {
    use std::sync::Arc;
    let app = Arc::new(app().await);
    let dir = tempfile::tempdir().expect("a folder");
    for (name, json) in [("shells-first.xml", false), ("shells-first.json", true)] {
        let path = dir.path().join(name);
        std::fs::write(&path, shells_then_submodels(300_000, json)).expect("written");
        shells_first_then_cancelled(&app, &path).await;
    }
}

/// Opens `path` twice: its shells browsed while the rest is read, then cancelled once
/// the shells were shown.
async fn shells_first_then_cancelled(app: &std::sync::Arc<App>, path: &Path) {
    use std::sync::Arc;
    let open = |app: &Arc<App>| {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let (app, path) = (Arc::clone(app), path.to_owned());
        let reading =
            tokio::spawn(async move { app.open_file(path, move |p| drop(tx.send(p))).await });
        (reading, rx)
    };
    // The shells, told before the end.
    let shells_told = |mut told: tokio::sync::mpsc::UnboundedReceiver<FileProgress>| async move {
        loop {
            let p = told.recv().await.expect("told before the end");
            assert!(!p.done, "the shells before the end: {p:?}");
            if let Some(opened) = p.opened {
                return opened;
            }
        }
    };

    let (reading, told) = open(app);
    let first = shells_told(told).await;
    assert_eq!(
        (first.shells, first.submodels),
        (3, 0),
        "{}",
        path.display()
    );
    let source = SourceRef::File { file: first.file };
    let group = first.asset_types[0].asset_type.clone();
    let shells = (app.children(&source, &NodePath::AasList { asset_type: group }))
        .await
        .expect("the shells");
    assert_eq!(shells.len(), 3);
    // A shell's submodels come once the rest is read.
    let aas_id = "urn:shell:2".to_owned();
    let submodels = (app.children(&source, &NodePath::Submodels { aas_id }))
        .await
        .expect("its submodels");
    assert_eq!(submodels.len(), 1);
    assert_eq!(submodels[0].id.as_deref(), Some("urn:sm:2"));
    let whole = reading.await.expect("the reading").expect("opened");
    assert_eq!(
        (whole.file, whole.shells, whole.submodels),
        (first.file, 3, 300_000)
    );

    // Cancelled once the shells were shown: they go.
    let (reading, told) = open(app);
    let first = shells_told(told).await;
    app.cancel_file_reading();
    let why = reading.await.expect("the reading").expect_err("cancelled");
    assert_eq!(why.kind(), ErrorKind::Interrupted, "{why}");
    let source = SourceRef::File { file: first.file };
    let group = first.asset_types[0].asset_type.clone();
    (app.children(&source, &NodePath::AasList { asset_type: group }))
        .await
        .expect_err("no longer open");
}

/// A V3 server on this machine of three shells, each naming one submodel, whose
/// submodels are answered only once `gate` says so (or it is dropped): its address.
fn gated_v3_server(gate: std::sync::mpsc::Receiver<()>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = format!("http://{}", listener.local_addr().expect("its address"));
    let shell = |i| {
        serde_json::json!({"modelType": "AssetAdministrationShell", "id": format!("urn:shell:{i}"),
            "assetInformation": {"assetKind": "Instance"},
            "submodels": [{"type": "ModelReference", "keys": [{"type": "Submodel", "value": format!("urn:sm:{i}")}]}]})
    };
    let submodel = |i| serde_json::json!({"modelType": "Submodel", "id": format!("urn:sm:{i}"), "idShort": format!("S{i}")});
    std::thread::spawn(move || {
        let mut gate = Some(gate);
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut line = String::new();
            let mut reader = BufReader::new(&stream);
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            // The rest of the head.
            let mut header = String::new();
            while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                header.clear();
            }
            let items: Vec<serde_json::Value> = if line.contains(" /shells") {
                (0..3).map(shell).collect()
            } else if line.contains(" /submodels") {
                if let Some(gate) = gate.take() {
                    let _ = gate.recv();
                }
                (0..3).map(submodel).collect()
            } else {
                Vec::new()
            };
            let body = serde_json::json!({"paging_metadata": {}, "result": items}).to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    address
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v3_servers_shells_are_browsed_while_their_submodels_are_read() {
    use std::sync::Arc;
    let app = Arc::new(app().await);
    let (release, gate) = std::sync::mpsc::channel();
    let address = gated_v3_server(gate);
    let (told, mut progress) = tokio::sync::mpsc::unbounded_channel();
    let reading = {
        let app = Arc::clone(&app);
        tokio::spawn(async move {
            (app.open_v3_server(&address, None, move |p| drop(told.send(p)))).await
        })
    };
    let first = loop {
        let p = progress.recv().await.expect("told before the end");
        if let Some(opened) = p.opened {
            break opened;
        }
    };
    assert_eq!(
        (first.shells, first.submodels, first.complete),
        (3, 0, false)
    );
    let source = SourceRef::File { file: first.file };
    let group = first.asset_types[0].asset_type.clone();
    let shells = (app.children(&source, &NodePath::AasList { asset_type: group }))
        .await
        .expect("the shells, while the submodels are read");
    assert_eq!(shells.len(), 3);
    // A shell's submodels come once they are read.
    let submodels = {
        let (app, source) = (Arc::clone(&app), source.clone());
        let aas_id = "urn:shell:1".to_owned();
        tokio::spawn(async move { app.children(&source, &NodePath::Submodels { aas_id }).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(!submodels.is_finished(), "waits for the submodels");
    release.send(()).expect("released");
    let submodels = submodels.await.expect("asked").expect("its submodels");
    assert_eq!(submodels[0].id.as_deref(), Some("urn:sm:1"));
    let whole = reading.await.expect("the reading").expect("read");
    assert_eq!(
        (whole.file, whole.shells, whole.submodels, whole.complete),
        (first.file, 3, 3, true)
    );
}
