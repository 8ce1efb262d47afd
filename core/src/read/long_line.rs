//! A line longer than a scan's chunk: decoded and split into rows as its bytes arrive,
//! so memory stays bounded by a row whatever the line's length.

use std::ops::ControlFlow;

use super::rows::{next_cut, LineStart, Rows, Visitor};
use crate::text::byte_index_at;
use crate::text::utf16_len;

/// A line longer than a chunk, split into parts as its bytes arrive.
pub(super) struct LongLine {
    start: LineStart,
    /// Decoded, not yet shown.
    text: String,
    /// The start of a UTF-8 sequence whose end has not arrived.
    pending: Vec<u8>,
    /// Parts shown so far.
    parts: usize,
    /// UTF-16 units of the line shown so far.
    shown: usize,
}

impl LongLine {
    pub(super) fn new(start: LineStart) -> Self {
        LongLine {
            start,
            text: String::new(),
            pending: Vec::new(),
            parts: 0,
            shown: 0,
        }
    }

    /// More bytes of the line; shows every part that more bytes cannot change.
    pub(super) fn feed(
        &mut self,
        bytes: &[u8],
        rows: &mut Rows,
        visitor: &mut (dyn Visitor + Send),
    ) -> ControlFlow<()> {
        self.pending.extend_from_slice(bytes);
        let mut at = 0;
        loop {
            match std::str::from_utf8(&self.pending[at..]) {
                Ok(valid) => {
                    self.text.push_str(valid);
                    at = self.pending.len();
                    break;
                }
                Err(e) => {
                    let valid = &self.pending[at..at + e.valid_up_to()];
                    // `valid_up_to` bytes are UTF-8: the fallback never happens.
                    self.text
                        .push_str(std::str::from_utf8(valid).unwrap_or_default());
                    at += e.valid_up_to();
                    match e.error_len() {
                        Some(n) => {
                            self.text.push(char::REPLACEMENT_CHARACTER);
                            at += n;
                        }
                        None => break, // an incomplete sequence: wait for its end
                    }
                }
            }
        }
        self.pending.drain(..at);
        // Parts are shown from `from` on, and the text before it dropped once at the
        // end: counting or moving the whole rest for each part was quadratic in the
        // chunk (a 10 MB line took 5 s to grep).
        let mut from = 0;
        let flow = loop {
            let rest = &self.text[from..];
            // A final `\r` may yet be the line end's; it is not counted until known.
            let settled = rest.strip_suffix('\r').unwrap_or(rest);
            if byte_index_at(settled, rows.row_chars) == settled.len() {
                break ControlFlow::Continue(());
            }
            let cut = next_cut(settled, rows.row_chars);
            self.parts += 1;
            let at = self.shown;
            self.shown += utf16_len(&rest[..cut]);
            from += cut;
            let part = &self.text[from - cut..from];
            if rows
                .emit(&self.start, (Some(self.parts), at), part, visitor)
                .is_break()
            {
                break ControlFlow::Break(());
            }
        };
        self.text.drain(..from);
        flow
    }

    /// The line's end: at a newline (`ended`), or at the end of the artifact.
    pub(super) fn finish(
        &mut self,
        ended: bool,
        rows: &mut Rows,
        visitor: &mut (dyn Visitor + Send),
    ) -> ControlFlow<()> {
        if !self.pending.is_empty() {
            self.text.push(char::REPLACEMENT_CHARACTER);
        } else if ended && self.text.ends_with('\r') {
            self.text.pop();
        }
        rows.next_line += 1;
        if self.parts == 0 && utf16_len(&self.text) <= rows.row_chars {
            return rows.emit(&self.start, (None, 0), &self.text, visitor);
        }
        let mut rest: &str = &self.text;
        while !rest.is_empty() {
            let cut = next_cut(rest, rows.row_chars);
            self.parts += 1;
            let at = self.shown;
            self.shown += utf16_len(&rest[..cut]);
            rows.emit(&self.start, (Some(self.parts), at), &rest[..cut], visitor)?;
            rest = &rest[cut..];
        }
        ControlFlow::Continue(())
    }
}
