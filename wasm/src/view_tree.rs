//! Whole conversations read in one crossing: view.js's `viewTree` walks every message as
//! deep as core looks and encodes it as numbers, so core's reads of it stay in wasm.
//! Values (ids, contents, the messages to copy) cross only when core asks for them.

use std::rc::Rc;

use js_sys::{Array, Int32Array};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/view.js")]
extern "C" {
    #[wasm_bindgen(js_name = viewTree)]
    fn view_tree(messages: &Array) -> Array;
    #[wasm_bindgen(js_name = viewTreeNodes)]
    fn view_tree_nodes() -> Int32Array;
}

/// Words per node (view.js's `TREE_WORDS`): kind code, length, first child, field name.
const WORDS: usize = 4;

/// One `viewTree` encoding and the values its nodes stand for.
#[derive(Debug)]
pub(crate) struct Tree {
    nodes: Vec<i32>,
    values: Array,
}

impl Tree {
    /// `messages` encoded; nodes `0..messages.length` are the messages.
    pub(crate) fn of(messages: &Array) -> Rc<Tree> {
        let values = view_tree(messages);
        let nodes = view_tree_nodes().to_vec();
        Rc::new(Tree { nodes, values })
    }

    /// Word `i` of node `index` (-1 past the end: our own encoder never writes one).
    fn word(&self, index: u32, i: usize) -> i32 {
        let at = index as usize * WORDS + i;
        self.nodes.get(at).copied().unwrap_or(-1)
    }

    /// The first `count` values (the messages, as they were read) as a new array.
    pub(crate) fn messages(&self, count: usize) -> Array {
        self.values.slice(0, count as u32)
    }
}

/// One value of a [`Tree`].
#[derive(Clone, Debug)]
pub(crate) struct Node {
    tree: Rc<Tree>,
    index: u32,
}

impl Node {
    /// Node `index` of `tree`.
    pub(crate) fn at(tree: &Rc<Tree>, index: u32) -> Node {
        Node {
            tree: Rc::clone(tree),
            index,
        }
    }

    fn word(&self, i: usize) -> i32 {
        self.tree.word(self.index, i)
    }

    /// The tree this node is in.
    pub(crate) fn tree(&self) -> &Rc<Tree> {
        &self.tree
    }

    /// view.js's kind code.
    pub(crate) fn code(&self) -> u8 {
        self.word(0) as u8
    }

    /// A string's length, a boolean's value (0 or 1), a walked container's item or field count.
    pub(crate) fn len(&self) -> usize {
        self.word(1).max(0) as usize
    }

    /// The first child of a walked container; `None` for one left to per-field reads.
    fn first(&self) -> Option<u32> {
        u32::try_from(self.word(2)).ok()
    }

    /// The value itself (one crossing).
    pub(crate) fn value(&self) -> JsValue {
        self.tree.values.get(self.index)
    }

    /// Field `NAMES[name]` of a walked object: `Some(None)` when it has none, `None` when
    /// the object was not walked.
    pub(crate) fn field(&self, name: i32) -> Option<Option<Node>> {
        let first = self.first()?;
        let mut fields = first..first + self.len() as u32;
        Some(
            fields
                .find(|&i| self.tree.word(i, 3) == name)
                .map(|i| Node::at(&self.tree, i)),
        )
    }

    /// Item `index` of a walked array: `Some(None)` past its end, `None` when the array
    /// was not walked.
    pub(crate) fn item(&self, index: usize) -> Option<Option<Node>> {
        let first = self.first()?;
        Some((index < self.len()).then(|| Node::at(&self.tree, first + index as u32)))
    }

    /// A walked array's length; `None` when it was not walked.
    pub(crate) fn walked_len(&self) -> Option<usize> {
        self.first().map(|_| self.len())
    }
}
