//! `zebra serve`: the competition daemon, its `--check-config`, and its admin commands
//! (bots and tokens) on the same data directory.

use std::path::PathBuf;

use super::args::{BotCommand, InviteCommand, ServeArgs, ServeCommand, TokenCommand};
use super::common::bundled_dir;
use super::failure::Failure;
use super::runtime::runtime;
use crate::server::config::{Overrides, ServeSettings};
use crate::server::store::{BotState, Store};
use crate::server::{admin, open_store};

/// The daemon, or one of its admin commands on the same data directory.
pub(super) fn run(args: ServeArgs) -> Result<(), Failure> {
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
    let settings = ServeSettings::load(
        args.config.as_deref(),
        &Overrides {
            data: args.data.clone(),
            database: args.database.clone(),
            listen: args.listen.clone(),
            concurrency: args.concurrency,
            tls_cert: args.tls_cert.clone(),
            tls_key: args.tls_key.clone(),
        },
    )
    .map_err(Failure::Usage)?;
    let bundled = bundled_dir()?;
    match args.command {
        None if args.check_config => check_config(&settings),
        None => daemon(settings, bundled),
        Some(ServeCommand::Token(TokenCommand::Create { scope, owner })) => {
            let mut store = open(&settings)?;
            let token = admin::create_token(&mut store, &scope, &owner).map_err(Failure::Usage)?;
            out!("{token}");
            eprintln!("zebra: a {scope} token for {owner}; it is shown only now (the server keeps its hash)");
            Ok(())
        }
        Some(ServeCommand::Bot(command)) => bot(command, &settings, &bundled),
        Some(ServeCommand::Invite(command)) => invite(command, &settings),
    }
}

/// `zebra serve invite create|list`.
fn invite(command: InviteCommand, settings: &ServeSettings) -> Result<(), Failure> {
    match command {
        InviteCommand::Create {
            uses,
            expires,
            note,
        } => {
            let expires = crate::server::entrants::expiry(expires.as_deref())
                .map_err(|e| Failure::Usage(format!("--expires {e}")))?;
            let mut store = open(settings)?;
            let (code, expires_ms) =
                crate::server::entrants::create_invite(&mut store, uses, expires, &note)
                    .map_err(Failure::Usage)?;
            out!("{code}");
            eprintln!(
                "zebra: an invite code for {uses} sign-up{} {}; it is shown only now. Entrants redeem it at /signup#code={code} or with POST /api/v1/signup",
                if uses == 1 { "" } else { "s" },
                expires_ms.map_or("with no expiry".to_string(), |ms| format!(
                    "until {}",
                    crate::server::entrants::utc(ms)
                )),
            );
            Ok(())
        }
        InviteCommand::Revoke { id } => {
            let mut store = open(settings)?;
            if !store
                .revoke_invite(id)
                .map_err(|e| Failure::Run(e.to_string()))?
            {
                return Err(Failure::Usage(format!(
                    "there is no invite {id}: zebra serve invite list shows them"
                )));
            }
            eprintln!("zebra: invite {id} revoked; its sign-ups keep their tokens");
            Ok(())
        }
        InviteCommand::List => {
            let store = open(settings)?;
            let invites = store.invites().map_err(|e| Failure::Run(e.to_string()))?;
            if invites.is_empty() {
                out!("no invite codes: make one with zebra serve invite create");
            }
            for i in invites {
                out!(
                    "{}\t{} use{} left\t{}\tsigned up: {}\t{}",
                    i.id,
                    i.uses_left,
                    if i.uses_left == 1 { "" } else { "s" },
                    i.expires_ms.map_or("no expiry".to_string(), |ms| format!(
                        "expires {}",
                        crate::server::entrants::utc(ms)
                    )),
                    if i.owners.is_empty() {
                        "nobody".to_string()
                    } else {
                        i.owners.join(", ")
                    },
                    i.note
                );
            }
            Ok(())
        }
    }
}

/// The data directory's store.
fn open(settings: &ServeSettings) -> Result<Store, Failure> {
    open_store(settings).map_err(|e| Failure::Run(e.to_string()))
}

/// `--check-config`: the settings, the database, and whether `--sandbox strict` holds.
fn check_config(settings: &ServeSettings) -> Result<(), Failure> {
    if let Some(tls) = &settings.tls {
        crate::server::http::tls_config(tls).map_err(Failure::Usage)?;
    }
    let store = open(settings)?;
    let version = store
        .schema_version()
        .map_err(|e| Failure::Run(e.to_string()))?;
    out!("{}", settings.describe());
    let database = match &settings.database {
        crate::server::store::Database::Sqlite => settings
            .data
            .join(crate::server::store::DB_FILE)
            .display()
            .to_string(),
        other => other.describe(),
    };
    out!("database {database} (schema {version}): ok");
    // What `zebra serve` would refuse to start without (the same check).
    match crate::server::strict_problem(settings).map_err(|e| Failure::Run(e.to_string()))? {
        None => out!("sandbox strict: holds here"),
        Some(problem) if std::env::var(crate::server::ALLOW_WEAK_SANDBOX).as_deref() == Ok("1") => {
            out!(
                "sandbox strict: does not hold ({}=1: tests only): {problem}",
                crate::server::ALLOW_WEAK_SANDBOX
            )
        }
        Some(problem) => return Err(Failure::Run(problem)),
    }
    Ok(())
}

/// The daemon itself, until Ctrl-C or SIGTERM.
fn daemon(settings: ServeSettings, bundled: PathBuf) -> Result<(), Failure> {
    log_to_stderr();
    let runtime = runtime()?;
    let scheme = if settings.tls.is_some() {
        "https"
    } else {
        "http"
    };
    runtime
        .block_on(crate::server::serve(
            settings.clone(),
            bundled,
            |addr| {
                eprintln!(
                    "zebra serve: listening on {scheme}://{addr} (data in {}); Ctrl-C or SIGTERM stops",
                    settings.data.display()
                );
            },
            tokio_util::sync::CancellationToken::new(),
        ))
        .map_err(|e| Failure::Run(e.to_string()))
}

/// `zebra serve bot add|list|activate|suspend`.
fn bot(
    command: BotCommand,
    settings: &ServeSettings,
    bundled: &std::path::Path,
) -> Result<(), Failure> {
    match command {
        BotCommand::Add {
            name,
            command,
            from,
            dir,
            env,
            options,
            time,
            owner,
        } => {
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
            let mut store = open(settings)?;
            for (id, name) in
                admin::add_bots(&mut store, entries, &owner, bundled).map_err(Failure::Usage)?
            {
                out!("bot {id} {name}: registered, pending its check by the daemon");
            }
            Ok(())
        }
        BotCommand::List => {
            let store = open(settings)?;
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
        BotCommand::Activate { id } => set_state(settings, id, BotState::Active, "active"),
        BotCommand::Suspend { id } => set_state(settings, id, BotState::Suspended, "suspended"),
    }
}

/// `zebra serve bot activate|suspend ID`.
fn set_state(
    settings: &ServeSettings,
    id: i64,
    state: BotState,
    said: &str,
) -> Result<(), Failure> {
    let mut store = open(settings)?;
    store
        .set_bot_state(id, state, None)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    out!("bot {id}: {said}");
    Ok(())
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
