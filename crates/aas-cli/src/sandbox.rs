use std::io::Write;
use std::time::Duration;

use aas_sandbox::{demo_plant, load_environment, Config, Plant, Sandbox, DEMO_PLANT};

use crate::cli::SandboxArgs;
use crate::error::CliError;

/// Starts the sandbox, prints its start-up line, and serves until Ctrl-C or a kill.
pub async fn serve(args: SandboxArgs) -> Result<(), CliError> {
    let mut plants = Vec::new();
    if args.demo > 0 {
        plants.push(demo_plant(DEMO_PLANT, args.demo, args.seed));
    }
    if !args.data.is_empty() {
        let mut assets = Vec::new();
        for path in &args.data {
            assets.extend(load_environment(path, args.asset_type)?);
        }
        plants.push(Plant {
            code: args.plant.clone(),
            assets,
        });
    }
    let sandbox = Sandbox::start(Config {
        addr: args.addr,
        plants,
        token_ttl: Duration::from_secs(args.token_ttl),
        faults: args.faults,
        state_file: args.state,
        ..Config::default()
    })
    .await?;
    let mut info = sandbox.info().clone();
    if args.admin_token {
        info.admin_token = Some(sandbox.admin_token().to_owned());
    }
    let line = serde_json::to_string(&info).map_err(std::io::Error::other)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    drop(out);
    eprintln!("aasmd: sandbox listening on http://{}", sandbox.addr());
    tokio::signal::ctrl_c().await?;
    Ok(())
}
