//! Game records: the PGN-style text of a game, its reader and its verifier.
//!
//! (Being written: see protocol/RECORD.md.)
