//! `zebra match`: a series set up from its flags (or read back with `--resume`), its bots
//! started once to be named, played, and summed up.

use super::args::MatchArgs;
use super::common::bundled_dir;
use super::failure::{preflight_failure, Failure};
use super::runtime::runtime;
use super::watch::{bind_watch, linger, start_watch};
use crate::referee::preflight::preflight;
use crate::series::disk::DiskError;
use crate::series::progress::Progress;
use crate::series::setup::{prepare, Prepared, SetupError};
use crate::series::{RunOptions, SeriesEnd, Summary};

/// Sets the series up (or reads it back), plays it, prints the summary.
pub(super) fn run(args: MatchArgs) -> Result<(), Failure> {
    if args.concurrency == Some(0) {
        return Err(Failure::Usage("--concurrency must be at least 1".into()));
    }
    let listener = bind_watch(&args.watch, false)?;
    let mut prepared = prepare_series(&args)?;
    // The coordinator's runtime; every game runs on a thread of its own (see
    // series::runner).
    let runtime = runtime()?;
    name_by_ready(&runtime, &mut prepared)?;
    prepared.save().map_err(setup_failure)?;
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let progress = Progress::choose(args.quiet, args.json);
    note_start(&prepared, &progress, concurrency);
    let affinity = place(
        args.affinity,
        concurrency,
        crate::series::placement::sequential(prepared.config.sandbox.policy()),
        &progress,
    );
    let title = format!("series in {}", prepared.dir.display());
    let watching = start_watch(listener, &title, None, None)?;
    let config = &prepared.config;
    let outcome = runtime
        .block_on(crate::series::run(
            config,
            prepared.done,
            prepared.voided,
            RunOptions {
                concurrency,
                progress,
                cpus: std::thread::available_parallelism().ok().map(|n| n.get()),
                affinity,
                spectator: watching
                    .as_ref()
                    .map(|w| w.hub.clone() as std::sync::Arc<dyn crate::referee::Spectator>),
            },
        ))
        .map_err(|e| Failure::Run(e.to_string()))?;
    // A series that ended (not one stopped to resume later) leaves no lock behind.
    if outcome.end != SeriesEnd::Interrupted {
        if let Some(held) = prepared.held {
            held.finish();
        }
    }
    let summary = Summary::of(config, &outcome);
    if args.json {
        out!(
            "{}",
            serde_json::to_string(&summary).expect("a summary serializes")
        );
    } else {
        out!("{}", summary.text(&outcome.standings).trim_end());
    }
    if outcome.end != SeriesEnd::Interrupted {
        linger(watching);
    }
    match outcome.end {
        SeriesEnd::Completed | SeriesEnd::H1Accepted => Ok(()),
        end => Err(Failure::Series(end)),
    }
}

/// The flags checked into a series (nothing written yet), or the saved one read back.
fn prepare_series(args: &MatchArgs) -> Result<Prepared, Failure> {
    let bundled = bundled_dir()?;
    prepare(&args.request(), &bundled, &timestamp()).map_err(setup_failure)
}

/// A series that cannot start: the user's flags or files (exit code 2), or a file this run
/// failed to read or write, or a program missing (1).
fn setup_failure(e: SetupError) -> Failure {
    match e {
        // Games of another rulings edition: the user's to resolve (another zebra release),
        // as bad input is, not a file this run failed to read or write.
        e @ SetupError::Disk(DiskError::Edition { .. }) => Failure::Usage(e.to_string()),
        e @ (SetupError::Disk(_) | SetupError::MissingProgram { .. }) => {
            Failure::Run(e.to_string())
        }
        other => Failure::Usage(other.to_string()),
    }
}

/// Every bot starts, shakes hands and accepts its options before anything is written;
/// a bot the user did not name is named by its `ready`.
fn name_by_ready(
    runtime: &tokio::runtime::Runtime,
    prepared: &mut Prepared,
) -> Result<(), Failure> {
    let mut ready = Vec::new();
    for bot in &prepared.config.bots {
        let name = runtime
            .block_on(preflight(
                &bot.spec_with(
                    prepared
                        .config
                        .sandbox
                        .limits_for(&bot.limits)
                        .map_err(Failure::Usage)?,
                ),
                std::time::Duration::from_secs(10),
                prepared.config.sandbox.mode,
            ))
            .map_err(preflight_failure)?;
        ready.push(name);
    }
    prepared.name_by_ready(&ready);
    Ok(())
}

/// Says where the series is, what it plays and how to resume it (or that it is complete).
fn note_start(prepared: &Prepared, progress: &Progress, concurrency: usize) {
    let config = &prepared.config;
    let planned = crate::series::schedule::Schedule::of(config).map_or(0, |s| s.len() as usize);
    if let Some(shard) = config.shard {
        let (first, last) =
            crate::series::schedule::Schedule::of(config).map_or((1, 0), |s| s.window());
        progress.note(&format!(
            "shard {shard} of series {}: games {first} to {last}",
            crate::series::shard::identity(config)
        ));
    }
    if prepared.resumed && prepared.done.len() >= planned {
        progress.note(&format!(
            "series in {} is complete ({} games): nothing to play",
            prepared.dir.display(),
            prepared.done.len()
        ));
    } else {
        progress.note(&format!(
            "series in {} ({} bots, {} games per encounter, {concurrency} at once{}); resume with 'zebra match --resume {}'",
            prepared.dir.display(),
            config.bots.len(),
            config.rounds * 2,
            if prepared.resumed {
                format!(", {} games already played", prepared.done.len())
            } else {
                String::new()
            },
            prepared.dir.display()
        ));
    }
}

/// `--affinity`: where each game at once runs (see series::placement), or a warning and
/// nothing pinned.
fn place(
    affinity: crate::series::placement::Affinity,
    concurrency: usize,
    freeze_idle: bool,
    progress: &Progress,
) -> Option<Vec<crate::series::placement::Place>> {
    let allowed = crate::bench::allowed_cpus();
    let placement = crate::series::placement::place(affinity, &allowed, concurrency, freeze_idle);
    if let Some(warning) = &placement.warning {
        progress.note(warning);
    }
    placement.places
}

/// `20261122-041628` (UTC), for default directory names.
fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
    let (year, month, day) = crate::record::time::civil_date(secs);
    format!("{year:04}{month:02}{day:02}-{h:02}{m:02}{s:02}")
}
