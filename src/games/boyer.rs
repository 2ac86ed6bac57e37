//! Boyer's Football behind the seam: its records (a block per turn, a `FEN` tag for a
//! position other than the start) and, in the referee, its chess clock.

use crate::record::{tags, RecordError, Recorded, Tags};
use crate::rules::boyer::{Event, Game, Position};

/// The tag holding a set-up start position (with `SetUp "1"`), as PGN's own.
pub const FEN: &str = "FEN";

/// The edition of protocol/BOYER.md that records carry (tag `Rulings`).
pub const RULINGS_EDITION: &str = "1";

impl Recorded for Game {
    const RULINGS: &'static str = RULINGS_EDITION;

    fn settings_tags(start: &Position, tags: &mut Tags) {
        if *start != Position::start() {
            tags.set(tags::SET_UP, "1");
            tags.set(FEN, start.to_string());
        }
    }

    fn from_tags(tags: &Tags) -> Result<Game, RecordError> {
        let start = match tags.get(FEN) {
            None => Position::start(),
            Some(text) => text.parse::<Position>().map_err(|e| RecordError::BadFen {
                value: crate::record::error_quote(text),
                error: e.to_string(),
            })?,
        };
        Ok(Game::new(start))
    }

    fn header(&self) -> Option<String> {
        let pos = self.position();
        (self.outcome().is_none() && pos.at_turn_start())
            .then(|| format!("turn {}, {}", pos.turns() + 1, pos.turn()))
    }

    fn notable(event: &Event) -> bool {
        matches!(event, Event::GameOver { .. })
    }

    fn whereabouts(&self) -> String {
        self.position().to_string()
    }
}
