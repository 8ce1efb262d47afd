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
    // GitLab personal, deploy, runner and pipeline-trigger tokens: gitleaks gitlab.go;
    // GitLab "Token prefixes" (the rarer ones would each cost a pass).
    rule(
        "gitlab-token",
        r"\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{20,}\b",
        &["glpat-", "gldt-", "glrt-", "glptt-"],
        (0, 512),
    ),
    // npm access token: gitleaks npm.go (`npm_` and 36 alphanumerics).
    rule("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b", &["npm_"], (0, 40)),
    // PyPI upload token, a macaroon: gitleaks pypi.go.
    rule(
        "pypi-token",
        r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}",
        &["pypi-AgEIcHlwaS5vcmc"],
        (0, 1024),
    ),
    // Hugging Face user and organisation tokens: gitleaks huggingface.go.
    rule(
        "huggingface-token",
        r"\b(?:hf_|api_org_)[A-Za-z]{34}\b",
        &["hf_", "api_org_"],
        (0, 40),
    ),
    // Docker Hub personal and organisation access tokens: Docker docs "Access tokens"
    // (`dckr_pat_`, `dckr_oat_`).
    rule(
        "docker-hub-token",
        r"\bdckr_(?:pat|oat)_[A-Za-z0-9_\-]{20,}",
        &["dckr_"],
        (0, 128),
    ),
];
