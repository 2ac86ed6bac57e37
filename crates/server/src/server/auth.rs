//! Who may do what: bearer tokens with a scope and an owner.
//!
//! A token is 32 random bytes from the kernel, shown once when it is created
//! (`zebra serve token create`) and stored only as its SHA-256: a copy of the database
//! gives nobody a token. `admin` can do all that `submit` can, which can do all that
//! `read` can. `worker` is apart: a remote worker's (`zebra worker`), it reads and leases,
//! plays and reports games, and downloads the archives of the bots it plays (everyone's
//! code: an admin gives it only to machines the competition trusts); it cannot submit.
//! The owner is a participant's name: it owns the bots and series it submits, sees their
//! logs and check reports, and may cancel its series; a worker's owner names the worker.

use sha2::{Digest, Sha256};

/// What a token allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Pages, series, games, records, leaderboard, metrics.
    Read,
    /// Also: submit and cancel series, upload bots.
    Submit,
    /// Also: everyone's bots, logs and series, and the workers' routes.
    Admin,
    /// Read, and the workers' routes: lease games, report them, download bots.
    Worker,
}

impl Scope {
    pub const NAMES: &'static str = "read, submit, admin or worker";

    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "read" => Some(Scope::Read),
            "submit" => Some(Scope::Submit),
            "admin" => Some(Scope::Admin),
            "worker" => Some(Scope::Worker),
            _ => None,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Submit => "submit",
            Scope::Admin => "admin",
            Scope::Worker => "worker",
        }
    }

    /// Whether a token of this scope may do what needs `need`.
    pub fn allows(self, need: Scope) -> bool {
        matches!(
            (self, need),
            (Scope::Admin, _)
                | (_, Scope::Read)
                | (Scope::Submit, Scope::Submit)
                | (Scope::Worker, Scope::Worker)
        )
    }
}

/// Who is asking: a token's scope and owner, or nobody (public read-only access).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub scope: Scope,
    /// `None` for public access without a token.
    pub owner: Option<String>,
}

impl Caller {
    /// Whether this caller may see or change what `owner` owns.
    pub fn owns(&self, owner: &str) -> bool {
        self.scope == Scope::Admin || self.owner.as_deref() == Some(owner)
    }
}

/// The prefix of every token, so that one pasted into the wrong place is recognisable.
pub(crate) const TOKEN_PREFIX: &str = "zebra_";

/// A new token: the prefix and 64 hex digits of kernel randomness.
pub(crate) fn new_token() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(format!("{TOKEN_PREFIX}{}", hex(&bytes)))
}

/// What the store keeps of a token.
pub(crate) fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token of an `Authorization: Bearer …` header value; `None` if it is not one.
pub fn bearer(header: &str) -> Option<&str> {
    let (kind, token) = header.trim().split_once(' ')?;
    kind.eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty() && t.len() <= 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_only_their_hash_is_kept() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with(TOKEN_PREFIX) && a.len() == TOKEN_PREFIX.len() + 64);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_ne!(token_hash(&a), token_hash(&b));
        assert!(!token_hash(&a).contains(&a[TOKEN_PREFIX.len()..]));
    }

    #[test]
    fn scopes_allow_what_they_say_and_owners_see_their_own() {
        use Scope::*;
        let all = [Read, Submit, Admin, Worker];
        let allowed = |s: Scope| all.into_iter().filter(|n| s.allows(*n)).collect::<Vec<_>>();
        assert_eq!(allowed(Read), [Read]);
        assert_eq!(allowed(Submit), [Read, Submit]);
        assert_eq!(allowed(Admin), all);
        assert_eq!(allowed(Worker), [Read, Worker]);
        for s in all {
            assert_eq!(Scope::parse(s.as_str()), Some(s));
        }
        assert_eq!(Scope::parse("submit"), Some(Scope::Submit));
        assert_eq!(Scope::parse("root"), None);
        let ann = Caller {
            scope: Scope::Submit,
            owner: Some("ann".into()),
        };
        assert!(ann.owns("ann") && !ann.owns("bob"));
        let admin = Caller {
            scope: Scope::Admin,
            owner: Some("root".into()),
        };
        assert!(admin.owns("bob"));
        assert_eq!(bearer("Bearer zebra_x"), Some("zebra_x"));
        assert_eq!(bearer("bearer  zebra_x "), Some("zebra_x"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer"), None);
    }
}
