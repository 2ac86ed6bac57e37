//! The per-game protocol transcript: every line sent to and received from each bot, with
//! the time since the game started. Written for people debugging a bot.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use crate::bot::Incoming;
use crate::rules::Side;

/// An open transcript file.
pub struct Transcript {
    out: BufWriter<File>,
}

impl Transcript {
    pub fn create(path: &Path) -> std::io::Result<Transcript> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        Ok(Transcript {
            out: BufWriter::new(File::create(path)?),
        })
    }

    /// `   12.345 white < {...}`: a line Zebra sent.
    pub fn sent(&mut self, at: Duration, side: Side, line: &str) {
        let _ = writeln!(self.out, "{:>10.3} {side:<5} < {line}", at.as_secs_f64());
    }

    /// `   12.400 white > {...}`: what Zebra read, stamped when its newline arrived.
    pub fn received(&mut self, at: Duration, side: Side, incoming: &Incoming) {
        let text = match incoming {
            // Valid messages hold no raw control characters; garbage may: escaped, so
            // that reading the transcript in a terminal is safe.
            Incoming::Line { text, .. } => crate::bot::text::clean(text, usize::MAX),
            Incoming::TooLong { len, .. } => {
                format!("(a line of {len} bytes, over the limit, dropped)")
            }
            Incoming::NotUtf8 { .. } => "(a line that is not UTF-8, dropped)".to_string(),
            Incoming::Closed { .. } => "(output closed)".to_string(),
        };
        let _ = writeln!(self.out, "{:>10.3} {side:<5} > {text}", at.as_secs_f64());
    }

    pub fn finish(&mut self) {
        let _ = self.out.flush();
    }
}
