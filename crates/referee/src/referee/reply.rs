//! What one thing read from a bot means while one of its requests is pending: the pure half
//! of waiting for a reply.
//!
//! [`classify`] takes what the transport read (a line, a line over the limit, a line that
//! is not UTF-8, the output closing), the id of the pending request and the id the bot last
//! answered, and says what it is: the answer (in the game's notation, or not), a reply to
//! another request, a log line, or something that is not a reply at all. It reads no clock
//! and touches no process, so every class is tested from a given line; the referee's loop
//! keeps the waiting, the freeze timer, the transport and the bookkeeping.
//!
//! Whether an action is legal is not decided here: the game judges that when it plays it,
//! with the clocks and the record at hand.

use std::fmt::Display;
use std::str::FromStr;

use crate::bot::Incoming;
use crate::protocol::{self, FromBot, ReplyStatus, Wants};

use super::abbreviate;

/// What one thing read from a bot is, while a request is pending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard<A> {
    /// The answer to the pending request, an action in the game's notation (its legality
    /// is the game's to judge), and what the bot wants its next request to carry
    /// (version 2).
    Action(A, Wants),
    /// The answer to the pending request, but not an action of the game: the request is
    /// answered (a second answer is a duplicate), with a bad reply; why, in words.
    NotAnAction(String),
    /// Not a reply the protocol knows (a line over the limit, not UTF-8, not a message):
    /// a bad reply; why, in words.
    Invalid(String),
    /// A reply to another request than the pending one (late, a second answer, a made-up
    /// id): discarded. The bot is told why (`status`, `reason`) when `tell`: only an id it
    /// was once asked, so a made-up id in the future is answered by nothing.
    Stale {
        id: u64,
        status: ReplyStatus,
        reason: String,
        tell: bool,
    },
    /// A `log` line: its message.
    Log(String),
    /// A message that means nothing during a decision (`pong`, `ready`): ignored.
    Ignored,
    /// The bot's output closed.
    Closed,
}

/// What `incoming` is while request `pending` waits, the bot having last answered
/// `answered` in time; `max_line` is the line limit named in the reason of a line over it.
pub(crate) fn classify<A>(
    incoming: &Incoming,
    pending: u64,
    answered: Option<u64>,
    max_line: usize,
) -> Heard<A>
where
    A: FromStr,
    A::Err: Display,
{
    let text = match incoming {
        Incoming::Closed { .. } => return Heard::Closed,
        Incoming::TooLong { len, .. } => {
            return Heard::Invalid(format!(
                "sent a line of {len} bytes, over the limit of {max_line}"
            ))
        }
        Incoming::NotUtf8 { .. } => {
            return Heard::Invalid("sent a line that is not UTF-8".to_string())
        }
        Incoming::Line { text, .. } => text,
    };
    match protocol::parse_from_bot(text) {
        Err(e) => Heard::Invalid(format!(
            "sent an invalid reply ({}): {}",
            abbreviate(&e.to_string()),
            abbreviate(text)
        )),
        Ok(FromBot::Action { id, action, want }) if id == pending => match action.parse::<A>() {
            Ok(action) => Heard::Action(action, Wants::of(&want)),
            Err(e) => Heard::NotAnAction(format!(
                "sent '{}', which is not an action: {e}",
                abbreviate(&action)
            )),
        },
        Ok(FromBot::Action { id, .. }) => stale(id, pending, answered),
        Ok(FromBot::Log { message }) => Heard::Log(message),
        Ok(FromBot::Pong { .. } | FromBot::Ready { .. }) => Heard::Ignored,
    }
}

/// A reply to request `id` while `pending` waits: a duplicate if `id` is the one answered
/// last, else late (or made up).
fn stale<A>(id: u64, pending: u64, answered: Option<u64>) -> Heard<A> {
    let (status, reason) = if answered == Some(id) {
        (
            ReplyStatus::Duplicate,
            format!("request {id} was already answered; this second reply is discarded"),
        )
    } else {
        (
            ReplyStatus::Late,
            format!("request {id} is no longer pending"),
        )
    };
    Heard::Stale {
        id,
        status,
        reason,
        tell: id < pending,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::boyer::rules as boyer;
    use crate::rules::ruleset::RuleSet;
    use tokio::time::Instant;

    type Action = <boyer::Game as RuleSet>::Action;

    fn line(text: &str) -> Incoming {
        Incoming::Line {
            at: Instant::now(),
            text: text.to_string(),
        }
    }

    fn heard(incoming: &Incoming) -> Heard<Action> {
        classify(incoming, 7, Some(6), 64 * 1024)
    }

    fn a_legal_action() -> Action {
        boyer::Game::new(boyer::Position::start()).legal()[0]
    }

    #[test]
    fn the_answer_to_the_pending_request_is_its_action() {
        let action = a_legal_action();
        let text = format!(r#"{{"type":"action","id":7,"action":"{action}"}}"#);
        assert_eq!(heard(&line(&text)), Heard::Action(action, Wants::default()));
    }

    #[test]
    fn an_answer_in_no_notation_of_the_game_is_not_an_action() {
        let got = heard(&line(r#"{"type":"action","id":7,"action":"zz9"}"#));
        let Heard::NotAnAction(why) = got else {
            panic!("{got:?}")
        };
        assert!(
            why.starts_with("sent 'zz9', which is not an action: "),
            "{why}"
        );
    }

    #[test]
    fn a_line_that_is_not_json_is_invalid() {
        let got = heard(&line("e2e4"));
        let Heard::Invalid(why) = got else {
            panic!("{got:?}")
        };
        assert!(
            why.starts_with("sent an invalid reply (not JSON: "),
            "{why}"
        );
        assert!(why.ends_with("): e2e4"), "{why}");
    }

    #[test]
    fn json_that_is_no_message_is_invalid() {
        let got = heard(&line(r#"{"type":"move","id":7}"#));
        let Heard::Invalid(why) = got else {
            panic!("{got:?}")
        };
        assert!(
            why.starts_with("sent an invalid reply (not a message: "),
            "{why}"
        );
    }

    #[test]
    fn a_line_over_the_limit_is_invalid_and_names_the_limit() {
        let got = heard(&Incoming::TooLong {
            at: Instant::now(),
            len: 70_000,
        });
        assert_eq!(
            got,
            Heard::Invalid("sent a line of 70000 bytes, over the limit of 65536".to_string())
        );
    }

    #[test]
    fn a_line_not_in_utf8_is_invalid() {
        let got = heard(&Incoming::NotUtf8 { at: Instant::now() });
        assert_eq!(
            got,
            Heard::Invalid("sent a line that is not UTF-8".to_string())
        );
    }

    #[test]
    fn a_second_answer_to_the_last_request_is_a_duplicate_the_bot_is_told_of() {
        let got = heard(&line(r#"{"type":"action","id":6,"action":"x"}"#));
        assert_eq!(
            got,
            Heard::Stale {
                id: 6,
                status: ReplyStatus::Duplicate,
                reason: "request 6 was already answered; this second reply is discarded"
                    .to_string(),
                tell: true,
            }
        );
    }

    #[test]
    fn an_answer_to_an_expired_request_is_late_and_the_bot_is_told() {
        let got = heard(&line(r#"{"type":"action","id":5,"action":"x"}"#));
        assert_eq!(
            got,
            Heard::Stale {
                id: 5,
                status: ReplyStatus::Late,
                reason: "request 5 is no longer pending".to_string(),
                tell: true,
            }
        );
    }

    #[test]
    fn an_answer_to_a_request_never_made_is_discarded_untold() {
        let got = heard(&line(r#"{"type":"action","id":9,"action":"x"}"#));
        assert!(
            matches!(
                got,
                Heard::Stale {
                    id: 9,
                    status: ReplyStatus::Late,
                    tell: false,
                    ..
                }
            ),
            "{got:?}"
        );
    }

    #[test]
    fn a_log_line_is_its_message() {
        let got = heard(&line(r#"{"type":"log","message":"thinking"}"#));
        assert_eq!(got, Heard::Log("thinking".to_string()));
    }

    #[test]
    fn a_pong_during_a_decision_is_ignored() {
        assert_eq!(heard(&line(r#"{"type":"pong","id":3}"#)), Heard::Ignored);
    }

    #[test]
    fn the_output_closing_is_closed() {
        assert_eq!(
            heard(&Incoming::Closed { at: Instant::now() }),
            Heard::Closed
        );
    }
}
