//! The vector forms: `$text` recipes, `$from` results of earlier steps and `$core`
//! texts (filled in by bless mode).

use tool_offload_core::{Map, Value};

/// `value` with every `{"$text": [...]}` recipe expanded.
pub fn expand(value: &Value) -> Value {
    match value {
        Value::Object(fields) => {
            if let (1, Some(Value::Array(parts))) = (fields.len(), fields.get("$text")) {
                let mut text = String::new();
                for part in parts {
                    match part {
                        Value::String(s) => text.push_str(s),
                        Value::Array(pair) => {
                            let s = pair[0].as_str().expect("$text part string");
                            let times = pair[1].as_u64().expect("$text part count") as usize;
                            text.push_str(&s.repeat(times));
                        }
                        other => panic!("bad $text part {other}"),
                    }
                }
                return Value::String(text);
            }
            Value::Object(fields.iter().map(|(k, v)| (k.clone(), expand(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(expand).collect()),
        other => other.clone(),
    }
}

/// `value` with `$from` replaced by earlier results and, in expectations, `$core`
/// unwrapped (`None` for an unblessed one).
pub(super) fn resolve(value: &Value, actual: &[Value], expectation: bool) -> Option<Value> {
    Some(match value {
        Value::Object(fields) if fields.len() == 1 && fields.contains_key("$from") => {
            let path = fields["$from"].as_array().expect("$from path");
            let step = path[0].as_u64().expect("$from step") as usize;
            let mut at = actual.get(step).cloned().unwrap_or(Value::Null);
            for key in &path[1..] {
                at = match key {
                    Value::String(k) => at.get(k.as_str()).cloned(),
                    Value::Number(n) => at.get(n.as_u64().expect("index") as usize).cloned(),
                    _ => None,
                }
                .unwrap_or(Value::Null);
            }
            at
        }
        Value::Object(fields)
            if expectation && fields.len() == 1 && fields.contains_key("$core") =>
        {
            let text = &fields["$core"];
            if text.is_null() {
                return None;
            }
            text.clone()
        }
        Value::Object(fields) => {
            let mut out = Map::new();
            for (k, v) in fields {
                out.insert(k.clone(), resolve(v, actual, expectation)?);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| resolve(v, actual, expectation))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

/// Replace the text of every `$core` in `expect` with the matching part of `got`.
pub(super) fn fill_core(expect: &mut Value, got: &Value) {
    match expect {
        Value::Object(fields) if fields.len() == 1 && fields.contains_key("$core") => {
            fields.insert("$core".into(), got.clone());
        }
        Value::Object(fields)
            if fields.len() == 1
                && (fields.contains_key("$from") || fields.contains_key("$text")) => {}
        Value::Object(fields) => {
            for (k, v) in fields.iter_mut() {
                if let Some(g) = got.get(k.as_str()) {
                    fill_core(v, g);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                if let Some(g) = got.get(i) {
                    fill_core(v, g);
                }
            }
        }
        _ => {}
    }
}
