//! AI providers' keys.

use super::{rule, value, Hit, Rule};

pub(super) const RULES: &[Rule] = &[
    // Anthropic API and admin keys: gitleaks anthropic.go (`sk-ant-api03-`,
    // `sk-ant-admin01-`).
    rule(
        "anthropic-key",
        r"\bsk-ant-[A-Za-z0-9_\-]{20,}",
        &["sk-"],
        (0, 512),
    ),
    // OpenAI project, service-account and legacy keys: gitleaks openai.go. Its
    // `T3BlbkFJ` marker is not in every key, so a key here is random: a digit and the
    // entropy of one (`sk-learn-compatible-estimator` is a name).
    Rule {
        judge: random_key,
        ..rule(
            "openai-key",
            r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
            &["sk-"],
            (0, 512),
        )
    },
];

fn random_key(hit: &Hit<'_>) -> Option<(usize, usize)> {
    let key = &hit.line[hit.start..hit.end];
    let random = key.bytes().any(|b| b.is_ascii_digit()) && value::entropy(key) >= 3.5;
    (random && !value::mask_or_reference(key)).then_some((hit.start, hit.end))
}
