//! What a person sees while a series runs: a live bar with the score and Elo on a
//! terminal, one plain line per game otherwise (logs, CI), or nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::referee::GameReport;
use crate::rules::GameResult;

use super::schedule::Fixture;
use super::standings::Standings;
use super::stats::{EloEstimate, Report};

/// How progress is shown.
#[derive(Clone, Debug)]
pub struct Progress {
    mode: Mode,
}

#[derive(Clone, Debug)]
enum Mode {
    /// A bar on stderr (a terminal), redrawn after every game.
    Bar(ProgressBar),
    /// One line per game on stdout.
    Lines,
    /// Nothing per game (`--quiet`, or `--json` without a terminal).
    Quiet,
}

impl Progress {
    /// A bar when stderr is a terminal, else lines on stdout unless `quiet`; `--json`
    /// keeps stdout for the summary, so it allows the bar only.
    pub fn choose(quiet: bool, json: bool) -> Progress {
        use std::io::IsTerminal;
        let mode = if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            // Hidden until `start` knows the length: no "0/0" frame.
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30.cyan/blue} {pos}/{len} games {elapsed_precise} ETA {eta} {msg}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            Mode::Bar(bar)
        } else if json {
            Mode::Quiet
        } else {
            Mode::Lines
        };
        Progress { mode }
    }

    pub fn quiet() -> Progress {
        Progress { mode: Mode::Quiet }
    }

    pub fn start(&self, total: u64, done: u64) {
        if let Mode::Bar(bar) = &self.mode {
            bar.set_length(total);
            bar.set_position(done);
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// A message for people (stopping, SPRT decisions), on stderr.
    pub fn note(&self, text: &str) {
        match &self.mode {
            // A hidden bar (before `start`) would swallow the line.
            Mode::Bar(bar) if !bar.is_hidden() => bar.println(format!("zebra: {text}")),
            _ => eprintln!("zebra: {text}"),
        }
    }

    /// A finished game.
    pub fn game(
        &self,
        fixture: &Fixture,
        report: &GameReport,
        names: &[String],
        standings: &Standings,
        head_to_head: Option<&Report>,
    ) {
        let status = status_line(standings, head_to_head, names);
        match &self.mode {
            Mode::Bar(bar) => {
                bar.set_position(standings.finished);
                bar.set_message(status);
            }
            Mode::Lines => {
                let result = report.result.map_or("*", GameResult::pgn);
                let how = if report.termination == crate::record::Termination::Normal {
                    String::new()
                } else {
                    format!(" ({}: {})", report.termination, report.reason)
                };
                // The game: its result and its own points (White's first), then the
                // running tally.
                let line = format!(
                    "game {} (pair {}, seed {}): {} {result} {}, score {}-{}{how} | {status}",
                    fixture.game,
                    fixture.pair,
                    fixture.seed,
                    names[fixture.white],
                    names[fixture.black],
                    report.score[0],
                    report.score[1],
                );
                use std::io::Write as _;
                let _ = writeln!(std::io::stdout().lock(), "{line}");
            }
            Mode::Quiet => {}
        }
    }

    /// An attempt voided by `--replay-suspect`: a line where finished games get one (not
    /// with `--quiet`: a busy machine may void hundreds; the summary has the count).
    pub fn voided(
        &self,
        fixture: &Fixture,
        attempt: u32,
        max_attempts: u32,
        report: &GameReport,
        names: &[String],
    ) {
        let [w, b] = &report.bots;
        let line = format!(
            "game {} (pair {}, seed {}): {} {} {} voided (suspect timeouts: white {}, black {}); to be played again, attempt {} of {}",
            fixture.game,
            fixture.pair,
            fixture.seed,
            names[fixture.white],
            report.result.map_or("*", GameResult::pgn),
            names[fixture.black],
            w.suspect_timeouts,
            b.suspect_timeouts,
            attempt + 1,
            max_attempts
        );
        match &self.mode {
            Mode::Bar(bar) => bar.println(line),
            Mode::Lines => {
                use std::io::Write as _;
                let _ = writeln!(std::io::stdout().lock(), "{line}");
            }
            Mode::Quiet => {}
        }
    }

    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }
}

/// `greedy +6 =1 -0 random (6.5/7), Elo +450 [+210, +689], LLR 1.23 [-2.94, 2.94]`: the
/// running tally as wins, draws and losses of the first bot, its points of the games; or
/// the leader of a tournament with its points of its games (`leader greedy 3.5/4`).
pub(crate) fn status_line(
    standings: &Standings,
    head_to_head: Option<&Report>,
    names: &[String],
) -> String {
    match (head_to_head, standings.encounters.as_slice()) {
        (Some(r), [enc]) => {
            let mut s = format!(
                "{} +{} ={} -{} {} ({}/{}), Elo {}",
                names[enc.a],
                r.wins,
                r.draws,
                r.losses,
                names[enc.b],
                points(r.points),
                r.games,
                elo_of(r)
            );
            if let Some(sprt) = &r.sprt {
                s.push_str(&format!(
                    ", LLR {:.2} [{:.2}, {:.2}]",
                    sprt.llr, sprt.lower, sprt.upper
                ));
            }
            s
        }
        _ => match standings.ranking().first() {
            Some(&leader) => {
                let b = &standings.bots[leader];
                format!("leader {} {}/{}", b.name, points(b.points), b.games)
            }
            None => String::new(),
        },
    }
}

/// Points of a number of games, always with their decimal (`1.0/2`, never `1/2`, which
/// reads as half a point).
fn points(p: f64) -> String {
    format!("{p:.1}")
}

/// The Elo of a head-to-head report: its estimate with the 95% interval; for a perfect
/// score (or none at all), where the estimate is infinite, the one-sided 95% bound the
/// games allow: with every one of n games won, the score is at least 0.05^(1/n) with 95%
/// confidence (Clopper-Pearson, games taken as independent), `> +X (95%)`; mirrored for a
/// score of 0. `n/a` without games.
pub(crate) fn elo_of(r: &Report) -> String {
    if r.elo.is_some() || r.games == 0 {
        return elo_text(r.elo.as_ref());
    }
    let bound = 0.05_f64.powf(1.0 / r.games as f64);
    let elo = 400.0 * (bound / (1.0 - bound)).log10();
    if r.points >= r.games as f64 {
        format!("> {:+.0} (95%)", elo)
    } else if r.points <= 0.0 {
        format!("< {:+.0} (95%)", -elo)
    } else {
        elo_text(None)
    }
}

/// `+450 [+210, +689]`, or `n/a` where a score of 0% or 100% leaves it undefined.
pub(crate) fn elo_text(elo: Option<&EloEstimate>) -> String {
    // Rounded first, and a negative zero made plain: -0.3 reads `+0`, never `-0`.
    let whole = |x: f64| {
        let r = x.round();
        if r == 0.0 {
            0.0
        } else {
            r
        }
    };
    match elo {
        Some(e) => format!(
            "{:+.0} [{:+.0}, {:+.0}]",
            whole(e.elo),
            whole(e.lower),
            whole(e.upper)
        ),
        None => "n/a".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_near_zero_never_reads_minus_zero() {
        let e = EloEstimate {
            elo: -0.3,
            lower: -0.4,
            upper: -0.1,
        };
        assert_eq!(elo_text(Some(&e)), "+0 [+0, +0]");
        let e = EloEstimate {
            elo: -12.6,
            lower: -40.2,
            upper: 14.5,
        };
        assert_eq!(elo_text(Some(&e)), "-13 [-40, +15]");
        assert_eq!(elo_text(None), "n/a");
    }

    #[test]
    fn a_perfect_score_gets_a_one_sided_bound() {
        let report = |games: u64, points: f64| {
            crate::series::stats::Tally {
                wins: points as u64,
                losses: games - points as u64,
                ..Default::default()
            }
            .report(None)
        };
        // 20 of 20: the score is at least 0.05^(1/20) = 0.8609, 317 Elo.
        assert_eq!(elo_of(&report(20, 20.0)), "> +317 (95%)");
        assert_eq!(elo_of(&report(20, 0.0)), "< -317 (95%)");
        // One game says little: only that the bot is not far weaker.
        assert_eq!(elo_of(&report(1, 1.0)), "> -512 (95%)");
        assert_eq!(elo_of(&report(0, 0.0)), "n/a");
    }
}
