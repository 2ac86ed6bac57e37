//! Plumbing for bots written in Rust on the engine: read requests, answer them.
