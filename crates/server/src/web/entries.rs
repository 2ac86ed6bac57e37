//! A game's record entries as the live hub holds them: the actions' notation in one text
//! buffer and a small fixed-size item per entry. A game's thread appends each decision
//! while the game plays ([`super::live::Hub`] follows every game of a series, watched or
//! not); holding [`Entry`] values instead cost an allocation per decision on that thread
//! (each action's `String`), freed much later by whichever thread dropped the game: the
//! allocator's slow paths then cost the game's thread more than the copying itself (see
//! the benchmark journal, "The daemon's game threads"). Entries are made again as
//! [`Entry`] values only when a browser or a seat reads them.

use crate::record::Entry;
use crate::rules::Clock;

/// One held entry; an action's notation is `text[start..end]`.
#[derive(Clone, Copy, Debug)]
enum Item {
    Action {
        start: u32,
        end: u32,
        emt_ms: Option<u64>,
        clk_ms: Option<u64>,
        cpu_ms: Option<u64>,
    },
    Expiry {
        clock: Clock,
    },
}

/// A game's entries, in order.
#[derive(Debug, Default)]
pub(crate) struct Entries {
    text: String,
    items: Vec<Item>,
}

impl Entries {
    /// How many entries are held.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// The bytes held for entries, used or not.
    pub fn capacity_bytes(&self) -> usize {
        self.text.capacity() + self.items.capacity() * std::mem::size_of::<Item>()
    }

    /// Holds nothing (the memory stays, for the entries to come).
    pub fn clear(&mut self) {
        self.text.clear();
        self.items.clear();
    }

    /// Appends `entries`. A game's text over 4 GiB cannot be held (a real game's is a few
    /// kilobytes): the entries from the first that would pass it are left out, so what is
    /// held is the start of the game, shown live as if it had not gone further.
    pub fn extend(&mut self, entries: &[Entry]) {
        self.items.reserve(entries.len());
        for entry in entries {
            let item = match entry {
                Entry::Action {
                    action,
                    emt_ms,
                    clk_ms,
                    cpu_ms,
                } => {
                    let start = self.text.len();
                    let Ok(end) = u32::try_from(start + action.len()) else {
                        return;
                    };
                    self.text.push_str(action);
                    Item::Action {
                        start: start as u32,
                        end,
                        emt_ms: *emt_ms,
                        clk_ms: *clk_ms,
                        cpu_ms: *cpu_ms,
                    }
                }
                Entry::Expiry { clock } => Item::Expiry { clock: *clock },
            };
            self.items.push(item);
        }
    }

    /// Empties the entries for another game to use, keeping only as much memory as they
    /// used: memory passed from game to game never grows past what one game needed.
    pub fn recycle(&mut self) {
        self.text.shrink_to_fit();
        self.items.shrink_to_fit();
        self.clear();
    }

    /// Holds exactly `entries` (what was held is dropped).
    pub fn replace(&mut self, entries: &[Entry]) {
        self.clear();
        self.extend(entries);
    }

    /// The record entry an item holds.
    fn entry(&self, item: &Item) -> Entry {
        match *item {
            Item::Action {
                start,
                end,
                emt_ms,
                clk_ms,
                cpu_ms,
            } => Entry::Action {
                action: self.text[start as usize..end as usize].to_string(),
                emt_ms,
                clk_ms,
                cpu_ms,
            },
            Item::Expiry { clock } => Entry::Expiry { clock },
        }
    }

    /// Entries `from..upto` (within what is held) as record entries.
    pub fn to_vec(&self, from: usize, upto: usize) -> Vec<Entry> {
        let upto = upto.min(self.items.len());
        let from = from.min(upto);
        self.items[from..upto]
            .iter()
            .map(|item| self.entry(item))
            .collect()
    }

    /// All the entries held, as record entries.
    pub fn all(&self) -> Vec<Entry> {
        self.to_vec(0, self.items.len())
    }

    /// Whether what is held is the start of `entries` (or all of it), compared without
    /// making any entry.
    pub fn begins(&self, entries: &[Entry]) -> bool {
        self.items.len() <= entries.len()
            && self
                .items
                .iter()
                .zip(entries)
                .all(|(item, entry)| match (*item, entry) {
                    (
                        Item::Action {
                            start,
                            end,
                            emt_ms,
                            clk_ms,
                            cpu_ms,
                        },
                        Entry::Action {
                            action,
                            emt_ms: e,
                            clk_ms: c,
                            cpu_ms: u,
                        },
                    ) => {
                        &self.text[start as usize..end as usize] == action
                            && emt_ms == *e
                            && clk_ms == *c
                            && cpu_ms == *u
                    }
                    (Item::Expiry { clock }, Entry::Expiry { clock: other }) => clock == *other,
                    _ => false,
                })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_entries() -> Vec<Entry> {
        vec![
            Entry::action("[Pd1,Bf1,Kb3,Qe4,Pb5,Pe5,Ph5]"),
            Entry::Action {
                action: "Qe4-e6".to_string(),
                emt_ms: Some(12),
                clk_ms: Some(899_000),
                cpu_ms: None,
            },
            Entry::Expiry { clock: Clock::Play },
            Entry::action(""),
            Entry::Action {
                action: "snap".to_string(),
                emt_ms: None,
                clk_ms: Some(0),
                cpu_ms: Some(3),
            },
        ]
    }

    #[test]
    fn entries_come_back_as_they_were_held_whole_or_in_part() {
        let all = some_entries();
        let mut held = Entries::default();
        held.extend(&all[..2]);
        held.extend(&all[2..]);
        assert_eq!(held.len(), all.len());
        assert_eq!(held.all(), all);
        assert_eq!(held.to_vec(1, 4), all[1..4].to_vec());
        // Past the end: what there is.
        assert_eq!(held.to_vec(3, 99), all[3..].to_vec());
        assert_eq!(held.to_vec(9, 99), Vec::<Entry>::new());
        held.replace(&all[3..]);
        assert_eq!(held.all(), all[3..].to_vec());
        held.clear();
        assert_eq!(held.len(), 0);
        assert_eq!(held.all(), Vec::<Entry>::new());
    }

    #[test]
    fn recycled_entries_are_empty_and_keep_only_the_memory_they_used() {
        let all = some_entries();
        let mut held = Entries::default();
        held.extend(&all);
        let used = held.capacity_bytes();
        // Grown far past what the game used (as by a long game before).
        held.items.reserve(10_000);
        held.text.reserve(100_000);
        assert!(held.capacity_bytes() > 100_000);
        held.recycle();
        assert_eq!(held.len(), 0);
        assert!(held.capacity_bytes() <= used, "{}", held.capacity_bytes());
        held.extend(&all[1..3]);
        assert_eq!(held.all(), all[1..3].to_vec());
    }

    #[test]
    fn held_entries_begin_a_record_only_if_each_is_the_same_in_every_field() {
        let all = some_entries();
        let mut held = Entries::default();
        assert!(held.begins(&all), "nothing held begins anything");
        held.extend(&all[..3]);
        assert!(held.begins(&all));
        assert!(held.begins(&all[..3]));
        assert!(!held.begins(&all[..2]), "longer than the record");
        // Any one field that differs.
        let mut other = all.clone();
        if let Entry::Action { emt_ms, .. } = &mut other[1] {
            *emt_ms = Some(13);
        }
        assert!(!held.begins(&other));
        let mut other = all.clone();
        other[0] = Entry::action("[Pd1,Bf1,Kb3,Qe4,Pb5,Pe5,Ph6]");
        assert!(!held.begins(&other));
        let mut other = all.clone();
        other[2] = Entry::Expiry {
            clock: Clock::Reaction,
        };
        assert!(!held.begins(&other));
        let mut other = all.clone();
        other[2] = Entry::action("!P");
        assert!(!held.begins(&other));
    }
}
