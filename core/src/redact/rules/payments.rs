//! Payment and commerce platforms' keys.

use super::{rule, Rule};

pub(super) const RULES: &[Rule] = &[
    // Stripe secret and restricted keys: gitleaks stripe.go; Stripe "API keys".
    rule(
        "stripe-key",
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,99}\b",
        &["k_live_", "k_test_"],
        (1, 512),
    ),
    // Stripe webhook signing secret: Stripe "Check the webhook signatures" (`whsec_`).
    rule(
        "stripe-webhook-secret",
        r"\bwhsec_[A-Za-z0-9+/=]{24,}",
        &["whsec_"],
        (0, 128),
    ),
    // Shopify access, custom-app, partner and shared-secret tokens: gitleaks
    // shopify.go (`shpat_`, `shpca_`, `shppa_`, `shpss_` and 32 hex).
    rule(
        "shopify-token",
        r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
        &["shp"],
        (0, 40),
    ),
];
