//! Helpers shared by the tests that run real processes.

use std::path::Path;

/// Whether the process whose `/proc/<pid>` directory this is has exited but is not reaped
/// yet: a zombie holds no resources but its pid, and counts as gone.
pub fn is_zombie(proc_dir: &Path) -> bool {
    std::fs::read_to_string(proc_dir.join("stat"))
        .map(|stat| {
            // The state follows the command name, which is in parentheses and may hold
            // spaces: read it after the last ')'.
            stat.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

/// Live processes whose environment holds `ZEBRA_TEST_MARK=<mark>`, as `pid comm`: a test
/// gives its bots (or Zebra) a mark, and every process they start inherits it.
#[allow(dead_code)] // not every test binary that includes this module uses it
pub fn marked(mark: &str) -> Vec<String> {
    let needle = format!("ZEBRA_TEST_MARK={mark}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) && !is_zombie(&entry.path()) {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            found.push(format!("{pid} {}", comm.trim()));
        }
    }
    found
}
