//! The error markers, as data: which lines of a log are failures, how much each says
//! about the root cause, and what to grep for to find them again.
//!
//! A line is classified by the first rule that matches its body (the line without
//! ANSI escapes, leading blanks, a box-drawing border, a timestamp or a BuildKit step
//! prefix; see `body`). Rules are ordered from specific to generic, and vetoes (a
//! warning, a passed test, a zero count) sit before the generic words they protect.

/// How strongly a line points at the failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// A run's successful outcome (`test result: ok`, `BUILD SUCCESS`, `12 passed`):
    /// with no failing outcome in the same output, what looked like failures were
    /// expected (a test's own error logs) and count as mentions.
    Passed,
    /// Not an error, whatever words it holds (`warning: …`, `test_error_case PASSED`).
    Not,
    /// A generic word (`failed`, `error`) in an ordinary line.
    Mention,
    /// A run's verdict or a failure's header (`error: could not compile`, `FAIL pkg`,
    /// `Tests: 1 failed`, `Traceback (most recent call last):`).
    Verdict,
    /// A root-cause candidate: the diagnostic itself (`error[E0308]: …`, `KeyError: 'x'`,
    /// `main.c:3:5: error: …`, `--- FAIL: TestX`).
    Root,
}

/// What a rule looks for in a line's body.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// The body starts with this text (ASCII case-insensitively when the rule says so).
    Start(&'static str),
    /// The body starts with the first text and holds one of the others.
    StartWith(&'static str, &'static [&'static str]),
    /// The text occurs anywhere in the line.
    Contains(&'static str),
    /// The text occurs as a whole word, not counted as zero (`0 failed`, `errors: 0`).
    Word(&'static str),
    /// A nonzero count of the word, directly or one word between (`1 failed`,
    /// `2 errors`, `1 test failed`, `3 examples, 1 failure`).
    Count(&'static [&'static str]),
    /// The body starts with an exception's name (`ValueError: …`, `java.io.IOException:
    /// …`, `Uncaught TypeError: …`, an `AssertionError` alone) or ends with one after
    /// `: ` (pytest's `tests/test_x.py:5: AssertionError`).
    ExceptionName,
    /// A Go test's own log line, `    x_test.go:12: message` (`t.Log`, `t.Error`): a
    /// failure only when `--- FAIL` says so, but worth finding again.
    GoTestLine,
    /// An HTTP status line of a client or server error: `HTTP/1.1 500 Internal Server
    /// Error`, `< HTTP/2 404`.
    HttpStatus,
    /// A JSON `"error"` member with a value that is not empty (`"error": null` is none).
    JsonError,
    /// A Go source position with a column starting the body, `./x.go:12:5:`: the Go
    /// compiler's and vet's messages, which say no word of failure. (A test's own
    /// `x_test.go:12:` log lines are no failure by themselves: `--- FAIL` says so.)
    GoPosition,
    /// Log levels listed side by side (`DEBUG, INFO, WARN, ERROR`, `"info" | "error"`,
    /// `--level debug/error`): a schema, an enum or a flag's help naming the levels, not
    /// a line logged at one of them.
    LevelList,
}

/// One marker: its shape, its level, and a literal (no regex metacharacters) found in
/// every line it matches, ASCII case aside: the summary's grep hint is made of these.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The tool or format that prints it, for the reader of this table.
    pub ecosystem: &'static str,
    /// What to look for.
    pub shape: Shape,
    /// Whether [`Shape::Start`]/[`Shape::StartWith`]/[`Shape::Contains`]/[`Shape::Word`]
    /// texts match ASCII case-insensitively.
    pub ignore_case: bool,
    /// What a match says.
    pub level: Level,
    /// A literal every matched line holds (ASCII case-insensitively).
    pub key: &'static str,
    /// Lines of context shown before and after a matched line.
    pub context: (u8, u8),
    /// Whether a match states a run's failing outcome (`test result: FAILED`, `BUILD
    /// FAILURE`, `1 failed`): one in an output keeps its failures failures, whatever
    /// passed besides.
    pub outcome: bool,
    /// Whether the last line this rule matches, not the first, is the root cause
    /// (Java's innermost `Caused by:`).
    pub last_wins: bool,
}

const fn rule(ecosystem: &'static str, shape: Shape, level: Level, key: &'static str) -> Rule {
    Rule {
        ecosystem,
        shape,
        ignore_case: false,
        level,
        key,
        context: (1, 2),
        outcome: false,
        last_wins: false,
    }
}

const fn nocase(mut r: Rule) -> Rule {
    r.ignore_case = true;
    r
}

const fn outcome(mut r: Rule) -> Rule {
    r.outcome = true;
    r
}

const fn last_wins(mut r: Rule) -> Rule {
    r.last_wins = true;
    r
}

const fn context(mut r: Rule, before: u8, after: u8) -> Rule {
    r.context = (before, after);
    r
}

use Level::{Mention, Not, Passed, Root, Verdict};
use Shape::{
    Contains, Count, ExceptionName, GoPosition, GoTestLine, HttpStatus, JsonError, LevelList,
    Start, StartWith, Word,
};

/// The markers, in the order they are tried; the first that matches decides.
pub static RULES: &[Rule] = &[
    // kubectl describe's events: `Warning  BackOff  …  Back-off restarting failed
    // container`, before the warning veto below.
    rule(
        "kubectl",
        StartWith("Warning ", &["Failed", "failed", "Error", "error"]),
        Root,
        "warning",
    ),
    // Vetoes: warnings, passed tests and checks.
    nocase(rule("any", Start("warning"), Not, "")),
    nocase(rule("maven", Start("[warning]"), Not, "")),
    rule("jest, vitest, mocha", Start("✓"), Not, ""),
    rule("jest, vitest, mocha", Start("√"), Not, ""),
    rule("jest, go test", Start("PASS"), Passed, ""),
    rule("go test", Start("ok  \t"), Passed, ""),
    rule("cargo test", Contains("test result: ok"), Passed, ""),
    rule("maven, gradle", Contains("BUILD SUCCESS"), Passed, ""),
    rule("go test", Start("--- PASS"), Not, ""),
    rule("go test", Start("=== RUN"), Not, ""),
    rule("pytest", Contains(" PASSED"), Not, ""),
    rule("cargo test", Contains(" ... ok"), Not, ""),
    rule("cargo", Start("Compiling "), Not, ""),
    rule("cargo", Start("Downloaded "), Not, ""),
    rule("python", Contains("Warning: "), Not, ""),
    // Verdicts and headers of a failure.
    outcome(rule(
        "rustc",
        Start("error: could not compile"),
        Verdict,
        "error",
    )),
    outcome(rule(
        "rustc",
        Start("error: aborting due to"),
        Verdict,
        "error",
    )),
    outcome(rule(
        "cargo test",
        Contains("test result: FAILED"),
        Verdict,
        "fail",
    )),
    rule("cargo test", Start("failures:"), Verdict, "fail"),
    context(
        rule(
            "python",
            Start("Traceback (most recent call last)"),
            Verdict,
            "traceback",
        ),
        0,
        1,
    ),
    outcome(rule("pytest, unittest", Start("FAILED"), Verdict, "fail")),
    rule("cargo test", Contains(" ... FAILED"), Verdict, "fail"),
    rule("pytest", StartWith("___", &["ERROR"]), Verdict, "error"),
    rule("pytest", StartWith("___", &["FAIL"]), Verdict, "fail"),
    rule(
        "maven",
        Start("[ERROR] COMPILATION ERROR"),
        Verdict,
        "error",
    ),
    rule(
        "pip",
        Start("error: subprocess-exited-with-error"),
        Verdict,
        "error",
    ),
    outcome(rule(
        "yarn",
        Start("error Command failed"),
        Verdict,
        "error",
    )),
    outcome(rule(
        "clang",
        Contains("linker command failed"),
        Verdict,
        "fail",
    )),
    outcome(rule(
        "gcc",
        Contains("error: ld returned"),
        Verdict,
        "error",
    )),
    rule("curl, http", HttpStatus, Verdict, "http/"),
    outcome(rule("maven", Contains("BUILD FAILURE"), Verdict, "fail")),
    outcome(rule("gradle", Contains("BUILD FAILED"), Verdict, "fail")),
    outcome(rule("gradle", Start("FAILURE:"), Verdict, "fail")),
    outcome(rule("jest, go test", Start("FAIL"), Verdict, "fail")),
    outcome(rule(
        "maven",
        Start("[ERROR] Failed to execute goal"),
        Verdict,
        "fail",
    )),
    outcome(rule(
        "make",
        StartWith("make", &["Error"]),
        Verdict,
        "error",
    )),
    outcome(rule(
        "github actions",
        Contains("##[error]"),
        Verdict,
        "error",
    )),
    outcome(rule(
        "gitlab ci",
        Start("ERROR: Job failed"),
        Verdict,
        "fail",
    )),
    // Root-cause candidates.
    context(rule("rustc", Start("error["), Root, "error"), 0, 4),
    // A crash is an outcome: no `ok` elsewhere makes it expected.
    outcome(rule("rust", Contains("panicked at"), Root, "panic")),
    outcome(rule("go", Start("panic:"), Root, "panic")),
    context(rule("go test", Start("--- FAIL:"), Root, "fail"), 2, 2),
    context(rule("jest", Start("●"), Root, "●"), 0, 3),
    rule("rspec", Contains("Failure/Error:"), Root, "fail"),
    context(
        rule("gcc, clang", Contains(": fatal error:"), Root, "error"),
        0,
        3,
    ),
    context(
        rule("gcc, mypy, javac", Contains(": error:"), Root, "error"),
        0,
        3,
    ),
    context(
        rule("tsc, dotnet", Contains("): error "), Root, "error"),
        0,
        3,
    ),
    context(
        rule(
            "ld",
            Contains("undefined reference to"),
            Root,
            "undefined reference",
        ),
        0,
        2,
    ),
    rule("git", Contains("[rejected]"), Root, "rejected"),
    rule("git", Contains("[remote rejected]"), Root, "rejected"),
    rule("next.js", Start("Type error:"), Root, "error"),
    nocase(rule("node", Contains("unhandled error"), Root, "error")),
    rule("kubectl", Contains("OOMKilled"), Root, "oomkilled"),
    rule(
        "kubectl",
        Contains("CrashLoopBackOff"),
        Root,
        "crashloopbackoff",
    ),
    rule("api responses", JsonError, Root, "error"),
    context(rule("tsc", Contains(" - error TS"), Root, "error"), 0, 3),
    rule("eslint", Contains("  error  "), Root, "error"),
    nocase(rule(
        "rustc, git, pip, terraform, yarn",
        Start("error:"),
        Root,
        "error",
    )),
    rule("yarn", Start("error "), Root, "error"),
    rule("npm", Start("npm ERR!"), Root, "err!"),
    rule("npm", Start("npm error"), Root, "error"),
    rule("pnpm", Contains("ERR_PNPM_"), Verdict, "err_pnpm_"),
    rule("maven", Start("[ERROR]"), Root, "error"),
    rule("docker, psql, logs", Start("ERROR"), Root, "error"),
    rule("java", Start("Exception in thread"), Root, "exception"),
    nocase(rule(
        "dotnet, node",
        Start("Unhandled exception"),
        Root,
        "exception",
    )),
    context(
        last_wins(rule(
            "java",
            StartWith("Caused by:", &["Exception", "Error"]),
            Root,
            "caused by",
        )),
        0,
        1,
    ),
    context(rule("python, js, java", ExceptionName, Root, ""), 2, 1),
    nocase(rule("git, ansible", Start("fatal:"), Root, "fatal")),
    // Before the level words it protects: `severity: enum  # DEBUG, INFO, ERROR`.
    rule("docs, schemas", LevelList, Not, ""),
    rule("logs", Word("FATAL"), Root, "fatal"),
    rule("shell", Contains("Permission denied"), Root, "denied"),
    context(rule("go", GoPosition, Root, "go:"), 1, 1),
    rule("logs", Word("ERROR"), Verdict, "error"),
    nocase(rule("logfmt", Contains("level=error"), Verdict, "error")),
    nocase(rule("logfmt", Contains("level=fatal"), Root, "fatal")),
    rule("go test", GoTestLine, Mention, "_test"),
    outcome(rule(
        "test runners",
        Count(&[
            "failed", "failures", "failure", "failing", "errors", "error",
        ]),
        Verdict,
        "",
    )),
    // A passing count, after the failing ones: `=== 12 passed in 0.3s ===`,
    // `Tests: 12 passed, 12 total`.
    rule("pytest, jest", Contains(" passed"), Passed, ""),
    // Generic words.
    nocase(rule("any", Word("error"), Mention, "error")),
    nocase(rule("any", Word("exception"), Mention, "exception")),
    nocase(rule("any", Word("panic"), Mention, "panic")),
    nocase(rule("any", Word("fatal"), Mention, "fatal")),
    nocase(rule("any", Word("failed"), Mention, "fail")),
    nocase(rule("any", Word("failure"), Mention, "fail")),
    nocase(rule("any", Word("fail"), Mention, "fail")),
];
