//! The rules on real lines, and the data's own invariants.
use super::super::scan::{EXACT_TRIGGERS, TRIGGERS};
use super::*;

/// Every rule's lines hold a trigger word, or the scan would never show them to it.
#[test]
fn every_rule_holds_a_trigger() {
    let holds = |t: &str| {
        EXACT_TRIGGERS.iter().any(|w| t.contains(w)) || {
            let t = t.to_ascii_lowercase();
            TRIGGERS.iter().any(|w| t.contains(w))
        }
    };
    for rule in RULES.iter().filter(|r| r.level != Level::Not) {
        let ok = match rule.shape {
            Shape::Start(t) | Shape::Contains(t) | Shape::Word(t) => holds(t),
            Shape::StartWith(t, any) => holds(t) || any.iter().all(|a| holds(a)),
            Shape::Count(words) => words.iter().all(|w| holds(w)),
            // Hold `error`/`exception`, `.go:`, `HTTP/`, `"error"` by their shape.
            Shape::ExceptionName
            | Shape::GoPosition
            | Shape::GoTestLine
            | Shape::HttpStatus
            | Shape::JsonError => true,
            // Only ever a veto.
            Shape::LevelList => false,
        };
        assert!(ok, "{rule:?}");
    }
}

#[test]
fn keys_hold_no_regex_metacharacter_and_no_capital() {
    for rule in RULES {
        assert_eq!(rule.key, rule.key.to_ascii_lowercase(), "{rule:?}");
        assert!(
            !rule.key.contains(|c: char| "\\.+*?()[]{}^$|".contains(c)),
            "{rule:?}"
        );
    }
}

#[test]
fn levels_of_real_lines() {
    use Level::*;
    for (line, level) in [
        ("error[E0308]: mismatched types", Some(Root)),
        ("\x1b[0m\x1b[1m\x1b[38;5;9merror[E0425]\x1b[0m\x1b[0m\x1b[1m: cannot find value", Some(Root)),
        ("error: could not compile `agent` (bin \"agent\") due to 1 previous error", Some(Verdict)),
        ("thread 'main' panicked at src/main.rs:4:5:", Some(Root)),
        ("Traceback (most recent call last):", Some(Verdict)),
        ("KeyError: 'user_id'", Some(Root)),
        ("E       AssertionError: assert 3 == 4", Some(Root)),
        ("tests/test_add.py:5: AssertionError", Some(Root)),
        ("FAILED tests/test_add.py::test_add - assert 3 == 4", Some(Verdict)),
        ("=========== 1 failed, 12 passed in 0.34s ===========", Some(Verdict)),
        ("tests/test_x.py::test_error_path PASSED", Some(Not)),
        (" FAIL  src/sum.test.js", Some(Verdict)),
        ("  ● sum › adds 1 + 2 to equal 3", Some(Root)),
        ("Tests:       1 failed, 5 passed, 6 total", Some(Verdict)),
        ("  ✓ handles errors gracefully (3 ms)", Some(Not)),
        (" PASS  src/errorHandler.test.ts", Some(Passed)),
        ("--- FAIL: TestAdd (0.00s)", Some(Root)),
        ("    add_test.go:12: Add(1, 2) = 4; want 3", Some(Mention)),
        ("    failover_test.go:71: all upstreams failed: 3 errors occurred", Some(Mention)),
        ("ok  \texample.com/add\t0.002s", Some(Passed)),
        ("=========== 12 passed in 0.34s ===========", Some(Passed)),
        ("[INFO] BUILD SUCCESS", Some(Passed)),
        ("./main.go:12:2: undefined: foo", Some(Root)),
        ("FAIL\texample.com/add\t0.002s", Some(Verdict)),
        ("ok  \texample.com/errors\t0.003s", Some(Passed)),
        ("panic: runtime error: index out of range [5] with length 3", Some(Root)),
        ("\t/usr/local/go/src/runtime/panic.go:884 +0x213", None),
        ("src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.", Some(Root)),
        ("src/app.ts:12:5 - error TS2322: Type 'string'", Some(Root)),
        ("Found 2 errors in 1 file.", Some(Verdict)),
        ("Found 0 errors. Watching for file changes.", None),
        ("  12:5  error  'x' is assigned a value but never used  no-unused-vars", Some(Root)),
        ("✖ 3 problems (2 errors, 1 warning)", Some(Verdict)),
        ("npm ERR! code ELIFECYCLE", Some(Root)),
        ("npm error code 1", Some(Root)),
        (" ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  web@1.0.0 build: `vite build`", Some(Verdict)),
        ("error Command failed with exit code 1.", Some(Verdict)),
        ("> Task :app:compileJava FAILED", Some(Mention)),
        ("FAILURE: Build failed with an exception.", Some(Verdict)),
        ("[ERROR] /src/main/java/App.java:[12,8] cannot find symbol", Some(Root)),
        ("[INFO] BUILD FAILURE", Some(Verdict)),
        ("[WARNING] Using platform encoding (UTF-8 actually) to copy filtered resources", Some(Not)),
        ("main.c:12:5: error: 'count' undeclared (first use in this function)", Some(Root)),
        ("make: *** [Makefile:12: main.o] Error 1", Some(Verdict)),
        ("#8 0.523 npm ERR! 404 Not Found", Some(Root)),
        ("ERROR: failed to solve: process \"/bin/sh -c npm ci\" did not complete successfully: exit code: 1", Some(Root)),
        ("│ Error: Invalid reference", Some(Root)),
        ("  Warning  BackOff    3m (x12 over 5m)  kubelet  Back-off restarting failed container", Some(Root)),
        ("2024-05-01T10:00:00.1234567Z ##[error]Process completed with exit code 1.", Some(Verdict)),
        ("ERROR: Job failed: exit code 1", Some(Verdict)),
        ("Exception in thread \"main\" java.lang.IllegalStateException: boom", Some(Root)),
        ("Caused by: java.io.FileNotFoundException: config.yml", Some(Root)),
        ("fatal: not a git repository (or any of the parent directories): .git", Some(Root)),
        ("fatal: [web1]: FAILED! => {\"changed\": false}", Some(Root)),
        ("ls: cannot open directory '/root': Permission denied", Some(Root)),
        ("ERROR:  relation \"users\" does not exist", Some(Root)),
        ("warning: unused variable: `error`", Some(Not)),
        ("   Compiling error-chain v0.12.4", Some(Not)),
        ("  Downloaded thiserror v1.0.50", Some(Not)),
        ("test result: ok. 12 passed; 0 failed; 0 ignored", Some(Passed)),
        ("test tests::error_case ... ok", Some(Not)),
        ("pytest --ignore-errors -x --fail-fast", None),
        ("INFO stats error_rate=0.00 error_count=0 failOnWarnings: false", None),
        ("{\"error\": null, \"status\": \"ok\"}", None),
        ("No errors found.", None),
        ("    0 Error(s)", None),
        ("    1 Error(s)", Some(Verdict)),
        ("request failed, retrying", Some(Mention)),
        ("cannot open /var/log/error.log", None),
        ("console.error(err)", None),
        ("  Failure/Error: expect(user.name).to eq(\"Ann\")", Some(Root)),
        ("3 examples, 1 failure", Some(Verdict)),
        ("Unhandled exception. System.InvalidOperationException: boom", Some(Root)),
        ("Program.cs(12,5): error CS1002: ; expected [/src/app.csproj]", Some(Root)),
        ("x.py:12: error: Incompatible types in assignment  [assignment]", Some(Root)),
        ("< HTTP/1.1 500 Internal Server Error", Some(Verdict)),
        ("< HTTP/2 200", None),
        ("time=2024-05-14T10:00:01Z level=error msg=\"db down\"", Some(Verdict)),
        ("INFO httpx: HTTP Request: POST http://x/v1 \"HTTP/1.1 422 Unprocessable\"", None),
        ("    Liveness: http-get delay=20s #success=1 #failure=4", None),
        ("{\"error\":\"internal_error\",\"message\":\"insert failed\"}", Some(Root)),
        ("  toApiError", None),
        ("[INFO] Tests run: 17, Failures: 0, Errors: 0, Skipped: 0", None),
        ("[ERROR] Tests run: 17, Failures: 1, Errors: 0, Skipped: 0", Some(Root)),
        ("Tests run: 17, Failures: 1, Errors: 0", Some(Verdict)),
        ("PLAY RECAP web1 : ok=3 changed=0 unreachable=0 failed=1", Some(Verdict)),
        ("level=INFO msg=loaded routes=118 errors=0", None),
        ("retry.py:88: RuntimeWarning: giving up after 3 failures", Some(Not)),
        ("2024/05/14 10:21:33 health: error_count=0 upstreams=3", None),
        ("2024/05/14 10:21:34 ERROR upstream down", Some(Root)),
        ("[api] unhandled error in POST /orders: TypeError: Cannot read", Some(Root)),
        ("main.c:57: undefined reference to `config_load_file'", Some(Root)),
        (" ! [rejected]        main -> main (fetch first)", Some(Root)),
        ("      Reason:       OOMKilled", Some(Root)),
        // Levels listed, not logged at.
        ("    96→  severity: enum                # DEBUG, INFO, WARN, ERROR, CRITICAL", Some(Not)),
        ("type Level = \"debug\" | \"info\" | \"error\";", Some(Not)),
        ("  --log-level <LEVEL>  one of trace/debug/info/warn/error/fatal", Some(Not)),
        ("2024-05-14 10:00:01 ERROR, retrying in 5s", Some(Root)),
        ("ERROR: INFO file missing", Some(Root)),
    ] {
        assert_eq!(classify(line).map(|c| c.level), level, "{line:?}");
    }
}
