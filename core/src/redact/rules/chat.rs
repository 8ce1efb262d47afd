//! Messaging, mail and monitoring services' tokens.

use super::{rule, Hit, Rule};

pub(super) const RULES: &[Rule] = &[
    // Slack bot, user, app-level and configuration tokens: gitleaks slack.go.
    rule(
        "slack-token",
        r"\b(?:xox[baprse]-[A-Za-z0-9\-]{10,}|xapp-[0-9]-[A-Za-z0-9\-]{10,})\b",
        &["xox", "xapp-"],
        (0, 512),
    ),
    // Slack incoming webhook, workflow and trigger URLs: gitleaks slack.go
    // (`slack-webhook-url`); the path after the host is the secret.
    rule(
        "slack-webhook",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/]{20,})",
        &["hooks.slack.com/"],
        (0, 128),
    ),
    // Telegram bot token, `<bot id>:<35 characters>`: gitleaks telegram.go; Telegram
    // Bot API "Authorizing your bot".
    // In a URL it follows `bot` (`api.telegram.org/bot<token>/getMe`).
    Rule {
        judge: telegram,
        ..rule(
            "telegram-bot-token",
            r"([0-9]{5,16}:A[A-Za-z0-9_\-]{34})",
            &[":A"],
            (16, 40),
        )
    },
    // Twilio API key SID's secret pair: gitleaks twilio.go (`SK` and 32 hex).
    rule("twilio-api-key", r"\bSK[0-9a-fA-F]{32}\b", &["SK"], (0, 40)),
    // Twilio auth token: 32 hex, as an md5 is, so never bare; after the Account SID it
    // goes with (`AC` and 32 hex) as `curl -u SID:TOKEN` and the helper libraries'
    // `Client("AC…", "…")` take them: Twilio "Auth Tokens and how to change them", its
    // API reference's curl examples. Under a name (`TWILIO_AUTH_TOKEN=`, `"auth_token":`)
    // the keyword rule has it.
    Rule {
        starts: &["ac"],
        ..rule(
            "twilio-auth-token",
            r#"\bAC[0-9a-fA-F]{32}(?::|["'`]?[ \t]*,[ \t]*["'`]?)([0-9a-fA-F]{32})\b"#,
            &["AC"],
            (0, 80),
        )
    },
    // SendGrid API key: gitleaks sendgrid.go (`SG.`, 22, `.`, 43).
    rule(
        "sendgrid-key",
        r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}",
        &["SG."],
        (0, 80),
    ),
    // Mailgun private API key: gitleaks mailgun.go (`key-` and 32 hex).
    rule("mailgun-key", r"\bkey-[0-9a-f]{32}\b", &["key-"], (0, 40)),
    // Sentry DSN, `https://<public key>@<host>/<project>`: Sentry docs "Data Source
    // Name"; the key (and a legacy secret after `:`) is replaced.
    rule(
        "sentry-dsn",
        r"\bhttps?://([0-9a-f]{32}(?::[0-9a-f]{32})?)@",
        &["://"],
        (8, 80),
    ),
];

/// A bot token starts a word, or follows `bot` in the API's URL.
fn telegram(hit: &Hit<'_>) -> Option<(usize, usize)> {
    let before = &hit.line.as_bytes()[..hit.start];
    let starts = before
        .last()
        .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'_')
        || before.ends_with(b"/bot");
    let ends = hit
        .line
        .as_bytes()
        .get(hit.end)
        .is_none_or(|b| !b.is_ascii_alphanumeric());
    (starts && ends).then_some((hit.start, hit.end))
}
