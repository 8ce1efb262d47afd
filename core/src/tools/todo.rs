//! TodoWrite / TodoRead: a task list the model keeps for itself, aligned with Claude's
//! own todo tools. Both tools share one in-memory [`TodoList`].

use super::registry::{RegisterError, ToolOutput, ToolRegistry};

use super::definition::ToolDefinition;
use crate::json::view::{js_string, JsonView, Kind};
use crate::{json, text::js_trim};
use serde_json::{Map, Value};

/// The write tool's name.
pub const TODO_WRITE: &str = "TodoWrite";
/// The read tool's name.
pub const TODO_READ: &str = "TodoRead";

/// Where a todo stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on (one at a time).
    InProgress,
    /// Done.
    Completed,
}

impl TodoStatus {
    /// `"pending"`, `"in_progress"` or `"completed"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TodoStatus::Pending => "pending",
            TodoStatus::InProgress => "in_progress",
            TodoStatus::Completed => "completed",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        [
            TodoStatus::Pending,
            TodoStatus::InProgress,
            TodoStatus::Completed,
        ]
        .into_iter()
        .find(|t| t.as_str() == s)
    }
}

/// One task: what to do (`content`), its state, and how to say it is under way
/// (`active_form`, e.g. "Running the tests").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Todo {
    /// The task, imperative ("Run the tests").
    pub content: String,
    /// Where it stands.
    pub status: TodoStatus,
    /// The task in progressive form ("Running the tests").
    pub active_form: String,
}

/// The list both tools work on.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::tools::TodoList;
/// let mut list = TodoList::default();
/// let out = list.write(&&json!({"todos": [{"content": "Plan", "status": "pending", "activeForm": "Planning"}]}));
/// assert_eq!(out.content, r#"{"success":true,"count":1}"#);
/// assert_eq!(list.read().content, r#"{"todos":[{"content":"Plan","status":"pending","activeForm":"Planning"}]}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TodoList {
    items: Vec<Todo>,
}

impl TodoList {
    /// The todos, in order.
    pub fn items(&self) -> &[Todo] {
        &self.items
    }

    /// TodoWrite: validate `params` (`{ todos: [...] }`) and replace the whole list.
    /// Validation stops at the first error, which is returned as an error output; the
    /// list is then left exactly as it was (the replace is atomic).
    pub fn write<V: JsonView>(&mut self, params: &V) -> ToolOutput {
        match parse_todos(params) {
            Ok(todos) => {
                self.items = todos;
                ToolOutput::ok(json::stringify(&object(vec![
                    ("success", Value::Bool(true)),
                    ("count", self.items.len().into()),
                ])))
            }
            Err(message) => ToolOutput::error(message),
        }
    }

    /// TodoRead: `{"todos":[…]}`, each item with exactly `content`, `status`,
    /// `activeForm` in that order; `{"todos":[]}` when empty.
    pub fn read(&self) -> ToolOutput {
        let items: Vec<Value> = self
            .items
            .iter()
            .map(|t| {
                let mut item = Map::new();
                item.insert("content".into(), t.content.clone().into());
                item.insert("status".into(), t.status.as_str().into());
                item.insert("activeForm".into(), t.active_form.clone().into());
                Value::Object(item)
            })
            .collect();
        ToolOutput::ok(json::stringify(&object(vec![(
            "todos",
            Value::Array(items),
        )])))
    }

    /// TodoWrite's definition.
    pub fn write_definition() -> ToolDefinition {
        ToolDefinition::new(
            TODO_WRITE,
            "Create and update the task list for the current work. Use it for any task with \
             three or more steps: write the plan before starting, keep exactly one todo \
             in_progress, and mark each completed as soon as it is done. Every call replaces \
             the whole list, so always send all todos. Skip it for a single trivial step.",
            object(vec![
                ("type", "object".into()),
                (
                    "properties",
                    object(vec![(
                        "todos",
                        object(vec![
                            ("type", "array".into()),
                            ("description", "The complete, updated todo list.".into()),
                            (
                                "items",
                                object(vec![
                                    ("type", "object".into()),
                                    (
                                        "properties",
                                        object(vec![
                                            (
                                                "content",
                                                text_property(
                                                    "The task, imperative: \"Run the tests\".",
                                                ),
                                            ),
                                            (
                                                "status",
                                                object(vec![
                                                    ("type", "string".into()),
                                                    (
                                                        "enum",
                                                        strings(&[
                                                            "pending",
                                                            "in_progress",
                                                            "completed",
                                                        ]),
                                                    ),
                                                ]),
                                            ),
                                            (
                                                "activeForm",
                                                text_property(
                                                    "The task under way: \"Running the tests\".",
                                                ),
                                            ),
                                        ]),
                                    ),
                                    ("required", strings(&["content", "status", "activeForm"])),
                                    ("additionalProperties", Value::Bool(false)),
                                ]),
                            ),
                        ]),
                    )]),
                ),
                ("required", strings(&["todos"])),
            ]),
        )
    }

    /// TodoRead's definition.
    pub fn read_definition() -> ToolDefinition {
        ToolDefinition::new(
            TODO_READ,
            "Read the current task list. Use it to check progress before choosing the next \
             step, after a long tool run, or when resuming work. Takes no input.",
            object(vec![
                ("type", "object".into()),
                ("properties", Value::Object(Map::new())),
            ]),
        )
    }
}

/// A JSON object of `fields`, in order. Tool schemas are built with this rather than
/// `json!`, whose every leaf goes through `to_value(..).unwrap()` and so links
/// serde_json's error formatting into the wasm.
fn object(fields: Vec<(&str, Value)>) -> Value {
    Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// A JSON array of `items`.
fn strings(items: &[&str]) -> Value {
    Value::Array(items.iter().map(|&s| s.into()).collect())
}

/// A non-empty string property described by `description`.
fn text_property(description: &str) -> Value {
    object(vec![
        ("type", "string".into()),
        ("minLength", 1.into()),
        ("description", description.into()),
    ])
}

/// Register TodoWrite and TodoRead with the host handlers that call [`TodoList::write`]
/// and [`TodoList::read`] on one shared list.
///
/// # Errors
/// [`RegisterError::Duplicate`] when either name is taken (then neither is registered).
pub fn register_todo_tools<H>(
    registry: &mut ToolRegistry<H>,
    write: H,
    read: H,
) -> Result<(), RegisterError> {
    for name in [TODO_WRITE, TODO_READ] {
        if registry.get(name).is_some() {
            return Err(RegisterError::Duplicate(name.into()));
        }
    }
    registry.register(TodoList::write_definition(), write)?;
    registry.register(TodoList::read_definition(), read)
}

/// Validation, in the documented order, stopping at the first error.
fn parse_todos<V: JsonView>(params: &V) -> Result<Vec<Todo>, String> {
    let Some(todos) = params.field("todos") else {
        return Err("'todos' array is required".into());
    };
    if todos.kind() != Kind::Array {
        return Err("'todos' must be an array".into());
    }
    let mut parsed = Vec::with_capacity(todos.array_len());
    for i in 0..todos.array_len() {
        let item = todos.item(i);
        let field = |name: &'static str| item.as_ref().and_then(|t| t.field(name));
        let content = non_blank(field("content"))
            .ok_or_else(|| format!("Todo at index {i}: content is required and cannot be empty"))?;
        let status = field("status");
        let Some(status) = status
            .as_ref()
            .and_then(V::to_owned_string)
            .and_then(|s| TodoStatus::parse(&s))
        else {
            return Err(format!(
                "Todo at index {i}: invalid status '{}'. Must be one of: pending, in_progress, completed",
                js_string(status.as_ref())
            ));
        };
        let active_form = non_blank(field("activeForm")).ok_or_else(|| {
            format!("Todo at index {i}: activeForm is required and cannot be empty")
        })?;
        parsed.push(Todo {
            content,
            status,
            active_form,
        });
    }
    Ok(parsed)
}

/// The string value, if it is a string that is not empty after JavaScript's `trim()`.
fn non_blank<V: JsonView>(value: Option<V>) -> Option<String> {
    value
        .and_then(|v| v.to_owned_string())
        .filter(|s| !js_trim(s).is_empty())
}
