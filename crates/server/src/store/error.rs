//! Why the database did not do what was asked.

/// Why the database did not do what was asked. Database URLs in these are redacted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// Neither `sqlite:` nor `postgres://`.
    #[error("unsupported database URL {0:?}: expected sqlite:PATH or postgres://USER@HOST/NAME")]
    UnsupportedUrl(String),
    /// A URL the driver cannot read.
    #[error("bad database URL {url:?}: {reason}")]
    BadUrl {
        /// The URL, its password hidden.
        url: String,
        /// The driver's reason.
        reason: String,
    },
    /// The database could not be opened (or its file made private).
    #[error("cannot {what} the database {url:?}: {reason}")]
    Open {
        /// What failed: `open`, `make private`.
        what: &'static str,
        /// The URL, its password hidden.
        url: String,
        /// The reason.
        reason: String,
    },
    /// The schema could not be brought up to date.
    #[error("cannot bring the database schema up to date: {0}")]
    Migrate(String),
    /// A write was refused (it was not stored).
    #[error("the database refused the write: {0}")]
    Write(String),
    /// A cluster's node wrote to a game whose lease it no longer holds: nothing was written.
    #[error("this node no longer owns game {0}: another node took it over")]
    Fenced(String),
    /// The database did not confirm a write (no answer in time, the connection lost): it may
    /// or may not be stored, and only the database can tell.
    #[error("the database did not confirm the write: {0}")]
    Unconfirmed(String),
    /// The writer task is gone (the server is stopping).
    #[error("the database writer has stopped")]
    WriterStopped,
    /// A read failed.
    #[error("the database could not be read: {0}")]
    Read(String),
    /// A name already taken (without regard to case).
    #[error("that name is taken")]
    Taken,
    /// A stored row this server cannot read.
    #[error("{0}")]
    Unreadable(String),
}

pub(super) fn fail(e: sqlx::Error) -> StoreError {
    tracing::error!("database write failed: {e}");
    match e {
        // The connection failed under the write: whether it committed is unknown.
        sqlx::Error::Io(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed => StoreError::Unconfirmed(e.to_string()),
        _ => StoreError::Write(e.to_string()),
    }
}

pub(crate) fn read_error(e: sqlx::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

/// A refused write of the cluster's own tables (leases, pairing), told to its caller.
pub(crate) fn write_error(e: sqlx::Error) -> StoreError {
    StoreError::Write(e.to_string())
}
