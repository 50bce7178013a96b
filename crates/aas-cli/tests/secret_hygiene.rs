//! Secret hygiene: a whole `aasmd` session with canary secrets (crawl in every export
//! format, a snapshot into the store, both ways of client authentication, forced errors, trace logging on, its
//! temporary files inside the searched tree), then every file it wrote and everything
//! it printed is searched for the client secret, the user token and the very access
//! tokens the service issued during the session: plain, percent-encoded as URLs and as
//! forms send them, and base64 at each of the three byte offsets; and for anything
//! shaped like a JWT. None may appear.

use std::io::Read;
use std::path::Path;
use std::process::Command;

use aas_app::{Profile, ProfileStore};
use aas_client::Transport;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::Value;

mod support;

use support::{DemoService, AASMD};

/// Characters that change under percent-encoding and base64, so each form differs.
const CLIENT_SECRET: &str = "canary-Client/Secret+1=ä&x";

/// `aasmd demo-service` with the canary client secret.
fn demo_service() -> DemoService {
    DemoService::start_with_env(
        &["--addr", "127.0.0.1:0", "--admin-token"],
        &[("AASMD_DEMO_SERVICE_CLIENT_SECRET", CLIENT_SECRET)],
    )
}

fn text(line: &Value, field: &str) -> String {
    line[field].as_str().expect("string field").to_owned()
}

/// The access tokens the demo service issued so far, from its admin surface.
fn issued_access_tokens(line: &Value) -> Vec<String> {
    let out = Command::new("curl")
        .args([
            "-sf",
            &format!(
                "{}/demo-service/admin/access-tokens",
                text(line, "auth_url")
            ),
        ])
        .args([
            "-H",
            &format!("Authorization: Bearer {}", text(line, "admin_token")),
        ])
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "the admin surface answers");
    let body: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    body["access_tokens"]
        .as_array()
        .expect("access_tokens")
        .iter()
        .map(|t| t.as_str().expect("a token").to_owned())
        .collect()
}

/// The forms a secret could leak in: as it is, percent-encoded (URL and
/// `application/x-www-form-urlencoded`, which leaves `*-._` alone and sends a space as
/// `+`), and each of those in base64 wherever it starts in the encoded bytes.
fn forms(secret: &str) -> Vec<String> {
    let url = percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC)
        .to_string();
    let form: String = form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    let mut forms = vec![secret.to_owned(), url.clone(), form.clone()];
    for text in [secret, &url, &form] {
        forms.extend(base64_at_every_offset(text.as_bytes()));
    }
    forms.sort();
    forms.dedup();
    forms
}

/// The base64 text that `bytes` produce however many bytes (0, 1 or 2 mod 3) come
/// before them: only the 4-character groups made of their bytes alone, which are the
/// same whatever surrounds them. Standard and URL-safe alphabets.
fn base64_at_every_offset(bytes: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    for offset in 0..3 {
        let mut shifted = vec![0; offset];
        shifted.extend_from_slice(bytes);
        let whole_groups = shifted.len() / 3 * 4;
        let first = if offset == 0 { 0 } else { 4 };
        for engine in [STANDARD_NO_PAD, URL_SAFE_NO_PAD] {
            let text = engine.encode(&shifted);
            let inner = &text[first..whole_groups];
            assert!(inner.len() >= 16, "a long enough canary: {inner}");
            found.push(inner.to_owned());
        }
    }
    found
}

/// Every file under `dir`, with the entries of zip files (AASX) read out.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            found.extend(contents(&path));
            continue;
        }
        let bytes = std::fs::read(&path).expect("read");
        if let Ok(mut zip) = zip::ZipArchive::new(std::io::Cursor::new(&bytes)) {
            for i in 0..zip.len() {
                let mut file = zip.by_index(i).expect("zip entry");
                let mut inner = Vec::new();
                file.read_to_end(&mut inner).expect("unzip");
                found.push((format!("{}!{}", path.display(), file.name()), inner));
            }
        }
        found.push((path.display().to_string(), bytes));
    }
    found
}

/// Anything shaped like a JWT (`eyJ…` header and payload): any token of the demo service.
fn holds_jwt(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.match_indices("eyJ").any(|(at, _)| {
        let rest = &text[at..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .unwrap_or(rest.len());
        rest[..end].split('.').filter(|p| !p.is_empty()).count() >= 2
    })
}

/// Whether `haystack` holds any of `forms`.
fn holds_any(haystack: &str, forms: &[String]) -> bool {
    forms.iter().any(|f| haystack.contains(f.as_str()))
}

#[test]
fn the_search_finds_the_secret_however_it_was_encoded() {
    let forms = forms(CLIENT_SECRET);
    let form = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    // As a token request's body and its Authorization: Basic header carry it.
    let body = form_urlencoded::Serializer::new(String::new())
        .append_pair("grant_type", "client_credentials")
        .append_pair("client_secret", CLIENT_SECRET)
        .finish();
    assert!(holds_any(&body, &forms), "{body}");
    for client_id in ["a", "ab", "abc"] {
        let basic = STANDARD.encode(format!("{}:{}", form(client_id), form(CLIENT_SECRET)));
        assert!(holds_any(&basic, &forms), "Basic {basic}");
        let url_safe = URL_SAFE.encode(format!("{client_id}{CLIENT_SECRET}"));
        assert!(holds_any(&url_safe, &forms), "{url_safe}");
    }
    assert!(
        !holds_any("canary-Client", &forms),
        "only whole secrets are searched"
    );
}

#[test]
fn no_secret_reaches_a_file_a_log_or_the_terminal() {
    let demo_service = demo_service();
    let line = demo_service.line.clone();
    assert_eq!(text(&line, "client_secret"), CLIENT_SECRET);
    let user_token = text(&line, "user_token");

    let home = std::env::temp_dir().join(format!("aasmd-hygiene-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let data = home.join("data");
    let out = home.join("out");
    let tmp = home.join("tmp");
    std::fs::create_dir_all(&out).expect("dirs");
    std::fs::create_dir_all(&tmp).expect("dirs");

    // A profile saved as the app saves it (settings only; secrets go to the keychain).
    let store = ProfileStore::at(data.join("org.aasbrowser.desktop/settings.json"));
    let profile = Profile {
        name: "canary".into(),
        registry_url: text(&line, "registry_url"),
        gateway_url: text(&line, "gateway_url"),
        auth_url: text(&line, "auth_url"),
        realm: text(&line, "realm"),
        client_id: text(&line, "client_id"),
        client_auth: Default::default(),
        token_url: None,
        plants: vec!["DEMO-01".into()],
        asset_types: vec![],
        transport: Transport::default(),
        ..Default::default()
    };
    store.save(&[profile]).expect("profile saved");
    // The connection without its secrets, which come from the environment.
    let config = home.join("connection.json");
    let mut settings = line.clone();
    for secret in ["client_secret", "user_token", "admin_token"] {
        settings.as_object_mut().expect("object").remove(secret);
    }
    std::fs::write(&config, settings.to_string()).expect("config");

    let machine = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";
    let config_arg = config.display().to_string();
    let file = |name: &str| out.join(name).display().to_string();
    let store = file("snapshots.sqlite3");
    let runs: Vec<Vec<String>> = [
        vec!["registry"],
        vec!["list", "--plant", "DEMO-01", "--type", "machine"],
        vec!["element", machine, "Nameplate", "ManufacturerName"],
        // Forced errors: 404, a refused client (401), a server that is not there.
        vec!["aas", "urn:no-such-aas"],
        vec!["--client-id", "someone-else", "registry"],
        vec!["--registry-url", "http://127.0.0.1:9", "registry"],
        vec!["--auth-url", "http://127.0.0.1:9", "registry"],
        // The secret in an Authorization: Basic header instead of the form.
        vec!["--client-auth", "basic", "registry"],
        // A snapshot: the store keeps every answer, and must keep nothing else.
        vec!["snapshot", "take", "--plant", "DEMO-01", "--store", &store],
        vec!["search", "Stuttgart", "--store", &store],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_owned).collect())
    .chain(["raw", "env", "aasx", "csv"].map(|format| {
        let target = file(&format!("plant.{format}"));
        [
            "crawl", "--plant", "DEMO-01", "--format", format, "--out", &target,
        ]
        .map(str::to_owned)
        .to_vec()
    }))
    .chain([[
        "--client-auth",
        "basic",
        "crawl",
        "--plant",
        "DEMO-01",
        "--format",
        "env",
        "--out",
        &file("plant-basic.json"),
    ]
    .map(str::to_owned)
    .to_vec()])
    .collect();
    let mut printed = Vec::new();
    let mut failures = 0;
    for args in &runs {
        let output = Command::new(AASMD)
            .arg("--config")
            .arg(&config_arg)
            .args(args)
            .env("AASMD_CLIENT_SECRET", CLIENT_SECRET)
            .env("AASMD_USER_TOKEN", &user_token)
            .env("AASMD_LOG", "trace")
            .env("RUST_LOG", "trace")
            .env("HOME", &home)
            .env("XDG_DATA_HOME", &data)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("TMPDIR", &tmp)
            .output()
            .expect("aasmd runs");
        failures += usize::from(!output.status.success());
        let name = |stream: &str| format!("aasmd {} ({stream})", args.join(" "));
        printed.push((name("stdout"), output.stdout));
        printed.push((name("stderr"), output.stderr));
    }
    assert_eq!(failures, 4, "exactly the forced errors fail");

    let written = contents(&home);
    assert!(
        written.iter().any(|(n, _)| n.ends_with("settings.json"))
            && written.iter().any(|(n, _)| n.contains("plant.aasx!")),
        "the store file and the AASX entries are searched"
    );
    let logged: usize = printed.iter().map(|(_, b)| b.len()).sum();
    assert!(logged > 10_000, "trace logging was on ({logged} bytes)");
    let issued = issued_access_tokens(&line);
    assert!(
        issued.len() >= runs.len() - 3,
        "each run that reached the token endpoint was issued a token: {} for {} runs",
        issued.len(),
        runs.len()
    );
    let secrets = [
        ("client secret", CLIENT_SECRET),
        ("user token", &user_token),
    ]
    .into_iter()
    .chain(issued.iter().map(|t| ("access token", t.as_str())));
    let canaries: Vec<(&str, String)> = secrets
        .flat_map(|(what, secret)| forms(secret).into_iter().map(move |f| (what, f)))
        .collect();
    for (name, bytes) in written.iter().chain(&printed) {
        for (what, form) in &canaries {
            assert!(
                !bytes.windows(form.len()).any(|w| w == form.as_bytes()),
                "the {what} ({form:?}) is in {name}"
            );
        }
        assert!(!holds_jwt(bytes), "a token is in {name}");
    }
    std::fs::remove_dir_all(&home).expect("cleanup");
}

/// A team store's password as a canary: in a URL's user part and as a parameter.
const STORE_PASSWORD: &str = "canary-Store-PW";

/// The names of the subcommands a `--help` text lists (`help` left out).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Issue 43 (4): with `AASMD_STORE=postgres://writer:PW@…` set, as a scheduled take's
/// configuration sets it, every subcommand's help printed `[env: AASMD_STORE=…PW…]`.
/// Every subcommand's `--help`, `-h` and `aasmd help …`, found by walking the help.
#[test]
fn no_help_shows_the_store_url_of_the_environment() {
    let store = format!(
        "postgres://writer:{STORE_PASSWORD}@teamstore.invalid/plants?sslmode=require&password={STORE_PASSWORD}"
    );
    let help = |args: &[String]| {
        let out = Command::new(AASMD)
            .args(args)
            .env("AASMD_STORE", &store)
            .output()
            .expect("aasmd runs");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(out.status.success(), "aasmd {args:?}: {text}");
        text
    };
    let (mut commands, mut named_store) = (0, 0);
    let mut todo = vec![Vec::<String>::new()];
    while let Some(path) = todo.pop() {
        let mut forms = vec![[&path[..], &["--help".to_owned()]].concat()];
        forms.push([&path[..], &["-h".to_owned()]].concat());
        forms.push([&["help".to_owned()], &path[..]].concat());
        for args in &forms {
            let text = help(args);
            assert!(
                !text.contains(STORE_PASSWORD) && !text.contains("teamstore.invalid"),
                "aasmd {}: {text}",
                args.join(" ")
            );
            named_store += usize::from(text.contains("[env: AASMD_STORE]"));
        }
        commands += 1;
        for sub in subcommands(&help(&forms[0])) {
            todo.push([&path[..], &[sub]].concat());
        }
    }
    assert!(commands >= 25, "the walk found {commands} commands");
    assert!(named_store >= 30, "AASMD_STORE named {named_store} times");
}

/// `aasmd ARGS` with `AASMD_STORE` as given, `HOME` in `home` (no password file), no
/// `PGPASSWORD`; stdout and stderr together, and the exit code.
fn store_command(home: &Path, args: &[&str], store_env: Option<&str>) -> (String, Option<i32>) {
    let mut command = Command::new(AASMD);
    command
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("AASMD_STORE")
        .env_remove("PGPASSWORD")
        .env_remove("PGPASSFILE");
    if let Some(store) = store_env {
        command.env("AASMD_STORE", store);
    }
    let out = command.output().expect("aasmd runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (text, out.status.code())
}

/// Issue 43 (5): a password the driver takes from the URL's parameters
/// (`?password=`), or from a user part whose password holds an unencoded `/` or `?`,
/// was printed in every message naming the store. The store is a port nothing listens
/// on, so each command fails naming it.
#[test]
fn a_store_password_in_a_url_parameter_is_never_shown() {
    let home = std::env::temp_dir().join(format!("aasmd-store-url-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("home");
    let copy_to = home.join("copy.sqlite3").display().to_string();
    for store in [
        format!("postgres://writer@127.0.0.1:1/plants?password={STORE_PASSWORD}"),
        format!("postgres://writer@127.0.0.1:1/plants?sslmode=disable&pass%77ord={STORE_PASSWORD}"),
        format!("postgresql://writer:{STORE_PASSWORD}/x?y@127.0.0.1:1/plants"),
    ] {
        let runs: Vec<(Vec<&str>, Option<&str>)> = vec![
            (vec!["snapshot", "list", "--store", &store], None),
            (vec!["snapshot", "list"], Some(&store)),
            (vec!["search", "Stuttgart"], Some(&store)),
            (vec!["store", "migrate"], Some(&store)),
            (
                vec!["snapshot", "copy", "--from", &store, "--to", &copy_to],
                None,
            ),
        ];
        for (args, env) in runs {
            let (said, code) = store_command(&home, &args, env);
            assert!(code.is_some_and(|c| c != 0), "{args:?}: {said}");
            assert!(!said.contains(STORE_PASSWORD), "{args:?} ({env:?}): {said}");
            assert!(
                said.contains("writer@127.0.0.1:1/plants"),
                "{args:?}: {said}"
            );
        }
    }
    std::fs::remove_dir_all(&home).expect("cleanup");
}

/// Issue 43 (6): a store URL with a password on the command line is readable by every
/// user of the computer (`ps`), and aasmd said nothing. Now a warning, once, that does
/// not repeat the password and names the safer ways; none for the same URL in
/// `AASMD_STORE` or for a URL without a password.
#[test]
fn a_store_password_on_the_command_line_is_warned_of_once_without_echoing_it() {
    let home = std::env::temp_dir().join(format!("aasmd-store-argv-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("home");
    let with = format!("postgres://writer:{STORE_PASSWORD}@127.0.0.1:1/plants");
    let in_query = format!("postgres://writer@127.0.0.1:1/plants?password={STORE_PASSWORD}");
    let without = "postgres://writer@127.0.0.1:1/plants".to_owned();
    let warning = "a store URL on the command line holds a password";
    let equals = format!("--store={with}");
    for args in [
        vec!["snapshot", "list", "--store", &with],
        vec!["snapshot", "list", &equals],
        vec!["snapshot", "list", "--store", &in_query],
        vec!["snapshot", "copy", "--from", &with, "--to", &without],
    ] {
        let (said, _) = store_command(&home, &args, None);
        assert_eq!(said.matches(warning).count(), 1, "{args:?}: {said}");
        for safer in [
            "(ps)",
            "PGPASSWORD",
            "~/.pgpass",
            "PGPASSFILE",
            "AASMD_STORE",
        ] {
            assert!(said.contains(safer), "{safer}: {said}");
        }
        assert!(!said.contains(STORE_PASSWORD), "{args:?}: {said}");
    }
    for (args, env) in [
        (vec!["snapshot", "list"], Some(with.as_str())),
        (vec!["snapshot", "list", "--store", &without], None),
    ] {
        let (said, _) = store_command(&home, &args, env);
        assert!(!said.contains(warning), "{args:?}: {said}");
    }
    let (help, _) = store_command(&home, &["snapshot", "take", "--help"], None);
    assert!(
        help.contains("(ps)") && help.contains("PGPASSFILE"),
        "the help says why: {help}"
    );
    std::fs::remove_dir_all(&home).expect("cleanup");
}
