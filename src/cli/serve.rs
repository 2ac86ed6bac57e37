//! `zebra serve`: the competition daemon, its `--check-config`, and its admin commands
//! (bots and tokens) on the same data directory.

use std::path::Path;

use super::failure::Failure;
use super::runtime::runtime;

/// `zebra serve`: the daemon, or one of its admin commands on the same data directory.
pub(super) fn serve(args: crate::cli::ServeArgs) -> Result<(), Failure> {
    use crate::cli::{BotCommand, ServeCommand, TokenCommand};
    use crate::server::{admin, config};
    if args.command.is_some()
        && (args.listen.is_some()
            || args.concurrency.is_some()
            || args.check_config
            || args.tls_cert.is_some()
            || args.tls_key.is_some())
    {
        return Err(Failure::Usage(
            "--listen, --concurrency, --tls-cert, --tls-key and --check-config are the daemon's: give them to 'zebra serve' without bot or token".into(),
        ));
    }
    let settings = config::ServeSettings::load(
        args.config.as_deref(),
        &config::Overrides {
            data: args.data.clone(),
            listen: args.listen.clone(),
            concurrency: args.concurrency,
            tls_cert: args.tls_cert.clone(),
            tls_key: args.tls_key.clone(),
        },
    )
    .map_err(Failure::Usage)?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
    let bundled = exe.parent().unwrap_or(Path::new(".")).to_path_buf();
    let open =
        || crate::server::open_store(&settings.data).map_err(|e| Failure::Run(e.to_string()));
    match args.command {
        None if args.check_config => {
            if let Some(tls) = &settings.tls {
                crate::server::http::tls_config(tls).map_err(Failure::Usage)?;
            }
            let store = open()?;
            let version = store
                .schema_version()
                .map_err(|e| Failure::Run(e.to_string()))?;
            out!("{}", settings.describe());
            out!(
                "database {} (schema {version}): ok",
                settings.data.join(crate::server::store::DB_FILE).display()
            );
            // What `zebra serve` would refuse to start without (the same check).
            match crate::server::strict_problem(&settings)
                .map_err(|e| Failure::Run(e.to_string()))?
            {
                None => out!("sandbox strict: holds here"),
                Some(problem)
                    if std::env::var(crate::server::ALLOW_WEAK_SANDBOX).as_deref() == Ok("1") =>
                {
                    out!(
                        "sandbox strict: does not hold ({}=1: tests only): {problem}",
                        crate::server::ALLOW_WEAK_SANDBOX
                    )
                }
                Some(problem) => return Err(Failure::Run(problem)),
            }
            Ok(())
        }
        None => {
            log_to_stderr();
            let runtime = runtime()?;
            let scheme = if settings.tls.is_some() {
                "https"
            } else {
                "http"
            };
            runtime
                .block_on(crate::server::serve(settings.clone(), bundled, |addr| {
                    eprintln!(
                        "zebra serve: listening on {scheme}://{addr} (data in {}); Ctrl-C or SIGTERM stops",
                        settings.data.display()
                    );
                }, tokio_util::sync::CancellationToken::new()))
                .map_err(|e| Failure::Run(e.to_string()))
        }
        Some(ServeCommand::Token(TokenCommand::Create { scope, owner })) => {
            let mut store = open()?;
            let token = admin::create_token(&mut store, &scope, &owner).map_err(Failure::Usage)?;
            out!("{token}");
            eprintln!("zebra: a {scope} token for {owner}; it is shown only now (the server keeps its hash)");
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::Add {
            name,
            command,
            from,
            dir,
            env,
            options,
            time,
            owner,
        })) => {
            let entries = match from {
                Some(path) => crate::series::config::read_config(&path)
                    .map_err(|e| Failure::Usage(e.to_string()))?,
                None => {
                    vec![
                        admin::entry(name.unwrap_or_default(), command, dir, &env, &options, time)
                            .map_err(Failure::Usage)?,
                    ]
                }
            };
            let mut store = open()?;
            for (id, name) in
                admin::add_bots(&mut store, entries, &owner, &bundled).map_err(Failure::Usage)?
            {
                out!("bot {id} {name}: registered, pending its check by the daemon");
            }
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::List)) => {
            let store = open()?;
            let bots = store.bots().map_err(|e| Failure::Run(e.to_string()))?;
            for b in bots {
                let retired = b
                    .superseded_by
                    .map_or(String::new(), |n| format!(" (retired: bot {n} is newer)"));
                out!(
                    "{:>4}  {:<10} {:<20} owner {}{retired}",
                    b.id,
                    b.state.as_str(),
                    b.name,
                    b.owner
                );
            }
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::Activate { id })) => {
            let mut store = open()?;
            store
                .set_bot_state(id, crate::server::store::BotState::Active, None)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            out!("bot {id}: active");
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::Suspend { id })) => {
            let mut store = open()?;
            store
                .set_bot_state(id, crate::server::store::BotState::Suspended, None)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            out!("bot {id}: suspended");
            Ok(())
        }
    }
}

/// The daemon's log: `tracing` events on stderr, filtered by `RUST_LOG` (default `info`:
/// bots checked, series ended, games voided, warnings).
pub(super) fn log_to_stderr() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}
