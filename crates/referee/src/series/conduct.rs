//! How each bot behaved over a series, beyond its score: timeouts (and how many of them
//! were suspect), invalid or illegal replies, and games lost by forfeit.
//!
//! A score alone cannot tell a weak bot from a bot that lost on time because the machine
//! was too busy to run it; these counts can. They are sums over the counted games, like
//! the standings, and are kept in each game's record (tags), so that a resumed series
//! rebuilds the very totals of one never interrupted.

use serde::Serialize;

use crate::record::Tags;
use crate::referee::BotReport;
use crate::rules::Side;

/// What one bot did wrong in one game, as far as the series counts it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct GameConduct {
    pub timeouts: u32,
    /// Timeouts during which the bot used less than half the wall time in CPU.
    pub suspect_timeouts: u32,
    /// Invalid or illegal replies.
    pub illegal: u32,
    /// Why it ended the game early, if it did (`crashed`, `memory-limit`...: the verdict's
    /// code, as in the record's `WhiteVerdict`/`BlackVerdict` tag).
    pub verdict: Option<String>,
}

/// The record's tags that carry a side's counts. `…SuspectTimeouts` is the referee's own
/// tag; the other two are added by the series, so that `--resume` can count them again.
fn tag(side: Side, what: &str) -> String {
    let side = match side {
        Side::White => "White",
        Side::Black => "Black",
    };
    format!("{side}{what}")
}

const TIMEOUTS: &str = "Timeouts";
const SUSPECT: &str = "SuspectTimeouts";
const ILLEGAL: &str = "Illegal";
/// Written by the referee, like `…SuspectTimeouts`.
const VERDICT: &str = "Verdict";

impl GameConduct {
    pub fn of(report: &BotReport) -> GameConduct {
        GameConduct {
            timeouts: report.timeouts,
            suspect_timeouts: report.suspect_timeouts,
            illegal: report.illegal,
            verdict: report.verdict.map(|v| v.code().to_string()),
        }
    }

    /// Writes the counts the referee does not write itself, when they are not zero (a
    /// missing tag reads as 0, so a clean game's record does not change).
    pub(crate) fn write_tags(&self, side: Side, tags: &mut Tags) {
        for (what, value) in [(TIMEOUTS, self.timeouts), (ILLEGAL, self.illegal)] {
            if value > 0 {
                tags.set(tag(side, what), value.to_string());
            }
        }
    }

    /// Reads a side's counts back from a record; a missing tag is 0 (a clean game, or a
    /// record written before the series kept these tags).
    pub fn from_tags(side: Side, tags: &Tags) -> Result<GameConduct, String> {
        let read = |what: &str| -> Result<u32, String> {
            let name = tag(side, what);
            match tags.get(&name) {
                None => Ok(0),
                Some(value) => value
                    .parse()
                    .map_err(|_| format!("the {name} tag \"{value}\" is not a count")),
            }
        };
        Ok(GameConduct {
            timeouts: read(TIMEOUTS)?,
            suspect_timeouts: read(SUSPECT)?,
            illegal: read(ILLEGAL)?,
            verdict: match tags.get(&tag(side, VERDICT)) {
                None => None,
                Some(v) if crate::sandbox::Verdict::CODES.contains(&v) => Some(v.to_string()),
                Some(v) => {
                    return Err(format!(
                        "the {} tag \"{v}\" is not a verdict ({})",
                        tag(side, VERDICT),
                        crate::sandbox::Verdict::CODES.join(", ")
                    ))
                }
            },
        })
    }
}

/// One bot's conduct over the counted games of a series. More counts per bot belong here,
/// one field each.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Conduct {
    pub name: String,
    pub timeouts: u64,
    /// Timeouts during which the bot used less than half the wall time in CPU: the bot
    /// was not computing (blocked, or the machine was too busy to run it).
    pub suspect_timeouts: u64,
    /// Invalid or illegal replies.
    pub illegal: u64,
    /// Games it lost by a termination other than `normal` and `adjudication` (time
    /// forfeit, rules infraction, abandoned): the same count as its standings line's
    /// `forfeits`.
    pub forfeits: u64,
    /// How many games ended early by each verdict on this bot (`crashed`, `memory-limit`,
    /// `output-flood`...).
    pub verdicts: std::collections::BTreeMap<String, u64>,
}

impl Conduct {
    pub fn named(name: &str) -> Conduct {
        Conduct {
            name: name.to_string(),
            ..Conduct::default()
        }
    }

    /// Folds in one game of this bot.
    pub fn add(&mut self, game: &GameConduct, forfeited: bool) {
        self.timeouts += u64::from(game.timeouts);
        self.suspect_timeouts += u64::from(game.suspect_timeouts);
        self.illegal += u64::from(game.illegal);
        self.forfeits += u64::from(forfeited);
        if let Some(v) = &game.verdict {
            *self.verdicts.entry(v.clone()).or_default() += 1;
        }
    }

    /// `timeouts 3 (2 suspect), illegal replies 0, forfeits 1`.
    pub fn text(&self) -> String {
        let suspect = if self.suspect_timeouts > 0 {
            format!(" ({} suspect)", self.suspect_timeouts)
        } else {
            String::new()
        };
        let verdicts = if self.verdicts.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = self
                .verdicts
                .iter()
                .map(|(v, n)| format!("{v} {n}"))
                .collect();
            format!(" ({})", list.join(", "))
        };
        format!(
            "timeouts {}{suspect}, illegal replies {}, forfeits {}{verdicts}",
            self.timeouts, self.illegal, self.forfeits
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_go_into_tags_and_come_back() {
        let game = GameConduct {
            timeouts: 4,
            suspect_timeouts: 3,
            illegal: 1,
            verdict: None,
        };
        let mut tags = Tags::new();
        game.write_tags(Side::Black, &mut tags);
        // The referee writes the suspect count itself.
        tags.set("BlackSuspectTimeouts", "3");
        assert_eq!(tags.get("BlackTimeouts"), Some("4"));
        assert_eq!(tags.get("BlackIllegal"), Some("1"));
        assert_eq!(GameConduct::from_tags(Side::Black, &tags), Ok(game));
        // A clean side writes nothing and reads back as zeros.
        GameConduct::default().write_tags(Side::White, &mut tags);
        assert_eq!(tags.get("WhiteTimeouts"), None);
        assert_eq!(
            GameConduct::from_tags(Side::White, &tags),
            Ok(GameConduct::default())
        );
        tags.set("WhiteIllegal", "many");
        let err = GameConduct::from_tags(Side::White, &tags).unwrap_err();
        assert!(err.contains("WhiteIllegal"), "{err}");
    }

    #[test]
    fn a_bot_s_conduct_adds_up_its_games() {
        let mut c = Conduct::named("slow");
        let game = GameConduct {
            timeouts: 2,
            suspect_timeouts: 2,
            illegal: 0,
            verdict: None,
        };
        c.add(&game, true);
        c.add(&game, false);
        let crashed = GameConduct {
            verdict: Some("crashed".to_string()),
            ..GameConduct::default()
        };
        c.add(&crashed, true);
        assert_eq!(c.verdicts.get("crashed"), Some(&1));
        assert!(c.text().ends_with("(crashed 1)"), "{}", c.text());
        let mut tags = Tags::new();
        tags.set("BlackVerdict", "crashed");
        assert_eq!(
            GameConduct::from_tags(Side::Black, &tags)
                .unwrap()
                .verdict
                .as_deref(),
            Some("crashed")
        );
        tags.set("BlackVerdict", "gremlins");
        assert!(GameConduct::from_tags(Side::Black, &tags).is_err());
        assert_eq!(
            (c.timeouts, c.suspect_timeouts, c.illegal, c.forfeits),
            (4, 4, 0, 2)
        );
        assert_eq!(
            c.text(),
            "timeouts 4 (4 suspect), illegal replies 0, forfeits 2 (crashed 1)"
        );
    }
}
