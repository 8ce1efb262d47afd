//! Cloud providers' credentials.

use super::{rule, Rule};

pub(super) const RULES: &[Rule] = &[
    // AWS access key id: gitleaks aws.go (`AKIA`, `ASIA`… and 16 of `[A-Z0-9]`); AWS IAM
    // "Understanding unique ID prefixes".
    rule(
        "aws-access-key",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b",
        &["AKIA", "ASIA", "AGPA", "AIDA", "AROA"],
        (0, 32),
    ),
];
