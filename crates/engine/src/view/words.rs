//! Plain English shared by every game's captions (each game's `caption` module): a team's
//! name, ordinals, and phrases joined into one sentence.

use crate::rules::Side;

/// `White`, `Black`.
pub fn team(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A code word as words: `illegal-forward-pass` → `illegal forward pass`.
pub fn spaced(code: &str) -> String {
    code.replace(['-', '_'], " ")
}

/// Phrases as one sentence: the first capitalised, joined by `; `, a full stop at the end.
/// No phrases: an empty string.
pub fn sentence(phrases: &[String]) -> String {
    let joined = phrases
        .iter()
        .filter(|p| !p.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    let mut chars = joined.chars();
    match chars.next() {
        None => String::new(),
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_and_sentences() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).to_vec();
        assert_eq!(
            got,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
        assert_eq!(
            sentence(&["black's king throws to a3".into(), "incomplete".into()]),
            "Black's king throws to a3; incomplete."
        );
        assert_eq!(sentence(&[]), "");
        assert_eq!(spaced("too-many-men"), "too many men");
    }
}
