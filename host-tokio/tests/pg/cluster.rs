//! A real PostgreSQL for tests: a throwaway cluster (Debian's `postgresql`, installed by
//! scripts/setup.sh) under `target/tmp/pg-<pid>-<n>`, on a free port of 127.0.0.1 with
//! its socket inside the cluster directory, stopped and removed when dropped. As root,
//! the server runs as the `postgres` user (initdb refuses root). Shared by the host's
//! tests, the conformance runner and the bench (std only).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The user the tests connect as, with [`PASSWORD`] (scram-sha-256 over TCP).
pub const USER: &str = "tool_offload";
/// Its password.
pub const PASSWORD: &str = "test-secret";

/// A running cluster; stopped (fast shutdown, by its process id) and deleted when dropped.
pub struct Cluster {
    child: Child,
    dir: PathBuf,
    /// The TCP port on 127.0.0.1.
    pub port: u16,
}

/// The directory of PostgreSQL's programs: `$TOOL_OFFLOAD_PG_BIN`, else the newest
/// `/usr/lib/postgresql/<version>/bin` holding `initdb`; `None` when there is none.
pub fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TOOL_OFFLOAD_PG_BIN") {
        return Some(dir.into());
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// `program` from `bin`, run as `postgres` when we are root.
fn command(bin: &Path, program: &str, root: bool) -> Command {
    if root {
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid=postgres",
            "--regid=postgres",
            "--init-groups",
            "--",
        ]);
        c.arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

/// The server of the cluster in `dir`, on 127.0.0.1:`port`.
fn serve(bin: &Path, dir: &Path, port: u16, root: bool) -> Child {
    command(bin, "postgres", root)
        .arg("-D")
        .arg(dir.join("data"))
        .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-k"])
        .arg(dir.join("socket"))
        // A throwaway cluster: nothing to make durable.
        .args(["-c", "fsync=off", "-c", "synchronous_commit=off"])
        .args(["-c", "full_page_writes=off", "-c", "max_connections=40"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start postgres")
}

impl Cluster {
    /// initdb and start one; panics (the test cannot run) when PostgreSQL is missing.
    pub fn start() -> Cluster {
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let bin = bin_dir().expect(
            "PostgreSQL's initdb (apt-get install postgresql; make test runs scripts/setup.sh)",
        );
        let n = STARTED.fetch_add(1, Ordering::SeqCst);
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("socket")).expect("the cluster directory");
        let password_file = dir.join("password");
        std::fs::write(&password_file, PASSWORD).expect("the password file");
        let root = is_root();
        if root {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status();
            assert!(
                status.is_ok_and(|s| s.success()),
                "chown the cluster to postgres"
            );
        }
        let out = command(&bin, "initdb", root)
            .arg("-D")
            .arg(dir.join("data"))
            .args(["-U", USER, "-E", "UTF8", "--locale=C", "--no-sync"])
            .args(["--auth-local=trust", "--auth-host=scram-sha-256"])
            .arg(format!("--pwfile={}", password_file.display()))
            .output()
            .expect("run initdb");
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = serve(&bin, &dir, port, root);
        let cluster = Cluster { child, dir, port };
        cluster.wait_ready(&bin);
        cluster
    }

    /// Stop the server and start it again on the same data and port.
    #[allow(dead_code)] // the workspace bench, which shares this file, never restarts
    pub fn restart(&mut self) {
        self.stop();
        let bin = bin_dir().expect("PostgreSQL's binaries");
        self.child = serve(&bin, &self.dir, self.port, is_root());
        self.wait_ready(&bin);
    }

    fn wait_ready(&self, bin: &Path) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let ready = Command::new(bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-p", &self.port.to_string()])
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return;
            }
            assert!(Instant::now() < deadline, "postgres did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A libpq connection string for [`USER`] with `password`, to database `postgres`.
    pub fn config_with(&self, password: &str) -> String {
        format!(
            "host=127.0.0.1 port={} user={USER} password={password} dbname=postgres",
            self.port
        )
    }

    /// [`Cluster::config_with`] the right password.
    pub fn config(&self) -> String {
        self.config_with(PASSWORD)
    }

    /// Stop the server now (fast shutdown), waiting for it to exit.
    pub fn stop(&mut self) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
