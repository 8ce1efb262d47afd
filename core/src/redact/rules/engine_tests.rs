//! The engine's search only at a rule's words gives what the engine's search of every
//! position gives (`engine.rs`).

use regex_lite::Regex;

use super::engine::{captures, Engine};

/// For each rule searched only at its words: the same matches as the engine's
/// search of every position, on random text of its words, in any case, and what
/// follows them.
#[test]
fn searching_at_the_words_finds_what_the_engine_finds() {
    let mut rng = crate::test_rng::Rng(0x0057_A275);
    // Assignments: a name (a rule's words and literals, in any case) or a whole
    // context as tools print it, what comes between, a value (40 and 104 characters
    // of base64, a storage key's 86 and `==`, 32 hex), noise round them.
    let sid = "AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c";
    let contexts = [
        "aws_secret_access_key = ",
        "\"SecretAccessKey\": \"",
        "AWS_SESSION_TOKEN=",
        "X-Amz-Security-Token: ",
        "DefaultEndpointsProtocol=https;AccountKey=",
        "SharedAccessKey=",
        "storage_account_key: ",
        "--account-key ",
        "--account-key=\"",
        "-StorageAccountKey ",
        "\"permissions\": \"FULL\",\n    \"value\": \"",
        "key1\tFULL\t",
        "key2   Read   ",
        "-u AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c:",
        "Client(\"AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c\", \"",
    ];
    let between = [
        "=", ":", " = ", "\": \"", "=>", ":=", "\\\"", "'] = '", "\t:\t", " ", "", "\", \"", ", '",
        "\t", "   ",
    ];
    let values = [
        "AbC0/+".repeat(6) + "AbC0",
        "xY9+".repeat(26),
        "Zz09+/".repeat(14) + "ab==",
        "5d41402abc4b2a76b9719d911017c592".into(),
        sid.into(),
        "==".into(),
        "ab".into(),
    ];
    let noise = [
        "_", "-", "x", "é", "\u{212A}", "\u{17F}", "\n", " ", "\"", ",", "Key", "key", "AC",
    ];
    for rule in super::rules().filter(|r| !r.starts.is_empty()) {
        let plain = Regex::new(rule.pattern).unwrap();
        let engine = Engine::new(rule.pattern, rule.starts, rule.by_hand).unwrap();
        assert!(matches!(engine, Engine::Starts(..)), "{}", rule.kind);
        assert!(rule.starts.iter().all(|w| *w == w.to_ascii_lowercase()));
        let mut names: Vec<String> = Vec::new();
        for w in rule.starts.iter().chain(rule.triggers) {
            names.push(w.to_string());
            names.push(w.to_ascii_uppercase());
            names.push(w[..1].to_ascii_uppercase() + &w[1..]);
        }
        // The contexts where the rule finds one of the values, others now and then.
        let fits = |c: &&str| values.iter().any(|v| plain.is_match(&format!("{c}{v}")));
        let mut own: Vec<&str> = contexts.iter().copied().filter(fits).collect();
        own.push(rng.pick(&contexts));
        let mut tried = 0;
        for _ in 0..3000 {
            let mut hay = String::new();
            for _ in 0..1 + rng.below(3) {
                for _ in 0..rng.below(3) {
                    hay.push_str(rng.pick(&noise));
                }
                if rng.below(2) == 0 {
                    hay.push_str(rng.pick(&own));
                } else {
                    hay.push_str(&names[rng.below(names.len())]);
                    hay.push_str(rng.pick(&between));
                }
                hay.push_str(&values[rng.below(values.len())]);
            }
            // From the start and from a few places inside.
            let froms = [0, rng.below(hay.len() + 1), rng.below(hay.len() + 1)];
            for from in froms.into_iter().filter(|&i| hay.is_char_boundary(i)) {
                let expected = captures(&plain, &hay, from, 0);
                tried += usize::from(expected.is_some());
                assert_eq!(
                    engine.captures_at(&hay, from),
                    expected,
                    "{}: {hay:?} from {from}",
                    rule.kind
                );
            }
        }
        println!("{}: {tried} matches compared", rule.kind);
        assert!(tried > 100, "{}: {tried} matches compared", rule.kind);
    }
}
