//! Where the games at once run: the CPUs of each game slot (`--affinity`). Pure but for
//! [`allowed_cpus`], so that every rule is tested with given CPU lists.
//!
//! With freeze-idle on, a game is sequential: the referee, White and Black take turns and
//! never compute at once (the idle bot is stopped, the referee waits while a bot thinks).
//! Such a game needs one CPU, and is fastest on one: every decision is two wake-ups (the
//! request wakes the bot, the reply wakes the referee), and a wake-up that crosses CPUs
//! costs far more than one that stays (on this project's virtual machines, a pipe round
//! trip between two CPUs took 33 us, on one 4 us). So by default (`auto`) each game at once
//! gets a CPU of its own, which holds its referee thread and both bots; this also keeps the
//! games at once from taking CPU from each other, and a bot's strength from depending on
//! `--concurrency`. The modes:
//!
//! - `game`: as `auto` says, whenever there is one CPU per game at once (else a warning
//!   and no pinning).
//! - `bots`: White's bot on one CPU, Black's on another, two per game at once (the referee
//!   unpinned); for bots that ponder with freeze-idle off.
//! - `none`: nothing pinned (bots that use several CPUs each).
//! - `auto` (the default): `game` when the games are sequential (freeze-idle on, by a cgroup
//!   freezer: [`sequential`]) and there are at least two CPUs and one per game at once;
//!   otherwise nothing pinned, and nothing said.
//!
//! A game's CPU is claimed when the game starts ([`claim`]): an exclusive `flock` on a file
//! per CPU in a directory every Zebra process of the machine shares, held until the game
//! ends (the kernel drops it with the process, however it dies). So two Zebra processes on
//! one machine (two series, a daemon and its local workers, two CI jobs) never pin their
//! games to the same CPU: a game whose preferred CPU is claimed takes another free one, or
//! runs unpinned when none is.

/// `--affinity`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Affinity {
    #[default]
    Auto,
    Game,
    Bots,
    None,
}

impl Affinity {
    pub const NAMES: [&'static str; 4] = ["auto", "game", "bots", "none"];

    pub fn parse(text: &str) -> Result<Affinity, String> {
        match text {
            "auto" => Ok(Affinity::Auto),
            "game" => Ok(Affinity::Game),
            "bots" => Ok(Affinity::Bots),
            "none" => Ok(Affinity::None),
            other => Err(format!(
                "unknown affinity {other:?}; use one of {}",
                Affinity::NAMES.join(", ")
            )),
        }
    }
}

/// Whether games under `policy` are sequential, so that `auto` may put one on one CPU: idle
/// bots are stopped whole, by a cgroup freezer. (Stopped by signals instead, only the bot's
/// process group stops: a child it moved to a session of its own would keep running, and
/// take its time from the opponent on their shared CPU.)
pub fn sequential(policy: crate::sandbox::Policy) -> bool {
    policy.freeze_idle
        && policy.mode != crate::sandbox::Mode::None
        && crate::sandbox::level().cgroups.freezer.is_some()
}

/// The CPUs this process may run on, in order (empty if the kernel does not say).
pub fn allowed_cpus() -> Vec<usize> {
    crate::bot::process::cpus_of(0)
}

/// The CPU of each of `concurrency` worker slots under `auto` for sequential games (the
/// daemon's and `zebra worker`'s slots): empty when nothing is pinned.
pub fn slot_cpus(concurrency: usize) -> Vec<usize> {
    let placement = place(Affinity::Auto, &allowed_cpus(), concurrency, true);
    placement
        .places
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| match p {
            Place::Game(cpu) => Some(cpu),
            Place::Bots(_) => None,
        })
        .collect()
}

/// The directory of the CPU claims: one for every Zebra process of the machine, whoever
/// runs it (world-writable and sticky, as `/tmp` is).
pub fn claims_dir() -> std::path::PathBuf {
    std::env::temp_dir().join("zebra-cpus")
}

/// A CPU held for one game: no other game of any Zebra process on this machine is pinned to
/// it while this lives.
#[derive(Debug)]
pub struct CpuClaim {
    pub cpu: usize,
    _lock: std::fs::File,
}

/// Claims `preferred` if it is free, else the first free CPU of `allowed`; `None` when all
/// are claimed or the claims cannot be kept (the game then runs unpinned).
pub fn claim(preferred: usize, allowed: &[usize]) -> Option<CpuClaim> {
    claim_in(&claims_dir(), preferred, allowed)
}

/// [`claim`] with its directory given (tests use their own).
pub fn claim_in(dir: &std::path::Path, preferred: usize, allowed: &[usize]) -> Option<CpuClaim> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    if std::fs::symlink_metadata(dir).is_err() {
        // Made open to every user (sticky, as /tmp), whoever comes first.
        if std::fs::DirBuilder::new().mode(0o1777).create(dir).is_ok() {
            let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o1777));
        }
    }
    // A real directory, not a link someone left in its place.
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    let order =
        std::iter::once(preferred).chain(allowed.iter().copied().filter(|&c| c != preferred));
    for cpu in order {
        let Some(file) = lock_file(&dir.join(format!("cpu-{cpu}.lock"))) else {
            continue;
        };
        // SAFETY: flock on a descriptor we own.
        if unsafe {
            libc::flock(
                std::os::fd::AsRawFd::as_raw_fd(&file),
                libc::LOCK_EX | libc::LOCK_NB,
            )
        } == 0
        {
            return Some(CpuClaim { cpu, _lock: file });
        }
    }
    None
}

/// Opens a CPU's lock file, read-only (enough for `flock`, so another user's file serves
/// too), making it if missing: readable by every user whatever the umask. An existing file
/// is opened without `O_CREAT` (which a sticky directory refuses on another user's file
/// under `fs.protected_regular`); no link is followed.
fn lock_file(path: &std::path::Path) -> Option<std::fs::File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let open = || {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
    };
    for _ in 0..2 {
        match open() {
            Ok(file) => return Some(file),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => return None,
        }
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .mode(0o644)
            .open(path)
        {
            Ok(file) => {
                let _ = file.set_permissions(std::fs::Permissions::from_mode(0o644));
                return Some(file);
            }
            // Made by another process meanwhile: open it.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(_) => return None,
        }
    }
    None
}

/// Where one game at once runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The game's thread (its referee) and both its bots, on this CPU.
    Game(usize),
    /// White's bot on the first CPU, Black's on the second; the referee unpinned.
    Bots([usize; 2]),
}

/// The places of the games at once (`None`: nothing pinned), and a warning to print when
/// the mode asked for cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub places: Option<Vec<Place>>,
    pub warning: Option<String>,
}

/// Places `concurrency` games at once on the CPUs this process may use (`allowed`, in
/// order), under `affinity`; `sequential`: whether the games are ([`sequential`]).
pub fn place(
    affinity: Affinity,
    allowed: &[usize],
    concurrency: usize,
    sequential: bool,
) -> Placement {
    let none = |warning: Option<String>| Placement {
        places: None,
        warning,
    };
    if concurrency == 0 {
        return none(None);
    }
    let one_each = || {
        Some(
            allowed
                .iter()
                .take(concurrency)
                .map(|&c| Place::Game(c))
                .collect(),
        )
    };
    match affinity {
        Affinity::None => none(None),
        Affinity::Auto => {
            if sequential && allowed.len() >= 2 && concurrency <= allowed.len() {
                Placement {
                    places: one_each(),
                    warning: None,
                }
            } else {
                none(None)
            }
        }
        Affinity::Game => {
            if concurrency <= allowed.len() {
                Placement {
                    places: one_each(),
                    warning: None,
                }
            } else {
                none(Some(format!(
                    "warning: --affinity game needs one CPU per game at once ({concurrency}); this process may use {}: the games run unpinned",
                    allowed.len()
                )))
            }
        }
        Affinity::Bots => {
            if allowed.len() >= 2 * concurrency {
                Placement {
                    places: Some(
                        allowed
                            .chunks_exact(2)
                            .take(concurrency)
                            .map(|p| Place::Bots([p[0], p[1]]))
                            .collect(),
                    ),
                    warning: None,
                }
            } else {
                none(Some(format!(
                    "warning: --affinity bots needs two CPUs per game at once ({} for {concurrency}); this process may use {}: the bots run unpinned",
                    2 * concurrency,
                    allowed.len()
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(affinity: Affinity, allowed: &[usize], k: usize, freeze: bool) -> Option<Vec<Place>> {
        place(affinity, allowed, k, freeze).places
    }

    #[test]
    fn auto_gives_each_game_at_once_a_cpu_of_its_own_when_freeze_idle_is_on() {
        use Place::Game;
        assert_eq!(
            places(Affinity::Auto, &[0, 1], 1, true),
            Some(vec![Game(0)])
        );
        assert_eq!(
            places(Affinity::Auto, &[0, 1], 2, true),
            Some(vec![Game(0), Game(1)])
        );
        // A gap in the allowed CPUs is fine: they are taken in order.
        assert_eq!(
            places(Affinity::Auto, &[1, 3, 4, 7], 3, true),
            Some(vec![Game(1), Game(3), Game(4)])
        );
    }

    #[test]
    fn auto_pins_nothing_and_says_nothing_when_it_cannot_help() {
        // Freeze-idle off: a bot may ponder while the other thinks.
        assert_eq!(place(Affinity::Auto, &[0, 1], 1, false).places, None);
        // One CPU: nothing to choose.
        assert_eq!(place(Affinity::Auto, &[0], 1, true).places, None);
        // More games than CPUs: the overload warning speaks for it.
        assert_eq!(
            place(Affinity::Auto, &[0, 1], 3, true),
            Placement {
                places: None,
                warning: None
            }
        );
    }

    #[test]
    fn game_mode_pins_even_with_freeze_idle_off_and_warns_when_cpus_are_short() {
        assert_eq!(
            places(Affinity::Game, &[0, 1], 2, false),
            Some(vec![Place::Game(0), Place::Game(1)])
        );
        assert_eq!(
            places(Affinity::Game, &[5], 1, true),
            Some(vec![Place::Game(5)])
        );
        let short = place(Affinity::Game, &[0, 1], 3, true);
        assert_eq!(short.places, None);
        assert!(short
            .warning
            .unwrap()
            .contains("one CPU per game at once (3)"));
    }

    #[test]
    fn bots_mode_gives_each_game_two_cpus_or_pins_nothing() {
        use Place::Bots;
        assert_eq!(
            places(Affinity::Bots, &[0, 1, 2, 3], 2, true),
            Some(vec![Bots([0, 1]), Bots([2, 3])])
        );
        assert_eq!(
            places(Affinity::Bots, &[0, 1, 2, 3, 4], 1, true),
            Some(vec![Bots([0, 1])])
        );
        assert_eq!(
            places(Affinity::Bots, &[1, 3, 4, 7], 2, false),
            Some(vec![Bots([1, 3]), Bots([4, 7])])
        );
        let short = place(Affinity::Bots, &[0, 1, 2], 2, true);
        assert_eq!(short.places, None);
        assert!(short.warning.unwrap().contains("(4 for 2)"));
        assert_eq!(place(Affinity::Bots, &[0, 1], 0, true).places, None);
    }

    #[test]
    fn a_claimed_cpu_is_not_claimed_again_until_its_game_ends() {
        let dir = std::env::temp_dir().join(format!("zebra-claims-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = claim_in(&dir, 1, &[0, 1]).expect("a free CPU");
        assert_eq!(first.cpu, 1);
        // Another game preferring the same CPU takes the other one...
        let second = claim_in(&dir, 1, &[0, 1]).expect("the other CPU");
        assert_eq!(second.cpu, 0);
        // ...and a third finds none free: it runs unpinned.
        assert!(claim_in(&dir, 0, &[0, 1]).is_none());
        drop(first);
        assert_eq!(claim_in(&dir, 0, &[0, 1]).map(|c| c.cpu), Some(1));
        drop(second);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn none_pins_nothing() {
        assert_eq!(place(Affinity::None, &[0, 1, 2, 3], 2, true).places, None);
    }

    #[test]
    fn modes_read_back_from_their_names() {
        let modes: Vec<Affinity> = Affinity::NAMES
            .iter()
            .map(|n| Affinity::parse(n).unwrap())
            .collect();
        assert_eq!(
            modes,
            [
                Affinity::Auto,
                Affinity::Game,
                Affinity::Bots,
                Affinity::None
            ]
        );
        assert!(Affinity::parse("cores")
            .unwrap_err()
            .contains("use one of auto, game, bots, none"));
    }
}
