//! The daemon's worker routes (see [`crate::server::fleet`]) over HTTP(S), with
//! `reqwest`: a pooled async client with timeouts and rustls (the daemon's own TLS
//! library), which a hand-written HTTP/1.1 client would have to match request by request.
//!
//! Every failure is one line naming the server, the route and what it said (its problem
//! body's `detail`).

use std::time::Duration;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::server::fleet::{Grant, Held, Hello, LeaseAsk, Progress, Report};
use crate::server::store::Lease;

use super::WorkerSettings;

/// How long one request may take, besides a lease's own wait.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// A client of one daemon.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
}

/// What became of a lease's renewal or report.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer<T> {
    Done(T),
    /// The lease no longer holds (409).
    Lost(String),
    /// The daemon refused it for what it is (4xx other than 409): one line.
    Refused(String),
}

impl Client {
    pub fn new(settings: &WorkerSettings) -> Result<Client, String> {
        let mut builder = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("zebra-worker/", env!("CARGO_PKG_VERSION")));
        if let Some(path) = &settings.ca_cert {
            let pem =
                std::fs::read(path).map_err(|e| format!("--ca-cert {}: {e}", path.display()))?;
            let cert = reqwest::Certificate::from_pem(&pem)
                .map_err(|e| format!("--ca-cert {}: not a PEM certificate: {e}", path.display()))?;
            builder = builder.add_root_certificate(cert);
        }
        let http = builder
            .build()
            .map_err(|e| format!("cannot set up the HTTP client: {e}"))?;
        Ok(Client {
            http,
            base: settings.server.trim_end_matches('/').to_string(),
            token: settings.token.clone(),
        })
    }

    /// Checks the server answers, takes this token as a worker's and runs this version.
    pub async fn hello(&self) -> Result<Hello, String> {
        let path = "/api/v1/worker/hello";
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await
            .map_err(|e| self.unreachable(path, &e))?;
        let status = response.status();
        if status.is_success() {
            let hello: Hello = response
                .json()
                .await
                .map_err(|e| format!("{}{path}: an answer that does not read: {e}", self.base))?;
            let mine = env!("CARGO_PKG_VERSION");
            if hello.zebra != mine {
                return Err(format!(
                    "{} runs Zebra {} and this worker Zebra {mine}: run the same version, which plays the same games",
                    self.base, hello.zebra
                ));
            }
            return Ok(hello);
        }
        let detail = detail(response).await;
        Err(match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => format!(
                "{} refuses the token: {detail}; an admin makes a worker's with 'zebra serve token create --scope worker --owner NAME'",
                self.base
            ),
            _ => format!("{} answers {status}: {detail}", self.base),
        })
    }

    /// The next game, or none within the wait; `Refused` when the daemon will not give
    /// this worker games (excluded, another version): it should stop.
    pub async fn lease(&self, ask: &LeaseAsk) -> Result<Answer<Option<Grant>>, String> {
        let wait = Duration::from_millis(ask.wait_ms);
        let response = self
            .post("/api/v1/worker/lease", ask, REQUEST_TIMEOUT + wait)
            .await?;
        match response.status() {
            StatusCode::NO_CONTENT => Ok(Answer::Done(None)),
            StatusCode::OK => response
                .json::<Grant>()
                .await
                .map(|g| Answer::Done(Some(g)))
                .map_err(|e| format!("{}: a lease that does not read: {e}", self.base)),
            status if status.is_client_error() => Ok(Answer::Refused(format!(
                "{} refuses this worker ({status}): {}",
                self.base,
                detail(response).await
            ))),
            status => Err(format!(
                "{} cannot lease now ({status}): {}",
                self.base,
                detail(response).await
            )),
        }
    }

    /// Renews a lease: its new deadline.
    pub async fn renew(&self, lease: &Lease) -> Result<Answer<i64>, String> {
        let held = Held {
            lease: lease.clone(),
            unplayed: false,
        };
        let response = self
            .post("/api/v1/worker/renew", &held, REQUEST_TIMEOUT)
            .await?;
        self.answer(response, |v: serde_json::Value| {
            v["until_ms"].as_i64().unwrap_or_default()
        })
        .await
    }

    /// Shows a game's record so far on its live page.
    pub async fn progress(&self, lease: &Lease, record: String) -> Result<(), String> {
        let body = Progress {
            lease: lease.clone(),
            record,
        };
        let response = self
            .post("/api/v1/worker/progress", &body, REQUEST_TIMEOUT)
            .await?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(detail(response).await)
        }
    }

    /// Reports a finished game.
    pub async fn finish(&self, report: &Report) -> Result<Answer<()>, String> {
        let response = self
            .post("/api/v1/worker/finish", report, REQUEST_TIMEOUT)
            .await?;
        self.answer(response, |_: serde_json::Value| ()).await
    }

    /// Gives a game back: `unplayed` if it never started (its attempt is not used up).
    pub async fn abandon(&self, lease: &Lease, unplayed: bool) -> Result<Answer<()>, String> {
        let held = Held {
            lease: lease.clone(),
            unplayed,
        };
        let response = self
            .post("/api/v1/worker/abandon", &held, REQUEST_TIMEOUT)
            .await?;
        if response.status() == StatusCode::NO_CONTENT {
            return Ok(Answer::Done(()));
        }
        self.answer(response, |_: serde_json::Value| ()).await
    }

    /// An archive's bytes.
    pub async fn archive(&self, hash: &str) -> Result<Vec<u8>, String> {
        let path = format!("/api/v1/worker/archives/{hash}");
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await
            .map_err(|e| self.unreachable(&path, &e))?;
        if !response.status().is_success() {
            return Err(format!("{}{path}: {}", self.base, detail(response).await));
        }
        response
            .bytes()
            .await
            .map(|b| b.to_vec())
            .map_err(|e| self.unreachable(&path, &e))
    }

    async fn post(
        &self,
        path: &str,
        body: &impl Serialize,
        timeout: Duration,
    ) -> Result<reqwest::Response, String> {
        self.http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .json(body)
            .timeout(timeout)
            .send()
            .await
            .map_err(|e| self.unreachable(path, &e))
    }

    async fn answer<T, V: DeserializeOwned>(
        &self,
        response: reqwest::Response,
        done: impl FnOnce(V) -> T,
    ) -> Result<Answer<T>, String> {
        let status = response.status();
        if status.is_success() {
            let value = response
                .json::<V>()
                .await
                .map_err(|e| format!("{}: an answer that does not read: {e}", self.base))?;
            return Ok(Answer::Done(done(value)));
        }
        let detail = detail(response).await;
        Ok(match status {
            StatusCode::CONFLICT => Answer::Lost(detail),
            s if s.is_client_error() => Answer::Refused(detail),
            s => return Err(format!("{} answers {s}: {detail}", self.base)),
        })
    }

    fn unreachable(&self, path: &str, e: &reqwest::Error) -> String {
        use std::error::Error;
        let mut why = e.to_string();
        let mut source = e.source();
        while let Some(s) = source {
            why = format!("{why}: {s}");
            source = s.source();
        }
        format!("cannot reach {}{path}: {why}", self.base)
    }
}

/// A refusal's one line: its problem body's `detail`, or its status.
async fn detail(response: reqwest::Response) -> String {
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v["detail"].as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{status}"))
}
