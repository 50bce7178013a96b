//! `aasmd`: the AAS Master Data Browser's command line. Data goes to stdout, messages
//! to stderr; exit codes are listed in `aasmd --help`.

mod audit;
mod cli;
mod convert;
mod crawl;
mod demo_service;
mod error;
mod inspect;
mod query;
mod snapshot;
mod table;
mod taken_source;

use std::process::ExitCode;

use clap::Parser;

// A crawl allocates a buffer per answer and frees much of it again; glibc's malloc was
// a tenth of the client's CPU in `perf` (bench/RESULTS.md, "Before/after").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("AASMD_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let args = cli::Cli::parse();
    snapshot::warn_of_store_passwords(std::env::args_os().skip(1));
    // A client mostly waits on sockets: one thread does that without waking other
    // threads for every answer (bench/RESULTS.md: ~40% less CPU per request than the
    // multi-thread runtime). The demo service serves many clients at once: every core.
    let mut runtime = match args.command {
        cli::Command::DemoService(_) => tokio::runtime::Builder::new_multi_thread(),
        _ => tokio::runtime::Builder::new_current_thread(),
    };
    let runtime = match runtime.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("aasmd: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_closed_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aasmd: {e}");
            if let Some(hint) = e.hint() {
                eprintln!("hint: {hint}");
            }
            e.exit_code()
        }
    }
}

async fn run(mut args: cli::Cli) -> Result<(), error::CliError> {
    // Held to the end: the temporary store of `--file` or `--v3` is removed when it is
    // dropped.
    let takes_v3 = matches!(
        args.command,
        cli::Command::Snapshot(cli::SnapshotCommand::Take { .. })
    );
    let files = args.connection.files.as_slice();
    let names_v3 = (args.connection.v3.is_some() || args.connection.v3_registry.is_some())
        || taken_source::names_v3_profile(&args.connection);
    // Refused before anything is read (or any secret looked up).
    if !takes_v3 && (names_v3 || !files.is_empty()) {
        taken_source::check_reads_sources(&args.command)?;
    }
    let v3 = match takes_v3 {
        // Kept in the store it names, not a temporary one.
        true => None,
        false => taken_source::named_v3_server(&args.connection)?,
    };
    let taken = match (files, v3) {
        ([], None) => None,
        (_, Some(server)) => Some(taken_source::take_in_server(server).await?),
        (files, None) => Some(taken_source::take_in(files)?),
    };
    if let Some(store) = &taken {
        args.command = taken_source::reading(args.command, store)?;
    }
    match args.command {
        cli::Command::DemoService(opts) => demo_service::serve(opts).await,
        cli::Command::Inspect {
            file,
            json,
            elements: false,
        } => inspect::run(&file, json),
        cli::Command::Inspect { file, .. } => inspect::elements(&file),
        cli::Command::Convert {
            file,
            to,
            out,
            strict,
        } => convert::run(&file, &out, to, strict).await,
        cli::Command::Snapshot(command) => snapshot::run(&args.connection, command).await,
        cli::Command::Store(command) => snapshot::store(command),
        cli::Command::Search {
            query,
            snapshot,
            plant,
            limit,
            json,
            store,
        } => snapshot::search(
            &args.connection,
            &query,
            snapshot,
            plant,
            limit,
            json,
            &store,
        ),
        cli::Command::Diff {
            ids,
            plant,
            json,
            csv,
            store,
        } => snapshot::diff(&args.connection, &ids, plant, json, csv, &store),
        cli::Command::Export {
            snapshot,
            format,
            out,
            store,
        } => {
            // Only --file leaves it out, and names the file's instead.
            let id = snapshot
                .ok_or_else(|| error::CliError::Usage("name the snapshot: --snapshot ID".into()))?;
            snapshot::export(id, format, &out, &store).await
        }
        cli::Command::Table(table) => table::run(&args.connection, &table),
        cli::Command::Audit(audit) => audit::run(&args.connection, &audit).await,
        cli::Command::Query(q) => query::run(&args.connection, q).await,
    }
}
