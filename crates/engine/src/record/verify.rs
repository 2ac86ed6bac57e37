//! Replaying a record through the engine, to find the first place where they disagree.
//!
//! The checks, in order: the edition of the rulings (a record of another edition than the
//! engine's is refused before anything is replayed: it would only diverge where the rulings
//! changed); the tags the replay needs (QuarterLength, Termination, Result);
//! every entry, which the engine must accept; then the end: a normal termination needs the
//! engine's game over with the same result, any other termination needs it not over (the
//! game stopped early) and, for a forfeit, a winner, and for an adjudication the result the
//! game's adjudication rule gives the final game ([`Recorded::adjudicate`]); a Score tag,
//! when present, must be the engine's score.

use std::fmt;

use thiserror::Error;

use super::error::{quote, OtherEdition, RecordError};
use super::read::read_games;
use super::tags::{self, Termination};
use super::{Entry, GameRecord, Recorded, ReplayError};
use crate::rules::{Clock, Game, GameResult, Rules};

/// A record that replays: the final game, how it ended, and what it held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified<R = Game> {
    /// The engine's game after the last entry.
    pub game: R,
    pub termination: Termination,
    /// The record's result: the engine's for a normal end, the forfeit's otherwise
    /// (`None` for `*`).
    pub result: Option<GameResult>,
    pub actions: usize,
    pub expiries: usize,
    /// Plays started (Football Chess's snaps; none in a game without plays).
    pub snaps: usize,
}

/// What [`verify_any`] found in a record of any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub rules: crate::rules::Rules,
    pub termination: Termination,
    pub result: Option<GameResult>,
    pub actions: usize,
    pub expiries: usize,
    pub snaps: usize,
}

/// The first disagreement between a record and the engine.
///
/// Shown as `entry INDEX (PLAY): KIND`; a record of another edition of the rulings is no
/// disagreement at an entry, and is shown as its [`OtherEdition`] alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The entry (0-based) the engine rejects; for a problem with the tags, 0; for a
    /// problem with the end of the game, the number of entries.
    pub index: usize,
    /// Where the game stood: the header of the play, `tags`, or `game over`.
    pub play: String,
    pub kind: DivergenceKind,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            DivergenceKind::Edition(e) => write!(f, "{e}"),
            kind => write!(f, "entry {} ({}): {kind}", self.index, self.play),
        }
    }
}

impl std::error::Error for Divergence {}

impl Divergence {
    /// Whether the record was refused unreplayed, as one of another edition of the rulings.
    pub fn is_other_edition(&self) -> bool {
        matches!(self.kind, DivergenceKind::Edition(_))
    }
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DivergenceKind {
    /// The record was played under another edition of the rulings: not replayed.
    #[error("{0}")]
    Edition(OtherEdition),
    #[error("{0}")]
    Tags(RecordError),
    #[error("the engine rejects {action}: {error}")]
    ActionRejected { action: String, error: ReplayError },
    #[error("the engine rejects the expiry !{clock}: {error}")]
    ExpiryRejected { clock: Clock, error: ReplayError },
    #[error("this is a {found} record, not {expected}")]
    OtherGame { found: Rules, expected: Rules },
    #[error("the record ends normally but the engine's game is not over ({expected})")]
    NotOver { expected: String },
    #[error("the record says {termination} but the engine's game is over ({result})")]
    AlreadyOver {
        termination: Termination,
        result: &'static str,
    },
    #[error("a {termination} needs a winner, but the Result tag is \"{tag}\"")]
    NoWinner {
        termination: Termination,
        tag: &'static str,
    },
    #[error("the Score tag \"{tag}\" differs from the engine's score {engine}")]
    Score { tag: String, engine: String },
    #[error("the Result tag \"{tag}\" differs from the engine's result {engine}")]
    Result {
        tag: &'static str,
        engine: &'static str,
    },
    #[error(
        "the Result tag \"{tag}\" differs from the adjudication of the game as it stands, {rule}"
    )]
    Adjudication {
        tag: &'static str,
        rule: &'static str,
    },
}

/// Replays the Football Chess record `rec` and reports the first divergence, or what the
/// record holds; a record of another game is a divergence ([`verify_any`] takes any).
pub fn verify(rec: &GameRecord) -> Result<Verified, Divergence> {
    verify_as::<Game>(rec)
}

/// Replays `rec` as the game its Variant tag names.
pub fn verify_any(rec: &GameRecord) -> Result<Summary, Divergence> {
    let rules = rec.rules().map_err(|e| Divergence {
        index: 0,
        play: "tags".to_string(),
        kind: DivergenceKind::Tags(e),
    })?;
    crate::with_rules!(rules, R => verify_as::<R>(rec).map(|v| Summary {
        rules,
        termination: v.termination,
        result: v.result,
        actions: v.actions,
        expiries: v.expiries,
        snaps: v.snaps,
    }))
}

/// Replays `rec` as a game of rule set `R` and reports the first divergence, or what the
/// record holds.
pub fn verify_as<R: Recorded>(rec: &GameRecord) -> Result<Verified<R>, Divergence> {
    let tag_problem = |e: RecordError| Divergence {
        index: 0,
        play: "tags".to_string(),
        kind: DivergenceKind::Tags(e),
    };
    let found = rec.rules().map_err(tag_problem)?;
    if found != R::RULES {
        return Err(Divergence {
            index: 0,
            play: "tags".to_string(),
            kind: DivergenceKind::OtherGame {
                found,
                expected: R::RULES,
            },
        });
    }
    tags::rulings_from(&rec.tags, R::RULINGS).map_err(|e| Divergence {
        index: 0,
        play: "tags".to_string(),
        kind: DivergenceKind::Edition(e),
    })?;
    let termination = rec.termination().map_err(tag_problem)?;
    let result = rec.result().map_err(tag_problem)?;

    let mut game = R::from_tags(&rec.tags).map_err(tag_problem)?;
    let mut play = String::new();
    let (mut actions, mut expiries, mut snaps) = (0, 0, 0);
    for (index, entry) in rec.entries.iter().enumerate() {
        if let Some(header) = game.header() {
            play = header;
        }
        let events = entry.apply_to(&mut game).map_err(|error| Divergence {
            index,
            play: play.clone(),
            kind: match entry {
                Entry::Action { action, .. } => DivergenceKind::ActionRejected {
                    action: action.clone(),
                    error,
                },
                Entry::Expiry { clock } => DivergenceKind::ExpiryRejected {
                    clock: *clock,
                    error,
                },
            },
        })?;
        match entry {
            Entry::Action { .. } => actions += 1,
            Entry::Expiry { .. } => expiries += 1,
        }
        snaps += events.iter().filter(|e| R::starts_play(e)).count();
    }

    let end = |kind: DivergenceKind| Divergence {
        index: rec.entries.len(),
        play: if game.to_decide().is_none() {
            "game over".to_string()
        } else {
            game.whereabouts()
        },
        kind,
    };
    let engine_result = tags::result_token(game.result());
    match (termination, game.to_decide()) {
        (Termination::Normal, Some((side, kind))) => {
            return Err(end(DivergenceKind::NotOver {
                expected: format!("{side} must decide on a {kind}"),
            }))
        }
        (Termination::Normal, None) => {}
        (_, None) => {
            return Err(end(DivergenceKind::AlreadyOver {
                termination,
                result: engine_result,
            }))
        }
        (_, Some(_))
            if termination.needs_winner() && !matches!(result, Some(GameResult::Win(_))) =>
        {
            return Err(end(DivergenceKind::NoWinner {
                termination,
                tag: tags::result_token(result),
            }))
        }
        (_, Some(_)) => {}
    }
    if let Some(tag) = rec.tags.get(tags::SCORE) {
        let engine = tags::score_value(&game);
        if tag != engine {
            return Err(end(DivergenceKind::Score {
                tag: quote(tag),
                engine,
            }));
        }
    }
    if termination == Termination::Normal && result != game.result() {
        return Err(end(DivergenceKind::Result {
            tag: tags::result_token(result),
            engine: engine_result,
        }));
    }
    if termination == Termination::Adjudication {
        let rule = game.adjudicate();
        if result != Some(rule) {
            return Err(end(DivergenceKind::Adjudication {
                tag: tags::result_token(result),
                rule: rule.pgn(),
            }));
        }
    }
    Ok(Verified {
        game,
        termination,
        result,
        actions,
        expiries,
        snaps,
    })
}

/// Reads a file of one or more games and verifies each; the outer error is a text that
/// cannot be read at all.
pub fn verify_text(text: &str) -> Result<Vec<Result<Summary, Divergence>>, RecordError> {
    Ok(read_games(text)?.iter().map(verify_any).collect())
}
