//! The forms our writers render into a conversation, each rendered and recognised in one
//! place: `ctx://` refs and the artifact kinds they name (`reference`), the batch and
//! direct placeholders (`placeholder`), the budget's pointers to cleared results
//! (`pointer`). Read tracking, `stored_form` and audit recognise them through here.

pub(crate) mod placeholder;
pub(crate) mod pointer;
pub(crate) mod reference;
