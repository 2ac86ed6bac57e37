//! The recipes of `deploy/` run for real. Slurm: a single-node cluster (munged, slurmctld,
//! slurmd from Debian's packages) configured in a temp directory and stopped at the end
//! runs `deploy/slurm/run.sh`: a shard array and its merge, whose result is the one-machine
//! series byte for byte. Without Slurm on the machine the test says so and passes, unless
//! `ZEBRA_REQUIRE_SLURM` is set (CI sets it, having installed the packages).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::run::{scratch, zebra, SHARDED_SERIES, ZEBRA};

/// The series of the test: the sharding tests' own, seeded, one game at a time.
fn series_flags() -> Vec<&'static str> {
    let mut args = SHARDED_SERIES.to_vec();
    args.extend(["--seed", "3", "--concurrency", "1"]);
    args
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A free TCP port on this machine.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A single-node Slurm cluster living in `dir`, stopped (every daemon) when dropped.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        for sub in ["spool", "state", "log", "munge"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let key: Vec<u8> = (0..1024u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let key_path = dir.join("munge/munge.key");
        std::fs::write(&key_path, key).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_path, std::fs::Permissions::from_mode(0o400)).unwrap();
        std::fs::set_permissions(dir.join("munge"), std::fs::Permissions::from_mode(0o700))
            .unwrap();
        let socket = dir.join("munge/munge.socket");
        let munged = Command::new("munged")
            .arg("--force")
            .arg(format!("--key-file={}", key_path.display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!(
                "--pid-file={}",
                dir.join("munge/munged.pid").display()
            ))
            .arg(format!(
                "--log-file={}",
                dir.join("log/munged.log").display()
            ))
            .arg(format!("--seed-file={}", dir.join("munge/seed").display()))
            .status()
            .unwrap();
        assert!(munged.success(), "munged did not start");
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .unwrap()
            .trim()
            .to_string();
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=zebra\nSlurmctldHost={host}\nSlurmctldPort={}\nSlurmdPort={}\n\
                 AuthType=auth/munge\nAuthInfo=socket={}\nCredType=cred/munge\n\
                 SlurmUser=root\nSlurmdUser=root\nStateSaveLocation={d}/state\n\
                 SlurmdSpoolDir={d}/spool\nSlurmctldPidFile={d}/slurmctld.pid\n\
                 SlurmdPidFile={d}/slurmd.pid\nSlurmctldLogFile={d}/log/slurmctld.log\n\
                 SlurmdLogFile={d}/log/slurmd.log\nProctrackType=proctrack/pgid\n\
                 TaskPlugin=task/none\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n\
                 MpiDefault=none\nReturnToService=2\nJobCompType=jobcomp/none\n\
                 AccountingStorageType=accounting_storage/none\n\
                 NodeName={host} CPUs=2 State=UNKNOWN\n\
                 PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
                free_port(),
                free_port(),
                socket.display()
            ),
        )
        .unwrap();
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf,
        };
        for daemon in ["slurmctld", "slurmd"] {
            let started = cluster
                .command(daemon)
                .arg("-f")
                .arg(&cluster.conf)
                .status()
                .unwrap();
            assert!(
                started.success(),
                "{daemon} did not start: {}",
                cluster.logs()
            );
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let out = cluster
                .command("sinfo")
                .args(["-h", "-o", "%t"])
                .output()
                .unwrap();
            if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the node never became idle: {}",
                cluster.logs()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        cluster
    }

    /// A Slurm program run against this cluster.
    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("SLURM_CONF", &self.conf);
        cmd
    }

    fn logs(&self) -> String {
        ["slurmctld.log", "slurmd.log", "munged.log"]
            .iter()
            .map(|f| {
                let text =
                    std::fs::read_to_string(self.dir.join("log").join(f)).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(15).collect();
                format!(
                    "--- {f}\n{}",
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether the cluster still has jobs queued or running.
    fn busy(&self) -> bool {
        let out = self.command("squeue").args(["-h"]).output().unwrap();
        !String::from_utf8_lossy(&out.stdout).trim().is_empty()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.command("scontrol").arg("shutdown").status();
        let deadline = Instant::now() + Duration::from_secs(20);
        for pid_file in ["slurmctld.pid", "slurmd.pid", "munge/munged.pid"] {
            let Some(pid) = std::fs::read_to_string(self.dir.join(pid_file))
                .ok()
                .and_then(|p| p.trim().parse::<i32>().ok())
            else {
                continue;
            };
            if pid_file.starts_with("munge") {
                // SAFETY: a signal to the daemon this test started.
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
            // SAFETY: signal 0 only asks whether the process exists.
            while unsafe { libc::kill(pid, 0) } == 0 && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(100));
            }
            // SAFETY: the last resort for a daemon this test started.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

#[test]
fn a_series_sharded_over_a_slurm_array_merges_into_the_one_machine_run() {
    if !(have("slurmctld") && have("slurmd") && have("munged") && have("sbatch")) {
        assert!(
            std::env::var_os("ZEBRA_REQUIRE_SLURM").is_none(),
            "Slurm is required here (ZEBRA_REQUIRE_SLURM) but slurmctld, slurmd, munged or sbatch is missing"
        );
        println!("note: Slurm (slurm-wlm, munge) not installed; skipping the Slurm recipe test");
        return;
    }
    let dir = scratch("slurm");
    let one = dir.join("one");
    let mut args = vec!["match"];
    args.extend(series_flags());
    args.extend(["--quiet", "--out", one.to_str().unwrap()]);
    let out = zebra(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let cluster = Cluster::start(&dir.join("cluster"));
    let (series, merged) = (dir.join("series"), dir.join("merged"));
    let recipe = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/slurm/run.sh");
    let submitted = cluster
        .command(recipe.to_str().unwrap())
        .args(["3", series.to_str().unwrap(), merged.to_str().unwrap()])
        .args(series_flags())
        // A user's own flags go through as given (the recipe adds none of them).
        .arg("--quiet")
        .env("ZEBRA", ZEBRA)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        submitted.status.success(),
        "{}{}",
        String::from_utf8_lossy(&submitted.stderr),
        cluster.logs()
    );
    let said = String::from_utf8_lossy(&submitted.stdout);
    assert!(said.starts_with("shards: job "), "{said}");
    let deadline = Instant::now() + Duration::from_secs(600);
    while cluster.busy() {
        assert!(
            Instant::now() < deadline,
            "the jobs did not finish: {}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let outputs: String = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "out"))
        .map(|p| {
            format!(
                "--- {}\n{}",
                p.display(),
                std::fs::read_to_string(&p).unwrap_or_default()
            )
        })
        .collect();
    for k in 1..=3 {
        assert!(
            series.join(format!("shard-{k}-of-3/games.pgn")).exists(),
            "shard {k}: {outputs}"
        );
    }
    assert_eq!(
        std::fs::read(merged.join("games.pgn")).unwrap_or_default(),
        std::fs::read(one.join("games.pgn")).unwrap(),
        "{outputs}"
    );
    drop(cluster);
    std::fs::remove_dir_all(&dir).ok();
}

/// The directory of the offline validators (`kubernetes-validate`, `check-jsonschema`), from
/// `ZEBRA_VALIDATORS` (CI installs them in a venv); `None`, said, when it is not set.
fn validators() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("ZEBRA_VALIDATORS") else {
        println!("note: ZEBRA_VALIDATORS is not set; skipping the offline validation");
        return None;
    };
    Some(PathBuf::from(dir))
}

fn deploy(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy")
        .join(path)
}

/// Runs a validator on `file`: whether it passed, and what it said.
fn validated(program: &Path, args: &[&str], file: &Path) -> (bool, String) {
    let out = Command::new(program).args(args).arg(file).output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

#[test]
fn the_kubernetes_manifests_and_the_workflow_validate_offline_and_a_broken_copy_does_not() {
    let Some(bin) = validators() else {
        return;
    };
    let dir = scratch("validate");
    let kube = bin.join("kubernetes-validate");
    let kube_args = ["--strict", "-k", "1.31.0"];
    for name in ["shards-job.yaml", "merge-job.yaml"] {
        let file = deploy(&format!("kubernetes/{name}"));
        let (ok, said) = validated(&kube, &kube_args, &file);
        assert!(ok, "{name}: {said}");
        // A typo in a field the Indexed Job depends on is caught.
        let text = std::fs::read_to_string(&file).unwrap();
        let broken = dir.join(name);
        std::fs::write(
            &broken,
            text.replacen("restartPolicy:", "restartPolicyy:", 1),
        )
        .unwrap();
        let (ok, said) = validated(&kube, &kube_args, &broken);
        assert!(!ok && said.contains("restartPolicyy"), "{name}: {said}");
    }
    let lint = bin.join("check-jsonschema");
    let lint_args = ["--builtin-schema", "vendor.github-workflows"];
    let workflow = deploy("github/sharded-series.yml");
    let (ok, said) = validated(&lint, &lint_args, &workflow);
    assert!(ok, "{said}");
    let text = std::fs::read_to_string(&workflow).unwrap();
    let broken = dir.join("broken.yml");
    std::fs::write(&broken, text.replacen("runs-on:", "runs_on:", 1)).unwrap();
    let (ok, said) = validated(&lint, &lint_args, &broken);
    assert!(!ok, "a job without runs-on passed: {said}");
}

/// The `args:` list of a manifest's container, one `- item` a line, or inline `[...]`.
fn manifest_args(text: &str) -> Vec<String> {
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim_start() != "args:" && !l.trim_start().starts_with("args: ["));
    let first = lines.next().expect("an args: list").trim_start();
    if let Some(inline) = first.strip_prefix("args: ") {
        return serde_json::from_str(inline).expect("an inline JSON-style list");
    }
    lines
        .map(str::trim_start)
        .take_while(|l| l.starts_with("- "))
        .map(|l| l[2..].trim().to_string())
        .collect()
}

/// The Indexed Job's contract, exercised without a cluster: one process per index with
/// `JOB_COMPLETION_INDEX` and the manifest's own arguments (its volume and bots mapped to
/// a temp directory and the bundled bots, its series shortened), then the merge Job's
/// arguments: the merged series is the one-machine series.
#[test]
fn the_kubernetes_indexed_job_contract_plays_every_shard_and_merges() {
    let dir = scratch("indexed");
    let volume = dir.join("series");
    let map = |arg: &str| {
        arg.replace("/series", volume.to_str().unwrap())
            .replace("/bots/new-bot", "zebra-greedy-bot")
            .replace("/bots/old-bot", "zebra-fouling-bot")
            .replace("--games=2000", "--games=14")
    };
    let shards_text = std::fs::read_to_string(deploy("kubernetes/shards-job.yaml")).unwrap();
    let completions: u32 = shards_text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("completions:"))
        .and_then(|v| v.split('#').next())
        .map(|v| v.trim().parse().unwrap())
        .expect("completions");
    let args: Vec<String> = manifest_args(&shards_text).iter().map(|a| map(a)).collect();
    assert!(
        args.contains(&format!("--shards={completions}")),
        "{args:?}"
    );
    for index in 0..completions {
        let out = Command::new(ZEBRA)
            .args(&args)
            .arg("--tc=plays=2,play=5s,reaction=5s")
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env_remove("SLURM_ARRAY_TASK_ID")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "index {index}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let merge_text = std::fs::read_to_string(deploy("kubernetes/merge-job.yaml")).unwrap();
    let merge_args: Vec<String> = manifest_args(&merge_text).iter().map(|a| map(a)).collect();
    let out = Command::new(ZEBRA).args(&merge_args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same series on one machine.
    let one = dir.join("one");
    let mut whole: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with("--shards=") && !a.starts_with("--out="))
        .cloned()
        .collect();
    whole.extend([
        "--tc=plays=2,play=5s,reaction=5s".to_string(),
        format!("--out={}", one.display()),
    ]);
    let out = Command::new(ZEBRA).args(&whole).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = PathBuf::from(merge_args.last().unwrap());
    assert_eq!(
        std::fs::read(merged.join("games.pgn")).unwrap(),
        std::fs::read(one.join("games.pgn")).unwrap()
    );
}
