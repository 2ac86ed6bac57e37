//! `zebra check-bot`: a compliance check for bot authors.
//!
//! The bot plays one session as White and one as Black. Each session goes through the
//! handshake, `game_start`, one request of every kind of decision its side meets (positions
//! taken from seeded random games, so every kind really occurs), a `ping`, `game_end` and
//! `quit`. Every protocol problem is reported in plain words; nothing the bot does stops
//! the check.

use std::time::Duration;

use tokio::time::Instant;

use crate::bot::{BotProcess, BotSpec, Incoming};
use crate::protocol::{self, FromBot, ScoreMsg, ToBot};
use crate::rules::{Rules, Side};
use zebra_engine::seam::envelope;

use super::handshake::Failed;
use super::{GameClock, GameConfig, GameSetup};
pub use zebra_engine::seam::Checked;

/// How a check went: one line per step, and whether any was a problem.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    pub lines: Vec<CheckLine>,
    /// Lines on stdout that are not protocol messages, in a request's wait (debug text
    /// printed to stdout, most often), in this session: the first of each session is a
    /// problem with its hint, the rest are counted (`more_noise`) into one line at the end.
    noise: usize,
    more_noise: usize,
    /// This session's requests whose wait met such a line: the reply that comes after it,
    /// read in a later wait, is the same mistake's echo and not a problem of its own.
    noisy: std::collections::BTreeSet<u64>,
}

/// What a line on stdout that is not a protocol message most likely is, and its fix.
pub const STDOUT_HINT: &str = "stdout carries protocol lines only: write debug text and logs to stderr, or send them as log messages";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckLine {
    pub ok: bool,
    /// A problem in legal play (a formation that draws a flag, a slow handshake): worth
    /// fixing, but the bot speaks the protocol. The daemon admits such a bot.
    pub advisory: bool,
    pub what: String,
}

impl CheckReport {
    fn ok(&mut self, what: impl Into<String>) {
        self.lines.push(CheckLine {
            ok: true,
            advisory: false,
            what: what.into(),
        });
    }
    fn problem(&mut self, what: impl Into<String>) {
        self.lines.push(CheckLine {
            ok: false,
            advisory: false,
            what: what.into(),
        });
    }
    fn advice(&mut self, what: impl Into<String>) {
        self.lines.push(CheckLine {
            ok: false,
            advisory: true,
            what: what.into(),
        });
    }
    pub fn problems(&self) -> usize {
        self.lines.iter().filter(|l| !l.ok).count()
    }
}

/// Limits of the check.
#[derive(Clone, Copy, Debug)]
pub struct CheckLimits {
    pub handshake: Duration,
    /// The deadline given for every decision.
    pub decision: Duration,
    /// A handshake slower than this is reported.
    pub slow_handshake: Duration,
    pub quit_grace: Duration,
    /// How the bot is contained (`zebra serve` checks uploaded bots strictly).
    pub mode: crate::sandbox::Mode,
}

impl Default for CheckLimits {
    fn default() -> CheckLimits {
        CheckLimits {
            handshake: Duration::from_secs(10),
            decision: Duration::from_secs(2),
            slow_handshake: Duration::from_secs(2),
            quit_grace: Duration::from_secs(1),
            mode: crate::sandbox::Mode::Auto,
        }
    }
}

/// Runs the whole check for Football Chess (what `zebra serve` admits bots for).
pub async fn check_bot(spec: &BotSpec, limits: CheckLimits) -> CheckReport {
    check_bot_for(Rules::FootballChess, spec, limits).await
}

/// Runs the whole check for the game `rules` names.
pub async fn check_bot_for(rules: Rules, spec: &BotSpec, limits: CheckLimits) -> CheckReport {
    let mut report = CheckReport::default();
    for side in Side::ALL {
        crate::with_rules!(rules, R => session::<R>(spec, side, limits, &mut report).await);
    }
    if report.more_noise > 0 {
        report.problem(format!(
            "{} more line(s) on stdout that are not protocol messages, in the waits of as many requests, whose replies were not judged ({STDOUT_HINT})",
            report.more_noise
        ));
    }
    report
}

async fn session<R: Checked>(
    spec: &BotSpec,
    side: Side,
    limits: CheckLimits,
    report: &mut CheckReport,
) {
    let max_line = 64 * 1024;
    let policy = crate::sandbox::Policy {
        mode: limits.mode,
        ..crate::sandbox::Policy::probe()
    };
    let mut bot = match BotProcess::spawn(spec, max_line, policy) {
        Ok(b) => b,
        Err(e) => {
            report.problem(e.to_string());
            return;
        }
    };
    let tag = format!("as {side}:");
    // Each session numbers its requests alike: what one session's stray lines excuse is
    // its own.
    report.noise = 0;
    report.noisy.clear();
    let shake = super::handshake::greet(&mut bot, max_line, limits.handshake).await;
    let version = shake.result.as_ref().map_or(1, |ready| ready.version);
    // A flood is all noise: its own line says so.
    if shake.noise > 0 && shake.result != Err(Failed::Flood) {
        report.problem(format!(
            "{tag} printed {} line(s) before ready that are not protocol messages ({STDOUT_HINT})",
            shake.noise
        ));
    }
    match shake.result {
        Ok(ready) if ready.took > limits.slow_handshake => report.advice(format!(
            "{tag} slow handshake: ready after {} ms",
            ready.took.as_millis()
        )),
        Ok(ready) => report.ok(format!(
            "{tag} handshake, '{}' ready after {} ms",
            ready.info.name,
            ready.took.as_millis()
        )),
        Err(failed) => {
            let exit = bot.shutdown(limits.quit_grace).await;
            let hint = match failed {
                Failed::Timeout => Some("does it flush stdout after each line?"),
                Failed::Flood => Some("stdout is for protocol only; log to stderr"),
                Failed::Gone | Failed::Invalid(_) => None,
            };
            let refusal = failed.judge(limits.handshake, &exit);
            report.problem(format!("{tag} handshake: {}", refusal.line(hint)));
            return;
        }
    }
    let setup = GameSetup {
        clock: GameClock::read(R::RULES, &R::question_clock(limits.decision))
            .expect("check-bot's question clock reads"),
        seed: 1,
        ..GameSetup::default()
    };
    let (start, _, clocks) = R::set_up(&setup);
    let _ = bot.send(protocol::to_line(&envelope::game_start(
        &start,
        &setup,
        &clocks,
        side,
        "zebra check-bot".to_string(),
        spec.options.clone(),
        version,
    )));
    let mut id = 100;
    for (label, game) in R::scenarios(side) {
        id += 1;
        let budget = game.budget(&clocks);
        let asked = game.to_decide().map_or(side, |(s, _)| s);
        // Each question is a position of its own: the whole request, in either version.
        let whole = envelope::Carry::whole();
        let req = protocol::to_line(&envelope::request(
            &game, id, asked, &clocks, &budget, whole,
        ));
        let what = format!("{tag} {label}");
        let Some(flushed) = bot.send(req) else {
            report.problem(format!("{what}: the bot no longer reads its input"));
            break;
        };
        let Ok(Ok(sent)) = tokio::time::timeout(limits.decision, flushed).await else {
            report.problem(format!(
                "{what}: the request could not be written (is the bot reading stdin?)"
            ));
            break;
        };
        if !judge_reply(&mut bot, &game, id, sent, limits.decision, &what, report).await {
            break;
        }
    }
    // A second reply to the last request, arriving soon after, is a protocol problem.
    if let Some(Incoming::Line { text, .. }) = bot
        .recv_until(Instant::now() + Duration::from_millis(200))
        .await
    {
        if let Ok(FromBot::Action { id: got, .. }) = protocol::parse_from_bot(&text) {
            // The late reply after a stray line is that line's echo, already told.
            if !report.noisy.contains(&got) {
                report.problem(format!("{tag} sent a second reply to request {got}"));
            }
        }
    }
    let _ = bot.send(protocol::to_line(&ToBot::<R::Wire>::Ping { id: 7 }));
    match bot.recv_until(Instant::now() + limits.decision).await {
        Some(Incoming::Line { text, .. })
            if protocol::parse_from_bot(&text) == Ok(FromBot::Pong { id: 7 }) =>
        {
            report.ok(format!("{tag} ping answered"))
        }
        Some(Incoming::Line { text, .. }) => {
            report.problem(format!("{tag} answered ping with {}", short(&text)))
        }
        _ => report.problem(format!(
            "{tag} no pong within {} ms",
            limits.decision.as_millis()
        )),
    }
    let _ = bot.send(protocol::to_line(&ToBot::<R::Wire>::GameEnd {
        result: "1/2-1/2".to_string(),
        score: ScoreMsg { white: 0, black: 0 },
        termination: "unterminated".to_string(),
        reason: "compliance check".to_string(),
    }));
    let _ = bot.send(protocol::to_line(&ToBot::<R::Wire>::Quit));
    let exit = bot.shutdown(limits.quit_grace).await;
    if exit.killed {
        report.problem(format!(
            "{tag} did not exit within {} ms of quit",
            limits.quit_grace.as_millis()
        ));
    } else {
        report.ok(format!("{tag} exited after quit"));
    }
}

/// Waits for the reply to request `id` and reports what is wrong with it; returns whether
/// the session can go on.
async fn judge_reply<R: Checked>(
    bot: &mut BotProcess,
    game: &R,
    id: u64,
    sent: Instant,
    limit: Duration,
    what: &str,
    report: &mut CheckReport,
) -> bool {
    let deadline = sent + limit;
    loop {
        let Some(incoming) = bot.recv_until(deadline).await else {
            report.problem(format!(
                "{what}: no reply within {} ms (does it flush stdout after each line?)",
                limit.as_millis()
            ));
            return true;
        };
        let took = incoming.at().saturating_duration_since(sent);
        let text = match incoming {
            Incoming::Closed { .. } => {
                report.problem(format!("{what}: the bot exited or closed stdout"));
                return false;
            }
            Incoming::TooLong { len, .. } => {
                report.problem(format!(
                    "{what}: a line of {len} bytes, over the 65536-byte limit"
                ));
                return true;
            }
            Incoming::NotUtf8 { .. } => {
                report.problem(format!("{what}: a line that is not UTF-8"));
                return true;
            }
            Incoming::Line { text, .. } => text,
        };
        match protocol::parse_from_bot(&text) {
            Err(e) => {
                report.noise += 1;
                report.noisy.insert(id);
                if report.noise == 1 {
                    report.problem(format!(
                        "{what}: not a protocol message ({}): {} ({STDOUT_HINT}; the reply to a request whose wait meets such a line is not judged)",
                        short(&e.to_string()),
                        short(&text)
                    ));
                } else {
                    report.more_noise += 1;
                }
                return true;
            }
            Ok(FromBot::Log { .. } | FromBot::Pong { .. }) => continue,
            Ok(FromBot::Ready { .. }) => {
                report.problem(format!("{what}: sent ready again"));
                continue;
            }
            Ok(FromBot::Action {
                id: got, action, ..
            }) => {
                if got != id {
                    // The reply to a request whose wait ended on a stray line comes late:
                    // that line was the problem, already told.
                    if !report.noisy.contains(&got) {
                        report.problem(format!("{what}: the reply has id {got}, the request had {id} (echo the request's id)"));
                    }
                    continue;
                }
                // Err((advisory, why)): advisory for legal play that draws a flag.
                let verdict = match action.parse::<R::Action>() {
                    Err(e) => Err((false, format!("'{}' is not an action: {e}", short(&action)))),
                    Ok(a) => {
                        let mut g = game.clone();
                        match (game.advice(&a), g.play(&a)) {
                            (_, Err(e)) => Err((false, format!("illegal action '{a}': {e}"))),
                            (Some(why), Ok(_)) => Err((true, why)),
                            (None, Ok(_)) => Ok(a),
                        }
                    }
                };
                match verdict {
                    Ok(a) => report.ok(format!("{what}: '{a}' in {} ms", took.as_millis())),
                    Err((true, why)) => report.advice(format!("{what}: {why}")),
                    Err((false, why)) => report.problem(format!("{what}: {why}")),
                }
                return true;
            }
        }
    }
}

fn short(text: &str) -> String {
    crate::bot::text::clean(text, 80)
}

/// One whole game `check-bot` plays against an opponent (Zebra's random bot), and every
/// problem in it with the decision where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckGame {
    /// The side the checked bot played.
    pub side: Side,
    /// `1-0 (normal)`, `0-1 (time forfeit: ...)`.
    pub outcome: String,
    pub problems: Vec<String>,
}

/// Plays `games` whole games of `spec` against `opponent`, sides alternating (White
/// first), and reports what went wrong in each: every reply the referee did not take
/// (a timeout, an illegal or late reply), found in the game's transcript with the request
/// it answered, and how the game ended if the bot ended it.
pub async fn check_games(
    rules: Rules,
    spec: &BotSpec,
    opponent: &BotSpec,
    games: u32,
    sandbox: crate::sandbox::Policy,
) -> Vec<CheckGame> {
    let mut out = Vec::new();
    for k in 0..games {
        let side = if k % 2 == 0 { Side::White } else { Side::Black };
        let transcript =
            std::env::temp_dir().join(format!("zebra-check-bot-{}-{k}.log", std::process::id()));
        let mut config = GameConfig {
            game: GameSetup {
                seed: u64::from(k) + 1,
                ..GameSetup::of(rules)
            },
            event: "zebra check-bot".to_string(),
            transcript: Some(transcript.clone()),
            sandbox,
            ..GameConfig::default()
        };
        let clock = crate::with_rules!(rules, R => <R as Checked>::GAME_CLOCK);
        config
            .read_clock(clock)
            .expect("check-bot's game clock reads");
        let (white, black) = match side {
            Side::White => (spec, opponent),
            Side::Black => (opponent, spec),
        };
        let report = super::play_game(white, black, &config, |_| {}).await;
        let text = std::fs::read_to_string(&transcript).unwrap_or_default();
        let _ = std::fs::remove_file(&transcript);
        let mut problems = transcript_problems(&text, side);
        if let Some(v) = report.bots[side.index()].verdict {
            problems.push(format!(
                "it ended the game ({v}): {}",
                crate::bot::text::clean(&report.reason, 300)
            ));
        }
        out.push(CheckGame {
            side,
            outcome: format!(
                "{} ({})",
                report.result.map_or("*", crate::rules::GameResult::pgn),
                report.termination
            ),
            problems,
        });
    }
    out
}

/// The replies of `side` the referee did not take, from a transcript (`   1.234 white <
/// {...}` lines): each with its request's number, decision and play.
pub(crate) fn transcript_problems(text: &str, side: Side) -> Vec<String> {
    let mut asked: std::collections::HashMap<u64, String> = Default::default();
    let mut problems = Vec::new();
    // Requests answered first by a line that is not a protocol message: the reply after
    // it comes late, the same mistake's echo, not a problem of its own.
    let mut stray: std::collections::HashSet<u64> = Default::default();
    for line in text.lines() {
        let mut parts = line.trim_start().splitn(4, ' ').filter(|p| !p.is_empty());
        let (Some(_at), Some(who), Some("<")) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if who != side.name() {
            continue;
        }
        let Some(Ok(msg)) = parts
            .next()
            .map(|json| serde_json::from_str::<serde_json::Value>(json.trim()))
        else {
            continue;
        };
        let id = msg["id"].as_u64().unwrap_or(0);
        match msg["type"].as_str() {
            Some("request") => {
                let state = &msg["state"];
                let play = match (
                    state["quarter"].as_u64(),
                    state["offense"].as_str(),
                    state["down"].as_u64(),
                    state["spot"].as_str(),
                ) {
                    (Some(q), Some(o), Some(d), Some(s)) => {
                        format!(", Q{q} {o} ball, down {d} at {s}")
                    }
                    _ => String::new(),
                };
                asked.insert(
                    id,
                    format!(
                        "request {id} ({} decision{play})",
                        msg["decision"].as_str().unwrap_or("?")
                    ),
                );
            }
            Some("result") if msg["status"] != "ok" => {
                let what = asked
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| format!("request {id}"));
                let reason = msg["reason"].as_str().unwrap_or("");
                let status = msg["status"].as_str().unwrap_or("?");
                if status == "late" && stray.contains(&id) {
                    continue;
                }
                let not_protocol = reason.starts_with("sent an invalid reply (not JSON")
                    || reason.starts_with("sent an invalid reply (not a message");
                let hint = if not_protocol && stray.is_empty() {
                    format!(" ({STDOUT_HINT})")
                } else {
                    String::new()
                };
                if not_protocol {
                    stray.insert(id);
                }
                problems.push(format!(
                    "{what}: {status}{}{}{hint}",
                    if reason.is_empty() { "" } else { ": " },
                    crate::bot::text::clean(reason, 200)
                ));
            }
            _ => {}
        }
    }
    problems
}

#[cfg(test)]
mod game_tests {
    use super::*;

    #[test]
    fn a_transcript_names_each_refused_reply_with_its_request() {
        let text = r#"     0.001 white < {"type":"request","id":7,"decision":"move","side":"white","state":{"quarter":2,"offense":"white","down":3,"spot":"e4"}}
     1.001 black < {"type":"request","id":7,"decision":"move","side":"black","state":{}}
     1.002 white > {"type":"action","id":7,"action":"zz"}
     1.003 white < {"type":"result","id":7,"status":"illegal","reason":"'zz' is not notation"}
     1.004 white < {"type":"result","id":8,"status":"ok"}
     1.005 black < {"type":"result","id":9,"status":"timeout"}
garbage that is not a transcript line"#;
        assert_eq!(
            transcript_problems(text, Side::White),
            ["request 7 (move decision, Q2 white ball, down 3 at e4): illegal: 'zz' is not notation"]
        );
        assert_eq!(
            transcript_problems(text, Side::Black),
            ["request 9: timeout"]
        );
    }
}
