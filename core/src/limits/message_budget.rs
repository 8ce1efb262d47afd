//! Limits relative to the conversation: the message budget (when the fresh results of one
//! message together exceed it, the largest are materialized first until the rest fit —
//! parallel calls can each stay under the per-result limit and still flood one turn) and
//! the context window (a result may take only a share of what the messages before it
//! leave free). Both decide by fresh results and what comes before them, so a message never
//! changes again on a later turn.

/// A model's context window, for
/// [`MaterializerOptions::context_window`](crate::materialize::MaterializerOptions::context_window):
/// a fresh result in message `i` is materialized when its estimated tokens
/// ([`estimate_tokens`](crate::tokens::estimate_tokens)) exceed `result_share` of what
/// `tokens` leaves free after the messages before it (each counted as its
/// `JSON.stringify`). The messages before a result never grow, so the decision never
/// changes on a later turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContextWindow {
    /// The window, in tokens.
    pub tokens: usize,
    /// The share of the free window one inline result may take (0 < share ≤ 1; 0.25 by
    /// default).
    pub result_share: f64,
}

impl ContextWindow {
    /// A window of `tokens` with the default share, a quarter.
    ///
    /// ```
    /// use tool_offload_core::materialize::ContextWindow;
    /// let w = ContextWindow::new(200_000);
    /// assert_eq!((w.tokens, w.result_share), (200_000, 0.25));
    /// assert_eq!(w.limit_after(40_000), 40_000);
    /// assert_eq!(w.limit_after(250_000), 0);
    /// ```
    pub fn new(tokens: usize) -> Self {
        ContextWindow {
            tokens,
            result_share: 0.25,
        }
    }

    /// `INVALID_ARGUMENT` unless `result_share` is over 0 and at most 1.
    ///
    /// ```
    /// use tool_offload_core::materialize::ContextWindow;
    /// let bad = ContextWindow { tokens: 10, result_share: 1.5 };
    /// assert_eq!(bad.check().unwrap_err().to_string(), "invalid argument: contextWindow.resultShare must be a number over 0 and at most 1, got 1.5");
    /// assert!(ContextWindow::new(10).check().is_ok());
    /// ```
    pub fn check(&self) -> Result<(), crate::error::OffloadError> {
        let share = self.result_share;
        if share > 0.0 && share <= 1.0 {
            return Ok(());
        }
        // Printed as JavaScript prints it (std's float formatting would add 10 KB to the
        // wasm for this one message).
        let shown = match serde_json::Number::from_f64(share) {
            Some(n) => crate::json::stringify(&serde_json::Value::Number(n)),
            None if share.is_nan() => "NaN".to_owned(),
            None if share > 0.0 => "Infinity".to_owned(),
            None => "-Infinity".to_owned(),
        };
        Err(crate::error::OffloadError::InvalidArgument(format!(
            "contextWindow.resultShare must be a number over 0 and at most 1, got {shown}"
        )))
    }

    /// The most tokens one inline result may hold after `before` tokens of history.
    pub fn limit_after(&self, before: usize) -> usize {
        (self.tokens.saturating_sub(before) as f64 * self.result_share) as usize
    }
}

/// The message budget's rule: beside the results `picked` already (over their limits or
/// their share of the window), in each message (`message[k]`: the message of result `k`,
/// a message's results side by side) the largest still inline (the first of equals first)
/// until the ones left inline total at most `budget` UTF-16 units (`chars[k]`).
pub(crate) fn pick_largest(
    message: &[usize],
    chars: &[usize],
    mut picked: Vec<bool>,
    budget: usize,
) -> Vec<bool> {
    let mut start = 0;
    while start < message.len() {
        let end = start
            + message[start..]
                .iter()
                .take_while(|&&m| m == message[start])
                .count();
        let mut inline: usize = (start..end).filter(|&k| !picked[k]).map(|k| chars[k]).sum();
        while inline > budget {
            // The largest still inline; of equals, the first.
            let Some(k) = (start..end)
                .filter(|&k| !picked[k])
                .max_by_key(|&k| (chars[k], std::cmp::Reverse(k)))
            else {
                break;
            };
            picked[k] = true;
            inline -= chars[k];
        }
        start = end;
    }
    picked
}
