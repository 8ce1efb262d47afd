//! Forges' and package registries' tokens.

use super::{rule, Rule};

pub(super) const RULES: &[Rule] = &[
    // GitHub classic (`ghp_`), OAuth (`gho_`), user-to-server and app installation
    // (`ghu_`, `ghs_`), refresh (`ghr_`) and fine-grained (`github_pat_`): gitleaks
    // github.go; GitHub's "About authentication" token prefixes.
    rule(
        "github-token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        (0, 512),
    ),
    // GitLab personal access token: gitleaks gitlab.go.
    rule(
        "gitlab-token",
        r"\bglpat-[A-Za-z0-9_\-]{20,}\b",
        &["glpat-"],
        (0, 512),
    ),
];
