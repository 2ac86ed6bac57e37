//! A small WebDriver client for the browser tests: Debian's `chromedriver` (package
//! `chromium-driver`) driving headless Chromium, spoken to over plain HTTP/1.1 with JSON
//! bodies. Enough to open a page, click elements, run a script and take a screenshot.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A chromedriver process and one browser session; both end when it is dropped.
pub struct Driver {
    child: Child,
    port: u16,
    session: String,
}

/// The headless browser to run, or `None` (said, and a failure when
/// `ZEBRA_REQUIRE_CHROMIUM` is set) when there is none.
#[allow(dead_code)] // not every test binary that includes this module uses it
pub fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    if found.is_none() {
        assert!(
            std::env::var_os("ZEBRA_REQUIRE_CHROMIUM").is_none(),
            "ZEBRA_REQUIRE_CHROMIUM is set but no chromium was found"
        );
        eprintln!("skipped: no chromium on this machine (apt-get install chromium)");
    }
    found
}

/// A WebDriver session in headless Chromium, or `None` (said, and a failure when
/// `ZEBRA_REQUIRE_CHROMIUM` is set) without chromium or chromedriver.
pub fn driver() -> Option<Driver> {
    let browser = chromium()?;
    let has_driver = Command::new("chromedriver")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_driver {
        assert!(
            std::env::var_os("ZEBRA_REQUIRE_CHROMIUM").is_none(),
            "ZEBRA_REQUIRE_CHROMIUM is set but no chromedriver was found"
        );
        eprintln!("skipped: no chromedriver on this machine (apt-get install chromium-driver)");
        return None;
    }
    Some(Driver::start(browser))
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One request to chromedriver; its JSON answer's `value`.
fn call(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&serde_json::Value>,
) -> serde_json::Value {
    try_call(port, method, path, body).unwrap_or_else(|(error, message)| {
        panic!("chromedriver: {method} {path}: {error}: {message}")
    })
}

/// [`call`], with chromedriver's own error (its name and message) returned, not raised.
fn try_call(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&serde_json::Value>,
) -> Result<serde_json::Value, (String, serde_json::Value)> {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // chromedriver keeps the connection open: read the head, then Content-Length bytes.
    let mut reader = std::io::BufReader::new(stream);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        use std::io::BufRead;
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "chromedriver closed"
        );
        if line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).unwrap();
    let text = String::from_utf8_lossy(&body);
    let text = text.as_ref();
    let answer: serde_json::Value = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("chromedriver answered {method} {path} with {text}: {e}"));
    if let Some(error) = answer["value"]["error"].as_str() {
        return Err((error.to_string(), answer["value"]["message"].clone()));
    }
    Ok(answer["value"].clone())
}

impl Driver {
    /// Starts chromedriver and a headless Chromium session (1400x900).
    pub fn start(browser: &str) -> Driver {
        use std::os::unix::process::CommandExt;
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut driver = Driver {
            child,
            port,
            session: String::new(),
        };
        let caps = serde_json::json!({"capabilities": {"alwaysMatch": {
            "goog:chromeOptions": {
                "binary": which(browser),
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"]
            }
        }}});
        let value = call(port, "POST", "/session", Some(&caps));
        driver.session = value["sessionId"].as_str().unwrap().to_string();
        driver
    }

    fn at(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    pub fn open(&self, url: &str) {
        call(
            self.port,
            "POST",
            &self.at("/url"),
            Some(&serde_json::json!({ "url": url })),
        );
    }

    /// Runs `script` (a function body; `return` gives the value) in the page.
    pub fn run(&self, script: &str) -> serde_json::Value {
        call(
            self.port,
            "POST",
            &self.at("/execute/sync"),
            Some(&serde_json::json!({ "script": script, "args": [] })),
        )
    }

    /// Clicks the element `css` selects, as a person would (the pointer at its centre).
    ///
    /// A person waits for what they mean to click: the page draws after each answer it
    /// fetches, so on a loaded machine the element may not be there yet, or be replaced
    /// between finding and clicking it. Both are retried for up to a minute.
    pub fn click(&self, css: &str) {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            let attempt = try_call(
                self.port,
                "POST",
                &self.at("/element"),
                Some(&serde_json::json!({ "using": "css selector", "value": css })),
            )
            .and_then(|found| {
                let id = found[ELEMENT]
                    .as_str()
                    .unwrap_or_else(|| panic!("no element for {css}: {found}"))
                    .to_string();
                try_call(
                    self.port,
                    "POST",
                    &self.at(&format!("/element/{id}/click")),
                    Some(&serde_json::json!({})),
                )
            });
            match attempt {
                Ok(_) => return,
                Err((error, message)) => {
                    let not_yet = error == "no such element" || error == "stale element reference";
                    if !not_yet || std::time::Instant::now() >= deadline {
                        panic!("chromedriver: clicking {css}: {error}: {message}");
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
    }

    /// The page as PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let value = call(self.port, "GET", &self.at("/screenshot"), None);
        base64_decode(value.as_str().unwrap())
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = std::panic::catch_unwind(|| {
                call(
                    self.port,
                    "DELETE",
                    &format!("/session/{}", self.session),
                    None,
                )
            });
        }
        // SAFETY: signals the process group this test started for chromedriver and its
        // browser.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

fn which(program: &str) -> String {
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(program))
                .find(|p| p.exists())
        })
        .map_or(program.to_string(), |p| p.display().to_string())
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, d)| acc | (d << (18 - 6 * i)));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

/// Runs `script` (a function body; `return` gives the value) in the page until it gives
/// something other than null or false, for up to three minutes.
#[allow(dead_code)] // not every test binary waits on a page
pub fn wait_page(driver: &Driver, what: &str, script: &str) -> serde_json::Value {
    let start = std::time::Instant::now();
    loop {
        let v = driver.run(script);
        if !v.is_null() && v != serde_json::Value::Bool(false) {
            return v;
        }
        if start.elapsed() > Duration::from_secs(180) {
            let text = driver.run("return location.href + ': ' + document.body.innerText");
            panic!("gave up waiting for {what}; the page: {text}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
