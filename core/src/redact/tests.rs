use super::*;

fn counts<'r>(r: &'r Redacted<'_>) -> Vec<(&'r str, usize)> {
    r.counts.iter().map(|(k, n)| (k.as_str(), *n)).collect()
}

#[test]
fn well_known_secrets_are_replaced_and_ordinary_text_is_not() {
    let pem =
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----";
    for (secret, kind) in [
        ("ghp_0123456789abcdefghijABCDEFGHIJ012345", "github-token"),
        ("glpat-abcdefghij0123456789", "gitlab-token"),
        ("xoxb-1234567890-abcdefghij", "slack-token"),
        ("sk_live_0123456789abcdefABCD", "stripe-key"),
        ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "anthropic-key"),
        ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", "openai-key"),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"),
        (pem, "private-key"),
    ] {
        let text = format!("before {secret} after");
        let r = redact(&text);
        assert_eq!(r.text, format!("before [REDACTED:{kind}] after"), "{kind}");
        assert_eq!(counts(&r), [(kind, 1)], "{kind}");
    }
    let r = redact(r#"{"password": "hunter2!", "user": "ann"} and secret=abcd1234"#);
    assert_eq!(
        r.text,
        r#"{"password": "[REDACTED:password]", "user": "ann"} and secret=[REDACTED:password]"#
    );
    assert!(
        matches!(redact(&r.text).text, Cow::Borrowed(_)),
        "twice is once"
    );
    for ordinary in [
        "password: ****",
        "password=${DB_PASSWORD}",
        "api_key: <your key>",
        "error: could not compile `agent`",
        "git@github.com:org/repo.git",
        "https://example.com/a/b?x=1",
        "the token was rotated",
        "sk-short",
    ] {
        assert_eq!(redact(ordinary).text, ordinary);
    }
}

/// Linear time, whatever the text: a long run that almost matches costs a pass.
#[test]
fn adversarial_text_stays_linear() {
    let text = format!(
        "{}{}",
        "-----BEGIN PRIVATE KEY-----".repeat(2000),
        "a".repeat(200_000)
    );
    assert_eq!(redact(&text).counts, []);
    // A value that is names all the way (`a:a:a:…`) after a keyword.
    let names = format!("password {}", "a:".repeat(500_000));
    assert_eq!(redact(&names).counts, []);
    // Kubernetes-shaped text: each `data:` block and the object round it are read once
    // (it took 8 s for 2.4 MB when every value re-read its object).
    let blocks = "data:\n  a: YWJjZGVmZ2g=\n".repeat(100_000);
    let started = std::time::Instant::now();
    assert_eq!(redact(&blocks).counts, []);
    let one = format!(
        "kind: Secret\ndata:\n{}",
        "  a: YWJjZGVmZ2g=\n".repeat(100_000)
    );
    assert_eq!(redact(&one).counts, [("kubernetes-secret".to_owned(), 910)]);
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    let heavy = Redaction::with_patterns(vec![RedactPattern::new("(a+)+b")], None).unwrap();
    assert_eq!(heavy.apply(&text).counts, []);
}

#[test]
fn off_redacts_nothing() {
    let text = "key AKIAIOSFODNN7EXAMPLE";
    assert!(matches!(
        Redaction::off().apply(text).text,
        Cow::Borrowed(_)
    ));
    assert!(matches!(
        Redaction::from(false).apply(text).text,
        Cow::Borrowed(_)
    ));
    assert_eq!(Redaction::from(true), Redaction::builtin());
}

/// A user's patterns run after the built-in rules, line by line: a capture group is
/// what is replaced, two patterns of one kind count together, a secret a rule
/// replaced is not matched again, an empty match replaces nothing, and `(?i)` or
/// `ignore_case` fold case.
#[test]
fn user_patterns_add_to_the_built_in_rules() {
    let r = Redaction::with_patterns(
        vec![
            RedactPattern::new(r"session=([0-9a-f]{16})").named("session"),
            RedactPattern::new(r"sid:[0-9a-f]{16}").named("session"),
            RedactPattern::new(r"AKIA\w+"),
            RedactPattern::new(r"x*"),
            RedactPattern {
                ignore_case: true,
                ..RedactPattern::new("internal-host-[0-9]+")
            },
        ],
        None,
    )
    .unwrap();
    let text = "GET /?session=0123456789abcdef ok\nsid:fedcba9876543210\nAKIAIOSFODNN7EXAMPLE\nINTERNAL-HOST-42 up\n";
    let out = r.apply(text);
    assert_eq!(
        out.text,
        "GET /?session=[REDACTED:session] ok\n[REDACTED:session]\n[REDACTED:aws-access-key]\n[REDACTED:custom] up\n"
    );
    assert_eq!(
        counts(&out),
        [("aws-access-key", 1), ("session", 2), ("custom", 1)]
    );
    assert_eq!(r.apply(&out.text).text, out.text, "twice is once");
    assert_eq!(r.kind_order("aws-access-key"), 1);
    assert_eq!(r.kind_order("session"), rules::kinds().count());
    assert_eq!(r.kind_order("unknown"), usize::MAX);
    // A pattern does not reach across lines.
    let across = Redaction::with_patterns(vec![RedactPattern::new(r"a\nb")], None).unwrap();
    assert!(matches!(across.apply("a\nb").text, Cow::Borrowed(_)));
}

/// `replace` stands for every secret, the built-in rules' too, and is itself never
/// taken for one.
#[test]
fn a_replacement_replaces_every_marker() {
    let r = Redaction::with_patterns(
        vec![RedactPattern::new("tok-[0-9]+")],
        Some("<hidden>".into()),
    )
    .unwrap();
    let out = r.apply("a tok-123 b AKIAIOSFODNN7EXAMPLE c password=<hidden>");
    assert_eq!(out.text, "a <hidden> b <hidden> c password=<hidden>");
    assert_eq!(counts(&out), [("aws-access-key", 1), ("custom", 1)]);
    let plain = Redaction::with_patterns(vec![], Some("REMOVED".into())).unwrap();
    let once = plain.apply("password=hunter22");
    assert_eq!(once.text, "password=REMOVED");
    assert!(matches!(plain.apply(&once.text).text, Cow::Borrowed(_)));
    assert_eq!(r.replacement(), Some("<hidden>"));
    assert_eq!(r.patterns().count(), 1);
}

#[test]
fn bad_patterns_and_kinds_are_refused() {
    for kind in ["", "a b", "ünï", &"k".repeat(65)] {
        let err =
            Redaction::with_patterns(vec![RedactPattern::new("x").named(kind)], None).unwrap_err();
        assert_eq!(
            err.code(),
            crate::error::ErrorCode::InvalidArgument,
            "{kind:?}"
        );
    }
    assert!(
        Redaction::with_patterns(vec![RedactPattern::new("x").named("k".repeat(64))], None).is_ok()
    );
    for pattern in ["(", "(?=a)", &"a".repeat(1001)] {
        let err = Redaction::with_patterns(vec![RedactPattern::new(pattern)], None).unwrap_err();
        assert_eq!(
            err.code(),
            crate::error::ErrorCode::InvalidPattern,
            "{pattern:?}"
        );
    }
}

/// Options compare by what they redact: on or off, the patterns, the replacement.
#[test]
fn redactions_compare_by_what_they_redact() {
    let with = |patterns: &[&str], replace: Option<&str>| {
        let patterns = patterns.iter().map(|p| RedactPattern::new(*p)).collect();
        Redaction::with_patterns(patterns, replace.map(str::to_owned)).unwrap()
    };
    assert_ne!(Redaction::builtin(), Redaction::off());
    assert_eq!(with(&[], None), Redaction::builtin());
    assert_eq!(with(&["a"], Some("x")), with(&["a"], Some("x")));
    assert_ne!(with(&["a"], None), with(&["b"], None));
    assert_ne!(with(&["a"], None), with(&["a"], Some("x")));
    assert_ne!(with(&["a"], None), Redaction::builtin());
}

/// A secret may end where another starts: adjacent is not overlapping.
#[test]
fn adjacent_secrets_do_not_overlap() {
    let found = [(5, 10, 0)];
    assert!(!overlaps(&found, (10, 12)) && !overlaps(&found, (3, 5)));
    assert!(overlaps(&found, (9, 11)) && overlaps(&found, (0, 6)) && overlaps(&found, (6, 7)));
}

/// Real keys and tokens are long: a 2048-bit RSA key's PEM block (~1.7 KB) and a JWT
/// with many claims (~2 KB) are replaced whole, wherever they are in a long output.
#[test]
fn long_secrets_deep_in_an_output_are_replaced_whole() {
    let body = "MIIEowIBAAKCAQEA1234567890abcdefABCDEF+/\n".repeat(40);
    let pem = format!("-----BEGIN RSA PRIVATE KEY-----\n{body}-----END RSA PRIVATE KEY-----");
    // (No `eyJ` inside: each would start a window of its own.)
    let claims = format!(
        "eyJzdWIiOiIxMjM0NTY3ODkwIiwi{}",
        "bmFtZSI6IkpvaG4gRG9lIn0".repeat(90)
    );
    let jwt = format!("eyJhbGciOiJIUzI1NiJ9.{claims}.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U");
    let filler = "step ok\n".repeat(2000);
    let text = format!(
        "{filler}{pem}\nAuthorization: Bearer {jwt}\nurl=postgres://u:pw12345@h/db\n{filler}"
    );
    let r = redact(&text);
    assert_eq!(
        r.text,
        format!("{filler}[REDACTED:private-key]\nAuthorization: Bearer [REDACTED:jwt]\nurl=postgres://u:[REDACTED:connection-string-password]@h/db\n{filler}")
    );
}

/// A rule looks a bounded distance round its literal (64 KB after `secret:`, enough for
/// a base64 key in a manifest), on character boundaries: a longer value is replaced up to
/// the bound, never cut inside a character.
#[test]
fn windows_end_on_character_boundaries() {
    let key = "TFMwdExTMUNSVWRKVGlCUVVrbFdRVlJGSUV0RldTMHRMUzB0Q2s".repeat(60);
    let manifest = format!("data:\n  secret: {key}\n");
    assert_eq!(
        redact(&manifest).text,
        "data:\n  secret: [REDACTED:password]\n"
    );
    // (A value must look random: `é1x9` repeated, not one letter.)
    let long = format!("password={}", "é1x9".repeat(20_000));
    let r = redact(&long);
    let rest = r.text.strip_prefix("password=[REDACTED:password]").unwrap();
    assert!(long.ends_with(rest) && !rest.is_empty(), "{}", rest.len());
    assert!(long.len() - rest.len() - "password=".len() <= 64 * 1024 + 8);
    let after = format!("{} postgres://u:pw12345@h/db", "é".repeat(100));
    let r = redact(&after);
    assert_eq!(
        r.text,
        format!(
            "{} postgres://u:[REDACTED:connection-string-password]@h/db",
            "é".repeat(100)
        )
    );
}

/// Each literal is looked for on its own line: the same one on several lines finds each
/// secret, and no rule reads past the end of its literal's line.
#[test]
fn a_rule_stays_on_its_literals_line() {
    let text = "password=first111\nok\n  password=second22\nx password\n: notasecret\n";
    assert_eq!(
        redact(text).text,
        "password=[REDACTED:password]\nok\n  password=[REDACTED:password]\nx password\n: notasecret\n"
    );
}

/// Redacting twice is redacting once, even with a pattern that matches inside a marker
/// or the replacement: what a redaction left is never matched again, nor counted.
#[test]
fn what_redaction_left_is_never_matched_again() {
    let text = "user=ann password=hunter22 key AKIAIOSFODNN7EXAMPLE";
    for (patterns, replace) in [
        (vec!["REDACTED", "[a-z]+word", r"\[[^\]]*\]"], None),
        (vec!["hidden", "ann"], Some("<hidden>")),
    ] {
        let patterns = patterns.into_iter().map(RedactPattern::new).collect();
        let r = Redaction::with_patterns(patterns, replace.map(str::to_owned)).unwrap();
        let once = r.apply(text);
        let twice = r.apply(&once.text);
        assert!(matches!(twice.text, Cow::Borrowed(_)), "{}", twice.text);
        assert_eq!(twice.counts, []);
        assert!(!once.text.contains("hunter22") && !once.text.contains("AKIA"));
    }
    let r = Redaction::with_patterns(vec![RedactPattern::new("REDACTED")], None).unwrap();
    assert_eq!(
        r.apply("a [REDACTED:aws-access-key] and REDACTED and [REDACTED:not a kind]")
            .text,
        "a [REDACTED:aws-access-key] and [REDACTED:custom] and [[REDACTED:custom]:not a kind]"
    );
}

/// What counts as left by a redaction: a marker whose kind is 1 to 64 kind characters,
/// closing bracket included; occurrences of the replacement that overlap nothing left
/// before them.
#[test]
fn left_spans_are_exact() {
    let marked = |patterns: &[&str], replace: Option<&str>, text: &str| {
        let patterns = patterns.iter().map(|p| RedactPattern::new(*p)).collect();
        let r = Redaction::with_patterns(patterns, replace.map(str::to_owned)).unwrap();
        r.apply(text).text.into_owned()
    };
    let k64 = format!("[REDACTED:{}]", "k".repeat(64));
    assert_eq!(marked(&["REDACTED"], None, &k64), k64);
    let k65 = format!("[REDACTED:{}]", "k".repeat(65));
    assert_eq!(
        marked(&["REDACTED"], None, &k65),
        format!("[[REDACTED:custom]:{}]", "k".repeat(65))
    );
    assert_eq!(
        marked(&["REDACTED"], None, "[REDACTED:]"),
        "[[REDACTED:custom]:]"
    );
    assert_eq!(
        marked(&[r"\]", "key"], None, "[REDACTED:aws-access-key] key]"),
        "[REDACTED:aws-access-key] [REDACTED:custom][REDACTED:custom]"
    );
    // A replacement that overlaps itself or a marker: the first occurrence is left.
    assert_eq!(marked(&["b"], Some("aa"), "aaab"), "aaaaa");
    assert_eq!(
        marked(&["x"], Some("ED:aws"), "[REDACTED:aws-access-key] x"),
        "[REDACTED:aws-access-key] ED:aws"
    );
}
