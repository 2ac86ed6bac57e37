//! Zebra's own memory stays bounded whatever its bots write: four games at once against
//! bots that flood stdout before `ready` and after it (while the opponent thinks for
//! seconds, so that nobody reads them), send a 64 MiB line, or 64 MiB of stderr. Zebra's
//! peak resident memory (VmHWM) must stay within the book's bound (docs/src/operators/sandbox-caveats.md): 64 MiB plus 8 MiB per
//! game running at once.
//!
//! This file holds one test, so that the process's peak memory is this test's alone.

use zebra::bot::BotSpec;

#[test]
fn zebras_memory_stays_bounded_whatever_its_bots_write() {
    let bot = BotSpec::from_command("flood", env!("CARGO_BIN_EXE_zebra-test-bot")).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let r = rt.block_on(zebra::bench::flood(&bot)).unwrap();
    assert!(
        r.peak_rss_after_kib <= r.bound_kib,
        "peak RSS {} KiB over the bound {} KiB: {r:?}",
        r.peak_rss_after_kib,
        r.bound_kib
    );
    assert!(r.peak_rss_after_kib > 0, "VmHWM could not be read");
    // Each flood got its own consequence, judged on what arrived, not left to a clock.
    assert!(r.endings[0].contains("(output-flood)"), "{:?}", r.endings);
    assert!(r.endings[1].contains("(output-flood)"), "{:?}", r.endings);
    assert!(r.endings[2].contains("over the limit"), "{:?}", r.endings);
    assert!(r.endings[3].starts_with("normal"), "{:?}", r.endings);
}
