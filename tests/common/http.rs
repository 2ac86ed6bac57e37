//! A plain HTTP/1.1 client over a loopback socket, for the daemon's and the viewer's
//! servers: one request, `Connection: close`, the whole answer read.

use std::io::{Read, Write};
use std::time::Duration;

/// One HTTP/1.1 exchange with the server at `base` (`http://HOST:PORT`): `token` as a
/// bearer token, `headers` and `body` as given (`Content-Length` always sent). Returns
/// (status, the head in lower case, body).
pub fn http(
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> (u16, String, String) {
    let host = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.unwrap_or_default();
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before reading a body it refuses: a write error then is fine.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in: {head}"));
    (status, head.to_ascii_lowercase(), body.to_string())
}
