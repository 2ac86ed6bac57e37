//! The daemon's HTTP listener: its own accept loop over hyper, so that no client can hold
//! the server by connecting and saying nothing, or little, or by never reading.
//!
//! `axum::serve` has no timeout and no limit: 3,000 half-open connections stayed open for
//! as long as their clients kept them. Here, per connection:
//! - at most [`Http::max_connections`] are served at once: a semaphore permit is taken
//!   before `accept`, so the rest wait in the kernel's queue (no descriptor, no task, no
//!   memory of ours) until a slot frees;
//! - a request's head must arrive whole within [`Http::header_timeout`] of the connection's
//!   start or of its previous answer (hyper's `header_read_timeout`, whose timer runs while
//!   a connection waits for a head: it is the idle keep-alive timeout too); with TLS, the
//!   handshake has the same time;
//! - a request's body must arrive whole within [`Http::body_timeout`] ([`Deadline`]; 408);
//! - a write that makes no progress for [`Http::write_timeout`] (a client that stopped
//!   reading an answer or an event stream) closes the connection ([`Stalls`]).
//!
//! hyper's `http1::Builder` is used directly rather than hyper-util's `auto::Builder`: the
//! daemon speaks HTTP/1.1 only (axum is built without HTTP/2), and the timeouts are
//! HTTP/1's own settings.
//!
//! The listening socket has `SO_REUSEADDR`, so that a restart right after a `kill -9` binds
//! at once instead of failing for a minute on the dead daemon's connections in TIME_WAIT
//! (Linux still refuses a port that a live socket listens on).
//!
//! TLS ([`tls_config`]): rustls with the certificate chain and key given as PEM files
//! (`--tls-cert`, `--tls-key`). Without it, a daemon listening beyond loopback says on
//! stderr that bearer tokens cross the network in clear ([`plain_warning`]).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::Router;
use hyper::body::{Frame, Incoming, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket};
use tokio_util::sync::CancellationToken;

use super::config::{Http, Tls};
use super::Daemon;

/// The start of the error a body that took too long gives its extractor (the API answers
/// it with 408).
pub(crate) const BODY_TIMEOUT: &str = "the request body did not arrive within";

/// How long the open connections may finish their answers once the daemon stops.
const DRAIN: Duration = Duration::from_secs(5);

/// Binds `addr` with `SO_REUSEADDR` (see the module's doc).
pub fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

/// The warning for a daemon that listens beyond loopback over plain HTTP, if it does.
pub(crate) fn plain_warning(addr: SocketAddr, tls: bool) -> Option<String> {
    (!tls && !addr.ip().is_loopback()).then(|| {
        format!(
            "listening on {addr} over plain HTTP: bearer tokens and uploaded bots cross the network unencrypted; give --tls-cert and --tls-key, or listen on 127.0.0.1 behind a TLS proxy"
        )
    })
}

/// The TLS settings from the PEM files of `tls`; the error is one line naming the file.
pub fn tls_config(tls: &Tls) -> Result<Arc<rustls::ServerConfig>, String> {
    use rustls::pki_types::pem::{Error, PemObject};
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let why = |e: Error, what: &str| match e {
        Error::Io(e) => format!("cannot read it: {e}"),
        Error::NoItemsFound => format!(
            "no {what} in it (give a PEM file with a BEGIN {} block)",
            what.to_uppercase()
        ),
        e => format!("not a PEM file of a {what}: {e}"),
    };
    let cert_file = format!("TLS certificate {}", tls.cert.display());
    let key_file = format!("TLS key {}", tls.key.display());
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&tls.cert)
        .map_err(|e| format!("{cert_file}: {}", why(e, "certificate")))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{cert_file}: {}", why(e, "certificate")))?;
    if certs.is_empty() {
        return Err(format!(
            "{cert_file}: no certificate in it (give a PEM file with a BEGIN CERTIFICATE block)"
        ));
    }
    let key = PrivateKeyDer::from_pem_file(&tls.key)
        .map_err(|e| format!("{key_file}: {}", why(e, "private key")))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| {
            format!(
                "{cert_file} with {key_file}: {}",
                crate::bot::text::clean(&e.to_string(), 200)
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Raises the soft limit of open files towards the hard one when the connections allowed
/// (and some for the store, logs and bots' pipes) would not fit under it, as Go's runtime
/// does at every start. Bots are not affected: each gets its own open-files limit.
pub(crate) fn make_room_for(connections: usize) {
    let want = connections as u64 + 256;
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit with a struct on the stack.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 || limit.rlim_cur >= want {
            return;
        }
        let raised = libc::rlimit {
            rlim_cur: want.min(limit.rlim_max),
            rlim_max: limit.rlim_max,
        };
        libc::setrlimit(libc::RLIMIT_NOFILE, &raised);
        if raised.rlim_cur < want {
            tracing::warn!(
                "open files are limited to {} (ulimit -n): fewer than http.max_connections = {connections} and the daemon's own",
                raised.rlim_cur
            );
        }
    }
}

/// Serves `router` on `listener` until `stop`, then lets the open connections finish
/// their answers for a few seconds and closes the rest.
pub async fn run(
    listener: TcpListener,
    router: Router,
    daemon: Arc<Daemon>,
    tls: Option<Arc<rustls::ServerConfig>>,
    stop: CancellationToken,
) {
    let http = daemon.settings.http.clone();
    let slots = Arc::new(tokio::sync::Semaphore::new(http.max_connections));
    let tls = tls.map(tokio_rustls::TlsAcceptor::from);
    let mut open = tokio::task::JoinSet::new();
    loop {
        // A slot first: while all are taken, new connections wait in the kernel's queue.
        let permit = tokio::select! {
            permit = Arc::clone(&slots).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            _ = stop.cancelled() => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    accept_error(e).await;
                    continue;
                }
            },
            _ = stop.cancelled() => break,
        };
        while open.try_join_next().is_some() {}
        let connection = Connection {
            router: router.clone(),
            http: http.clone(),
            stop: stop.clone(),
        };
        let tls = tls.clone();
        let daemon = Arc::clone(&daemon);
        open.spawn(async move {
            let _permit = permit;
            let _open = Open::new(daemon);
            let _ = stream.set_nodelay(true);
            match tls {
                None => connection.serve(stream).await,
                Some(acceptor) => {
                    // The handshake is held to a head's time: a client that connects and
                    // says nothing holds its slot no longer over TLS than without.
                    let handshake = acceptor.accept(stream);
                    match tokio::time::timeout(http.header_timeout, handshake).await {
                        Ok(Ok(stream)) => connection.serve(stream).await,
                        Ok(Err(e)) => tracing::debug!("TLS handshake: {e}"),
                        Err(_) => tracing::debug!("TLS handshake: timed out"),
                    }
                }
            }
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(DRAIN, async { while open.join_next().await.is_some() {} }).await;
    open.shutdown().await;
}

/// A connection counted in the metrics while it is open (however its task ends).
struct Open(Arc<Daemon>);

impl Open {
    fn new(daemon: Arc<Daemon>) -> Open {
        let m = &daemon.metrics;
        m.http_connections.fetch_add(1, Ordering::Relaxed);
        m.http_connections_total.fetch_add(1, Ordering::Relaxed);
        Open(daemon)
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0
            .metrics
            .http_connections
            .fetch_sub(1, Ordering::Relaxed);
    }
}

/// An error of `accept`: one connection's (reset before it was taken) is nothing; any
/// other (out of descriptors) waits a little rather than spinning.
async fn accept_error(e: io::Error) {
    if matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::warn!("cannot accept a connection: {e}");
    tokio::time::sleep(Duration::from_millis(250)).await;
}

/// What one connection is served with.
struct Connection {
    router: Router,
    http: Http,
    stop: CancellationToken,
}

impl Connection {
    async fn serve<I>(self, io: I)
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let router = self.router;
        let body_timeout = self.http.body_timeout;
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let request = request.map(|body| Body::new(Deadline::new(body, body_timeout)));
            tower::ServiceExt::oneshot(router.clone(), request)
        });
        let io = hyper_util::rt::TokioIo::new(Stalls::new(io, self.http.write_timeout));
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(self.http.header_timeout);
        let connection = builder.serve_connection(io, service);
        tokio::pin!(connection);
        tokio::select! {
            _ = connection.as_mut() => {}
            _ = self.stop.cancelled() => {
                // The answer under way is finished; the connection takes no other.
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
        }
    }
}

/// A request body that must arrive whole within a time from its head.
pub struct Deadline {
    inner: Incoming,
    limit: Duration,
    /// When the head was read.
    start: tokio::time::Instant,
    /// The timer, made when the body first keeps its reader waiting (most bodies are
    /// empty or already read: they need none).
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Deadline {
    fn new(inner: Incoming, limit: Duration) -> Deadline {
        Deadline {
            inner,
            limit,
            start: tokio::time::Instant::now(),
            timer: None,
        }
    }
}

impl hyper::body::Body for Deadline {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let end = self.start + self.limit;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(end)));
        if timer.as_mut().poll(cx).is_ready() {
            let limit = self.limit;
            return Poll::Ready(Some(Err(format!(
                "{BODY_TIMEOUT} {}s",
                limit.as_secs_f64()
            )
            .into())));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A connection whose writes fail once one has made no progress for a time: a client
/// that stops reading cannot hold the connection (and its slot) forever.
pub struct Stalls<I> {
    io: I,
    limit: Duration,
    /// Set while a write is pending: when it gives up.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<I> Stalls<I> {
    pub fn new(io: I, limit: Duration) -> Stalls<I> {
        Stalls {
            io,
            limit,
            stalled: None,
        }
    }

    /// `polled`'s outcome, with the stall clock started, checked or cleared.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.limit;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if stalled.as_mut().poll(cx).is_ready() {
            self.stalled = None;
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for the write timeout",
            )));
        }
        Poll::Pending
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Stalls<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Stalls<I> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_shutdown(cx);
        self.watch(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_beyond_loopback_is_warned_about() {
        let at = |a: &str| a.parse::<SocketAddr>().unwrap();
        assert!(plain_warning(at("127.0.0.1:8080"), false).is_none());
        assert!(plain_warning(at("[::1]:8080"), false).is_none());
        assert!(plain_warning(at("0.0.0.0:8080"), true).is_none());
        let warned = plain_warning(at("0.0.0.0:8080"), false).unwrap();
        assert!(warned.contains("plain HTTP") && warned.contains("--tls-cert"));
        assert!(plain_warning(at("[::]:8080"), false).is_some());
    }

    #[test]
    fn a_write_that_makes_no_progress_fails_at_the_write_timeout_and_progress_keeps_it() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            // A client that reads, slowly: each bit of progress restarts the clock.
            let (mut client, server) = tokio::io::duplex(64);
            let mut conn = Stalls::new(server, Duration::from_secs(1));
            let reader = tokio::spawn(async move {
                let mut got = 0;
                let mut buf = [0u8; 64];
                while got < 64 * 30 {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    got += client.read(&mut buf).await.unwrap();
                }
                client
            });
            conn.write_all(&[1u8; 64 * 30]).await.unwrap();
            let client = reader.await.unwrap();
            // A client that stops reading: the write fails once the limit has passed.
            let started = std::time::Instant::now();
            let mut conn = Stalls::new(conn.io, Duration::from_millis(200));
            let err = conn.write_all(&[2u8; 4096]).await.unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::TimedOut);
            assert!(started.elapsed() >= Duration::from_millis(200));
            drop(client);
        });
    }

    #[test]
    fn bad_certificate_and_key_files_are_one_line_naming_the_file() {
        let dir = std::env::temp_dir().join(format!("zebra-tls-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
        let other = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let cert = write("cert.pem", &made.cert.pem());
        let key = write("key.pem", &made.key_pair.serialize_pem());
        let other_key = write("other.pem", &other.key_pair.serialize_pem());
        let junk = write("junk.pem", "not a certificate\n");
        let missing = dir.join("missing.pem");
        let tls = |cert: &std::path::Path, key: &std::path::Path| {
            tls_config(&Tls {
                cert: cert.to_path_buf(),
                key: key.to_path_buf(),
            })
        };
        assert!(tls(&cert, &key).is_ok());
        for (c, k, needles) in [
            (
                &missing,
                &key,
                vec!["TLS certificate", "missing.pem", "cannot read"],
            ),
            (
                &junk,
                &key,
                vec!["TLS certificate", "junk.pem", "no certificate"],
            ),
            (
                &key,
                &key,
                vec!["TLS certificate", "key.pem", "no certificate"],
            ),
            (&cert, &cert, vec!["TLS key", "cert.pem", "no private key"]),
            (
                &cert,
                &missing,
                vec!["TLS key", "missing.pem", "cannot read"],
            ),
            (&cert, &other_key, vec!["cert.pem", "other.pem"]),
        ] {
            let err = tls(c, k).unwrap_err();
            assert!(!err.contains('\n'), "one line: {err}");
            for n in needles {
                assert!(err.contains(n), "{n}: {err}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
