//! Football Chess behind the seam: its records (plays as blocks, the quarter length and
//! the start situation as tags) and, in the referee, its three clocks.

use crate::record::{notes, tags, RecordError, Recorded, Tags};
use crate::rules::{Event, Game, Settings};

impl Recorded for Game {
    const RULINGS: &'static str = crate::rules::RULINGS_EDITION;

    fn settings_tags(settings: &Settings, tags: &mut Tags) {
        tags.set(tags::QUARTER_LENGTH, tags::quarter_length_value(*settings));
    }

    fn from_tags(tags: &Tags) -> Result<Game, RecordError> {
        let settings = tags::settings_from(tags)?;
        Ok(match tags::situation_from(tags)? {
            Some(s) => Game::from_situation(settings, &s),
            None => Game::new(settings),
        })
    }

    fn header(&self) -> Option<String> {
        notes::play_header(self)
    }

    fn notable(event: &Event) -> bool {
        notes::is_notable(event)
    }

    fn whereabouts(&self) -> String {
        notes::situation(self)
    }

    fn starts_play(event: &Event) -> bool {
        matches!(event, Event::Snap { .. } | Event::SnapFumbled { .. })
    }
}
