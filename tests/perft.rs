//! Pinned perft counts of every game, read from `tests/data/perft/<game>.txt` by the
//! engine's one runner (`zebra::perft`: one `depth count position` line per case, `#`
//! comments), and Football Chess's perft checked for consistency.
//!
//! A count that changes means the legal actions changed. If the change is intended (a rule
//! fixed on purpose), regenerate the data files and review their diff before committing:
//!
//! ```text
//! ZEBRA_REGENERATE=1 cargo test --release --test perft
//! ```
//!
//! With `ZEBRA_REGENERATE=1` the pinned-count test rewrites each file's counts in place
//! (comments and order kept) instead of asserting. The other tests here check perft's own
//! consistency: `divide` sums to `perft`, every generated action is accepted by
//! `Game::apply`, lists hold no duplicates, and counts are deterministic.

use std::collections::HashSet;

use zebra::perft::{self as runner, Perft};
use zebra::rules::perft::{divide, perft, position, POSITIONS};
use zebra::rules::{Action, Game, Rules};

/// The data file of a game's pinned counts.
fn data_file(rules: Rules) -> String {
    format!(
        "{}/tests/data/perft/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        rules.name()
    )
}

fn game(name: &str) -> Game {
    position(name).unwrap_or_else(|| panic!("'{name}' is not a built-in perft position"))
}

#[test]
fn perft_counts_of_every_game_match_the_pinned_data() {
    let regenerate = std::env::var("ZEBRA_REGENERATE").as_deref() == Ok("1");
    for rules in Rules::ALL {
        let path = data_file(rules);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        if regenerate {
            let fresh = zebra::with_rules!(rules, G => runner::regenerate_file::<G>(&text))
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            std::fs::write(&path, fresh).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
            eprintln!("ZEBRA_REGENERATE=1: rewrote {path}");
            continue;
        }
        let wrong = zebra::with_rules!(rules, G => runner::check_file::<G>(&text));
        assert!(
            wrong.is_empty(),
            "{path}: perft counts changed (if intended, rerun with ZEBRA_REGENERATE=1 and review the diff):\n{}",
            wrong.join("\n")
        );
    }
}

/// Every built-in position has pinned counts.
#[test]
fn every_built_in_position_is_pinned() {
    for rules in Rules::ALL {
        let path = data_file(rules);
        let text = std::fs::read_to_string(&path).unwrap();
        let cases = runner::read_cases(&text).unwrap();
        let names = zebra::with_rules!(rules, G => <G as Perft>::names());
        for name in names {
            assert!(
                cases.iter().any(|c| c.position == name),
                "{path}: built-in position '{name}' has no pinned count"
            );
        }
    }
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
