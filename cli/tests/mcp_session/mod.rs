//! A `tool-offload mcp …` process driven line by line, shared by the MCP test files.
// Each test file uses its own subset of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::Value;

/// How long a test waits for a line: past it, the proxy left a request unanswered.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// A running `tool-offload mcp …` with its stdin, its stdout as lines, and its directory.
pub struct Session {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    pub dir: tempfile::TempDir,
}

impl Session {
    /// The proxy in front of `sh -c script`.
    pub fn start(script: &str) -> Session {
        Session::spawn(&["proxy", "--conversation", "c", "--", "sh", "-c", script])
    }

    /// `tool-offload mcp <args> --user-data <a fresh directory>`.
    pub fn spawn(args: &[&str]) -> Session {
        let dir = tempfile::tempdir().unwrap();
        let (first, rest) = args.split_first().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_tool-offload"))
            .args(["mcp", first, "--user-data"])
            .arg(dir.path())
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(dir.path().join("stderr")).unwrap())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
            dir,
        }
    }

    /// What the proxy (and the upstream) wrote to stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stderr")).unwrap()
    }

    /// Write `message` and a newline to the proxy's stdin.
    pub fn send(&mut self, message: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(message.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the proxy writes, failing the test after [`ANSWER_TIMEOUT`].
    pub fn receive_line(&self) -> String {
        self.lines
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("a message from the proxy")
    }

    /// The next line, parsed.
    pub fn receive(&self) -> Value {
        serde_json::from_str(&self.receive_line()).unwrap()
    }

    /// Send `message`, return the next line parsed.
    pub fn call(&mut self, message: Value) -> Value {
        self.send(&message.to_string());
        self.receive()
    }
}
