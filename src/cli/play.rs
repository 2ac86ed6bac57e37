//! `zebra play`: one refereed game between two bots (or a bot and a person at the viewer),
//! shown as it goes, its record appended to a file.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::common::ordinal;
use super::failure::Failure;
use super::runtime::{interruptible, runtime};
use crate::bot::BotSpec;
use crate::record::{write_game, Termination};
use crate::referee::{GameConfig, Referee};
use crate::rules::{Event, Game, Rules, Side};

/// The record file of `zebra play`, opened for appending before the game: a path that
/// cannot be written is said before a game is played and lost.
pub(super) fn open_record_file(path: &Path) -> Result<(PathBuf, std::fs::File), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(|f| (path.to_path_buf(), f))
        .map_err(|e| {
            format!(
                "--pgn {}: cannot open it for appending: {e}",
                path.display()
            )
        })
}

/// The transcript directory exists (it is made) and takes files, before the game.
pub(super) fn check_log_dir(dir: &Path) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("--log-dir {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".zebra-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Plays one refereed game, shows it as it goes, appends its record.
pub(super) fn play(
    white: &BotSpec,
    black: &BotSpec,
    cfg: &GameConfig,
    pgn: Option<(PathBuf, std::fs::File)>,
    quiet: bool,
    board: bool,
    hub: Option<&std::sync::Arc<crate::web::Hub>>,
) -> Result<(), Failure> {
    let style = crate::web::TermStyle::for_stdout();
    // The live viewer is told the game as a series of one game.
    let spectator = hub.map(|h| h.clone() as std::sync::Arc<dyn crate::referee::Spectator>);
    let mut events = crate::series::events::EventLog::none().with_spectator(spectator.clone());
    let game_ref = crate::series::events::GameRef {
        game: 1,
        pair: 1,
        round: 1,
        leg: 1,
        white: white.name.clone(),
        black: black.name.clone(),
        seed: cfg.seed,
    };
    events.emit(&crate::series::events::SeriesEvent::GameStarted {
        game: game_ref.clone(),
        attempt: 1,
    });
    let started = std::time::Instant::now();
    let runtime = runtime()?;
    let report = if cfg.rules != Rules::FootballChess {
        if !quiet {
            out!(
                "{}: {} (white) vs {} (black)",
                cfg.rules,
                white.name,
                black.name
            );
        }
        // The game as the viewer replays it: one line per turn, the board as a turn ends.
        let mut replay: Option<crate::web::feed::Replay> = None;
        let mut line = String::new();
        interruptible(
            &runtime,
            crate::referee::play_game(white, black, cfg, |record| {
                if let Some(s) = &spectator {
                    s.follow(1, record);
                }
                if quiet {
                    return;
                }
                if replay.is_none() {
                    replay = crate::web::feed::view_head(record).ok().map(|(_, r)| r);
                }
                let Some(r) = replay.as_mut() else { return };
                for entry in record.entries.iter().skip(r.entries()) {
                    let Ok(step) = r.step(entry) else { return };
                    if let Some(header) = &step.header {
                        line = format!("{header}:");
                    }
                    line.push(' ');
                    line.push_str(&step.token);
                    if step.play_end {
                        out!("{line}");
                        line.clear();
                        if board {
                            out!("{}", crate::web::frame_text(&step.frame, style));
                        }
                    }
                }
            }),
        )?
    } else {
        if !quiet {
            out!("{}", situation(&Game::new(cfg.tc.settings())));
        }
        interruptible(
            &runtime,
            Referee::play(white, black, cfg, |game, events, record| {
                if let Some(s) = &spectator {
                    s.follow(1, record);
                }
                if quiet {
                    return;
                }
                // The field as the play ended (before the next situation line).
                if board && game.field_at_play_end().is_some() {
                    out!(
                        "{}",
                        crate::web::board_text(&crate::web::Frame::of(game), style)
                    );
                }
                for e in events {
                    match e {
                        Event::Touchdown { .. }
                        | Event::Safety { .. }
                        | Event::Flag(_)
                        | Event::TurnoverOnDowns { .. }
                        | Event::PeriodEnd { .. } => {
                            out!("  {e}")
                        }
                        Event::NextPlay { .. } => out!("{}", situation(game)),
                        _ => {}
                    }
                }
            }),
        )?
    };
    if let Some((path, mut file)) = pgn {
        let text = write_game(&report.record)
            .map_err(|e| Failure::Run(format!("cannot write the record: {e}")))?;
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_all())
            .map_err(|e| Failure::Run(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(s) = &spectator {
        s.game_over(1, &report.record, &report.reason);
        events.emit(&crate::series::events::SeriesEvent::finished(
            game_ref,
            1,
            &report,
            started.elapsed(),
        ));
    }
    for (side, bot) in Side::ALL.iter().zip(&report.bots) {
        if bot.illegal + bot.timeouts + bot.discarded > 0 {
            out!(
                "{side} {}: {} illegal or invalid, {} timed out, {} discarded replies",
                bot.name,
                bot.illegal,
                bot.timeouts,
                bot.discarded
            );
        }
    }
    out!(
        "result {} ({}) white {} {} black {} {}{}",
        report.result.map_or("*", |r| r.pgn()),
        report.termination,
        white.name,
        report.score[0],
        black.name,
        report.score[1],
        if report.termination == Termination::Normal {
            String::new()
        } else {
            format!(": {}", report.reason)
        }
    );
    // A game adjudicated at its wall-time cap has a result no one forfeited.
    if matches!(
        report.termination,
        Termination::Normal | Termination::Adjudication
    ) {
        Ok(())
    } else {
        Err(Failure::Forfeit)
    }
}

/// `--white human`: a person plays that side in the viewer.
pub(super) const HUMAN: &str = "human";

/// `zebra play`'s time control, and the one for a game with a human seat (a person needs
/// more than a bot's second to react).
pub(super) const HUMAN_TC: &str = "plays=10,play=60s,reaction=30s";

/// `Q1 7-0  white ball, 2nd & 5 at e6`: the scoreboard and the series.
pub(super) fn situation(game: &Game) -> String {
    format!(
        "Q{} {}-{}  {} ball, {} & {} at {}",
        game.quarter(),
        game.score(Side::White),
        game.score(Side::Black),
        game.offense(),
        ordinal(game.down()),
        if game.is_goal_to_go() {
            "goal".to_string()
        } else {
            game.yards_to_go().to_string()
        },
        game.spot()
    )
}
