//! The line splitter under arbitrary bytes in arbitrary chunks: never more than one line
//! held, every frame within the limit, and the same frames however the bytes are cut.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zebra_engine::protocol::codec::{Frame, LineSplitter};

fuzz_target!(|data: &[u8]| {
    let Some((&cut, bytes)) = data.split_first() else {
        return;
    };
    let max = 64;
    let whole = {
        let mut s = LineSplitter::new(max);
        let mut out = Vec::new();
        s.push(bytes, &mut out);
        s.finish(&mut out);
        out
    };
    let chunked = {
        let mut s = LineSplitter::new(max);
        let mut out = Vec::new();
        for chunk in bytes.chunks(usize::from(cut).max(1)) {
            s.push(chunk, &mut out);
        }
        s.finish(&mut out);
        out
    };
    assert_eq!(whole, chunked);
    for f in &whole {
        if let Frame::Line(text) = f {
            assert!(text.len() <= max + 1, "a line over the limit: {}", text.len());
        }
    }
});
