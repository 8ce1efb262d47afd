//! The async runtime each command's library calls run on.

use tokio::runtime::Runtime;

use crate::error::CliError;

/// A runtime for one command's async calls.
pub(crate) fn runtime() -> Result<Runtime, CliError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the async runtime: {e}")))
}
