//! The daemon's admin commands, run on the server's own machine against its data directory
//! (`zebra serve bot ...`, `zebra serve token create`): the only way a command line gets
//! into the daemon. SQLite lets them run while the daemon does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::series::config::BotEntry;
use crate::series::setup::resolve_command;

use super::auth::{new_token, token_hash, Scope};
use super::store::{Store, StoreError};

/// A bot entry from `bot add`'s flags.
pub fn entry(
    name: String,
    command: Vec<String>,
    dir: Option<PathBuf>,
    env: &[String],
    options: &[String],
    time: Option<String>,
) -> Result<BotEntry, String> {
    let mut words = command.into_iter();
    let program = words.next().ok_or_else(|| {
        format!("bot add {name}: give the program after --, e.g. zebra serve bot add {name} -- ./my-bot --fast")
    })?;
    let pairs = |flag: &str, items: &[String]| -> Result<Vec<(String, String)>, String> {
        items
            .iter()
            .map(|item| {
                item.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| format!("--{flag} '{item}': write it as NAME=VALUE"))
            })
            .collect()
    };
    Ok(BotEntry {
        name,
        command: program,
        args: words.collect(),
        dir,
        env: pairs("env", env)?.into_iter().collect::<BTreeMap<_, _>>(),
        options: pairs("option", options)?
            .into_iter()
            .map(|(k, v)| (k, crate::bot::text::option_value(&v)))
            .collect(),
        time,
        limits: Default::default(),
        strict: false,
    })
}

/// Registers bots (pending their check); each one's command is resolved as `zebra match`
/// resolves it and must name a program that can run. A name `owner` has registered before
/// makes a new version (`NAME v2`, ...). Returns each new id and name.
pub fn add_bots(
    store: &mut Store,
    mut entries: Vec<BotEntry>,
    owner: &str,
    bundled: &Path,
) -> Result<Vec<(i64, String)>, String> {
    crate::bot::text::check_user_name(owner).map_err(|e| format!("--owner: {e}"))?;
    let mut seen = std::collections::BTreeSet::new();
    for entry in &entries {
        entry.validate().map_err(|e| e.to_string())?;
        if !seen.insert(entry.name.clone()) {
            return Err(format!("two bots are named '{}'", entry.name));
        }
    }
    let mut added = Vec::new();
    for entry in &mut entries {
        resolve_command(entry, bundled);
        entry.spec().check_program()?;
        let bot = store
            .add_version(entry, owner, super::now_ms())
            .map_err(|e| match e {
                StoreError::BotExists(name) => {
                    format!("the name {name} is taken by a bot of another owner: pick another name")
                }
                e => e.to_string(),
            })?;
        added.push((bot.id, bot.name));
    }
    Ok(added)
}

/// Creates a token for `owner` with `scope` and returns it (its hash is what is stored).
pub fn create_token(store: &mut Store, scope: &str, owner: &str) -> Result<String, String> {
    let scope =
        Scope::parse(scope).ok_or_else(|| format!("--scope '{scope}': use {}", Scope::NAMES))?;
    crate::bot::text::check_user_name(owner).map_err(|e| format!("--owner: {e}"))?;
    // A worker is named OWNER/NAME and holds leases as worker:OWNER/NAME#INSTANCE: its
    // owner must not hold a '/' or '#' of its own (super::fleet parses the name back).
    if scope == Scope::Worker && !super::fleet::plain_name(owner) {
        return Err(format!(
            "--owner '{owner}': a worker's owner is 1 to 64 letters, digits, '.', '_' or '-'"
        ));
    }
    let token = new_token().map_err(|e| format!("cannot read /dev/urandom: {e}"))?;
    store
        .add_token(&token_hash(&token), scope.as_str(), owner, super::now_ms())
        .map_err(|e| e.to_string())?;
    Ok(token)
}
