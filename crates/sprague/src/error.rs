//! The library's error type.

/// Everything that can go wrong when parsing a game or solving a position.
///
/// Every variant is the user's problem (bad input, or a request past a limit) except
/// [`Error::Internal`]; the command line maps the former to exit code 2.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A game spec that does not parse, e.g. `sub:1,x`.
    #[error("invalid game spec '{spec}': {reason}")]
    Spec {
        /// The spec as written.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A position that does not parse or is illegal for its game.
    #[error("invalid position for {game}: {reason}")]
    Position {
        /// The game's spec.
        game: String,
        /// What is wrong with the position.
        reason: String,
    },
    /// The request is well formed, but the game does not support it (e.g. misère play).
    #[error("{0}")]
    Unsupported(String),
    /// The request would exceed a size, memory or time bound.
    #[error("{0}")]
    Limit(String),
    /// A computation stopped by its budget: a deadline, a memory cap, or an interrupt. The
    /// text says which (see [`crate::budget::Budget`]).
    #[error("{0}")]
    Stopped(String),
    /// A game meant to be acyclic revisited a position.
    #[error("the game has a cycle through position {0}; use a loopy solver")]
    Cycle(String),
    /// Reading or writing a file failed.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        reason: String,
    },
    /// A saved file (database, checkpoint) that cannot be used: unreadable, for another game
    /// or format version, truncated or damaged.
    #[error(transparent)]
    File(#[from] crate::file::Refused),
    /// An error in a game script (`script:PATH`): a syntax or run-time error, a wrong return
    /// type, or a script cap exceeded, at a place in the file.
    #[error("{file}:{line}:{column}: {message}")]
    Script {
        /// The script's path.
        file: String,
        /// The 1-based line.
        line: usize,
        /// The 1-based column.
        column: usize,
        /// What went wrong.
        message: String,
    },
    /// A bug: this should never happen.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// The [`Error::Stopped`] of a computation whose [`crate::progress::Progress`] asked it
    /// to stop, for no reason it gave.
    pub fn stopped() -> Self {
        Error::Stopped("stopped: the computation was interrupted".into())
    }

    /// Builds an [`Error::Spec`].
    pub fn spec(spec: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Spec {
            spec: spec.into(),
            reason: reason.into(),
        }
    }

    /// Builds an [`Error::Position`].
    pub fn position(game: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Position {
            game: game.into(),
            reason: reason.into(),
        }
    }

    /// Whether the error is the user's (bad input or a limit) rather than a bug.
    pub fn is_user_error(&self) -> bool {
        !matches!(self, Error::Internal(_))
    }
}

/// Shorthand for results in this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
