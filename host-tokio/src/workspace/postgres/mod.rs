//! [`PostgresIndex`] (feature `postgres`): the workspace index in PostgreSQL, one
//! database shared by many workers and many namespaces.

mod connection;
mod counts;
mod errors;
mod index;
mod record_index;
mod sql;

pub use connection::POSTGRES_CONNECT_TIMEOUT;
pub use index::{PostgresIndex, POSTGRES_COUNT_TTL};
