//! A front for the S3 server that answers its first requests `503 Slow Down` (S3's
//! throttling) and forwards the rest, so the store's retry policy meets real refusals;
//! or that takes half of every request's body and hangs up, as a server that dies
//! mid-write.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The front: its endpoint and how many requests it refused.
pub struct Flaky {
    /// `http://127.0.0.1:<port>`.
    pub endpoint: String,
    /// Requests answered 503 (or cut) so far.
    pub refused: Arc<AtomicUsize>,
}

/// What the front does to a request it does not forward.
#[derive(Clone, Copy)]
enum Refusal {
    /// Read it whole, answer `503 Slow Down`.
    SlowDown,
    /// Read half its body, then close the connection.
    Cut,
}

impl Flaky {
    /// Refuse the first `refuse` requests, forward the others to `upstream` (`host:port`).
    pub fn start(upstream: &str, refuse: usize) -> Flaky {
        Self::with(upstream, refuse, Refusal::SlowDown)
    }

    /// Cut every request in the middle of its body: nothing ever reaches `upstream`.
    pub fn cutting(upstream: &str) -> Flaky {
        Self::with(upstream, usize::MAX, Refusal::Cut)
    }

    fn with(upstream: &str, refuse: usize, refusal: Refusal) -> Flaky {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let refused = Arc::new(AtomicUsize::new(0));
        let (count, upstream) = (refused.clone(), upstream.to_owned());
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let (count, upstream) = (count.clone(), upstream.clone());
                std::thread::spawn(move || serve(client, &upstream, &count, refuse, refusal));
            }
        });
        Flaky { endpoint, refused }
    }
}

/// One connection: 503s (reading each request whole first) while any are left to
/// refuse, then a plain pipe to the upstream.
fn serve(
    client: TcpStream,
    upstream: &str,
    refused: &AtomicUsize,
    refuse: usize,
    refusal: Refusal,
) {
    let mut reader = BufReader::new(client.try_clone().unwrap());
    loop {
        let taken = refused.fetch_add(1, Ordering::SeqCst);
        if taken >= refuse {
            refused.fetch_sub(1, Ordering::SeqCst);
            break;
        }
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(value) = lower.strip_prefix("content-length:") {
                length = value.trim().parse().unwrap_or(0);
            }
            if line == "\r\n" {
                break;
            }
        }
        if let Refusal::Cut = refusal {
            let mut half = vec![0; length / 2];
            let _ = reader.read_exact(&mut half);
            let _ = client.shutdown(std::net::Shutdown::Both);
            return;
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let reply =
            "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: 0\r\n\r\n";
        if (&client).write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
    // Whatever the reader buffered goes first, then both directions are piped.
    let Ok(mut server) = TcpStream::connect(upstream) else {
        return;
    };
    if server.write_all(reader.buffer()).is_err() {
        return;
    }
    let mut server_out = server.try_clone().unwrap();
    let mut client_in = client.try_clone().unwrap();
    let pipe = std::thread::spawn(move || std::io::copy(&mut client_in, &mut server_out));
    let _ = std::io::copy(&mut server, &mut &client);
    let _ = client.shutdown(std::net::Shutdown::Both);
    let _ = pipe.join();
}
