//! Line framing for bot output: `\n`-terminated UTF-8 lines, with a hard length limit.
//!
//! The splitter holds at most one line of bytes: a line longer than the limit is dropped
//! as it streams in (and reported once), so a bot that floods stdout without newlines costs
//! bounded memory. `\r\n` endings, blank lines and a leading byte-order mark are accepted.

/// What the splitter made of the bytes so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A complete line, without its line ending.
    Line(String),
    /// A line longer than the limit (its bytes were dropped); `len` counts what was seen.
    TooLong { len: usize },
    /// A line that is not UTF-8.
    NotUtf8,
}

/// Splits a byte stream into [`Frame`]s.
#[derive(Debug)]
pub struct LineSplitter {
    max: usize,
    buf: Vec<u8>,
    /// Bytes of the current over-long line seen so far (0 when not in one).
    overflow: usize,
    first_line: bool,
}

impl LineSplitter {
    /// A splitter for lines of at most `max` bytes (the line ending not counted).
    pub fn new(max: usize) -> LineSplitter {
        LineSplitter {
            max,
            buf: Vec::new(),
            overflow: 0,
            first_line: true,
        }
    }

    /// Feeds bytes; complete frames go to `out`. Blank lines are skipped.
    pub fn push(&mut self, mut bytes: &[u8], out: &mut Vec<Frame>) {
        while !bytes.is_empty() {
            match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.take(&bytes[..i]);
                    bytes = &bytes[i + 1..];
                    self.finish_line(out);
                }
                None => {
                    self.take(bytes);
                    bytes = &[];
                }
            }
        }
    }

    /// The stream ended: a last line without `\n` still counts.
    pub fn finish(&mut self, out: &mut Vec<Frame>) {
        if !self.buf.is_empty() || self.overflow > 0 {
            self.finish_line(out);
        }
    }

    fn take(&mut self, part: &[u8]) {
        if self.overflow > 0 {
            self.overflow += part.len();
        } else if self.buf.len() + part.len() > self.max + 1 {
            // +1 leaves room for a '\r' before the '\n'.
            self.overflow = self.buf.len() + part.len();
            self.buf.clear();
            self.buf.shrink_to(4096);
        } else {
            self.buf.extend_from_slice(part);
        }
    }

    fn finish_line(&mut self, out: &mut Vec<Frame>) {
        if self.overflow > 0 {
            out.push(Frame::TooLong { len: self.overflow });
            self.overflow = 0;
            self.first_line = false;
            return;
        }
        let mut line = std::mem::take(&mut self.buf);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if self.first_line && line.starts_with(&[0xEF, 0xBB, 0xBF]) {
            line.drain(..3);
        }
        self.first_line = false;
        if line.len() > self.max {
            out.push(Frame::TooLong { len: line.len() });
            return;
        }
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            return;
        }
        match String::from_utf8(line) {
            Ok(s) => out.push(Frame::Line(s)),
            Err(_) => out.push(Frame::NotUtf8),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(max: usize, chunks: &[&[u8]]) -> Vec<Frame> {
        let mut s = LineSplitter::new(max);
        let mut out = Vec::new();
        for c in chunks {
            s.push(c, &mut out);
        }
        s.finish(&mut out);
        out
    }

    fn line(s: &str) -> Frame {
        Frame::Line(s.to_string())
    }

    #[test]
    fn lines_split_across_chunks() {
        assert_eq!(
            split(100, &[b"{\"a\"", b":1}\n{\"b\":2}\n"]),
            vec![line("{\"a\":1}"), line("{\"b\":2}")]
        );
    }

    #[test]
    fn crlf_blank_lines_and_bom_are_accepted() {
        let out = split(100, &[b"\xEF\xBB\xBF{}\r\n", b"\n\r\n   \n{\"x\":1}\r\n"]);
        assert_eq!(out, vec![line("{}"), line("{\"x\":1}")]);
    }

    #[test]
    fn a_line_over_the_limit_is_dropped_and_reported_once() {
        let long = vec![b'x'; 50];
        let out = split(10, &[&long, &long, b"\nok\n"]);
        assert_eq!(out, vec![Frame::TooLong { len: 100 }, line("ok")]);
        assert_eq!(split(3, &[b"abcd\n"]), vec![Frame::TooLong { len: 4 }]);
        assert_eq!(split(3, &[b"abc\r\n"]), vec![line("abc")]);
    }

    #[test]
    fn memory_stays_bounded_while_flooded() {
        let mut s = LineSplitter::new(1000);
        let mut out = Vec::new();
        let chunk = vec![b'y'; 64 * 1024];
        for _ in 0..100 {
            s.push(&chunk, &mut out);
            assert!(s.buf.capacity() <= 64 * 1024 + 1001, "{}", s.buf.capacity());
        }
        assert!(out.is_empty());
        s.push(b"\n", &mut out);
        assert_eq!(out, vec![Frame::TooLong { len: 6_553_600 }]);
    }

    #[test]
    fn invalid_utf8_is_a_frame_of_its_own() {
        assert_eq!(
            split(100, &[b"\xff\xfe\n{}\n"]),
            vec![Frame::NotUtf8, line("{}")]
        );
    }

    #[test]
    fn a_last_line_without_newline_counts() {
        assert_eq!(split(100, &[b"{}"]), vec![line("{}")]);
    }
}
