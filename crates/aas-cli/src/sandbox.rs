use std::io::Write;
use std::time::Duration;

use aas_sandbox::{demo_plant, Config, Sandbox, DEMO_PLANT};

use crate::cli::SandboxArgs;
use crate::error::CliError;

/// Starts the sandbox, prints its start-up line, and serves until Ctrl-C or a kill.
pub async fn serve(args: SandboxArgs) -> Result<(), CliError> {
    let sandbox = Sandbox::start(Config {
        addr: args.addr,
        plants: vec![demo_plant(DEMO_PLANT, args.assets)],
        token_ttl: Duration::from_secs(args.token_ttl),
    })
    .await?;
    let line = serde_json::to_string(sandbox.info()).map_err(std::io::Error::other)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    drop(out);
    eprintln!("aasmd: sandbox listening on http://{}", sandbox.addr());
    tokio::signal::ctrl_c().await?;
    Ok(())
}
