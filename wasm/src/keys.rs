//! JS property keys made once per name, and reading a field by one.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

/// `name` as a JS property key, made once per name: a new JS string per read of an
/// option or write of a result field costs a UTF-8 decode. Found again by the static's
/// address, without hashing (wasm-bindgen's `enable-interning` hashes every string that
/// crosses, with SipHash: 15 % of a small batch call).
pub(crate) fn key(name: &'static str) -> JsValue {
    thread_local! {
        static KEYS: std::cell::RefCell<Vec<((usize, usize), JsValue)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let at = (name.as_ptr() as usize, name.len());
    KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if let Some((_, made)) = keys.iter().find(|(k, _)| *k == at) {
            return made.clone();
        }
        let made = JsValue::from_str(name);
        keys.push((at, made.clone()));
        made
    })
}

/// `object[key]`, `undefined` when `object` is not an object or reading throws.
pub(crate) fn field(object: &JsValue, name: &'static str) -> JsValue {
    if object.is_object() {
        Reflect::get(object, &key(name)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}
