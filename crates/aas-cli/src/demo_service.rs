use std::io::Write;
use std::time::Duration;

use aas_demo::{
    demo_plant, load_environment, AppSpec, Config, DemoService, Plant, TlsFiles, DEMO_PLANT,
};

use crate::cli::DemoServiceArgs;
use crate::error::CliError;

/// Starts the demo service, prints its start-up line, and serves until Ctrl-C or a kill.
pub async fn serve(args: DemoServiceArgs) -> Result<(), CliError> {
    let mut plants = Vec::new();
    if args.demo > 0 {
        plants.push(demo_plant(DEMO_PLANT, args.demo, args.seed));
    }
    if !args.data.is_empty() {
        let mut assets = Vec::new();
        for path in &args.data {
            assets.extend(load_environment(path, args.asset_type.clone())?);
        }
        plants.push(Plant {
            code: args.plant.clone(),
            assets,
        });
    }
    // A chosen client secret (tests plant canaries); from the environment, since
    // arguments show in the process list.
    let app = match std::env::var("AASMD_DEMO_SERVICE_CLIENT_SECRET") {
        Ok(client_secret) => AppSpec {
            client_secret,
            ..AppSpec::demo()
        },
        Err(_) => AppSpec::demo(),
    };
    let demo_service = DemoService::start(Config {
        applications: vec![app],
        addr: args.addr,
        plants,
        token_ttl: Duration::from_secs(args.token_ttl),
        auth_path_prefix: args.auth_path_prefix,
        faults: args.faults,
        state_file: args.state,
        tls: args
            .tls_cert
            .zip(args.tls_key)
            .map(|(cert, key)| TlsFiles { cert, key }),
        v3_server: !args.no_v3_server,
        v3_sign_in: args.v3_sign_in,
        ..Config::default()
    })
    .await?;
    let mut info = demo_service.info().clone();
    if args.admin_token {
        info.admin_token = Some(demo_service.admin_token().to_owned());
    }
    let line = serde_json::to_string(&info)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    drop(out);
    eprintln!("aasmd: demo service listening on {}", info.registry_url);
    tokio::signal::ctrl_c().await.map_err(CliError::Signal)?;
    Ok(())
}
