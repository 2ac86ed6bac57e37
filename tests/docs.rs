//! The book (`docs/src`), the READMEs and the protocol documents, held to what they say:
//!
//! - every relative link reaches a file of the repository, and every `#anchor` a heading of
//!   its page (as mdBook makes heading ids); every page of the book is in SUMMARY.md;
//! - every `zebra` command line in a `sh` or `console` block parses with Zebra's own flag
//!   definitions ([`zebra::cli::command`]);
//! - every `console` block runs: each `$ COMMAND` in a scratch directory of its page (the
//!   page's blocks in order, in one directory holding links `bots` and `protocol` to the
//!   repository's, `HOME` pointing there too, the built binaries first on `PATH`), its output
//!   (stdout and stderr merged) matched against the lines after it: `...` alone on a line
//!   stands for any number of lines, `[..]` for any text within a line, and a line `? N`
//!   for the exit status (0 when absent);
//! - the generated references are current: `docs/src/reference/cli.md` (every command's
//!   `--help`, as the binary prints it) and `docs/src/reference/http-api.md` (from
//!   protocol/openapi.json). `ZEBRA_REGENERATE=1 cargo test --release --test docs` rewrites
//!   them; review the diff.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use serde_json::Value;

mod common;
use common::run::scratch;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn root() -> &'static Path {
    Path::new(ROOT)
}

fn regenerate() -> bool {
    std::env::var("ZEBRA_REGENERATE").as_deref() == Ok("1")
}

/// Every markdown file under `dir`, sorted.
fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The book's pages.
fn book_pages() -> Vec<PathBuf> {
    markdown_under(&root().join("docs/src"))
}

/// Every document whose links and commands are checked: the book, the READMEs, the
/// protocol's documents.
fn documents() -> Vec<PathBuf> {
    let mut docs = book_pages();
    docs.push(root().join("README.md"));
    docs.push(root().join("bots/README.md"));
    docs.extend(markdown_under(&root().join("protocol")));
    docs
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A page's text as mdBook renders it: `{{#include PATH}}` replaced by that file (PATH
/// relative to the page). Returns the text and the included files.
fn expanded(page: &Path) -> (String, Vec<PathBuf>) {
    let text = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", rel(page)));
    let mut out = String::new();
    let mut included = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("{{#include ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "{{#include ".len()..];
        let end = after
            .find("}}")
            .unwrap_or_else(|| panic!("{}: an unclosed {{{{#include", rel(page)));
        let target = after[..end].trim();
        // mdBook's forms PATH, PATH:START:END and PATH:ANCHOR: whole files here.
        let file = page
            .parent()
            .unwrap()
            .join(target.split(':').next().unwrap());
        let body = std::fs::read_to_string(&file).unwrap_or_else(|e| {
            panic!(
                "{}: includes {target}, which cannot be read: {e}",
                rel(page)
            )
        });
        out.push_str(&body);
        included.push(file);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    (out, included)
}

/// mdBook's id for a heading (0.4's `normalize_id`): its text with ASCII letters
/// lowercased, whitespace made `-`, everything but letters, digits, `_` and `-` dropped;
/// a repeated id gets `-1`, `-2`...
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut current: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                if let Some(id) = id {
                    ids.insert(id.to_string());
                    current = None;
                } else {
                    current = Some(String::new());
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(c) = current.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(c) = current.take() {
                    let base: String = c
                        .chars()
                        .filter_map(|ch| {
                            if ch.is_alphanumeric() || ch == '_' || ch == '-' {
                                Some(ch.to_ascii_lowercase())
                            } else if ch.is_whitespace() {
                                Some('-')
                            } else {
                                None
                            }
                        })
                        .collect();
                    let n = seen.entry(base.clone()).or_insert(0);
                    let id = if *n == 0 {
                        base.clone()
                    } else {
                        format!("{base}-{n}")
                    };
                    *n += 1;
                    ids.insert(id);
                }
            }
            _ => {}
        }
    }
    ids
}

/// The link targets of a markdown text (code blocks and code spans left out).
fn links(text: &str) -> Vec<String> {
    Parser::new(text)
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

/// The problem with one link of `page` (`base`: the directory it resolves from), if any.
fn link_problem(
    base: &Path,
    target: &str,
    ids_of: &mut dyn FnMut(&Path) -> BTreeSet<String>,
) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, anchor) = match target.split_once('#') {
        Some((f, a)) => (f, Some(a)),
        None => (target, None),
    };
    let path = if file.is_empty() {
        None
    } else {
        let p = base.join(file);
        if !p.exists() {
            return Some(format!("{target}: no such file ({})", rel(&p)));
        }
        // mdBook turns a link to any .md into .html: outside the book's sources there is
        // no such page. A book page includes such a file or names it as code.
        let book = root().join("docs/src").canonicalize().unwrap();
        let from_book = base.canonicalize().is_ok_and(|b| b.starts_with(&book));
        let outside = p.canonicalize().map_or(true, |c| !c.starts_with(&book));
        if from_book && outside && p.extension().is_some_and(|x| x == "md") {
            return Some(format!(
                "{target}: a .md outside docs/src, which the built book cannot link (include it in a page, or name it as code)"
            ));
        }
        Some(p)
    };
    if let Some(anchor) = anchor {
        let page = path.clone();
        let is_md = page
            .as_ref()
            .map_or(true, |p| p.extension().is_some_and(|x| x == "md"));
        if is_md {
            let ids = match &page {
                Some(p) => ids_of(p),
                None => ids_of(Path::new("")),
            };
            if !ids.contains(anchor) {
                return Some(format!("{target}: no heading with the id '{anchor}'"));
            }
        }
    }
    None
}

#[test]
fn links_resolve_and_every_page_is_in_the_summary() {
    let mut problems = Vec::new();
    let mut ids_cache: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for doc in documents() {
        let (text, included) = expanded(&doc);
        let own_ids = heading_ids(&text);
        let mut ids_of = |p: &Path| -> BTreeSet<String> {
            if p.as_os_str().is_empty() {
                return own_ids.clone();
            }
            let key = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            ids_cache
                .entry(key)
                .or_insert_with(|| heading_ids(&expanded(p).0))
                .clone()
        };
        let base = doc.parent().unwrap();
        for target in links(&text) {
            if let Some(p) = link_problem(base, &target, &mut ids_of) {
                problems.push(format!("{}: {p}", rel(&doc)));
            }
        }
        // An included document is read in its own place too (the repository's browsers).
        for inc in included {
            let (inc_text, _) = expanded(&inc);
            for target in links(&inc_text) {
                if target.starts_with('#') {
                    continue; // its own headings: checked above, on the page that includes it
                }
                if let Some(p) = link_problem(inc.parent().unwrap(), &target, &mut ids_of) {
                    problems.push(format!("{} (included): {p}", rel(&inc)));
                }
            }
        }
    }
    // The summary names every page, and every page it names exists.
    let src = root().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let listed: BTreeSet<PathBuf> = links(&summary)
        .iter()
        .filter(|t| !t.is_empty())
        .map(|t| src.join(t.split('#').next().unwrap()))
        .collect();
    for page in book_pages() {
        if page.file_name().is_some_and(|n| n == "SUMMARY.md") {
            continue;
        }
        if !listed.contains(&page) {
            problems.push(format!("{}: not in docs/src/SUMMARY.md", rel(&page)));
        }
    }
    assert!(
        problems.is_empty(),
        "{} broken links or pages:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A fenced block: its language word, its text and the line it starts on.
struct Block {
    lang: String,
    text: String,
    line: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let lang = info.split([',', ' ']).next().unwrap_or("").to_string();
                let line = text[..range.start].lines().count() + 1;
                current = Some(Block {
                    lang,
                    text: String::new(),
                    line,
                });
            }
            Event::Text(t) => {
                if let Some(b) = current.as_mut() {
                    b.text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(b) = current.take() {
                    out.push(b);
                }
            }
            _ => {}
        }
    }
    out
}

/// A line without its comment: the text before an unquoted `#` that starts a word.
fn without_comment(line: &str) -> &str {
    let (mut single, mut double, mut prev_space) = (false, false, true);
    for (i, ch) in line.char_indices() {
        match ch {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev_space => return &line[..i],
            _ => {}
        }
        prev_space = ch.is_whitespace();
    }
    line
}

/// The zebra command lines of a block: `$ ` prompts dropped, `\` continuations joined,
/// comments cut, each `&&`/`||`/`|`/`;`/`&` segment that runs zebra, as words (redirections
/// and leading VAR=value left out).
fn zebra_commands(block: &Block) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut joined = String::new();
    let mut start = 0;
    let prompts = block.lang == "console";
    for (i, raw) in block.text.lines().enumerate() {
        let line = if prompts {
            match raw.trim_start().strip_prefix("$ ") {
                Some(l) => l,
                None if !joined.is_empty() => raw,
                None => continue,
            }
        } else {
            raw.trim_start().strip_prefix("$ ").unwrap_or(raw)
        };
        if joined.is_empty() {
            start = block.line + 1 + i;
        }
        let line = without_comment(line);
        if let Some(head) = line.trim_end().strip_suffix('\\') {
            joined.push_str(head);
            joined.push(' ');
            continue;
        }
        joined.push_str(line);
        let text = std::mem::take(&mut joined);
        let Ok(words) = shell_words::split(&text) else {
            continue; // not a shell line (prose in a block, a heredoc's body)
        };
        let mut segment: Vec<String> = Vec::new();
        let mut skip_next = false;
        for w in words.into_iter().chain(std::iter::once(";".to_string())) {
            if skip_next {
                skip_next = false;
                continue;
            }
            if matches!(w.as_str(), "&&" | "||" | "|" | ";" | "&") {
                let seg = std::mem::take(&mut segment);
                let first = seg.iter().position(|w| !is_assignment(w));
                if let Some(f) = first {
                    if seg[f] == "zebra" || seg[f].ends_with("/zebra") {
                        out.push((start, seg[f..].to_vec()));
                    }
                }
                continue;
            }
            if matches!(w.as_str(), ">" | ">>" | "<" | "2>" | "2>>") {
                skip_next = true;
                continue;
            }
            if w.starts_with('>') || w.starts_with("2>") || w.starts_with('<') || w == "2>&1" {
                continue;
            }
            segment.push(w);
        }
    }
    out
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
    })
}

#[test]
fn every_zebra_command_in_the_docs_parses() {
    let mut problems = Vec::new();
    let mut count = 0;
    for doc in documents() {
        let (text, _) = expanded(&doc);
        let reference = doc.ends_with("docs/src/reference/cli.md");
        for mut block in blocks(&text) {
            if reference && block.lang == "text" {
                // The examples of each command's --help: lines "  zebra ...  # what".
                block.text = block
                    .text
                    .lines()
                    .map(|l| if l.starts_with("  zebra ") { l } else { "" })
                    .collect::<Vec<_>>()
                    .join("\n");
                block.lang = "sh".into();
            }
            if !matches!(block.lang.as_str(), "sh" | "console" | "bash" | "shell") {
                continue;
            }
            for (line, words) in zebra_commands(&block) {
                count += 1;
                let mut args = vec!["zebra".to_string()];
                args.extend(words[1..].iter().cloned());
                if let Err(e) = zebra::cli::Cli::from_args(&args) {
                    use clap::error::ErrorKind;
                    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                        continue;
                    }
                    // A console block may show a refused command on purpose (its `? 2`).
                    if block.lang == "console" && block.text.contains("\n? 2") {
                        continue;
                    }
                    let msg = zebra::cli::usage_line(&e.render().to_string(), None);
                    problems.push(format!("{}:{line}: {}: {msg}", rel(&doc), words.join(" ")));
                }
            }
        }
    }
    assert!(
        count > 50,
        "only {count} zebra command lines found in the docs"
    );
    assert!(
        problems.is_empty(),
        "{} of {count} command lines do not parse:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// One command of a console block and what it should print.
struct Step {
    command: String,
    expected: Vec<String>,
    status: i32,
    line: usize,
}

fn steps(block: &Block) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut continuing = false;
    for (i, line) in block.text.lines().enumerate() {
        if continuing {
            let step = out.last_mut().unwrap();
            step.command.push('\n');
            step.command.push_str(line);
            continuing = line.trim_end().ends_with('\\');
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.push(Step {
                command: cmd.to_string(),
                expected: Vec::new(),
                status: 0,
                line: block.line + 1 + i,
            });
            continuing = cmd.trim_end().ends_with('\\');
        } else if let Some(step) = out.last_mut() {
            match line.strip_prefix("? ").map(|n| n.trim().parse::<i32>()) {
                Some(Ok(n)) => step.status = n,
                _ => step.expected.push(line.trim_end().to_string()),
            }
        }
    }
    for step in &mut out {
        while step.expected.last().is_some_and(|l| l.is_empty()) {
            step.expected.pop();
        }
    }
    out
}

/// Whether `line` matches `pattern`, `[..]` standing for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let mut rest = line;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(part) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
    }
    true
}

/// Whether `lines` match `expected`, a line `...` standing for any number of lines.
fn lines_match(expected: &[String], lines: &[&str]) -> bool {
    match expected.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((first, rest)) => {
            !lines.is_empty() && line_matches(first, lines[0]) && lines_match(rest, &lines[1..])
        }
    }
}

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_zebra"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs `command` with `sh` in `dir`, stdout and stderr merged; (status, output).
fn run_shell(command: &str, dir: &Path) -> (i32, String) {
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out_file = dir.join(".console-output");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec > {} 2>&1\n{command}", out_file.display()))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .spawn()
        .expect("sh runs");
    let end = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code().unwrap_or(-1);
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = std::fs::read_to_string(&out_file).unwrap_or_default();
    let _ = std::fs::remove_file(&out_file);
    (status, output)
}

#[test]
fn every_console_block_runs_as_shown() {
    let mut problems = Vec::new();
    let mut ran = 0;
    for (n, page) in book_pages().iter().enumerate() {
        let (text, _) = expanded(page);
        let console: Vec<Block> = blocks(&text)
            .into_iter()
            .filter(|b| b.lang == "console")
            .collect();
        if console.is_empty() {
            continue;
        }
        let dir = scratch(&format!("page-{n}"));
        for name in ["bots", "protocol"] {
            std::os::unix::fs::symlink(root().join(name), dir.join(name)).unwrap();
        }
        let mut failed = false;
        for block in &console {
            for step in steps(block) {
                ran += 1;
                let (status, output) = run_shell(&step.command, &dir);
                let lines: Vec<&str> = output.lines().map(str::trim_end).collect();
                let mut lines = lines;
                while lines.last().is_some_and(|l| l.is_empty()) {
                    lines.pop();
                }
                if status != step.status || !lines_match(&step.expected, &lines) {
                    failed = true;
                    problems.push(format!(
                        "{}:{}: $ {}\n  status {status} (expected {})\n  printed:\n{}\n  expected:\n{}",
                        rel(page),
                        step.line,
                        step.command,
                        step.status,
                        indent(&lines.join("\n")),
                        indent(&step.expected.join("\n")),
                    ));
                }
            }
        }
        if !failed {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(ran >= 10, "only {ran} console commands in the book");
    assert!(
        problems.is_empty(),
        "{} console commands do not print what the book shows:\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Compares a generated file with the one in the repository, or rewrites it.
fn check_generated(path: &str, generated: &str) {
    let file = root().join(path);
    if regenerate() {
        std::fs::write(&file, generated).unwrap();
        eprintln!("ZEBRA_REGENERATE=1: rewrote {path}");
        return;
    }
    let current = std::fs::read_to_string(&file).unwrap_or_default();
    if current != generated {
        let first = current
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(current.lines().count().min(generated.lines().count()));
        panic!(
            "{path} is out of date from line {} (rerun with ZEBRA_REGENERATE=1 and review the diff):\n  file:      {:?}\n  generated: {:?}",
            first + 1,
            current.lines().nth(first).unwrap_or(""),
            generated.lines().nth(first).unwrap_or(""),
        );
    }
}

/// `zebra ARGS --help` as the binary prints it.
fn help_of(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_zebra"))
        .args(args)
        .arg("--help")
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .output()
        .expect("zebra runs");
    assert!(out.status.success(), "zebra {args:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn command_reference_is_every_help_as_printed() {
    let mut md = String::from(
        "# Command-line reference\n\n\
         Every command's `--help`, exactly as `zebra` prints it (generated by `tests/docs.rs` \
         from the binary; `ZEBRA_REGENERATE=1 cargo test --release --test docs` rewrites this \
         page). The same definitions make the man pages (`zebra man --out DIR`) and the \
         shells' completion scripts (`zebra completions SHELL`).\n\n",
    );
    md.push_str("## zebra\n\n```text\n");
    md.push_str(&help_of(&[]));
    md.push_str("```\n");
    for path in command_paths(&zebra::cli::command(), &[]) {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        md.push_str(&format!("\n## zebra {}\n\n```text\n", words.join(" ")));
        md.push_str(&help_of(&words));
        md.push_str("```\n");
    }
    check_generated("docs/src/reference/cli.md", &md);
}

/// Every visible command under `cmd`, nested ones after their parent: `["serve"]`,
/// `["serve", "bot"]`, `["serve", "bot", "add"]`...
fn command_paths(cmd: &clap::Command, above: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let mut path = above.to_vec();
        path.push(sub.get_name().to_string());
        out.push(path.clone());
        out.extend(command_paths(sub, &path));
    }
    out
}

#[test]
fn man_pages_cover_every_command() {
    let dir = scratch("man");
    let out = Command::new(env!("CARGO_BIN_EXE_zebra"))
        .args(["man", "--out"])
        .arg(&dir)
        .output()
        .expect("zebra runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names = vec!["zebra.1".to_string()];
    names.extend(
        command_paths(&zebra::cli::command(), &[])
            .iter()
            .map(|path| format!("zebra-{}.1", path.join("-"))),
    );
    // zebra man names exactly the pages it wrote.
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        said.starts_with(&format!("{} man pages in ", names.len())),
        "{said}"
    );
    for name in names {
        let page =
            std::fs::read_to_string(dir.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            page.starts_with(".ie") || page.contains("\n.TH "),
            "{name}: not a man page"
        );
        let command = name.trim_end_matches(".1");
        assert!(
            page.contains(&command.replace('-', "\\-")),
            "{name} does not name {command}"
        );
    }
    assert!(
        !dir.join("zebra-seat-relay.1").exists(),
        "a hidden command got a man page"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The HTTP API's reference page, from the OpenAPI document: every operation by tag (its
/// summary, scope, parameters, body and answers), then every schema with its fields.
fn api_reference(doc: &Value) -> String {
    let mut md = String::from(
        "# HTTP API reference\n\n\
         Generated from [protocol/openapi.json](../../../protocol/openapi.json) by \
         `tests/docs.rs` (`ZEBRA_REGENERATE=1 cargo test --release --test docs` rewrites \
         this page); the daemon's tests check every answer against that document. The \
         guide is [the API](../organisers/api.md).\n",
    );
    let text = |v: &Value| v.as_str().unwrap_or("").replace('\n', " ");
    let schema_name = |v: &Value| -> String {
        // A schema of the document links to its section; another file is named as such.
        let named = |r: &str| match r.strip_prefix("#/components/schemas/") {
            Some(name) => format!("[{name}](#{})", name.to_lowercase()),
            None => format!("`{r}`"),
        };
        if let Some(r) = v.get("$ref").and_then(Value::as_str) {
            return named(r);
        }
        if let Some(r) = v
            .get("items")
            .and_then(|i| i.get("$ref"))
            .and_then(Value::as_str)
        {
            return format!("array of {}", named(r));
        }
        match v.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) => ts
                .iter()
                .map(|t| t.as_str().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(" or "),
            _ => "object".into(),
        }
    };
    let tags: Vec<(String, String)> = doc["tags"]
        .as_array()
        .map(|ts| {
            ts.iter()
                .map(|t| (text(&t["name"]), text(&t["description"])))
                .collect()
        })
        .unwrap_or_default();
    let paths = doc["paths"].as_object().unwrap();
    for (tag, about) in &tags {
        md.push_str(&format!("\n## {tag}\n\n{about}\n"));
        for (path, item) in paths {
            for method in ["get", "post", "put", "patch", "delete"] {
                let Some(op) = item.get(method) else {
                    continue;
                };
                let in_tag = op["tags"]
                    .as_array()
                    .is_some_and(|ts| ts.iter().any(|t| t.as_str() == Some(tag)));
                if !in_tag {
                    continue;
                }
                md.push_str(&format!(
                    "\n### {} {path}\n\n{}",
                    method.to_uppercase(),
                    text(&op["summary"])
                ));
                md.push_str(".\n");
                if op.get("description").is_some() {
                    md.push_str(&format!("\n{}\n", text(&op["description"])));
                }
                let params: Vec<&Value> = item
                    .get("parameters")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .chain(
                        op.get("parameters")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten(),
                    )
                    .collect();
                if !params.is_empty() {
                    md.push_str("\n| parameter | in | type | meaning |\n|---|---|---|---|\n");
                    for p in params {
                        let p = resolve(doc, p);
                        md.push_str(&format!(
                            "| `{}`{} | {} | {} | {} |\n",
                            text(&p["name"]),
                            if p["required"] == true {
                                " (required)"
                            } else {
                                ""
                            },
                            text(&p["in"]),
                            schema_name(&p["schema"]),
                            text(&p["description"]).replace('|', "\\|"),
                        ));
                    }
                }
                if let Some(body) = op.get("requestBody") {
                    let body = resolve(doc, body);
                    if let Some(content) = body["content"].as_object() {
                        for (kind, c) in content {
                            md.push_str(&format!(
                                "\nBody ({kind}): {}.\n",
                                schema_name(&c["schema"])
                            ));
                        }
                    }
                }
                if let Some(responses) = op["responses"].as_object() {
                    md.push_str("\n| status | meaning | body |\n|---|---|---|\n");
                    for (status, r) in responses {
                        let described = text(&r["description"]);
                        let r = resolve(doc, r);
                        let description = if described.is_empty() {
                            text(&r["description"])
                        } else {
                            described
                        };
                        let body = r["content"]
                            .as_object()
                            .and_then(|c| c.iter().next())
                            .map(|(kind, c)| format!("{kind}: {}", schema_name(&c["schema"])))
                            .unwrap_or_default();
                        md.push_str(&format!(
                            "| {status} | {} | {body} |\n",
                            description.replace('|', "\\|")
                        ));
                    }
                }
            }
        }
    }
    md.push_str("\n## Schemas\n");
    if let Some(schemas) = doc["components"]["schemas"].as_object() {
        for (name, s) in schemas {
            md.push_str(&format!("\n### {name}\n"));
            if s.get("description").is_some() {
                md.push_str(&format!("\n{}\n", text(&s["description"])));
            }
            if let Some(props) = s["properties"].as_object() {
                let required: BTreeSet<&str> = s["required"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                md.push_str("\n| field | type | meaning |\n|---|---|---|\n");
                for (field, p) in props {
                    md.push_str(&format!(
                        "| `{field}`{} | {} | {} |\n",
                        if required.contains(field.as_str()) {
                            ""
                        } else {
                            " (optional)"
                        },
                        schema_name(p),
                        text(&p["description"]).replace('|', "\\|"),
                    ));
                }
            }
        }
    }
    md
}

/// A `$ref` to the document's components, followed.
fn resolve<'a>(doc: &'a Value, v: &'a Value) -> &'a Value {
    match v.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let mut at = doc;
            for part in r.trim_start_matches("#/").split('/') {
                at = &at[part];
            }
            at
        }
        None => v,
    }
}

#[test]
fn http_api_reference_is_the_openapi_document() {
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("protocol/openapi.json")).unwrap(),
    )
    .unwrap();
    let md = api_reference(&doc);
    // Every operation is on the page (each under one of the document's tags).
    let operations: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| {
            ["get", "post", "put", "patch", "delete"]
                .iter()
                .filter(|m| item.get(**m).is_some())
                .count()
        })
        .sum();
    let headings = md
        .lines()
        .filter(|l| {
            [
                "### GET ",
                "### POST ",
                "### PUT ",
                "### PATCH ",
                "### DELETE ",
            ]
            .iter()
            .any(|m| l.starts_with(m))
        })
        .count();
    assert_eq!(
        headings, operations,
        "an operation without a known tag is missing"
    );
    check_generated("docs/src/reference/http-api.md", &md);
}

#[test]
fn the_readme_stays_short() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; the book is for the rest"
    );
    assert!(
        readme.contains("cargo test --workspace --release"),
        "README.md lost its test command (CI runs it)"
    );
}

#[test]
fn console_matching_rules() {
    let exp = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(lines_match(&exp("a\n...\nz"), &["a", "b", "c", "z"]));
    assert!(lines_match(&exp("a\n...\nz"), &["a", "z"]));
    assert!(!lines_match(&exp("a\n...\nz"), &["a", "b"]));
    assert!(lines_match(&exp("x [..] y"), &["x 12 ms y"]));
    assert!(!lines_match(&exp("x [..] y"), &["x 12 ms z"]));
    assert!(!lines_match(&exp("a"), &["a", "b"]));
    assert!(line_matches("[..]", "anything"));
    assert!(line_matches("a[..]b[..]c", "a1b2c"));
    assert!(!line_matches("a[..]b[..]c", "a1c2b"));
    let block = Block {
        lang: "sh".into(),
        text: "zebra play --seed 3 # it's a comment\nFOO=1 zebra verify a.pgn && echo ok\n$ ./target/release/zebra match \\\n  --games 2 > out.txt\ncat x | zebra view - 2>&1\n".into(),
        line: 1,
    };
    let cmds: Vec<String> = zebra_commands(&block)
        .into_iter()
        .map(|(_, w)| w.join(" "))
        .collect();
    assert_eq!(
        cmds,
        [
            "zebra play --seed 3",
            "zebra verify a.pgn",
            "./target/release/zebra match --games 2",
            "zebra view -"
        ]
    );
}
