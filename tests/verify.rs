//! `zebra verify FILE` on damaged and hostile files, through the real binary.
//!
//! Each test is named after a defect an independent test found: an empty file that passed,
//! a truncated file that gave no verdict for its intact games, an oversized token echoed
//! whole into the error, a file read into memory without bound, and a BOM or a byte that is
//! not UTF-8 without a line number. The files are real records: the golden file of
//! tests/record.rs, and games the bundled bots play.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use zebra::record::{read::MAX_LINE, GameReader, RecordError, QUOTE_MAX};

mod common;

use common::run::{scratch, text, zebra_command};

/// The golden multi-game file (three games, written by the record writer).
fn golden() -> Vec<u8> {
    std::fs::read(common::golden_path()).unwrap()
}

/// `game 4: line N: `, N the first line after the golden file: where text appended to it
/// starts.
fn after_golden() -> String {
    format!("game 4: line {}: ", text(&golden()).lines().count() + 1)
}

/// What `zebra verify` prints on the golden file, before and after streaming.
const GOLDEN_VERDICTS: &str = "\
game 1 (random vs random): ok, 1/2-1/2 (normal, 38 actions, 4 clock expiries)
game 2: ok, 1-0 (normal, 160 actions, 0 clock expiries)
game 3 (slow vs ?): ok, 0-1 (time forfeit, 222 actions, 0 clock expiries)
3 games verified
";

/// A line in the middle of the third game's movetext (1-based): cutting the file after it
/// leaves two intact games and a damaged third.
fn in_third_movetext(file: &[u8]) -> usize {
    let text = String::from_utf8_lossy(file);
    let third = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[Event "))
        .nth(2)
        .map(|(i, _)| i)
        .expect("a third game");
    let movetext = text
        .lines()
        .enumerate()
        .skip(third)
        .find(|(_, l)| l.starts_with('{'))
        .map(|(i, _)| i + 1)
        .expect("the third game's movetext");
    movetext + 1
}

/// `zebra verify` on a file holding `bytes`.
fn verify_bytes(name: &str, bytes: &[u8]) -> Output {
    let dir = scratch(name);
    let path = dir.join("games.pgn");
    std::fs::write(&path, bytes).unwrap();
    let out = verify_path(&path);
    std::fs::remove_dir_all(&dir).ok();
    out
}

fn verify_path(path: &Path) -> Output {
    zebra_command(&["verify"])
        .arg(path)
        .output()
        .expect("the zebra binary runs")
}

/// A failed verification: exit code 1 and exactly one `zebra:` line on stderr, returned.
fn failed(out: &Output) -> String {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}{err}", text(&out.stdout));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("zebra: "), "{err}");
    err
}

/// The byte offset of the start of line `n` (1-based) in `bytes`.
fn line_start(bytes: &[u8], n: usize) -> usize {
    bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(n - 2)
        .map_or(0, |(i, _)| i + 1)
}

#[test]
fn a_normal_multi_game_file_verifies_as_before() {
    let out = verify_bytes("normal", &golden());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), GOLDEN_VERDICTS);
    assert!(out.stderr.is_empty());
    // Windows line endings read the same.
    let crlf = text(&golden()).replace('\n', "\r\n");
    let out = verify_bytes("crlf", crlf.as_bytes());
    assert_eq!(text(&out.stdout), GOLDEN_VERDICTS);
}

#[test]
fn an_empty_file_is_no_game() {
    for (name, bytes) in [
        ("empty", &b""[..]),
        ("blank", b"\n\n"),
        ("whitespace", b"  \t\r\n \n\t"),
        ("comment", b"{ only a comment }\n; and another\n"),
        ("bom", b"\xef\xbb\xbf\n"),
    ] {
        let out = verify_bytes(name, bytes);
        let err = failed(&out);
        assert!(err.contains("no game"), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}: {}", text(&out.stdout));
    }
}

#[test]
fn a_truncated_file_gives_a_verdict_for_every_intact_game() {
    let full = golden();
    // Cut the third game in the middle of its movetext.
    let n = in_third_movetext(&full);
    let cut = &full[..line_start(&full, n + 1)];
    let out = verify_bytes("truncated", cut);
    let err = failed(&out);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[..2], GOLDEN_VERDICTS.lines().collect::<Vec<_>>()[..2]);
    assert!(
        lines[2].starts_with(&format!("game 3: line {n}: missing result token")),
        "{stdout}"
    );
    assert!(
        err.contains(&format!(
            "cannot be read from line {n} on; the 2 game(s) before it verified"
        )),
        "{err}"
    );

    // A cut inside a `{` comment names the line the comment opened on.
    let cut = text(&full);
    let open = cut.rfind('{').unwrap();
    let line = cut[..open].lines().count();
    let out = verify_bytes("truncated-comment", &full[..open + 3]);
    failed(&out);
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .starts_with(&format!("game 3: line {line}: unterminated comment")),
        "{stdout}"
    );

    // A diverging game before the damage keeps its own verdict.
    let tampered = text(&full).replacen("[Score \"", "[Score \"9", 1);
    let tampered = tampered.as_bytes();
    let out = verify_bytes(
        "truncated-diverging",
        &tampered[..line_start(tampered, in_third_movetext(tampered))],
    );
    let err = failed(&out);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("game 1 (random vs random): entry "),
        "{stdout}"
    );
    assert!(stdout.contains("the Score tag"), "{stdout}");
    assert!(
        err.contains("1 of the 2 game(s) before it diverge"),
        "{err}"
    );
}

#[test]
fn a_truncated_play_record_gives_a_verdict_for_every_intact_game() {
    let dir = scratch("play");
    let pgn = dir.join("games.pgn");
    for seed in ["1", "2"] {
        let out = Command::new(env!("CARGO_BIN_EXE_zebra"))
            .args(["play", "--tc", "plays=1,play=5s,reaction=5s", "--quiet"])
            .args(["--seed", seed, "--pgn"])
            .arg(&pgn)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let full = std::fs::read(&pgn).unwrap();
    let out = verify_path(&pgn);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("2 games verified\n"));

    // Cut the second game a few lines after its movetext begins.
    let whole = text(&full);
    let second = whole.match_indices("\n[Event ").next().unwrap().0 + 1;
    let movetext = second + whole[second..].find("\n\n").unwrap() + 2;
    let line = whole[..movetext].lines().count() + 2;
    let cut = &full[..line_start(&full, line) + 5];
    std::fs::write(&pgn, cut).unwrap();
    let out = verify_path(&pgn);
    let err = failed(&out);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("game 1 (greedy vs random): ok, "),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(&format!("game 2: line {line}: ")),
        "{stdout}"
    );
    assert!(err.contains(&format!("from line {line} on")), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every line of the output is short: the error quotes at most [`QUOTE_MAX`] characters.
fn assert_short(out: &Output) {
    for line in text(&out.stdout).lines().chain(text(&out.stderr).lines()) {
        assert!(
            line.chars().count() < 400,
            "{} chars: {line:.400}",
            line.len()
        );
    }
}

#[test]
fn an_oversized_token_is_not_echoed_whole() {
    // 20 MB on one line: the line is over the cap, and the error says so in a few words.
    let mut file = golden();
    file.extend(std::iter::repeat_n(b'x', 20_000_000));
    file.push(b'\n');
    let out = verify_bytes("token-20mb", &file);
    failed(&out);
    assert_short(&out);
    assert!(out.stdout.len() + out.stderr.len() < 2000);
    assert!(text(&out.stdout).contains(&format!("{}longer than", after_golden())));

    // A long token within the cap is quoted, cut with an ellipsis.
    let mut file = golden();
    file.extend(std::iter::repeat_n(b'y', MAX_LINE / 2));
    file.extend(b" *\n");
    let out = verify_bytes("token-long", &file);
    failed(&out);
    assert_short(&out);
    let stdout = text(&out.stdout);
    let quoted = format!("unknown token '{}…'", "y".repeat(QUOTE_MAX));
    assert!(stdout.contains(&quoted), "{stdout:.500}");

    // So are a long tag line, text after a result, and a Score tag (a divergence).
    let long = "z".repeat(100_000);
    for (name, tail) in [
        ("tag-line", format!("[Event \"x\" {long}]\n")),
        ("after-result", format!("snap * {long}\n")),
        (
            "duplicate-tag",
            format!("[A{long} \"1\"]\n[A{long} \"2\"]\n"),
        ),
        ("command", format!("snap {{[%emt {long}]}} *\n")),
    ] {
        let mut file = golden();
        file.extend(tail.as_bytes());
        let out = verify_bytes(name, &file);
        failed(&out);
        assert_short(&out);
        assert!(text(&out.stdout).contains("zzzz…"), "{name}");
    }
    let score = text(&golden()).replacen("[Score \"", &format!("[Score \"{long}"), 1);
    let out = verify_bytes("score", score.as_bytes());
    failed(&out);
    assert_short(&out);

    // Control characters in a quoted token are escaped: they never reach the terminal.
    let mut file = golden();
    file.extend(b"snap \x1b[31mred\x07 *\n");
    let out = verify_bytes("escape", &file);
    failed(&out);
    let stdout = text(&out.stdout);
    assert!(
        !stdout.contains('\x1b') && !stdout.contains('\x07'),
        "{stdout}"
    );
    assert!(stdout.contains("\\u001b[31mred\\u0007"), "{stdout}");
}

#[test]
fn a_leading_bom_is_skipped() {
    let mut file = b"\xef\xbb\xbf".to_vec();
    file.extend(golden());
    let out = verify_bytes("bom", &file);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), GOLDEN_VERDICTS);

    // Anywhere else it is a character like any other, and an error shows it escaped.
    let mut file = golden();
    file.extend("\u{feff}snap *\n".as_bytes());
    let out = verify_bytes("bom-inside", &file);
    failed(&out);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("{}unknown token '\\ufeffsnap'", after_golden())),
        "{stdout}"
    );
}

#[test]
fn a_byte_that_is_not_utf8_is_named_by_its_line() {
    let full = golden();
    // Three lines into the second game's tags: the first game keeps its verdict.
    let second = String::from_utf8_lossy(&full)
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[Event "))
        .nth(1)
        .map(|(i, _)| i + 1)
        .expect("a second game");
    let n = second + 3;
    let at = line_start(&full, n) + 3;
    let mut file = full[..at].to_vec();
    file.push(0xff);
    file.extend(&full[at..]);
    let out = verify_bytes("utf8", &file);
    let err = failed(&out);
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout,
        format!(
            "{}\ngame 2: line {n}: not UTF-8 (byte 4 of the line)\n",
            GOLDEN_VERDICTS.lines().next().unwrap()
        )
    );
    assert!(err.contains(&format!("from line {n} on")), "{err}");

    // Latin-1 text in the first line.
    let out = verify_bytes("latin1", b"[Event \"Caf\xe9\"]\n");
    failed(&out);
    assert_eq!(
        text(&out.stdout),
        "game 1: line 1: not UTF-8 (byte 12 of the line)\n"
    );
}

#[test]
fn a_very_long_line_is_an_error_with_its_number() {
    // One byte over the cap is too long; exactly the cap is read (and is a bad token).
    for (len, too_long) in [(MAX_LINE + 1, true), (MAX_LINE, false)] {
        let mut file = golden();
        file.extend(std::iter::repeat_n(b'w', len));
        file.push(b'\n');
        let out = verify_bytes("long-line", &file);
        failed(&out);
        let stdout = text(&out.stdout);
        assert_eq!(
            stdout.contains(&format!("{}longer than 1048576 bytes", after_golden())),
            too_long,
            "{stdout:.300}"
        );
    }
    // A comment that never closes is bounded like a line.
    let mut file = golden();
    file.extend(b"snap {\n");
    for _ in 0..20 {
        file.extend(std::iter::repeat_n(b'c', 100_000));
        file.push(b'\n');
    }
    let out = verify_bytes("long-comment", &file);
    failed(&out);
    assert_short(&out);
    assert!(text(&out.stdout).contains(&format!("{}comment opened here runs past", after_golden())));
}

#[test]
fn a_huge_line_is_not_read_into_memory() {
    // 256 MB without a newline through a pipe: Zebra must stop reading after the line cap,
    // so the writer finds the pipe closed after a few MiB at most: Zebra cannot have held
    // more than it accepted. (Its peak RSS is not asserted: a child spawned from a test
    // process reports that process's own peak in ru_maxrss, since exec records the old
    // address space's high-water mark, which made such a check depend on the other tests.)
    let mut child = Command::new(env!("CARGO_BIN_EXE_zebra"))
        .args(["verify", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 16];
        let mut written = 0usize;
        while written < 256 << 20 {
            match stdin.write(&chunk) {
                Ok(n) => written += n,
                Err(_) => break,
            }
        }
        written
    });
    let status = child.wait().unwrap();
    let written = writer.join().unwrap();
    assert_eq!(status.code(), Some(1));
    assert!(written < 16 << 20, "{written} bytes accepted");
    let mut out = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
    assert_eq!(
        out,
        "game 1: line 1: longer than 1048576 bytes (a record's lines are short: the file is damaged or not a record)\n"
    );
}

#[test]
fn the_game_reader_streams_games_then_the_damage() {
    let full = golden();
    let n = in_third_movetext(&full);
    let cut = &full[..line_start(&full, n + 1)];
    let items: Vec<Result<_, RecordError>> = GameReader::new(cut).collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[1].is_ok());
    assert!(matches!(
        items[2],
        Err(RecordError::MissingResult { line, .. }) if line == n
    ));
    // A game completed on the broken line still comes out before the problem.
    let items: Vec<_> = GameReader::new(&b"snap * trailing\nsnap *\n"[..]).collect();
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(items[0].is_ok());
    assert!(matches!(
        items[1],
        Err(RecordError::AfterResult { line: 1, .. })
    ));
    // read_games keeps its old answer: the games, or the first problem.
    let whole = zebra::record::read_games(&text(&full)).unwrap();
    assert_eq!(whole.len(), 3);
    assert_eq!(zebra::record::read_games("").unwrap(), vec![]);
}

/// The golden file with game `n`'s (1-based) Rulings tag replaced by `line` ("" removes it).
fn with_rulings(file: &str, n: usize, line: &str) -> String {
    let tag = "[Rulings \"3\"]\n";
    let (at, _) = file.match_indices(tag).nth(n - 1).unwrap();
    format!("{}{line}{}", &file[..at], &file[at + tag.len()..])
}

#[test]
fn a_game_of_another_rulings_edition_is_refused_with_one_line_not_replayed() {
    let full = text(&golden());
    // Every game written today names the engine's edition, and verifies (above).
    assert_eq!(full.matches("[Rulings \"3\"]\n").count(), 3);
    assert_eq!(zebra::rules::RULINGS_EDITION, "3");
    // Games are named with their players where the record names them (game 3: White only).
    let refused = |n: usize, edition: &str| {
        let who = match n {
            1 => " (random vs random)",
            3 => " (slow vs ?)",
            _ => "",
        };
        format!("game {n}{who}: played under rulings edition {edition}; this zebra judges edition 3 only (verify it with the zebra release that wrote it)")
    };
    let golden_line = |n: usize| GOLDEN_VERDICTS.lines().nth(n - 1).unwrap().to_string();

    // Game 2 says edition 1; game 3 has no tag (a record from before the tag: edition 1),
    // and a Score that would diverge if it were replayed.
    let file = with_rulings(&full, 3, "");
    let file = with_rulings(&file, 2, "[Rulings \"1\"]\n");
    let file = file.replacen("[Score \"2-0\"]", "[Score \"9-0\"]", 1);
    let out = verify_bytes("editions", file.as_bytes());
    let err = failed(&out);
    assert_eq!(
        text(&out.stdout),
        format!(
            "{}\n{}\n{}\n",
            golden_line(1),
            refused(2, "1"),
            refused(3, "1")
        )
    );
    assert_eq!(
        err,
        "zebra: 2 of 3 games were not verified: played under another rulings edition (this zebra judges edition 3 only)\n"
    );

    // A later edition is refused the same way; a diverging game keeps its own verdict, and
    // the summary counts both.
    let file = with_rulings(&full, 3, "[Rulings \"4\"]\n");
    let file = file.replacen("[Score \"", "[Score \"9", 1);
    let out = verify_bytes("editions-diverging", file.as_bytes());
    let err = failed(&out);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with("game 1 (random vs random): entry "),
        "{stdout}"
    );
    assert_eq!(lines[1], golden_line(2));
    assert_eq!(lines[2], refused(3, "4"));
    assert_eq!(
        err,
        "zebra: 1 of 3 games diverge from the rules; 1 was not verified: played under another rulings edition (this zebra judges edition 3 only)\n"
    );

    // Before damage: the games before it keep their verdicts, and the last line counts them.
    let file = with_rulings(&full, 1, "");
    let cut = &file.as_bytes()[..line_start(file.as_bytes(), in_third_movetext(file.as_bytes()))];
    let out = verify_bytes("editions-truncated", cut);
    let err = failed(&out);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with(&refused(1, "1")), "{stdout}");
    assert!(
        err.ends_with("; 1 of the 2 game(s) before it was not verified: played under another rulings edition (this zebra judges edition 3 only)\n"),
        "{err}"
    );
}
