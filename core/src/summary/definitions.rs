//! What a source line is, as an outline reads it: a definition or an import. By the keywords each language writes them with (Python, Rust, JavaScript and
//! TypeScript, Go, Java, Kotlin, C#, Swift, Ruby, PHP, shell, SQL), never by a parser:
//! a summary reads any language, and a line it misreads costs one outline entry.

/// Words a definition starts with (after at most four spaces of indentation), modifiers
/// first: `pub(crate) async fn` is the modifiers `pub(crate) `, `async `, then `fn `.
const KEYWORDS: [&str; 35] = [
    "def ",
    "class ",
    "fn ",
    "struct ",
    "enum ",
    "trait ",
    "impl ",
    "impl<",
    "mod ",
    "type ",
    "union ",
    "macro_rules! ",
    "function ",
    "function* ",
    "interface ",
    "namespace ",
    "module ",
    "func ",
    "object ",
    "record ",
    "protocol ",
    "extension ",
    "fun ",
    "sub ",
    "CREATE TABLE ",
    "CREATE VIEW ",
    "CREATE FUNCTION ",
    "CREATE INDEX ",
    "CREATE OR REPLACE ",
    "describe(",
    "it(",
    "test(",
    "actor ",
    "primitive ",
    "be ",
];

/// Modifiers a definition's keyword may follow.
const MODIFIERS: [&str; 22] = [
    "pub ",
    "pub(crate) ",
    "pub(super) ",
    "async ",
    "unsafe ",
    "const ",
    "export ",
    "default ",
    "declare ",
    "abstract ",
    "public ",
    "private ",
    "protected ",
    "internal ",
    "static ",
    "final ",
    "sealed ",
    "data ",
    "open ",
    "override ",
    "suspend ",
    "extern ",
];

/// Whether `line` (its indentation removed) starts a definition: a keyword after any
/// modifiers (`export default class`, `pub(crate) async fn`), a Java or C# method
/// (`public static void main(`), a top-level constant (`export const NAME =`,
/// `const NAME: T =`), a shell function (`name() {`).
///
/// ```text
/// def run(self):               yes      x = def_value        no
/// pub(crate) async fn go() {   yes      fn_ptr(1);           no
/// export const routes = [      yes      const x = 1;         no (not exported)
/// public static void main(     yes      return value;        no
/// ```
pub(super) fn definition(line: &str) -> bool {
    let (rest, modifiers) = strip_modifiers(line);
    if let Some(k) = KEYWORDS.iter().find(|k| rest.starts_with(*k)) {
        return k.ends_with(['(', '<']) || named(&rest[k.len()..]);
    }
    // `export const x =`, `pub const MAX: usize =`, `export let`: a named constant of a
    // module (a bare `const x = 1;` inside code is a statement).
    if modifiers > 0 && line.starts_with(['p', 'e']) {
        for k in ["const ", "let ", "var ", "static "] {
            if line.contains(k) || rest.starts_with(k) {
                return true;
            }
        }
    }
    // `const handler = async (req) => {`: a function bound to a name.
    if line.starts_with("const ") && (rest.contains("=>") || rest.contains("= function")) {
        return true;
    }
    // A Java, C# or Kotlin member with an access modifier: `public int size() {`,
    // `private final Map<K, V> cache;` is a field (no parenthesis): only methods.
    if modifiers > 0
        && line.starts_with(['p', 'i'])
        && rest.contains('(')
        && !rest.starts_with("return")
    {
        return true;
    }
    // A C or C++ function: `static ast_t* make_type(pass_opt_t* opt)`: words, the
    // last one touching its parenthesis, and no statement's `;`. (`public int size()`
    // is a Java method, caught above.)
    if c_function(line) {
        return true;
    }
    // A shell function: `name() {`.
    if let Some(name) = rest.strip_suffix("() {") {
        return !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    }
    false
}

/// `line` after its leading modifiers (`pub(crate) async fn go` → `fn go`), and how
/// many there were.
fn strip_modifiers(line: &str) -> (&str, usize) {
    let mut rest = line;
    let mut count = 0;
    while let Some(after) = MODIFIERS.iter().find_map(|m| rest.strip_prefix(m)) {
        rest = after;
        count += 1;
    }
    (rest, count)
}

/// Whether `line` is a C-style function head: two words or more before a parenthesis
/// that touches the last one (`int main(`, `static ast_t* f(`), the first no statement
/// keyword, and the line not a statement (`;`) or a sentence (`.`).
fn c_function(line: &str) -> bool {
    let Some(open) = line.find('(') else {
        return false;
    };
    let head = &line[..open];
    let words: Vec<&str> = head.split(' ').filter(|w| !w.is_empty()).collect();
    let end = line.trim_end();
    words.len() >= 2
        && !head.ends_with(' ')
        && head
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'*' || b == b' ' || b == b':')
        && ![
            "return", "else", "if", "while", "for", "switch", "case", "sizeof", "new", "delete",
            "throw", "goto",
        ]
        .contains(&words[0])
        && !end.ends_with(';')
        && !end.ends_with('.')
        && !end.ends_with(',')
}

/// Whether what follows a definition's keyword is a name and what a signature puts
/// after one (`run(`, `A:`, `Props {`, `X<T>`, `Id =`, `users (`, `X for Y`, a name
/// alone): `function copies them to…` in a docstring is prose, not a definition.
fn named(after_keyword: &str) -> bool {
    // Go's method receiver: `func (s *Server) Start()`.
    if after_keyword.starts_with('(') {
        return true;
    }
    let len = after_keyword
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.')
        .count();
    if len == 0 {
        return false;
    }
    let next = after_keyword[len..].trim_start();
    next.is_empty()
        || next.starts_with(['(', '{', '<', ':', '=', ';', '[', '!'])
        || [
            "extends ",
            "implements ",
            "for ",
            "where ",
            "struct",
            "interface",
            "as ",
        ]
        .iter()
        .any(|w| next.starts_with(w))
}

/// The name a definition line defines: the identifier after its modifiers and keyword
/// (`Record` of `Record:`, `run` of `pub async fn run(`); `None` when it has none.
pub(super) fn defined_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    // A C function's name is the word its parenthesis touches.
    if c_function(rest) {
        let head = &rest[..rest.find('(')?];
        let name = head.rsplit([' ', '*']).next()?;
        return (!name.is_empty()).then_some(name);
    }
    rest = strip_modifiers(rest).0;
    if let Some(k) = KEYWORDS
        .iter()
        .find(|k| rest.starts_with(*k) && !k.ends_with('('))
    {
        rest = &rest[k.len()..];
    } else {
        for k in ["const ", "let ", "var ", "static "] {
            rest = rest.strip_prefix(k).unwrap_or(rest);
        }
    }
    let len = rest
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
        .count();
    (len > 0 && !rest.as_bytes()[0].is_ascii_digit()).then(|| &rest[..len])
}

/// Whether `line` (at indentation 0) imports: `import x`, `from x import y`, `use x;`,
/// `#include <x>`, `require 'x'`, `const x = require("x")`, `using X;`.
pub(super) fn import(line: &str) -> bool {
    [
        "import ",
        "from ",
        "use ",
        "pub use ",
        "#include ",
        "require ",
        "require(",
        "using ",
    ]
    .iter()
    .any(|k| line.starts_with(k))
        && !line.starts_with("from:")
        || (line.starts_with("const ") && line.contains("= require("))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_by_keyword_after_modifiers() {
        for yes in [
            "def run(self):",
            "async def main():",
            "class A(B):",
            "pub(crate) async fn go() {",
            "impl<T> Trait for X<T> {",
            "export default class App extends Component {",
            "export const routes = [",
            "pub const MAX: usize = 3;",
            "public static void main(String[] args) {",
            "private int size() {",
            "func (s *Server) Start() error {",
            "interface Props {",
            "type Id = string;",
            "CREATE TABLE users (",
            "module Billing",
            "mod tests;",
            "build() {",
            "data class User(val id: Int)",
            "static ast_t* make_pattern_type(pass_opt_t* opt, ast_t* pattern)",
            "int main(int argc, char** argv) {",
            "actor Main",
            "const handler = async (req) => {",
            "public Map<String, Integer> counts() {",
            "build_all() {",
            "my-func() {",
            "const render = function (props) {",
        ] {
            assert!(definition(yes), "{yes}");
        }
        for no in [
            "x = def_value",
            "fn_ptr(1);",
            "const x = 1;",
            "return value;",
            "private final Map<K, V> cache;",
            "classes = []",
            "if (x) {",
            "() {",
            "function copies them to the project's dist/ directory.",
            "class names are listed below",
            "type the command again",
            "return foo(x);",
            "See the run(x) below.",
            "foo(bar);",
            "every value is static here",
            "public Map<String, Integer> counts;",
            "const total = sum(values);",
        ] {
            assert!(!definition(no), "{no}");
        }
    }

    #[test]
    fn the_name_a_definition_defines() {
        assert_eq!(
            defined_name("pub(crate) async fn run(x: u8) {"),
            Some("run")
        );
        assert_eq!(defined_name("TelemetryEvent:"), Some("TelemetryEvent"));
        assert_eq!(defined_name("export const routes = ["), Some("routes"));
        assert_eq!(defined_name("    def inner(self):"), Some("inner"));
        assert_eq!(defined_name("func (s *S) Start() {"), None);
        assert_eq!(
            defined_name("static ast_t* make_type(pass_opt_t* opt)"),
            Some("make_type")
        );
    }

    #[test]
    fn imports_by_statement() {
        for yes in [
            "import os",
            "from pathlib import Path",
            "use std::collections::HashMap;",
            "pub use crate::x;",
            "#include <stdio.h>",
            "const fs = require(\"fs\");",
            "using System;",
        ] {
            assert!(import(yes), "{yes}");
        }
        for no in ["imports = 3", "from: alice", "user = 1", "const x = 1;"] {
            assert!(!import(no), "{no}");
        }
    }
}
