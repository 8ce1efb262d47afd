//! The forms our writers render into a conversation, each rendered and recognised in one
//! place: `ctx://` refs and the artifact kinds they name (`reference`), the batch and
//! direct placeholders (`placeholder`), the budget's pointers to cleared results
//! (`pointer`), a summary's header (`summary_header`), a read-back page's header (`page`),
//! a Workspace's knowledge list (`knowledge_list`); and what of these a text already is
//! (`stored_form`), which every writer asks before storing. Read tracking and audit
//! recognise them through here. Forms depend on nothing above `text` and `search`: the
//! engines that render them import their constants from here.

pub(crate) mod context_ref;
pub(crate) mod knowledge_list;
pub(crate) mod page;
pub(crate) mod placeholder;
pub(crate) mod pointer;
pub(crate) mod reference;
pub(crate) mod stored_form;
pub(crate) mod summary_header;
