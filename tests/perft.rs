//! Pinned perft counts for the built-in positions of `zebra::rules::perft`, read from
//! `tests/data/perft.txt` (one `position depth count` line each, `#` comments).
//!
//! A count that changes means the legal actions changed. If the change is intended (a rule
//! fixed on purpose), regenerate the data file and review its diff before committing:
//!
//! ```text
//! ZEBRA_REGENERATE=1 cargo test --release --test perft
//! ```
//!
//! With `ZEBRA_REGENERATE=1` the pinned-count test rewrites the file with the current counts
//! (same positions and depths, plus depths 1..=3 of any built-in position it lacks) instead of
//! asserting. The other tests here check perft's own consistency: `divide` sums to `perft`,
//! every generated action is accepted by `Game::apply`, lists hold no duplicates, and counts
//! are deterministic.

use std::collections::HashSet;
use std::fmt::Write as _;

use zebra::rules::perft::{divide, perft, position, POSITIONS};
use zebra::rules::{Action, Game};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");

const HEADER: &str = "\
# Pinned perft counts for the built-in positions of crates/engine/src/games/football_chess/perft.rs, checked by tests/perft.rs.
# One line per `position depth count`; `#` starts a comment.
#
# Regenerate after an intended rules change, then review the diff:
#   ZEBRA_REGENERATE=1 cargo test --release --test perft
";

/// Deepest depth pinned for a position added on regeneration.
const DEFAULT_DEPTH: u32 = 3;

struct Case {
    name: String,
    depth: u32,
    count: u64,
}

fn read_cases() -> Vec<Case> {
    let text = std::fs::read_to_string(DATA).unwrap_or_else(|e| panic!("cannot read {DATA}: {e}"));
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let bad = || {
            panic!(
                "{DATA}:{}: expected 'position depth count', got '{raw}'",
                i + 1
            )
        };
        let [name, depth, count] = fields.as_slice() else {
            bad()
        };
        let (Ok(depth), Ok(count)) = (depth.parse(), count.parse()) else {
            bad()
        };
        cases.push(Case {
            name: name.to_string(),
            depth,
            count,
        });
    }
    cases
}

fn game(name: &str) -> Game {
    position(name).unwrap_or_else(|| panic!("'{name}' is not a built-in perft position"))
}

fn regenerate(mut cases: Vec<Case>) {
    for (name, _) in POSITIONS {
        if !cases.iter().any(|c| c.name == *name) {
            for depth in 1..=DEFAULT_DEPTH {
                cases.push(Case {
                    name: name.to_string(),
                    depth,
                    count: 0,
                });
            }
        }
    }
    let mut out = HEADER.to_string();
    for c in &cases {
        let count = perft(&game(&c.name), c.depth);
        writeln!(out, "{} {} {}", c.name, c.depth, count).unwrap();
    }
    std::fs::write(DATA, out).unwrap_or_else(|e| panic!("cannot write {DATA}: {e}"));
    eprintln!("ZEBRA_REGENERATE=1: rewrote {DATA}");
}

#[test]
fn perft_counts_match_the_pinned_data() {
    let cases = read_cases();
    if std::env::var("ZEBRA_REGENERATE").as_deref() == Ok("1") {
        regenerate(cases);
        return;
    }
    assert!(!cases.is_empty(), "{DATA} pins no counts");
    for (name, _) in POSITIONS {
        assert!(
            cases.iter().any(|c| c.name == *name),
            "built-in position '{name}' has no pinned count in {DATA} (run with ZEBRA_REGENERATE=1)"
        );
    }
    let mut wrong = Vec::new();
    for c in &cases {
        let got = perft(&game(&c.name), c.depth);
        if got != c.count {
            wrong.push(format!(
                "{} {}: pinned {}, now {}",
                c.name, c.depth, c.count, got
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "perft counts changed (if intended, rerun with ZEBRA_REGENERATE=1 and review the diff):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn perft_of_depth_zero_is_one_and_of_depth_one_is_the_list_length() {
    for (name, _) in POSITIONS {
        let g = game(name);
        assert_eq!(perft(&g, 0), 1, "{name}");
        assert_eq!(perft(&g, 1), g.legal_action_list().len() as u64, "{name}");
    }
}

#[test]
fn formations_are_not_enumerated() {
    // A new game starts with White's formation: nothing to count (see the perft docs).
    let g = Game::default();
    assert_eq!(perft(&g, 1), 0);
    assert_eq!(perft(&g, 2), 0);
}

#[test]
fn divide_sums_to_perft() {
    for (name, _) in POSITIONS {
        let g = game(name);
        let listed: Vec<String> = g
            .legal_action_list()
            .iter()
            .map(|a| a.to_string())
            .collect();
        for depth in 1..=3 {
            let d = divide(&g, depth);
            let names: Vec<String> = d.iter().map(|(a, _)| a.clone()).collect();
            assert_eq!(
                names, listed,
                "divide {name} {depth} names the legal actions in order"
            );
            let sum: u64 = d.iter().map(|(_, n)| n).sum();
            assert_eq!(sum, perft(&g, depth), "divide {name} {depth} sums to perft");
            if depth == 1 {
                assert!(
                    d.iter().all(|&(_, n)| n == 1),
                    "divide {name} 1 counts one per action"
                );
            }
        }
    }
}

/// Applies every listed action to depth `depth` (on clones), checking that `apply` accepts
/// it, that the list has no duplicates, and that every action's notation parses back.
fn walk(g: &Game, depth: u32, path: &mut Vec<Action>, name: &str) {
    if depth == 0 {
        return;
    }
    let list = g.legal_action_list();
    let mut seen = HashSet::new();
    for a in &list {
        let line = || {
            let p: Vec<String> = path.iter().map(|a| a.to_string()).collect();
            format!("{name} after [{}]", p.join(" "))
        };
        assert!(
            seen.insert(*a),
            "{}: '{a}' listed twice\n{}",
            line(),
            g.to_diagram()
        );
        assert_eq!(
            a.to_string().parse::<Action>(),
            Ok(*a),
            "{}: notation of '{a}'",
            line()
        );
        let mut next = g.clone();
        if let Err(e) = next.apply(a) {
            panic!(
                "{}: listed action '{a}' rejected: {e}\n{}",
                line(),
                g.to_diagram()
            );
        }
        path.push(*a);
        walk(&next, depth - 1, path, name);
        path.pop();
    }
}

#[test]
fn every_listed_action_at_depth_one_and_two_is_accepted() {
    for (name, _) in POSITIONS {
        walk(&game(name), 2, &mut Vec::new(), name);
    }
}

#[test]
fn perft_is_deterministic() {
    for (name, diagram) in POSITIONS {
        let g = game(name);
        let again = Game::from_diagram(diagram).expect("built-in diagram");
        let reprinted = Game::from_diagram(&g.to_diagram()).expect("printed diagram");
        for depth in 1..=3 {
            let first = perft(&g, depth);
            assert_eq!(perft(&g, depth), first, "{name} {depth}: same game twice");
            assert_eq!(perft(&again, depth), first, "{name} {depth}: parsed again");
            assert_eq!(
                perft(&reprinted, depth),
                first,
                "{name} {depth}: from its printed diagram"
            );
            assert_eq!(
                divide(&g, depth),
                divide(&again, depth),
                "{name} {depth}: divide"
            );
        }
    }
}
