//! A real S3-compatible server for tests: moto's server mode (`moto_server`, from PyPI's
//! `moto[server]`, installed by scripts/setup.sh), on a free port of 127.0.0.1, stopped
//! when dropped. Shared by the host's and the CLI's tests (std only).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A moto server; killed (by its process id) when dropped.
pub struct Moto {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub endpoint: String,
}

impl Moto {
    /// Start one and create `bucket` in it.
    pub fn start(bucket: &str) -> Moto {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("moto_server")
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server (pip install 'moto[server]'; make test runs scripts/setup.sh)");
        let moto = Moto {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(status) = moto.request(&format!("PUT /{bucket} HTTP/1.1")) {
                assert!(status.contains(" 200 "), "creating the bucket: {status}");
                return moto;
            }
            assert!(Instant::now() < deadline, "moto_server did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Check every request's credentials from now on, as S3 does: moto's
    /// `/moto-api/reset-auth` with no unauthenticated requests left. Moto knows no access
    /// key then, so every request is refused (`403 InvalidAccessKeyId`); for this server
    /// process only.
    pub fn require_auth(&self) {
        let status = self
            .send("POST /moto-api/reset-auth HTTP/1.1", "0")
            .expect("moto answers");
        assert!(
            status.contains(" 200 "),
            "turning authentication on: {status}"
        );
    }

    /// One bodiless request; the status line.
    fn request(&self, line: &str) -> std::io::Result<String> {
        self.send(line, "")
    }

    /// One request with `body`; the status line.
    fn send(&self, line: &str, body: &str) -> std::io::Result<String> {
        let host = self.endpoint.trim_start_matches("http://");
        let mut stream = TcpStream::connect(host)?;
        let length = body.len();
        write!(
            stream,
            "{line}\r\nHost: {host}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n{body}"
        )?;
        let mut response = String::new();
        stream.read_to_string(&mut response)?;
        Ok(response.lines().next().unwrap_or_default().to_owned())
    }

    /// Stop the server now.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        self.stop();
    }
}
