//! Messaging, mail and monitoring services' tokens.

use super::{rule, Rule};

pub(super) const RULES: &[Rule] = &[
    // Slack bot, user, app-level and legacy tokens: gitleaks slack.go.
    rule(
        "slack-token",
        r"\bxox[baprs]-[A-Za-z0-9\-]{10,}\b",
        &["xox"],
        (0, 512),
    ),
];
