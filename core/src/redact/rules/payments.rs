//! Payment and commerce platforms' keys.

use super::{rule, Rule};

pub(super) const RULES: &[Rule] = &[
    // Stripe secret and restricted keys: gitleaks stripe.go; Stripe's "API keys" docs.
    rule(
        "stripe-key",
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b",
        &["k_live_", "k_test_"],
        (1, 512),
    ),
];
