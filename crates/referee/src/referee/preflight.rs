//! Before the first game: start each bot once, complete the handshake, and check the option
//! values the user set against the options the bot declares in `ready`.
//!
//! A typo in an option name, or a value out of its range, is the user's mistake, not the
//! bot's: finding it here turns what would be a silently ignored setting (or a series of
//! forfeits by a bot that cannot start) into one clear error before anything is played.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::bot::{BotProcess, BotSpec};
use crate::protocol::{self, AnyGame, OptionDecl, OptionKind, ToBot};

/// Why a bot is not ready to play; each says, in one sentence, which bot and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreflightError {
    /// It does not start or does not complete the handshake.
    #[error("{0}")]
    Start(String),
    /// The user's option values do not fit what it declares.
    #[error("{0}")]
    Options(String),
}

/// Starts `spec` contained as `mode` says (never frozen), waits up to `handshake` for
/// `ready`, ends it, and checks its option values; the name it gave in `ready`. A bot that
/// does not get that far is refused in the words of a game's forfeit: a crash with its exit
/// code or signal and the end of its stderr, a flood as a flood.
pub async fn preflight(
    spec: &BotSpec,
    handshake: Duration,
    mode: crate::sandbox::Mode,
) -> Result<String, PreflightError> {
    let max_line = 64 * 1024;
    let policy = crate::sandbox::Policy {
        mode,
        freeze_idle: false,
    };
    let mut bot = BotProcess::spawn(spec, max_line, policy)
        .map_err(|e| PreflightError::Start(e.to_string()))?;
    let shake = super::handshake::greet(&mut bot, max_line, handshake).await;
    let _ = bot.send(protocol::to_line(&ToBot::<AnyGame>::Quit));
    let exit = bot.shutdown(Duration::from_millis(500)).await;
    let ready = shake.result.map_err(|failed| {
        let refusal = failed.judge(handshake, &exit);
        PreflightError::Start(format!(
            "bot '{}' {}",
            spec.name,
            refusal.line(Some("run 'zebra check-bot' on it"))
        ))
    })?;
    check_options(&spec.options, &ready.options)
        .map_err(|why| PreflightError::Options(format!("bot '{}': {why}", spec.name)))?;
    Ok(ready.info.name)
}

/// Every value set must be for a declared option and fit its type, range or choices.
pub(crate) fn check_options(
    set: &Map<String, Value>,
    declared: &[OptionDecl],
) -> Result<(), String> {
    for (name, value) in set {
        let Some(decl) = declared.iter().find(|d| &d.name == name) else {
            let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
            return Err(format!(
                "option '{name}' is not one it declares ({})",
                if names.is_empty() {
                    "it declares none".to_string()
                } else {
                    format!("it declares: {}", names.join(", "))
                }
            ));
        };
        let fits = match decl.kind {
            OptionKind::Int => value.as_i64().is_some_and(|n| {
                decl.min.map_or(true, |min| n >= min) && decl.max.map_or(true, |max| n <= max)
            }),
            OptionKind::Bool => value.is_boolean(),
            OptionKind::String => value.is_string(),
            OptionKind::Choice => value
                .as_str()
                .is_some_and(|s| decl.choices.iter().any(|c| c == s)),
        };
        if !fits {
            let wanted = match decl.kind {
                OptionKind::Int => format!(
                    "an integer{}",
                    match (decl.min, decl.max) {
                        (Some(a), Some(b)) => format!(" from {a} to {b}"),
                        (Some(a), None) => format!(" from {a}"),
                        (None, Some(b)) => format!(" up to {b}"),
                        (None, None) => String::new(),
                    }
                ),
                OptionKind::Bool => "true or false".to_string(),
                OptionKind::String => "a string".to_string(),
                OptionKind::Choice => format!("one of {}", decl.choices.join(", ")),
            };
            return Err(format!("option '{name}' = {value}: it takes {wanted}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl(name: &str, kind: OptionKind) -> OptionDecl {
        OptionDecl {
            name: name.to_string(),
            kind,
            default: Value::Null,
            min: Some(1),
            max: Some(3),
            choices: vec!["fast".to_string(), "slow".to_string()],
        }
    }

    fn set(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn values_must_fit_declared_options() {
        let declared = [
            decl("depth", OptionKind::Int),
            decl("ponder", OptionKind::Bool),
            decl("book", OptionKind::String),
            decl("style", OptionKind::Choice),
        ];
        let good = set(json!({"depth": 2, "ponder": true, "book": "x", "style": "slow"}));
        assert_eq!(check_options(&good, &declared), Ok(()));
        for (bad, needle) in [
            (
                json!({"depht": 2}),
                "'depht' is not one it declares (it declares: depth",
            ),
            (json!({"depth": 4}), "an integer from 1 to 3"),
            (json!({"depth": "2"}), "an integer"),
            (json!({"ponder": 1}), "true or false"),
            (json!({"style": "medium"}), "one of fast, slow"),
        ] {
            let err = check_options(&set(bad.clone()), &declared).unwrap_err();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        let err = check_options(&set(json!({"x": 1})), &[]).unwrap_err();
        assert!(err.contains("declares none"), "{err}");
    }
}
