//! `zebra worker`: its flags checked once into [`WorkerSettings`], then the worker until
//! Ctrl-C or SIGTERM.

use std::path::PathBuf;
use std::time::Duration;

use super::args::WorkerArgs;
use super::failure::Failure;
use super::runtime::runtime;
use crate::worker::WorkerSettings;

/// The environment variable a worker's token may come in.
const TOKEN_VAR: &str = "ZEBRA_WORKER_TOKEN";

pub(super) fn run(args: WorkerArgs) -> Result<(), Failure> {
    let settings = settings(args, std::env::var(TOKEN_VAR).ok())?;
    super::serve::log_to_stderr();
    runtime()?
        .block_on(crate::worker::work(
            settings,
            tokio_util::sync::CancellationToken::new(),
        ))
        .map_err(|e| Failure::Run(e.to_string()))
}

/// The flags (and the token's variable), checked.
fn settings(args: WorkerArgs, token_var: Option<String>) -> Result<WorkerSettings, Failure> {
    let usage = |s: String| Failure::Usage(s);
    let server = args.server.as_str();
    let rest = server
        .strip_prefix("http://")
        .or_else(|| server.strip_prefix("https://"))
        .ok_or_else(|| {
            usage(format!(
                "--server '{server}': give the daemon's address as http://HOST:PORT or https://HOST"
            ))
        })?
        .trim_end_matches('/');
    if rest.is_empty() || rest.contains(char::is_whitespace) {
        return Err(usage(format!("--server '{server}': no host in it")));
    }
    let server = server.trim_end_matches('/').to_string();
    let token = match (&args.token_file, token_var) {
        (Some(path), _) => std::fs::read_to_string(path)
            .map_err(|e| usage(format!("--token-file {}: {e}", path.display())))?
            .trim()
            .to_string(),
        (None, Some(token)) => token.trim().to_string(),
        (None, None) => {
            return Err(usage(format!(
                "no token: give --token-file FILE or set {TOKEN_VAR} (an admin makes one with 'zebra serve token create --scope worker --owner NAME')"
            )))
        }
    };
    if token.is_empty() || token.len() > 200 || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(usage(
            "the token is empty or not one: give the line 'zebra serve token create' printed"
                .into(),
        ));
    }
    let concurrency = args.concurrency.unwrap_or(1);
    if concurrency == 0 {
        return Err(usage("--concurrency must be at least 1".into()));
    }
    let name = match args.name {
        Some(name) => name,
        None => crate::series::shard::host_name().unwrap_or_else(|| "worker".into()),
    };
    if name.is_empty()
        || name.len() > 64
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    {
        return Err(usage(format!(
            "--name '{name}': give 1 to 64 letters, digits, '.', '_' or '-'"
        )));
    }
    let cache = match args.cache {
        Some(dir) => dir,
        None => default_cache().ok_or_else(|| {
            usage(
                "no cache directory: give --cache DIR (neither XDG_CACHE_HOME nor HOME is set)"
                    .into(),
            )
        })?,
    };
    if let Some(path) = &args.ca_cert {
        if !path.is_file() {
            return Err(usage(format!("--ca-cert {}: no such file", path.display())));
        }
    }
    Ok(WorkerSettings {
        server,
        token,
        concurrency,
        name,
        cache,
        same_programs: args.same_programs,
        ca_cert: args.ca_cert,
        grace: Duration::from_secs(args.grace.unwrap_or(60)),
    })
}

fn default_cache() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("zebra-worker"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(server: &str) -> WorkerArgs {
        WorkerArgs {
            server: server.into(),
            token_file: None,
            concurrency: None,
            name: Some("box-1".into()),
            cache: Some("/tmp/c".into()),
            same_programs: false,
            ca_cert: None,
            grace: None,
        }
    }

    fn refused(args: WorkerArgs, token: Option<&str>) -> String {
        match settings(args, token.map(str::to_string)) {
            Err(Failure::Usage(line)) => line,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn each_bad_flag_is_one_line_naming_it() {
        assert!(refused(args("ftp://x"), Some("t")).starts_with("--server 'ftp://x'"));
        assert!(refused(args("http://"), Some("t")).contains("no host"));
        assert!(refused(args("http://h:1"), None).starts_with("no token"));
        assert!(refused(args("http://h:1"), Some(" ")).contains("token is empty"));
        let mut zero = args("http://h:1");
        zero.concurrency = Some(0);
        assert!(refused(zero, Some("t")).starts_with("--concurrency"));
        let mut bad = args("http://h:1");
        bad.name = Some("a b".into());
        assert!(refused(bad, Some("t")).starts_with("--name 'a b'"));
        let mut missing = args("http://h:1");
        missing.token_file = Some("/nonexistent/token".into());
        assert!(refused(missing, None).starts_with("--token-file /nonexistent/token"));
        let ok = settings(args("https://h:1/"), Some("zebra_x\n".into())).unwrap();
        assert_eq!(ok.server, "https://h:1");
        assert_eq!(ok.token, "zebra_x");
        assert_eq!(ok.concurrency, 1);
        assert_eq!(ok.grace, Duration::from_secs(60));
    }
}
