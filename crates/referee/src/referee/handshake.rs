//! The handshake, written once: `hello` out, `ready` back before a deadline.
//!
//! The referee, the preflight of `zebra play` and `zebra match`, `zebra check-bot` and
//! `zebra bench` all start bots; each used to wait for `ready` its own way, so the same
//! bot was judged differently by each (a flood before `ready` was an output flood in a
//! game and a silent bot elsewhere). Here one conversation decides what happened, as a
//! typed [`Handshake`], and each caller only chooses its words around it:
//!
//! - a banner, blank lines or other lines before `ready` are tolerated and counted (noise);
//! - more than the referee's flood limits ([`super::FLOOD_LINES`], [`super::FLOOD_BYTES`])
//!   before `ready` is an output flood, judged on the lines, without waiting out the
//!   deadline;
//! - `ready` choosing a protocol version that was not offered is a protocol breach;
//! - output closed before `ready` is a bot gone, named once its process is reaped by how it
//!   ended (exit code or signal, a limit) with the end of its stderr, as a crash in a game is.

use std::time::Duration;

use tokio::time::Instant;

use super::{verdict_of_exit, BotInfo, OutputBudget, FLOOD_BYTES, FLOOD_LINES};
use crate::bot::{BotProcess, ExitInfo, Incoming};
use crate::protocol::{self, AnyGame, FromBot, OptionDecl, ToBot, Wants};
use crate::sandbox::Verdict;

/// The `hello` that opens every conversation.
pub fn hello(max_line: usize, patience: Duration) -> ToBot<AnyGame> {
    ToBot::Hello {
        protocol: protocol::PROTOCOL_NAME.to_string(),
        versions: protocol::VERSIONS.to_vec(),
        max_line_bytes: max_line,
        handshake_ms: patience.as_millis() as u64,
    }
}

/// How a handshake went.
#[derive(Clone, Debug, PartialEq)]
pub struct Handshake {
    /// Lines before `ready` (or before the handshake failed) that were not `ready`.
    pub noise: u32,
    pub result: Result<Ready, Failed>,
}

/// A bot that completed the handshake.
#[derive(Clone, Debug, PartialEq)]
pub struct Ready {
    /// What it said about itself.
    pub info: BotInfo,
    /// The protocol version it chose (one that was offered).
    pub version: u32,
    /// What its requests carry besides the changes (version 1: everything).
    pub wants: Wants,
    /// The options it declares.
    pub options: Vec<OptionDecl>,
    /// From the start of the handshake to the instant its `ready` was read.
    pub took: Duration,
}

/// A handshake that failed, as far as the conversation tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failed {
    /// No `ready` before the deadline.
    Timeout,
    /// More output before `ready` than the flood limits allow.
    Flood,
    /// Its output closed before `ready`: it exited, or closed stdout. Which, and how, is
    /// known once its process is reaped ([`Failed::judge`]).
    Gone,
    /// A `ready` that breaks the protocol (a version that was not offered); why.
    Invalid(String),
}

/// Waits until `since + patience` for `ready` from `bot`, whose `hello` was sent at `since`;
/// `seen` is shown everything read (the referee's transcript).
pub(crate) async fn await_ready(
    bot: &mut BotProcess,
    since: Instant,
    patience: Duration,
    mut seen: impl FnMut(&Incoming),
) -> Handshake {
    let deadline = since + patience;
    let mut output = OutputBudget::default();
    let mut noise = 0;
    let result = loop {
        let Some(incoming) = bot.recv_until(deadline).await else {
            break Err(Failed::Timeout);
        };
        seen(&incoming);
        // Judged on what was read, the `ready` line included: a bot that floods is told
        // from a slow one at once, not when the deadline has passed.
        if output.take(&incoming) {
            break Err(Failed::Flood);
        }
        let text = match incoming {
            Incoming::Closed { .. } => break Err(Failed::Gone),
            Incoming::TooLong { .. } | Incoming::NotUtf8 { .. } => {
                noise += 1;
                continue;
            }
            Incoming::Line { text, at } => match protocol::parse_from_bot(&text) {
                Ok(FromBot::Ready {
                    version,
                    name,
                    author,
                    bot_version,
                    options,
                    wants,
                    ..
                }) => {
                    if !protocol::VERSIONS.contains(&version) {
                        break Err(Failed::Invalid(format!(
                            "chose protocol version {version}, which was not offered"
                        )));
                    }
                    break Ok(Ready {
                        info: BotInfo {
                            name,
                            author,
                            version: bot_version,
                        },
                        version,
                        wants: if version >= 2 {
                            Wants::of(&wants)
                        } else {
                            Wants::ALL
                        },
                        options,
                        took: at.saturating_duration_since(since),
                    });
                }
                _ => text,
            },
        };
        noise += 1;
        tracing::info!(
            "{} said something before ready: {}",
            bot.name,
            crate::bot::text::clean(&text, crate::bot::text::SHORT)
        );
    };
    Handshake { noise, result }
}

/// Sends `hello` to `bot` and waits up to `patience` for its `ready`: the whole handshake
/// of a bot started on its own (the preflight, `check-bot`, `zebra bench`).
pub async fn greet(bot: &mut BotProcess, max_line: usize, patience: Duration) -> Handshake {
    let since = Instant::now();
    // A bot that cannot take `hello` has exited or closed its input: its output closes
    // too, or it stays silent, and either is judged below.
    let _ = bot.send(protocol::to_line(&hello(max_line, patience)));
    await_ready(bot, since, patience, |_| {}).await
}

impl Failed {
    /// What the bot did, in words, before its process is reaped (`patience`: the time it
    /// had); the referee's reason until then.
    pub fn why(&self, patience: Duration) -> String {
        match self {
            Failed::Timeout => format!("sent no ready within {} ms", patience.as_millis()),
            Failed::Flood => format!(
                "flooded its output before ready: over {FLOOD_LINES} lines or {} KiB",
                FLOOD_BYTES / 1024
            ),
            Failed::Gone => "exited or closed its output before ready".to_string(),
            Failed::Invalid(why) => why.clone(),
        }
    }

    /// The verdict known before the process is reaped (`None` for a bot gone: how it ended
    /// decides).
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Failed::Timeout => Some(Verdict::Timeout),
            Failed::Flood => Some(Verdict::OutputFlood),
            Failed::Invalid(_) => Some(Verdict::Illegal),
            Failed::Gone => None,
        }
    }

    /// The whole judgement once the bot's process is reaped (`exit`): a bot gone is named
    /// by how it ended, as [`verdict_of_exit`] names a crash in a game, and the end of its
    /// stderr is kept, as a game's reason keeps it (not after a flood or a bad `ready`,
    /// where its output already says what went wrong).
    pub fn judge(&self, patience: Duration, exit: &ExitInfo) -> Refusal {
        let verdict = self
            .verdict()
            .unwrap_or_else(|| verdict_of_exit(Some(exit)));
        let what = match (self, verdict) {
            (Failed::Gone, Verdict::Crashed(crate::sandbox::Exit::Code(0))) => {
                "exited with exit code 0 before ready".to_string()
            }
            (Failed::Gone, Verdict::ClosedOutput) => self.why(patience),
            (Failed::Gone, v) => format!("{v} before ready"),
            _ => self.why(patience),
        };
        let stderr = match verdict {
            Verdict::OutputFlood | Verdict::Illegal => String::new(),
            _ => crate::bot::text::stderr_tail(&exit.stderr_tail, 3, 200),
        };
        Refusal {
            verdict,
            what,
            stderr,
        }
    }
}

/// A failed handshake, judged once the bot's process is reaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub verdict: Verdict,
    /// What the bot did ("crashed with exit code 3 before ready").
    pub what: String,
    /// The last lines of its stderr, cleaned and cut (empty: none kept, or none worth it).
    pub stderr: String,
}

impl Refusal {
    /// One line: what the bot did, the caller's `hint` in parentheses, and the end of its
    /// stderr.
    pub fn line(&self, hint: Option<&str>) -> String {
        let mut line = self.what.clone();
        if let Some(hint) = hint {
            line.push_str(&format!(" ({hint})"));
        }
        if !self.stderr.is_empty() {
            line.push_str(&format!("; its stderr ends: {}", self.stderr));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Exit;

    fn exit(exit: Exit, killed: bool, stderr: &str) -> ExitInfo {
        ExitInfo {
            code: match exit {
                Exit::Code(c) => Some(c),
                Exit::Signal(_) => None,
            },
            exit: Some(exit),
            killed,
            stderr: stderr.as_bytes().to_vec(),
            stderr_dropped: 0,
            stderr_tail: stderr.as_bytes().to_vec(),
            containment: Default::default(),
        }
    }

    #[test]
    fn a_refusal_names_the_exit_and_the_stderr_tail_like_a_crash_in_a_game() {
        let patience = Duration::from_millis(10_000);
        let crash = exit(Exit::Code(3), false, "loading\ncannot load weights\n");
        assert_eq!(
            Failed::Gone.judge(patience, &crash).line(Some("run 'zebra check-bot' on it")),
            "crashed with exit code 3 before ready (run 'zebra check-bot' on it); its stderr ends: loading | cannot load weights"
        );
        let segv = exit(Exit::Signal(libc::SIGSEGV), false, "");
        assert_eq!(
            Failed::Gone.judge(patience, &segv).line(None),
            "crashed with signal 11 (SIGSEGV) before ready"
        );
        let clean = exit(Exit::Code(0), false, "");
        assert_eq!(
            Failed::Gone.judge(patience, &clean).line(None),
            "exited with exit code 0 before ready"
        );
        // Killed after its output closed: it lived on without it.
        let lived_on = exit(Exit::Signal(libc::SIGKILL), true, "");
        let r = Failed::Gone.judge(patience, &lived_on);
        assert_eq!(r.verdict, Verdict::ClosedOutput);
        assert_eq!(r.line(None), "exited or closed its output before ready");
        // Silence keeps the stderr tail (why it hung); a flood does not need it.
        let killed = exit(Exit::Signal(libc::SIGKILL), true, "waiting for a lock\n");
        assert_eq!(
            Failed::Timeout.judge(patience, &killed).line(None),
            "sent no ready within 10000 ms; its stderr ends: waiting for a lock"
        );
        let r = Failed::Flood.judge(patience, &killed);
        assert_eq!(r.verdict, Verdict::OutputFlood);
        assert_eq!(
            r.line(None),
            "flooded its output before ready: over 256 lines or 256 KiB"
        );
    }
}
