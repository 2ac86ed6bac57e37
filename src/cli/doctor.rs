//! `zebra doctor`: what this machine gives a bot, level by level: namespaces, the wall
//! around it, cgroups, the default limits, and whether `--sandbox strict` is available.

use super::args::DoctorArgs;
use super::failure::Failure;

/// Prints the sandbox level as text or one JSON object.
pub(super) fn run(args: DoctorArgs) -> Result<(), Failure> {
    doctor(args.json);
    Ok(())
}

/// `zebra doctor`: what this machine gives a bot, level by level.
fn doctor(json: bool) {
    let level = crate::sandbox::level();
    let limits = crate::sandbox::Limits::default();
    let strict = level.strict_missing(&limits);
    let source = |s: &Option<crate::sandbox::cgroup::Source>| s.as_ref().map(|s| s.to_string());
    if json {
        let v = serde_json::json!({
            "sandbox": level.describe(crate::sandbox::Mode::Auto, false),
            "namespaces": level.namespaces,
            "user_namespace": level.user_namespace,
            "namespace_problem": level.namespace_problem,
            "wall": {
                "own_user": level.wall.own_user,
                "view": level.wall.view,
                "fresh_proc": level.wall.fresh_proc,
                "no_cgroup_fs": level.wall.view,
                "seccomp": level.wall.seccomp,
                "landlock": level.wall.landlock,
                "problems": level.wall.problems,
            },
            "keeper": crate::sandbox::keeper::helper_path(),
            "launcher": crate::sandbox::launch::launcher(),
            "bot_uids": crate::sandbox::run::uid_range().ok().map(|(a, b)| format!("{a}-{b}")),
            "cgroups": {
                "memory": source(&level.cgroups.memory),
                "pids": source(&level.cgroups.pids),
                "freezer": source(&level.cgroups.freezer),
            },
            "default_limits": limits.to_string(),
            "strict": strict.is_none(),
            "strict_missing": strict,
        });
        println!("{v}");
        return;
    }
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    println!(
        "sandbox level (auto): {}",
        level.describe(crate::sandbox::Mode::Auto, false)
    );
    println!("  rlimits, process group, parent-death signal: yes");
    println!(
        "  PID, network, mount, IPC, UTS and cgroup namespaces: {}{}",
        yes_no(level.namespaces),
        match (&level.namespace_problem, level.user_namespace) {
            (Some(p), _) => format!(" ({p}; fallback: child subreaper)"),
            (None, true) => " (in a user namespace)".to_string(),
            (None, false) => String::new(),
        }
    );
    let wall = &level.wall;
    let root = crate::sandbox::run::uid_range();
    let user_how = match (level.user_namespace, root) {
        (true, _) => " (Zebra's own id in a user namespace, capabilities dropped)".to_string(),
        (false, Ok((a, b))) => format!(" (a host id of its own from {a}-{b}, ZEBRA_BOT_UIDS)"),
        (false, Err(e)) => format!(" ({e})"),
    };
    for (name, held, how) in [
        (
            "an ordinary user without capabilities",
            wall.own_user,
            user_how,
        ),
        (
            "its own read-only view (pivot_root; no /sys, so no cgroup file system)",
            wall.view,
            String::new(),
        ),
        (
            "a fresh /proc of its own processes",
            wall.fresh_proc,
            String::new(),
        ),
        ("seccomp filter", wall.seccomp, String::new()),
        (
            "Landlock (second file, signal and TCP layer)",
            wall.landlock > 0,
            if wall.landlock > 0 {
                format!(" (v{})", wall.landlock)
            } else {
                " (optional)".to_string()
            },
        ),
    ] {
        println!(
            "  {name}: {}{}",
            yes_no(held && level.namespaces),
            if held && level.namespaces {
                how
            } else {
                String::new()
            }
        );
    }
    for problem in &wall.problems {
        println!("    why not: {problem}");
    }
    {
        match (
            crate::sandbox::launch::launcher(),
            crate::sandbox::keeper::helper_path(),
        ) {
            (Some(path), _) => {
                println!("  start: launched by {} (no fork of Zebra)", path.display())
            }
            (None, Some(path)) => println!(
                "  start: forks of Zebra (launches off: ZEBRA_SANDBOX_DISABLE=launch, or no /proc/self/fd); keeper and init exec {}",
                path.display()
            ),
            (None, None) => println!(
                "  start: forks of Zebra (no {} beside zebra: slower, as walled)",
                crate::sandbox::keeper::PROGRAM
            ),
        }
    }
    for (name, s) in [
        ("memory", &level.cgroups.memory),
        ("pids", &level.cgroups.pids),
        ("freezer", &level.cgroups.freezer),
    ] {
        println!(
            "  cgroup {name}: {}",
            source(s).unwrap_or_else(|| "none".to_string())
        );
    }
    println!("default limits per bot: {limits}");
    match strict {
        None => println!("--sandbox strict: available"),
        Some(missing) => println!("--sandbox strict: not available (lacks {missing})"),
    }
}
