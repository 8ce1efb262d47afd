//! The registry's arguments from JavaScript: tool definitions, the offload and
//! materialize options, and the tool format definitions are listed in.

use js_sys::{Array, Object, Reflect};
use tool_offload_core::tools::{RegisterError, ResultOffload, ToolDefinition, ToolFormat};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::{options_arg, process_cwd, string_arg};
use crate::convert::{to_js, to_value};
use crate::error::JsOffloadError;
use crate::keys::{field, key};
use crate::writer::JsFileWriter;

pub(super) fn tool_definition(definition: &JsValue) -> Result<ToolDefinition, JsOffloadError> {
    let invalid =
        |reason: &str| JsOffloadError::from(RegisterError::InvalidDefinition(reason.into()));
    if !definition.is_object() {
        return Err(invalid(
            "definition must be an object with name, description and input_schema",
        ));
    }
    let field = |name: &'static str| field(definition, name);
    let name = field("name")
        .as_string()
        .ok_or_else(|| invalid("name must be a string"))?;
    let description = field("description");
    let description = if description.is_undefined() {
        String::new()
    } else {
        description
            .as_string()
            .ok_or_else(|| invalid("description must be a string"))?
    };
    // Core checks the name first, then that the schema is an object.
    let schema = field("input_schema");
    Ok(ToolDefinition::new(
        name,
        description,
        to_value(&schema, "input_schema")?,
    ))
}

pub(super) fn materialize_option(options: &JsValue) -> Result<Option<Object>, JsOffloadError> {
    if !options.is_object() {
        return Ok(None);
    }
    let materializer = field(options, "materialize");
    if materializer.is_undefined() || materializer.is_null() {
        return Ok(None);
    }
    let has_method =
        Reflect::get(&materializer, &key("materialize")).is_ok_and(|m| m.is_function());
    if !has_method {
        return Err(OffloadError::InvalidArgument(
            "options.materialize must be a Materializer (an object with a materialize method)"
                .into(),
        )
        .into());
    }
    Ok(Some(materializer.unchecked_into()))
}

pub(super) fn offload_option(
    options: &JsValue,
) -> Result<Option<(ResultOffload, JsFileWriter)>, JsOffloadError> {
    if options.is_undefined() || options.is_null() {
        return Ok(None);
    }
    let offload = field(options, "offload");
    if offload.is_undefined() || offload.is_null() {
        return Ok(None);
    }
    let given = crate::given::options(&offload);
    let cwd = |dir: &str| tool_offload_core::options::working_dir(&given, dir, process_cwd);
    let middleware = tool_offload_core::options::result_offload(&given, cwd)?;
    Ok(Some((
        middleware,
        JsFileWriter::new(&field(&offload, "writer"))?,
    )))
}

/// `options.format`, the Anthropic format when absent.
/// `definitions` as the `tools` array of `options.format` (every `getToolDefinitions`).
pub(crate) fn definitions_js<'a>(
    definitions: impl IntoIterator<Item = &'a tool_offload_core::tools::ToolDefinition>,
    options: &JsValue,
) -> Result<Array, JsValue> {
    let format = tool_format(options).map_err(JsValue::from)?;
    Ok(definitions
        .into_iter()
        .map(|d| to_js(&d.to_format(format)))
        .collect())
}

fn tool_format(options: &JsValue) -> Result<ToolFormat, JsOffloadError> {
    options_arg(options)?;
    let format = field(options, "format");
    if format.is_undefined() {
        return Ok(ToolFormat::default());
    }
    let name = string_arg(&format, "options.format")?;
    Ok(ToolFormat::parse(&name)?)
}
