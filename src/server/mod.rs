//! `zebra serve`: the competition daemon (a front end over the same series, referee and
//! sandbox code as `zebra match`).
//!
//! Built so far:
//! - [`store`]: the embedded SQLite database (WAL, migrations at open) and the record files
//!   beside it, named by their content hash; the games table is the queue (leases,
//!   attempts, voided attempts), with idempotent submission.

pub mod store;
