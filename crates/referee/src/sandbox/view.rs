//! The file system a walled bot sees, planned before the fork and built between fork and
//! exec, after which the bot's root is this view and nothing else (`pivot_root`).
//!
//! The view is a small read-only tmpfs holding:
//! - the system's programs and libraries, read-only: `/usr`, `/bin`, `/sbin`, `/lib*`
//!   (symbolic links where the host has them, as on merged-/usr systems);
//! - a few files of `/etc` that programs need to start (the loader's cache, alternatives,
//!   time zone, `passwd` and `group`, certificates, language runtimes' settings), never
//!   `shadow`, `sudoers` or keys;
//! - `/dev/null`, `zero`, `full`, `random`, `urandom`, and `/dev/fd`, `stdin`... as links;
//! - a fresh `/proc` of the bot's own PID namespace (its own processes only);
//! - `/tmp`: a tmpfs of its own, writable, as large as its disk limit (all files
//!   together), the only place it can write;
//! - its own files, read-only, at their host paths: its working directory when it has one;
//!   the installation of its program (the program's directory, or the directory above a
//!   `bin`, `sbin` or `shims` directory, for the symbolic link and its target both) and of
//!   a script's interpreter (`#!`); without a working directory, the directories of its
//!   arguments that name files or directories; and whatever `ZEBRA_SANDBOX_READ` lists
//!   (paths separated by `:`), for runtimes installed elsewhere.
//!
//! Nothing else: no `/sys` (so no cgroup file system), no `/home`, no Zebra data
//! directory, no other bot, no records.

use std::collections::BTreeSet;
use std::ffi::{CStr, CString};
use std::io;
use std::path::{Component, Path, PathBuf};

/// Directories whose contents every program may need, bound read-only.
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// Entries of `/etc` bound read-only (files or directories), by exact name or prefix `*`.
const ETC: &[&str] = &[
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "localtime",
    "timezone",
    "nsswitch.conf",
    "passwd",
    "group",
    "hosts",
    "host.conf",
    "gai.conf",
    "protocols",
    "services",
    "ssl",
    "ca-certificates",
    "ca-certificates.conf",
    "mime.types",
    "os-release",
    "debian_version",
    "locale.alias",
    "python3*",
    "java*",
    "node*",
];

/// Device nodes bound from the host's `/dev`.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// What the view is made of.
#[derive(Debug)]
pub struct ViewInputs<'a> {
    /// The program, as an absolute path.
    pub program: &'a Path,
    pub args: &'a [String],
    /// The bot's own working directory, when it has one, as an absolute path.
    pub dir: Option<&'a Path>,
    /// Where the bot starts (its `dir`, else Zebra's own working directory).
    pub cwd: &'a Path,
    /// The size of its writable `/tmp`, in bytes.
    pub disk: u64,
    /// The owner of its `/tmp` (user and group id, as seen where the mount is made).
    pub owner: (u32, u32),
    /// Mount a fresh `/proc` (the machine allows it).
    pub proc: bool,
}

/// One step of the build, run in the child.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
enum Step {
    Mkdir(CString),
    Touch(CString),
    Symlink { target: CString, at: CString },
    Bind { from: CString, at: CString },
    Tmpfs { at: CString, options: CString },
    Proc { at: CString },
    ReadOnly(CString),
}

/// A planned view: the steps and where the bot starts.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct View {
    /// The host directory the view's root is mounted on.
    root: CString,
    steps: Vec<Step>,
    cwd: CString,
    /// The host paths of the bot's own files, for `zebra doctor` and error messages.
    #[serde(skip)]
    pub own: Vec<PathBuf>,
}

/// What goes where in the view.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Entry {
    /// A host directory or file, read-only.
    Bind(PathBuf),
    /// A host device node, as it is.
    Device(PathBuf),
    Link(PathBuf),
    Tmpfs,
    Proc,
}

/// What every view holds of the host (the system's directories, the chosen entries of
/// `/etc`, the devices and `/dev`'s links), found once and kept while `/`, `/etc` and `/dev`
/// keep their change times: an entry made, removed, renamed or replaced (a link is only
/// ever replaced) changes its directory's. Finding them took some 30 system calls per bot
/// (`/etc` read and each wanted entry looked at), 2% of a quick game's referee thread.
fn host_entries() -> io::Result<Vec<(PathBuf, Entry)>> {
    type Key = [Option<(i64, i64)>; 3];
    type Kept = Option<(Key, Vec<(PathBuf, Entry)>)>;
    static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(None);
    let key: Key = ["/", "/etc", "/dev"].map(|d| {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(d)
            .ok()
            .map(|m| (m.ctime(), m.ctime_nsec()))
    });
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((k, entries)) = kept.as_ref() {
        if *k == key && key.iter().all(Option::is_some) {
            return Ok(entries.clone());
        }
    }
    let entries = find_host_entries()?;
    *kept = Some((key, entries.clone()));
    Ok(entries)
}

/// [`host_entries`], looked for.
fn find_host_entries() -> io::Result<Vec<(PathBuf, Entry)>> {
    let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
    for dir in SYSTEM {
        let p = Path::new(dir);
        match std::fs::symlink_metadata(p) {
            Ok(m) if m.file_type().is_symlink() => {
                entries.push((p.into(), Entry::Link(std::fs::read_link(p)?)))
            }
            Ok(m) if m.is_dir() => entries.push((p.into(), Entry::Bind(p.into()))),
            _ => {}
        }
    }
    if let Ok(list) = std::fs::read_dir("/etc") {
        for e in list.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let wanted = ETC.iter().any(|w| match w.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => *w == name,
            });
            if !wanted {
                continue;
            }
            let p = e.path();
            match std::fs::symlink_metadata(&p) {
                Ok(m) if m.file_type().is_symlink() => {
                    entries.push((p.clone(), Entry::Link(std::fs::read_link(&p)?)))
                }
                Ok(_) => entries.push((p.clone(), Entry::Bind(p))),
                Err(_) => {}
            }
        }
    }
    entries.push(("/dev".into(), Entry::Tmpfs));
    for d in DEVICES {
        let p = Path::new("/dev").join(d);
        if p.exists() {
            entries.push((p.clone(), Entry::Device(p)));
        }
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
        ("shm", "/tmp"),
    ] {
        entries.push((Path::new("/dev").join(name), Entry::Link(target.into())));
    }
    Ok(entries)
}

fn cstr(p: &Path) -> io::Result<CString> {
    CString::new(p.as_os_str().as_encoded_bytes()).map_err(io::Error::other)
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

fn under(p: &Path, dirs: &[&str]) -> bool {
    dirs.iter().any(|d| p.starts_with(d))
}

/// The installation a program belongs to: its directory, or the one above when that is a
/// `bin`, `sbin` or `shims` directory (`<prefix>/bin/python3` needs `<prefix>/lib`).
fn installation(program: &Path) -> Option<PathBuf> {
    let dir = program.parent()?;
    let name = dir.file_name()?.to_str()?;
    if matches!(name, "bin" | "sbin" | "shims") {
        dir.parent().map(Path::to_path_buf)
    } else {
        Some(dir.to_path_buf())
    }
}

/// The interpreter a script names on its `#!` line (through `env`, found on PATH).
fn interpreter(program: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(program).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let first = PathBuf::from(words.next()?);
    if first.file_name().is_some_and(|n| n == "env") {
        let name = words.find(|w| !w.starts_with('-'))?;
        return find_on_path(name);
    }
    Some(first)
}

/// `name` as the shell would find it on PATH.
pub(crate) fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The host paths the bot may read as its own (deduplicated, none inside another).
fn own_paths(inputs: &ViewInputs) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    if let Some(dir) = inputs.dir {
        found.push(dir.to_path_buf());
    }
    let mut programs = vec![inputs.program.to_path_buf()];
    if let Ok(real) = std::fs::canonicalize(inputs.program) {
        programs.push(real);
    }
    if let Some(script) = interpreter(inputs.program) {
        if let Ok(real) = std::fs::canonicalize(&script) {
            programs.push(real);
        }
        programs.push(script);
    }
    let reserved = ["/", "/tmp", "/proc", "/dev", "/etc", "/sys"];
    // A file whose directory may not be bound whole (a script right in /tmp) is bound
    // alone.
    let dir_or_file = |dir: Option<PathBuf>, file: &Path| -> Option<PathBuf> {
        match dir {
            Some(d) if reserved.iter().any(|r| normalize(&d) == Path::new(r)) => {
                Some(file.to_path_buf())
            }
            other => other,
        }
    };
    for p in &programs {
        found.extend(dir_or_file(installation(p), p));
    }
    if inputs.dir.is_none() {
        for arg in inputs.args {
            let path = inputs.cwd.join(arg);
            match std::fs::metadata(&path) {
                Ok(m) if m.is_dir() => found.push(path),
                Ok(_) => found.extend(dir_or_file(path.parent().map(Path::to_path_buf), &path)),
                Err(_) => {}
            }
        }
    }
    if let Some(extra) = std::env::var_os("ZEBRA_SANDBOX_READ") {
        found.extend(std::env::split_paths(&extra).filter(|p| p.is_absolute()));
    }
    let mut paths: Vec<PathBuf> = found
        .into_iter()
        .map(|p| normalize(&p))
        .filter(|p| !reserved.iter().any(|r| p == Path::new(r)))
        .filter(|p| !under(p, SYSTEM) && !p.starts_with("/proc") && !p.starts_with("/sys"))
        .filter(|p| p.exists())
        .collect();
    paths.sort();
    paths.dedup();
    // Sorted, a path inside another comes right after it (or after others inside it).
    let mut kept: Vec<PathBuf> = Vec::new();
    for p in paths {
        if !kept.iter().any(|k| p.starts_with(k)) {
            kept.push(p);
        }
    }
    kept
}

impl View {
    /// Plans the view of one bot, to be mounted on the host directory `root` (which exists
    /// and is empty).
    pub fn plan(inputs: &ViewInputs, root: &Path) -> io::Result<View> {
        let mut entries = host_entries()?;
        if inputs.proc {
            entries.push(("/proc".into(), Entry::Proc));
        }
        entries.push(("/tmp".into(), Entry::Tmpfs));
        let own = own_paths(inputs);
        for p in &own {
            entries.push((p.clone(), Entry::Bind(p.clone())));
        }
        // Parents before children: a mount inside /tmp comes after /tmp's tmpfs.
        entries.sort_by(|a, b| a.0.components().cmp(b.0.components()));

        let at = |p: &Path| -> io::Result<CString> {
            cstr(&root.join(p.strip_prefix("/").unwrap_or(p)))
        };
        let mut steps = Vec::new();
        let mut made: BTreeSet<PathBuf> = BTreeSet::new();
        let mut read_only = Vec::new();
        let tmp_options = {
            let (uid, gid) = inputs.owner;
            // Inodes are kernel memory the size limit does not count: one per 16 KiB of
            // room, at least 1,024, bounds many empty files too.
            let inodes = (inputs.disk / (16 << 10)).max(1024);
            CString::new(format!(
                "size={},nr_inodes={inodes},mode=0700,uid={uid},gid={gid}",
                inputs.disk
            ))?
        };
        for (path, entry) in &entries {
            // Every directory above the entry exists in the view.
            let mut above = PathBuf::from("/");
            let parents: Vec<_> = path
                .parent()
                .map(|p| p.components().collect())
                .unwrap_or_default();
            for c in parents {
                above.push(c);
                if above != Path::new("/") && made.insert(above.clone()) {
                    steps.push(Step::Mkdir(at(&above)?));
                }
            }
            let is_dir = match entry {
                Entry::Bind(from) => from.is_dir(),
                Entry::Tmpfs | Entry::Proc => true,
                Entry::Device(_) | Entry::Link(_) => false,
            };
            match entry {
                Entry::Link(target) => steps.push(Step::Symlink {
                    target: cstr(target)?,
                    at: at(path)?,
                }),
                _ if is_dir => {
                    if made.insert(path.clone()) {
                        steps.push(Step::Mkdir(at(path)?));
                    }
                }
                _ => steps.push(Step::Touch(at(path)?)),
            }
            match entry {
                Entry::Bind(from) => {
                    steps.push(Step::Bind {
                        from: cstr(from)?,
                        at: at(path)?,
                    });
                    read_only.push(at(path)?);
                }
                Entry::Device(from) => steps.push(Step::Bind {
                    from: cstr(from)?,
                    at: at(path)?,
                }),
                Entry::Tmpfs if path == Path::new("/tmp") => steps.push(Step::Tmpfs {
                    at: at(path)?,
                    options: tmp_options.clone(),
                }),
                Entry::Tmpfs => steps.push(Step::Tmpfs {
                    at: at(path)?,
                    options: CString::new("size=64k,nr_inodes=64,mode=0755")?,
                }),
                Entry::Proc => steps.push(Step::Proc { at: at(path)? }),
                Entry::Link(_) => {}
            }
        }
        // Read-only once everything below is in place; /dev's tmpfs and the root last.
        steps.extend(read_only.into_iter().map(Step::ReadOnly));
        steps.push(Step::ReadOnly(at(Path::new("/dev"))?));
        steps.push(Step::ReadOnly(cstr(root)?));
        Ok(View {
            root: cstr(root)?,
            steps,
            cwd: cstr(inputs.cwd)?,
            own,
        })
    }

    /// Builds the view and makes it the process's root. Runs in the forked child, in the
    /// bot's own mount namespace, with the privileges to mount: only async-signal-safe
    /// calls on memory planned before the fork.
    ///
    /// # Safety
    /// Call only between fork and exec, in a private mount namespace.
    pub unsafe fn enter(&self) -> io::Result<()> {
        mount(
            c"tmpfs",
            &self.root,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(c"size=1m,nr_inodes=4096,mode=0755"),
        )?;
        for step in &self.steps {
            match step {
                Step::Mkdir(p) => {
                    if libc::mkdir(p.as_ptr(), 0o755) != 0
                        && *libc::__errno_location() != libc::EEXIST
                    {
                        return Err(io::Error::last_os_error());
                    }
                }
                Step::Touch(p) => {
                    let fd = libc::open(
                        p.as_ptr(),
                        libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                        0o644,
                    );
                    if fd < 0 {
                        return Err(io::Error::last_os_error());
                    }
                    libc::close(fd);
                }
                Step::Symlink { target, at } => {
                    if libc::symlink(target.as_ptr(), at.as_ptr()) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                Step::Bind { from, at } => {
                    mount(from, at, None, libc::MS_BIND | libc::MS_REC, None)?;
                }
                Step::Tmpfs { at, options } => {
                    mount(
                        c"tmpfs",
                        at,
                        Some(c"tmpfs"),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        Some(options),
                    )?;
                }
                Step::Proc { at } => {
                    mount(
                        c"proc",
                        at,
                        Some(c"proc"),
                        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        None,
                    )?;
                }
                Step::ReadOnly(at) => read_only(at)?,
            }
        }
        // The old root goes: the view is all there is.
        if libc::chdir(self.root.as_ptr()) != 0
            || libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) != 0
            || libc::umount2(c".".as_ptr(), libc::MNT_DETACH) != 0
            || libc::chdir(c"/".as_ptr()) != 0
        {
            return Err(io::Error::last_os_error());
        }
        // Where the bot starts; an empty directory of the view when it is not its own.
        if libc::chdir(self.cwd.as_ptr()) != 0 {
            libc::chdir(c"/".as_ptr());
        }
        Ok(())
    }
}

unsafe fn mount(
    source: &CStr,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
    data: Option<&CStr>,
) -> io::Result<()> {
    let r = libc::mount(
        source.as_ptr(),
        target.as_ptr(),
        fstype.map_or(std::ptr::null(), CStr::as_ptr),
        flags,
        data.map_or(std::ptr::null(), |d| d.as_ptr().cast()),
    );
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Makes the mount at `at` read-only, no set-user-id, no devices, keeping the flags the
/// kernel locked on it (a remount inside a user namespace may not clear them).
unsafe fn read_only(at: &CStr) -> io::Result<()> {
    // The kernel's `struct statfs` on 64-bit machines: libc's copy hides `f_flags`.
    #[repr(C)]
    struct StatFs {
        f_type: i64,
        f_bsize: i64,
        f_blocks: u64,
        f_bfree: u64,
        f_bavail: u64,
        f_files: u64,
        f_ffree: u64,
        f_fsid: [i32; 2],
        f_namelen: i64,
        f_frsize: i64,
        f_flags: i64,
        f_spare: [i64; 4],
    }
    let mut st: StatFs = std::mem::zeroed();
    if libc::syscall(libc::SYS_statfs, at.as_ptr(), &mut st as *mut StatFs) != 0 {
        return Err(io::Error::last_os_error());
    }
    let have = st.f_flags as libc::c_ulong;
    let mut flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID;
    for (st_flag, ms_flag) in [
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if have & st_flag != 0 {
            flags |= ms_flag;
        }
    }
    mount(c"none", at, None, flags, None)
}

#[cfg(test)]
mod tests {

    /// The host's part of every view is found once and is what finding it again gives, as
    /// long as `/`, `/etc` and `/dev` did not change.
    #[test]
    fn the_host_s_part_of_a_view_is_kept_and_the_same_as_found_anew() {
        let first = host_entries().unwrap();
        let again = host_entries().unwrap();
        assert_eq!(first, again);
        assert_eq!(first, find_host_entries().unwrap());
        assert!(first.iter().any(|(p, _)| p == Path::new("/dev")));
    }
    use super::*;

    #[test]
    fn a_program_brings_its_installation() {
        assert_eq!(
            installation(Path::new("/opt/py/bin/python3")),
            Some(PathBuf::from("/opt/py"))
        );
        assert_eq!(
            installation(Path::new("/root/.pyenv/shims/python3")),
            Some(PathBuf::from("/root/.pyenv"))
        );
        assert_eq!(
            installation(Path::new("/srv/bots/alice/run")),
            Some(PathBuf::from("/srv/bots/alice"))
        );
    }

    #[test]
    fn paths_are_normalized_without_the_file_system() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/../..")), PathBuf::from("/"));
    }

    #[test]
    fn own_paths_are_the_bots_and_never_the_system_or_the_root() {
        let dir = std::env::temp_dir().join(format!("zebra-view-test-{}", std::process::id()));
        let inner = dir.join("bots/python");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(inner.join("bot.py"), "print()").unwrap();
        let args = vec![
            "bots/python/bot.py".to_string(),
            "/".to_string(),
            "/usr/share".to_string(),
            "bots".to_string(),
            "--depth".to_string(),
        ];
        let inputs = ViewInputs {
            program: Path::new("/usr/bin/env"),
            args: &args,
            dir: None,
            cwd: &dir,
            disk: 1 << 20,
            owner: (0, 0),
            proc: true,
        };
        // `bots` holds `bots/python`: only the outer one is bound.
        assert_eq!(own_paths(&inputs), vec![dir.join("bots")]);
        // A script right in /tmp brings itself, not /tmp.
        let script = std::env::temp_dir().join(format!("zebra-view-{}.sh", std::process::id()));
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        let lone = [script.to_str().unwrap().to_string()];
        let alone = ViewInputs {
            args: &lone,
            ..inputs
        };
        if std::env::temp_dir() == Path::new("/tmp") {
            assert_eq!(own_paths(&alone), vec![script.clone()]);
        }
        std::fs::remove_file(&script).unwrap();
        // With a working directory, that directory is the bot's, not its arguments'.
        let inputs = ViewInputs {
            dir: Some(&inner),
            ..inputs
        };
        assert_eq!(own_paths(&inputs), vec![inner.clone()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_plan_makes_parents_before_children_and_never_binds_secrets() {
        let args = vec![];
        let inputs = ViewInputs {
            program: Path::new("/usr/bin/true"),
            args: &args,
            dir: None,
            cwd: Path::new("/"),
            disk: 8 << 20,
            owner: (61000, 61000),
            proc: true,
        };
        let view = View::plan(&inputs, Path::new("/r")).unwrap();
        let text = format!("{:?}", view.steps);
        assert!(
            !text.contains("shadow") && !text.contains("sudoers"),
            "{text}"
        );
        assert!(text.contains("size=8388608,nr_inodes=1024,mode=0700,uid=61000,gid=61000"));
        let pos = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("{needle}"));
        assert!(pos("Mkdir(\"/r/tmp\")") < pos("Tmpfs { at: \"/r/tmp\""));
        assert!(pos("Mkdir(\"/r/dev\")") < pos("Touch(\"/r/dev/null\")"));
        assert!(
            text.ends_with("ReadOnly(\"/r/dev\"), ReadOnly(\"/r\")]"),
            "{text}"
        );
    }
}
