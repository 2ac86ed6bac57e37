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
