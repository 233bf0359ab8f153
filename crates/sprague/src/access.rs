//! What the library may read from disk on a front end's behalf: a server must not read the
//! files its clients name.

use crate::error::{Error, Result};

/// Which files `script:PATH` may load: a server must not read what its clients name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ScriptFiles {
    /// Any file the process can read (the command line: the user's own files).
    #[default]
    Any,
    /// None: `script:` games are refused.
    Nothing,
    /// Only `.rhai` files inside this directory (subdirectories included), named relative to
    /// it; a path that leaves it (`..`, an absolute path, a link out) is refused.
    Under(std::path::PathBuf),
}

impl ScriptFiles {
    /// The file that `script:PATH` reads under this rule.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when the rule refuses `path`; the message never says whether a
    /// file outside the allowed directory exists, and never quotes one.
    pub fn resolve(&self, path: &str) -> Result<std::path::PathBuf> {
        self.resolve_as(path, &["rhai"], ("script", "script"))
    }

    /// The graph file that `graph:PATH` reads under this rule: the same rule as scripts, for
    /// `.txt` and `.graph` files.
    ///
    /// # Errors
    /// As [`ScriptFiles::resolve`].
    pub fn resolve_graph(&self, path: &str) -> Result<std::path::PathBuf> {
        self.resolve_as(path, &["txt", "graph"], ("graph", "graph file"))
    }

    fn resolve_as(
        &self,
        path: &str,
        extensions: &[&str],
        (games, file): (&str, &str),
    ) -> Result<std::path::PathBuf> {
        use std::path::{Component, Path};
        let dir = match self {
            ScriptFiles::Any => return Ok(path.into()),
            ScriptFiles::Nothing => {
                return Err(Error::Unsupported(format!(
                    "{games} games are off on this server (its operator can allow a directory of them with 'sprague serve --scripts DIR')"
                )))
            }
            ScriptFiles::Under(dir) => dir,
        };
        let refused = || {
            Error::Unsupported(format!(
                "'{}' is not a {file} of this server: name a .{} file of its script directory by its path inside it",
                crate::games::grid::printable(path),
                extensions.join(" or .")
            ))
        };
        let relative = Path::new(path);
        let plain = relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        let known = relative
            .extension()
            .is_some_and(|e| extensions.iter().any(|x| e == *x));
        if !plain || !known {
            return Err(refused());
        }
        let root = dir.canonicalize().map_err(|_| {
            Error::Unsupported("the server's script directory cannot be read".into())
        })?;
        let file = root.join(relative).canonicalize().map_err(|_| refused())?;
        if !file.starts_with(&root) || !file.is_file() {
            return Err(refused());
        }
        Ok(file)
    }
}
