//! Cloud providers' credentials.

use super::{rule, Rule};

pub(super) const RULES: &[Rule] = &[
    // AWS access key id: gitleaks aws.go (`AKIA`, `ASIA`, `A3T…` and 16 of `[A-Z0-9]`);
    // AWS IAM "Unique identifier prefixes". User, group and role ids (`AIDA`, `AGPA`,
    // `AROA`) are ids, not credentials, as gitleaks has it.
    rule(
        "aws-access-key",
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
        &["AKIA", "ASIA", "A3T", "ABIA", "ACCA"],
        (0, 32),
    ),
    // AWS secret access key, 40 of base64 after its name: `aws_secret_access_key =` in
    // ~/.aws/credentials, `AWS_SECRET_ACCESS_KEY=` from `env`, `"SecretAccessKey":` from
    // `aws sts`: gitleaks aws.go (`aws-secret-access-key`); AWS "Managing access keys".
    Rule {
        starts: &["secret"],
        ..rule(
            "aws-secret-key",
            r#"(?i)secret[_-]?access[_-]?key[\\"'\]]*[ \t]*(?::=|=>|=|:)[ \t]*[\\"'`]*([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            &["ecret", "ECRET"],
            (8, 256),
        )
    },
    // AWS session token after its name (`aws_session_token`, `"SessionToken":`,
    // `X-Amz-Security-Token:`), or by the prefixes STS tokens start with: AWS STS
    // `GetSessionToken` output; gitleaks has no rule. The keyword rule's literals (no pass
    // of their own: each literal costs a pass over the text).
    Rule {
        starts: &["session", "security"],
        ..rule(
            "aws-session-token",
            r#"(?i)(?:session[_-]?token|security[_-]?token)[\\"'\]]*[ \t]*(?::=|=>|=|:)[ \t]*[\\"'`]*([A-Za-z0-9/+=]{100,})"#,
            &["oken", "OKEN"],
            (24, 4096),
        )
    },
    rule(
        "aws-session-token",
        r"\bIQoJb3JpZ2luX2Vj[A-Za-z0-9/+=]{80,}",
        &["IQoJb3JpZ2luX2Vj"],
        (0, 4096),
    ),
    // Google API key: gitleaks gcp.go (`AIza` and 35 of `[\w-]`).
    rule(
        "google-api-key",
        r"\bAIza[A-Za-z0-9_\-]{35}",
        &["AIza"],
        (0, 40),
    ),
    // Azure storage account key (`AccountKey=` of a connection string, base64 of 64
    // bytes) and Service Bus `SharedAccessKey=`: Azure Storage "Configure a connection
    // string"; gitleaks azure.go.
    Rule {
        starts: &["accountkey", "sharedaccesskey", "storage"],
        ..rule(
            "azure-storage-key",
            r#"(?i)(?:AccountKey|SharedAccessKey|storage[_-]?(?:account[_-]?)?key)[\\"'\]]*[ \t]*(?::=|=>|=|:)[ \t]*[\\"']*([A-Za-z0-9+/]{40,}={0,2})"#,
            &["Key", "_key", "_KEY"],
            (24, 160),
        )
    },
    // The same key (64 bytes: 86 of base64 and `==`) given to a flag, `az storage …
    // --account-key KEY`, PowerShell's `-StorageAccountKey KEY`, and as `az storage
    // account keys list` prints it (JSON, table, tsv): Azure CLI `az storage` reference.
    // Bare it is not taken: a base64 SHA-512 (npm `integrity`, SRI) has the same shape.
    Rule {
        starts: &["--account-key", "-accountkey", "-storageaccountkey"],
        ..rule(
            "azure-storage-key",
            r#"(?i)(?:--account-key|-(?:storage)?accountkey)(?:[ \t]+|[ \t]*=[ \t]*)["']?([A-Za-z0-9+/]{86}==)(?:[^A-Za-z0-9+/=]|$)"#,
            &["account-key", "ccountKey"],
            (10, 128),
        )
    },
    Rule {
        spans_lines: true,
        starts: &["\"permissions\"", "key1", "key2"],
        ..rule(
            "azure-storage-key",
            r#"(?i)(?:"permissions":[ \t]*"(?:full|read)",\s*"value":[ \t]*"|key[12][ \t]+(?:full|read)[ \t]+)([A-Za-z0-9+/]{86}==)"#,
            &["ermissions\"", "FULL", "Full", "READ", "Read"],
            (40, 192),
        )
    },
    // Azure SAS token signature (`sig=` of a shared access signature URL): Azure
    // Storage "Create a service SAS".
    rule(
        "azure-sas-signature",
        r"[?&;]sig=([A-Za-z0-9%+/=]{20,})",
        &["sig="],
        (1, 256),
    ),
    // Azure AD (Entra) client secret, `…Q~…`: gitleaks azure.go (`azure-ad-client-secret`).
    rule(
        "azure-client-secret",
        r#"(?:^|[\\'"`\s>=:(,)])([a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.\-]{31,34})(?:$|[\\'"`\s<),])"#,
        &["Q~"],
        (8, 40),
    ),
    // DigitalOcean personal, OAuth and refresh tokens: gitleaks digitalocean.go.
    rule(
        "digitalocean-token",
        r"\bdo[opr]_v1_[a-f0-9]{64}\b",
        &["_v1_"],
        (3, 72),
    ),
    // Databricks personal access token: gitleaks databricks.go (`dapi` and 32 hex).
    rule(
        "databricks-token",
        r"\bdapi[a-f0-9]{32}(?:-[0-9]+)?\b",
        &["dapi"],
        (0, 40),
    ),
];
