use serde_json::json;

use super::*;
use serde_json::Value;

/// The selection, parsed back (so tests compare values, not spacing).
fn select(path: &str, doc: &Value) -> Result<Value, String> {
    let text = crate::json::stringify(doc);
    let selected = JsonPath::parse(path)?.select(&text)?;
    Ok(serde_json::from_str(&selected).unwrap())
}

fn doc() -> Value {
    json!({
        "total": 3,
        "items": [
            {"id": 1, "sku": "a-1", "tags": ["x"]},
            {"id": 2, "sku": "b-2", "tags": []},
            {"id": 3, "sku": "c-3", "tags": ["y", "z"]}
        ],
        "a b": {"c.d": true, "0": "zero"},
        "~/": 5
    })
}

#[test]
fn members_items_and_the_whole_document() {
    let d = doc();
    for whole in ["", "$"] {
        assert_eq!(select(whole, &d).unwrap(), d);
    }
    assert_eq!(select("$.total", &d).unwrap(), json!(3));
    assert_eq!(select("$.items[1].sku", &d).unwrap(), json!("b-2"));
    assert_eq!(select("$['items'][0][\"id\"]", &d).unwrap(), json!(1));
    assert_eq!(select("$['a b']['c.d']", &d).unwrap(), json!(true));
    assert_eq!(
        select("$['it\\'ems']", &json!({"it'ems": 1})).unwrap(),
        json!(1)
    );
    assert_eq!(select("$.items[-1].id", &d).unwrap(), json!(3));
    assert_eq!(select("$.items[-3].id", &d).unwrap(), json!(1));
}

#[test]
fn lists_from_wildcards_and_slices() {
    let d = doc();
    assert_eq!(select("$.items[*].id", &d).unwrap(), json!([1, 2, 3]));
    assert_eq!(
        select("$.items.*.sku", &d).unwrap(),
        json!(["a-1", "b-2", "c-3"])
    );
    assert_eq!(select("$.items[1:].id", &d).unwrap(), json!([2, 3]));
    assert_eq!(select("$.items[:2].id", &d).unwrap(), json!([1, 2]));
    assert_eq!(select("$.items[-2:].id", &d).unwrap(), json!([2, 3]));
    assert_eq!(select("$.items[0:100].id", &d).unwrap(), json!([1, 2, 3]));
    assert_eq!(select("$.items[2:1]", &d).unwrap(), json!([]));
    assert_eq!(
        select("$.items[*].tags[*]", &d).unwrap(),
        json!(["x", "y", "z"])
    );
    // Items without the member are left out of a list.
    assert_eq!(select("$.items[*].tags[1]", &d).unwrap(), json!(["z"]));
    assert_eq!(select("$['a b'].*", &d).unwrap(), json!(["zero", true]));
}

#[test]
fn json_pointer() {
    let d = doc();
    assert_eq!(select("/items/2/sku", &d).unwrap(), json!("c-3"));
    assert_eq!(select("/a b/0", &d).unwrap(), json!("zero"));
    assert_eq!(select("/~0~1", &d).unwrap(), json!(5));
    // "01" is a member name, not an index.
    assert!(select("/items/01", &d).is_err());
}

#[test]
fn nothing_selected_says_where_it_stopped() {
    let d = doc();
    assert_eq!(
        select("$.items[3]", &d).unwrap_err(),
        "$.items[3] selects nothing: $.items is an array of 3 items"
    );
    assert_eq!(
        select("$.item", &d).unwrap_err(),
        "$.item selects nothing: $ is an object with keys total, items, a b, ~/"
    );
    assert_eq!(
        select("$.total.x", &d).unwrap_err(),
        "$.total.x selects nothing: $.total is a number"
    );
    assert_eq!(
        select("$['a b'].x", &d).unwrap_err(),
        "$[\"a b\"].x selects nothing: $[\"a b\"] is an object with keys 0, c.d"
    );
    assert_eq!(
        select("$.items[-4]", &d).unwrap_err(),
        "$.items[-4] selects nothing: $.items is an array of 3 items"
    );
}

#[test]
fn malformed_paths_name_the_place() {
    for (path, message) in [
        ("items", "invalid path \"items\": start with $ (JSONPath, e.g. $.items[0].id) or / (JSON Pointer, e.g. /items/0/id)"),
        ("$.", "invalid path \"$.\": expected a member name at character 3"),
        ("$x", "invalid path \"$x\": expected . or [ at character 2"),
        ("$[1", "invalid path \"$[1\": expected ] at character 4"),
        ("$['a]", "invalid path \"$['a]\": expected a closing quote at character 6"),
        ("$[]", "invalid path \"$[]\": expected an index, a slice, * or a quoted name at character 3"),
        ("$[-]", "invalid path \"$[-]\": expected a digit at character 4"),
        ("$[99999999999999999999]", "invalid path \"$[99999999999999999999]\": index out of range at character 3"),
    ] {
        assert_eq!(JsonPath::parse(path).unwrap_err(), message, "{path}");
    }
    let long = format!("${}", ".a".repeat(600));
    assert_eq!(
        JsonPath::parse(&long).unwrap_err(),
        "path is 1201 bytes long; at most 1000"
    );
}

#[test]
fn displayed_as_jsonpath() {
    for (path, shown) in [
        ("$.items[0:2].sku", "$.items[0:2].sku"),
        ("/items/1", "$.items[1]"),
        ("$['a b'][*][:-1]", "$[\"a b\"][*][:-1]"),
        ("$.*", "$[*]"),
    ] {
        assert_eq!(JsonPath::parse(path).unwrap().to_string(), shown);
    }
}

#[test]
fn walks_pretty_printed_text_and_escaped_keys() {
    let text =
        "{\n  \"a\\\"b\" : [ 1 , { \"x\": \"} ] ,\" } ],\n  \"\\u00e9\": \"cut \\ud83d\"\n}\n";
    let at = |p: &str| JsonPath::parse(p).unwrap().select(text);
    assert_eq!(at("$[\"a\\\"b\"][1].x").unwrap(), "\"} ] ,\"");
    assert_eq!(at("$['a\"b'][*]").unwrap(), "[1,{ \"x\": \"} ] ,\" }]");
    // Escapes are as written: the lone surrogate's, kept for the page to show.
    assert_eq!(at("$.é").unwrap(), "\"cut \\ud83d\"");
    assert_eq!(
        at("$.z").unwrap_err(),
        "$.z selects nothing: $ is an object with keys a\"b, é"
    );
}
