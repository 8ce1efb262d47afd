//! The Materializer as a tool registry's result policy uses it: paired with its IO, it
//! turns a handler's output into the summary that replaces it, or keeps it inline.

use super::materializer::Materializer;
use crate::error::OffloadError;
use crate::io::{FileReader, FileWriter};
use crate::summary::ToolOutputRef;
use crate::tools::ResultMaterializer;

impl<IO: FileWriter + FileReader + ?Sized> ResultMaterializer for (&Materializer, &IO) {
    async fn materialize_output(
        &self,
        output: &ToolOutputRef<'_>,
    ) -> Result<Option<String>, OffloadError> {
        Ok(self.0.materialize(output, self.1).await?.into_content())
    }
}
