//! `zebra bench`: the benchmarks (see `crate::bench`), each printed as a line of text or
//! one JSON object.

use super::args::{BenchArgs, BenchTarget};
use super::common::{bundled, bundled_dir, print_report, rules_flag};
use super::failure::Failure;
use super::runtime::{interruptible, runtime};
use crate::rules::Rules;

/// Checks the flags, runs the benchmark asked for, prints its report.
pub(super) fn run(args: BenchArgs) -> Result<(), Failure> {
    if args.watch_with.is_some() && args.target != BenchTarget::Match {
        return Err(Failure::Usage(
            "--watch-with measures the match benchmark: zebra bench match --watch-with chromium"
                .into(),
        ));
    }
    if args.games == 0 || args.plays_per_quarter == 0 {
        return Err(Failure::Usage(
            "--games and --plays-per-quarter must be at least 1".into(),
        ));
    }
    let rules = rules_flag(&args.rules)?;
    match args.target {
        BenchTarget::Engine => crate::with_rules!(rules, G => engine::<G>(&args)),
        BenchTarget::Movegen => crate::with_rules!(rules, G => movegen::<G>(&args)),
        // The process benchmarks play Football Chess's instant bots.
        other if rules != Rules::FootballChess => Err(Failure::Usage(format!(
            "bench {}: measures Football Chess games; --rules {rules} benchmarks engine and movegen",
            clap::ValueEnum::to_possible_value(&other)
                .map_or("?".to_string(), |v| v.get_name().to_string())
        ))),
        BenchTarget::Match => series(&args),
        BenchTarget::Serve => serve(&args),
        BenchTarget::Referee => referee(&args),
        BenchTarget::Flood => flood(&args),
    }
}

/// `bench engine`: random games of the game, on one core.
fn engine<G: crate::playout::Benched>(args: &BenchArgs) -> Result<(), Failure> {
    let r = crate::bench::run::<G>(args.games, args.seed, args.plays_per_quarter);
    print_report(args.json, &r, &r.text::<G>());
    Ok(())
}

/// `bench match`: games per second of a series of instant bots, as `zebra match` plays it
/// (the coordinator here, each game on its own thread), watched or not.
fn series(args: &BenchArgs) -> Result<(), Failure> {
    let bot = bundled("zebra-instant-bot")?;
    let runtime = runtime()?;
    let games = args.games.min(10_000) as u32;
    let r = runtime
        .block_on(crate::bench::series(
            &bot,
            games,
            args.seed,
            &[1, 2],
            args.watch_with.as_deref(),
            args.repeat,
            args.affinity,
        ))
        .map_err(Failure::Run)?;
    let runs: Vec<String> = r
        .runs
        .iter()
        .map(|run| {
            let c = run.cpu;
            let cpu = if run.watched {
                format!(
                    ", busy CPU {:.2} s, of which viewer {:.2} s and browser \
                     {:.2} s: {:.1}%",
                    c.machine_busy_seconds, c.viewer_seconds, c.browser_seconds, c.watching_percent,
                )
            } else {
                format!(", busy CPU {:.2} s", c.machine_busy_seconds)
            };
            format!(
                "concurrency {}{}: {:.1} games/s ({:.2} s, {} decisions/s{cpu})",
                run.concurrency,
                if run.watched { " watched" } else { "" },
                run.games_per_second,
                run.seconds,
                run.decisions_per_second as u64
            )
        })
        .chain(r.watch_cost.iter().map(|c| {
            format!(
                "watching costs concurrency {} {:.1}% of its games/s (medians)",
                c.concurrency, c.cost_percent
            )
        }))
        .collect();
    let text = format!("{} games of instant bots; {}", r.games, runs.join("; "));
    print_report(args.json, &r, &text);
    Ok(())
}

/// `bench serve`: the daemon against `zebra match`, its reads while playing, its memory.
fn serve(args: &BenchArgs) -> Result<(), Failure> {
    let bot = bundled("zebra-instant-bot")?;
    let dir = bundled_dir()?;
    let runtime = runtime()?;
    let r = interruptible(
        &runtime,
        crate::bench::serve::run(
            &bot,
            &dir,
            args.games.min(10_000) as u32,
            2,
            args.repeat,
            args.postgres.as_deref(),
        ),
    )?
    .map_err(Failure::Run)?;
    let rounded = |runs: &[f64]| {
        runs.iter()
            .map(|g| (g * 10.0).round() / 10.0)
            .collect::<Vec<_>>()
    };
    let text = format!(
        "{} games of instant bots at concurrency {}: zebra match {:?} games/s, zebra serve {:?} games/s (a client reading every {} ms): the daemon at {:.1}% (medians; run by run {:.1}%, mean {:.1}% ± {:.1})\nzebra serve --concurrency 0 with two zebra worker processes (each half): {:?} games/s, {:.1}% of zebra match (medians)\nreads under load (series status and leaderboard, {} ms between rounds): {} requests, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; the daemon meanwhile {:?} games/s, {:.1}% of zebra match\nsubmit a 10,000-game series: {:.3} s; restart on that queue to the first answer: {:.3} s",
        r.games, r.concurrency, rounded(&r.match_runs), rounded(&r.daemon_runs),
        crate::bench::serve::WATCH_EVERY.as_millis(), r.daemon_percent, r.daemon_paired_percent, r.daemon_paired_mean.0, r.daemon_paired_mean.1,
        rounded(&r.remote_runs), r.remote_percent,
        crate::bench::serve::LOAD_EVERY.as_millis(), r.reads, r.read_p50_ms, r.read_p99_ms, r.read_max_ms,
        rounded(&r.loaded_runs), r.loaded_percent,
        r.submit_10k_seconds, r.restart_seconds
    );
    let text = format!(
        "{text}\nCPU per game in the same runs: Zebra's own, zebra match {:?} ms, zebra serve {:?} ms (of which its game threads', zebra match {:?} ms, zebra serve {:?} ms); all CPUs' busy time, zebra match {:?} ms, zebra serve {:?} ms: the daemon at {:.1}% by CPU time (medians)",
        rounded(&r.match_own_cpu_ms),
        rounded(&r.daemon_own_cpu_ms),
        rounded(&r.match_game_threads_cpu_ms),
        rounded(&r.daemon_game_threads_cpu_ms),
        rounded(&r.match_busy_ms),
        rounded(&r.daemon_busy_ms),
        r.busy_percent
    );
    let text = if r.postgres_runs.is_empty() {
        text
    } else {
        format!(
            "{text}\nzebra serve on PostgreSQL (same games, alternated): {:?} games/s, {:.1}% of SQLite's, {:.1}% of zebra match (medians)",
            r.postgres_runs
                .iter()
                .map(|g| (g * 10.0).round() / 10.0)
                .collect::<Vec<_>>(),
            r.postgres_percent_of_sqlite,
            r.postgres_percent
        )
    };
    let memory: Vec<String> = r
        .stored
        .iter()
        .map(|m| format!("{} stored games: {} KiB", m.games, m.peak_kib))
        .collect();
    let text = format!(
        "{text}\nzebra serve's peak memory after every read route: {}",
        memory.join("; ")
    );
    print_report(args.json, &r, &text);
    Ok(())
}

/// `bench referee`: the referee's own cost per decision, against a bare pipe ping-pong.
fn referee(args: &BenchArgs) -> Result<(), Failure> {
    let bot = bundled("zebra-instant-bot")?;
    let runtime = runtime()?;
    let r = interruptible(
        &runtime,
        crate::bench::referee(&bot, args.games.min(1000) as u32, args.seed, args.layout),
    )?
    .map_err(Failure::Run)?;
    let text = format!(
        "layout {:?} (referee CPUs {:?}, bots {:?}): {} games, {} decisions in {:.3} s: {:.0} decisions/s, referee CPU {:.1} us/decision, round trip {:.1} us/decision ({:.1} of them on the bot's side), bare pipe round trip {:.1} us (its writer's CPU {:.1} us)\nfreeze-idle off: round trip {:.1} us, referee CPU {:.1} us per decision; on: {:.1} us, {:.1} us ({:.2} freeze + thaw per decision); one freeze + thaw ({}): {:.1} us\n--sandbox none (freeze-idle off): round trip {:.1} us, referee CPU {:.1} us per decision\nbot start to ready (median): {:.2} ms with --sandbox none, {:.2} ms sandboxed ({})",
        r.layout, r.referee_cpus, r.bot_cpus, r.games, r.decisions, r.seconds, r.decisions_per_second, r.referee_cpu_us_per_decision, r.decision_round_trip_us, r.bot_side_us_per_decision, r.pipe_round_trip_us, r.pipe_cpu_us_per_round_trip,
        r.freeze_off.decision_round_trip_us, r.freeze_off.referee_cpu_us_per_decision, r.freeze_on.decision_round_trip_us, r.freeze_on.referee_cpu_us_per_decision, r.freeze_on.freezes_per_decision, r.freeze_by, r.freeze_pair_us,
        r.sandbox_none.decision_round_trip_us, r.sandbox_none.referee_cpu_us_per_decision,
        r.start_none_ms, r.start_sandboxed_ms, r.sandbox
    );
    // Each kind split into what one more decision costs and what a game costs besides.
    let split = |name: &str, f: &crate::bench::FreezeFigures| {
        format!(
            "\n{name}: {:.0} decisions/s ({:.1} us round trip, {:.1} us referee CPU, {:.0} bytes to the bots per decision); per decision {:.1} us round trip, {:.1} us referee CPU; per game besides (bots started and stopped) {:.2} ms, {:.2} ms referee CPU",
            1e6 / f.decision_round_trip_us, f.decision_round_trip_us, f.referee_cpu_us_per_decision, f.bytes_per_decision,
            f.steady_round_trip_us, f.steady_referee_cpu_us, f.per_game_ms, f.per_game_referee_cpu_ms
        )
    };
    let text = text
        + &split("protocol 2, sandboxed, freeze-idle off", &r.freeze_off)
        + &split(
            "protocol 2, sandboxed, freeze-idle on (as users run it)",
            &r.freeze_on,
        )
        + &split("protocol 2, --sandbox none", &r.sandbox_none)
        + &split(
            "protocol 1, sandboxed, freeze-idle on",
            &r.protocol1_freeze_on,
        )
        + &split("protocol 1, --sandbox none", &r.protocol1_sandbox_none);
    print_report(args.json, &r, &text);
    Ok(())
}

/// `bench flood`: Zebra's peak memory while games at once face bots that flood.
fn flood(args: &BenchArgs) -> Result<(), Failure> {
    let bot = bundled("zebra-test-bot")?;
    let runtime = runtime()?;
    let r = interruptible(&runtime, crate::bench::flood(&bot))?.map_err(Failure::Run)?;
    let mut text = format!(
        "peak RSS {} KiB before, {} KiB after {} flooding games at once in {:.1} s (bound: {} KiB = 64 MiB + 8 MiB per game)",
        r.peak_rss_before_kib, r.peak_rss_after_kib, r.games_at_once, r.seconds, r.bound_kib
    );
    for e in &r.endings {
        text.push_str(&format!("\n  {e}"));
    }
    print_report(args.json, &r, &text);
    Ok(())
}

/// `bench movegen`: legal-action generation alone, on one core.
fn movegen<G: crate::playout::Benched>(args: &BenchArgs) -> Result<(), Failure> {
    let rounds = args.rounds;
    if rounds == 0 {
        return Err(Failure::Usage("--rounds must be at least 1".into()));
    }
    let r = crate::bench::movegen::<G>(args.seed, rounds);
    print_report(args.json, &r, &r.text::<G>(rounds));
    Ok(())
}
