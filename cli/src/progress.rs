//! A progress bar on stderr, shown only for large inputs and only when stderr is a
//! terminal; otherwise every call is a no-op.

use std::io::{self, IsTerminal, Read};

use indicatif::{ProgressBar, ProgressStyle};

/// Inputs from this many bytes get a progress bar.
const LARGE_BYTES: u64 = 20 * 1024 * 1024;
/// Inputs of this many messages get a progress bar.
const LARGE_MESSAGES: u64 = 10_000;

/// Whether an input of `bytes` and (when known) `messages` deserves a progress bar.
pub fn wanted(bytes: u64, messages: Option<u64>) -> bool {
    let large = bytes >= LARGE_BYTES || messages.is_some_and(|m| m >= LARGE_MESSAGES);
    large && io::stderr().is_terminal()
}

/// A progress bar, or nothing. Cleared from the terminal when dropped, so an error line
/// or the summary never lands in the middle of it.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// No bar.
    pub fn hidden() -> Self {
        Progress(None)
    }

    /// A bar counting `total` bytes, labelled `label`, if `show`.
    pub fn bytes(show: bool, total: u64, label: &'static str) -> Self {
        Self::with_template(
            show,
            total,
            label,
            "{msg:>10} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
        )
    }

    /// A bar counting `total` messages, labelled `label`, if `show`.
    pub fn messages(show: bool, total: u64, label: &'static str) -> Self {
        Self::with_template(
            show,
            total,
            label,
            "{msg:>10} [{bar:40}] {human_pos}/{human_len} messages ({eta})",
        )
    }

    /// A bar counting `total` conversations, labelled `label`, if `show`.
    pub fn conversations(show: bool, total: u64, label: &'static str) -> Self {
        Self::with_template(
            show,
            total,
            label,
            "{msg:>10} [{bar:40}] {human_pos}/{human_len} conversations ({eta})",
        )
    }

    fn with_template(show: bool, total: u64, label: &'static str, template: &str) -> Self {
        if !show {
            return Progress::hidden();
        }
        let style = ProgressStyle::with_template(template)
            .expect("the progress templates are valid")
            .progress_chars("=> ");
        Progress(Some(
            ProgressBar::new(total)
                .with_style(style)
                .with_message(label),
        ))
    }

    /// Advance by `n`.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(n);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// A reader that advances a [`Progress`] by the bytes it reads.
pub struct Counting<'p, R> {
    inner: R,
    progress: &'p Progress,
}

impl<'p, R> Counting<'p, R> {
    /// Count what `inner` reads on `progress`.
    pub fn new(inner: R, progress: &'p Progress) -> Self {
        Counting { inner, progress }
    }
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.inc(n as u64);
        Ok(n)
    }
}
