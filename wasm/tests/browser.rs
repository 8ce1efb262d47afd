//! The wasm crate's own tests, in headless Chromium under `wasm-bindgen-test`
//! (`make test-browser`): JS writers reached through `JsIo`, the errors that come back
//! across the boundary, and values core refuses on the way in.
#![cfg(target_family = "wasm")]

use js_sys::{Array, Function, Promise, Reflect};
use tool_offload_wasm::{
    offload_error_class, offload_tool_result, offload_tool_results, Materializer,
};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A JS value from a JS expression (a test fixture written as JavaScript).
fn js(source: &str) -> JsValue {
    Function::new_no_args(&format!("return ({source});"))
        .call0(&JsValue::UNDEFINED)
        .expect("fixture evaluates")
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &key.into()).expect("readable")
}

/// A writer recording what it was asked to write, in `files` (an object by path).
fn recording_writer() -> JsValue {
    js("{ files: {}, dirs: [], async mkdir(d) { this.dirs.push(d) }, async writeFile(p, d) { this.files[p] = d } }")
}

/// The `code` of the `OffloadError` `promise` rejects with (and that it is one).
async fn rejection(promise: Promise) -> (String, String, JsValue) {
    let error = JsFuture::from(promise).await.expect_err("rejects");
    assert!(error.is_instance_of::<js_sys::Error>(), "a real Error");
    let instance_of = js("(value, class_) => value instanceof class_").unchecked_into::<Function>();
    let is_offload_error = instance_of.call2(&JsValue::UNDEFINED, &error, &offload_error_class());
    assert_eq!(
        is_offload_error.ok().and_then(|b| b.as_bool()),
        Some(true),
        "an OffloadError"
    );
    let code = get(&error, "code").as_string().expect("a code");
    let message = get(&error, "message").as_string().expect("a message");
    (code, message, get(&error, "cause"))
}

#[wasm_bindgen_test]
async fn direct_offload_writes_through_a_js_writer() {
    let writer = recording_writer();
    let message = js(
        r#"{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x".repeat(1200) }] }"#,
    );
    let result = JsFuture::from(offload_tool_result(
        message,
        "s1".into(),
        "/out".into(),
        writer.clone(),
        None,
    ))
    .await
    .expect("offloads");
    assert_eq!(
        get(&result, "file").as_string().as_deref(),
        Some("/out/s1/toolu_1.md")
    );
    let written = get(&get(&writer, "files"), "/out/s1/toolu_1.md");
    assert_eq!(written.as_string().map(|s| s.len()), Some(1200));
    let block = Array::from(&get(&get(&result, "message"), "content")).get(0);
    assert_eq!(
        get(&block, "content").as_string().as_deref(),
        Some("[Tool result offloaded to file: /out/s1/toolu_1.md]")
    );
}

/// How a batch of one large tool result into `/batch` through `writer` is rejected.
async fn batch_rejection(writer: JsValue) -> (String, String, JsValue) {
    let options = js("{ outputDir: '/batch' }");
    Reflect::set(&options, &"writer".into(), &writer).unwrap();
    let messages = js(r#"[{ role: "tool", tool_call_id: "a", content: "y".repeat(150) }]"#);
    rejection(offload_tool_results(messages, options)).await
}

#[wasm_bindgen_test]
async fn a_writer_rejecting_with_a_non_error_is_write_failed_with_that_value_as_cause() {
    let writer = js(r#"{ async mkdir() {}, writeFile() { return Promise.reject(42) } }"#);
    let (code, message, cause) = batch_rejection(writer).await;
    assert_eq!(code, "WRITE_FAILED");
    assert!(message.contains("/batch/tool-result-a.md"), "{message}");
    assert_eq!(cause.as_f64(), Some(42.0));
}

#[wasm_bindgen_test]
async fn a_writer_throwing_synchronously_is_write_failed_too() {
    let writer = js(r#"{ mkdir() { throw new TypeError("no disk") }, async writeFile() {} }"#);
    let (code, message, cause) = batch_rejection(writer).await;
    assert_eq!(code, "WRITE_FAILED");
    assert!(message.contains("no disk"), "{message}");
    assert!(cause.is_instance_of::<js_sys::TypeError>());
}

/// The code `offload_tool_result(message, session_id, "/out", writer)` rejects with.
async fn direct_rejection(message: JsValue, session_id: &str, writer: &JsValue) -> String {
    let promise = offload_tool_result(
        message,
        session_id.into(),
        "/out".into(),
        writer.clone(),
        None,
    );
    rejection(promise).await.0
}

#[wasm_bindgen_test]
async fn values_core_refuses_are_typed_errors() {
    let writer = recording_writer();
    assert_eq!(
        direct_rejection(js("42"), "s1", &writer).await,
        "INVALID_MESSAGE"
    );
    let message = js(r#"{ role: "tool", tool_call_id: "a", content: "z" }"#);
    assert_eq!(
        direct_rejection(message, "../up", &writer).await,
        "INVALID_ID"
    );
    let (code, _, _) = rejection(offload_tool_results(js("[]"), js("{ outputDir: '/x' }"))).await;
    assert_eq!(code, "INVALID_ARGUMENT");
    let count = js("(o) => Object.keys(o).length").unchecked_into::<Function>();
    let written = count
        .call1(&JsValue::UNDEFINED, &get(&writer, "files"))
        .unwrap();
    assert_eq!(written.as_f64(), Some(0.0), "nothing written");
}

#[wasm_bindgen_test]
fn a_materializer_without_options_is_invalid_argument() {
    let error = Materializer::new(JsValue::UNDEFINED)
        .err()
        .expect("refused");
    assert_eq!(
        get(&error, "code").as_string().as_deref(),
        Some("INVALID_ARGUMENT")
    );
}
