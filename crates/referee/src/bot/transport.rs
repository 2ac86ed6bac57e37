//! The two tasks between the referee and a bot's pipes.
//!
//! The reader stamps every line with the instant its newline was read, so that a busy
//! referee never charges its own delay to the bot; it holds at most one line of bytes, and
//! hands lines over through a queue of [`QUEUE_LINES`]: when nobody reads them (the
//! opponent is thinking), the reader stops reading and a flooding bot blocks on its own
//! full pipe. Zebra's memory per bot is bounded whatever the bot writes. The
//! writer owns stdin, so a bot that stops reading never blocks the referee: lines queue up
//! (to a cap) and a request's clock starts when its line has been flushed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::protocol::codec::{Frame, LineSplitter};

/// Something the bot's stdout produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    Line {
        at: Instant,
        text: String,
    },
    TooLong {
        at: Instant,
        len: usize,
    },
    NotUtf8 {
        at: Instant,
    },
    /// stdout closed (the bot exited or closed it).
    Closed {
        at: Instant,
    },
}

impl Incoming {
    pub fn at(&self) -> Instant {
        match self {
            Incoming::Line { at, .. }
            | Incoming::TooLong { at, .. }
            | Incoming::NotUtf8 { at }
            | Incoming::Closed { at } => *at,
        }
    }
}

/// Lines a reader may have handed over and not yet seen taken: with lines of at most
/// 64 KiB, at most 1 MiB per bot waits in the queue.
pub(crate) const QUEUE_LINES: usize = 16;

/// Reads `stdout` until it closes, sending frames as they complete; waits (reads nothing
/// more) while the queue is full.
pub async fn read_lines(
    mut stdout: impl AsyncRead + Unpin,
    max_line: usize,
    tx: mpsc::Sender<Incoming>,
) {
    let mut splitter = LineSplitter::new(max_line);
    let mut buf = vec![0u8; 16 * 1024];
    let mut frames = Vec::new();
    loop {
        let n = match stdout.read(&mut buf).await {
            Ok(0) | Err(_) => 0,
            Ok(n) => n,
        };
        let at = Instant::now();
        if n == 0 {
            splitter.finish(&mut frames);
        } else {
            splitter.push(&buf[..n], &mut frames);
        }
        for frame in frames.drain(..) {
            let msg = match frame {
                Frame::Line(text) => Incoming::Line { at, text },
                Frame::TooLong { len } => Incoming::TooLong { at, len },
                Frame::NotUtf8 => Incoming::NotUtf8 { at },
            };
            if tx.send(msg).await.is_err() {
                return;
            }
        }
        if n == 0 {
            let _ = tx.send(Incoming::Closed { at }).await;
            return;
        }
    }
}

/// A line to write, and who wants to know when it was flushed.
pub struct Outgoing {
    pub line: String,
    pub flushed: Option<oneshot::Sender<Instant>>,
}

/// Most bytes queued for a bot that does not read its stdin (a request is at most a few
/// KiB; a bot this far behind has stopped reading).
pub(crate) const MAX_QUEUED_BYTES: usize = 1024 * 1024;

/// Writes queued lines to `stdin`; stops when the pipe breaks or the queue closes (closing
/// the pipe, which is the bot's EOF). Lines queued together go out in one write: a result,
/// the events and the next request cost the bot one wake-up, not three.
pub(crate) async fn write_lines(
    mut stdin: impl AsyncWrite + Unpin,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
    queued: Arc<AtomicUsize>,
) {
    let mut buf = Vec::new();
    let mut waiting = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut next = Some(first);
        while let Some(out) = next {
            buf.extend_from_slice(out.line.as_bytes());
            buf.push(b'\n');
            waiting.extend(out.flushed);
            next = rx.try_recv().ok();
        }
        let ok = stdin.write_all(&buf).await.is_ok() && stdin.flush().await.is_ok();
        queued.fetch_sub(buf.len(), Ordering::Relaxed);
        buf.clear();
        if !ok {
            return;
        }
        let at = Instant::now();
        for tx in waiting.drain(..) {
            let _ = tx.send(at);
        }
    }
}
