//! The daemon's counters, shown at `/metrics` in Prometheus' text format (version 0.0.4):
//! atomics bumped by the workers, read without a lock. Gauges that the database knows
//! (the queue, each worker's figures) are read from it when scraped.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::sandbox::Verdict;

/// Counters since the daemon started.
#[derive(Debug, Default)]
pub struct Metrics {
    pub games_running: AtomicU64,
    pub games_finished: AtomicU64,
    /// Attempts voided (abandoned at shutdown; a finish that came after its lease).
    pub games_voided: AtomicU64,
    pub timeouts: AtomicU64,
    pub illegal: AtomicU64,
    /// Per verdict, in the order of [`Verdict::CODES`].
    pub verdicts: [AtomicU64; Verdict::CODES.len()],
    pub bots_suspended: AtomicU64,
    /// Records reported by remote workers and refused (not the game leased, or not
    /// replaying).
    pub reports_refused: AtomicU64,
    pub http_requests: AtomicU64,
    /// HTTP connections open now (at most `http.max_connections`).
    pub http_connections: AtomicU64,
    /// HTTP connections taken since start.
    pub http_connections_total: AtomicU64,
}

impl Metrics {
    pub fn verdict(&self, code: &str) {
        if let Some(i) = Verdict::CODES.iter().position(|c| *c == code) {
            self.verdicts[i].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The text `/metrics` serves; `queued`/`leased` and the workers from the store,
    /// `uptime` in seconds.
    pub fn render(
        &self,
        queued: u64,
        leased: u64,
        uptime: f64,
        workers: &[super::store::WorkerRow],
    ) -> String {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut out = String::new();
        let mut one = |name: &str, kind: &str, help: &str, value: String| {
            out.push_str(&format!(
                "# HELP zebra_{name} {help}\n# TYPE zebra_{name} {kind}\nzebra_{name} {value}\n"
            ));
        };
        one(
            "queue_games",
            "gauge",
            "Games queued to play.",
            queued.to_string(),
        );
        one(
            "leased_games",
            "gauge",
            "Games leased by a worker.",
            leased.to_string(),
        );
        one(
            "running_games",
            "gauge",
            "Games being played now.",
            get(&self.games_running).to_string(),
        );
        let finished = get(&self.games_finished);
        one(
            "games_finished_total",
            "counter",
            "Games finished and counted since start.",
            finished.to_string(),
        );
        one(
            "games_per_second",
            "gauge",
            "Games finished per second since start.",
            format!("{:.3}", finished as f64 / uptime.max(1e-3)),
        );
        one(
            "games_voided_total",
            "counter",
            "Attempts voided since start (the daemon's fault, played again).",
            get(&self.games_voided).to_string(),
        );
        one(
            "timeouts_total",
            "counter",
            "Bot timeouts in finished games.",
            get(&self.timeouts).to_string(),
        );
        one(
            "illegal_replies_total",
            "counter",
            "Invalid or illegal bot replies in finished games.",
            get(&self.illegal).to_string(),
        );
        one(
            "bots_suspended_total",
            "counter",
            "Bots suspended for crashing too often in a row.",
            get(&self.bots_suspended).to_string(),
        );
        one(
            "reports_refused_total",
            "counter",
            "Records reported by remote workers and refused (the game is played again).",
            get(&self.reports_refused).to_string(),
        );
        one(
            "http_requests_total",
            "counter",
            "HTTP requests answered.",
            get(&self.http_requests).to_string(),
        );
        one(
            "http_connections",
            "gauge",
            "HTTP connections open now.",
            get(&self.http_connections).to_string(),
        );
        one(
            "http_connections_total",
            "counter",
            "HTTP connections taken since start.",
            get(&self.http_connections_total).to_string(),
        );
        one(
            "uptime_seconds",
            "gauge",
            "Seconds since the daemon started.",
            format!("{uptime:.1}"),
        );
        out.push_str(
            "# HELP zebra_verdicts_total Games a bot ended early, per verdict.\n# TYPE zebra_verdicts_total counter\n",
        );
        for (code, n) in Verdict::CODES.iter().zip(&self.verdicts) {
            out.push_str(&format!(
                "zebra_verdicts_total{{verdict=\"{code}\"}} {}\n",
                get(n)
            ));
        }
        for (name, help, value) in [
            (
                "worker_games_total",
                "Games each worker finished that counted.",
                (|w: &super::store::WorkerRow| w.games) as fn(&super::store::WorkerRow) -> u64,
            ),
            (
                "worker_timeouts_total",
                "Bot timeouts in the games each worker finished.",
                |w| w.timeouts,
            ),
            (
                "worker_forfeits_total",
                "Games each worker finished that ended by a forfeit.",
                |w| w.forfeits,
            ),
        ] {
            out.push_str(&format!(
                "# HELP zebra_{name} {help}\n# TYPE zebra_{name} counter\n"
            ));
            for w in workers {
                out.push_str(&format!(
                    "zebra_{name}{{worker=\"{}\",host=\"{}\",sandbox=\"{}\"}} {}\n",
                    label(&w.info.name),
                    label(&w.info.host),
                    label(&w.info.sandbox),
                    value(w)
                ));
            }
        }
        out
    }
}

/// A label value as Prometheus' text format writes it (backslash, quote, newline escaped).
fn label(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_line_is_name_labels_value() {
        let m = Metrics::default();
        m.verdict("crashed");
        m.verdict("no-such-verdict");
        m.games_finished.fetch_add(3, Ordering::Relaxed);
        let worker = super::super::store::WorkerRow {
            info: super::super::store::WorkerInfo {
                name: "ann/box \"1\"".into(),
                host: "box".into(),
                cpu: "cpu".into(),
                sandbox: "strict".into(),
                zebra: "0".into(),
            },
            first_ms: 0,
            seen_ms: 0,
            games: 4,
            timeouts: 1,
            forfeits: 2,
            excluded: false,
        };
        let text = m.render(7, 2, 1.5, &[worker]);
        assert!(text.contains(
            "zebra_worker_games_total{worker=\"ann/box \\\"1\\\"\",host=\"box\",sandbox=\"strict\"} 4\n"
        ), "{text}");
        assert!(text.contains("zebra_queue_games 7\n"));
        assert!(text.contains("zebra_games_finished_total 3\n"));
        assert!(text.contains("zebra_games_per_second 2.000\n"));
        assert!(text.contains("zebra_verdicts_total{verdict=\"crashed\"} 1\n"));
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (name, value) = line.rsplit_once(' ').unwrap();
            assert!(name.starts_with("zebra_"), "{line}");
            assert!(!name.contains('\n'), "{line}");
            assert!(value.parse::<f64>().is_ok(), "{line}");
        }
    }
}
