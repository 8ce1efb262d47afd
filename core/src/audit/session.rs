//! A session's tool results: what each call output, and what the model was shown of it.

/// One output shown in part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The tool call's id.
    pub call_id: String,
    /// The tool's name (empty when the log does not say).
    pub tool: String,
    /// The full output's length in UTF-16 code units (what was recorded, when the full
    /// output was not kept).
    pub chars: usize,
    /// Whether a later tool call read it.
    pub read: bool,
    /// Assistant turns from the output to the call that read it (that turn included).
    pub turns_until_read: Option<usize>,
    /// The first text the assistant wrote after the output, up to 200 characters: what the
    /// model went on to say.
    pub first_text_after: Option<String>,
}

/// One session's items, in the order the outputs came.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    /// The outputs shown in part.
    pub items: Vec<Item>,
}

impl Session {
    /// Outputs shown in part.
    pub fn partial(&self) -> usize {
        self.items.len()
    }

    /// Of those, read later.
    pub fn read(&self) -> usize {
        self.items.iter().filter(|i| i.read).count()
    }

    /// Of those, never read.
    pub fn unread(&self) -> usize {
        self.partial() - self.read()
    }
}
