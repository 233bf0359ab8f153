//! Near misses of hook names: a script function named almost like a hook (`fn option` beside
//! `fn moves`, `fn max_remove`) is most likely a typo the game silently ignores, so front ends
//! warn about it. A helper with an unrelated name is not reported.

use crate::catalog::edit_distance;

/// Every function name the script games read.
pub const HOOKS: &[&str] = &[
    "options",
    "splits",
    "heap_options",
    "max_heaps",
    "max_removed",
    "moves",
    "result",
    "show",
    "parse",
    "start",
    "move_text",
    "render",
];

/// A function whose name nearly matches a hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearMiss {
    /// The 1-based line of its `fn`.
    pub line: usize,
    /// Its name.
    pub name: String,
    /// The hook it resembles.
    pub hook: &'static str,
}

/// The functions of `source` named one or two edits away from a hook (one for names of up to
/// five letters) without being one, with the hook each resembles.
///
/// ```
/// use sprague::script::near_misses;
/// let source = "fn moves(p) { [] }\nfn option(p) { [] }\nfn helper(x) { x }\n";
/// let found = near_misses(source);
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].line, found[0].name.as_str(), found[0].hook), (2, "option", "options"));
/// ```
pub fn near_misses(source: &str) -> Vec<NearMiss> {
    let mut found = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let rest = line.trim_start();
        let rest = rest.strip_prefix("private ").map_or(rest, str::trim_start);
        let Some(rest) = rest.strip_prefix("fn ") else {
            continue;
        };
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || HOOKS.contains(&name.as_str()) {
            continue;
        }
        let allowed = if name.len() <= 5 { 1 } else { 2 };
        let nearest = HOOKS
            .iter()
            .map(|&hook| (edit_distance(&name, hook), hook))
            .min_by_key(|&(d, _)| d)
            .filter(|&(d, _)| d <= allowed);
        if let Some((_, hook)) = nearest {
            found.push(NearMiss {
                line: i + 1,
                name,
                hook,
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_of_hooks_are_found_and_helpers_are_not() {
        let source = "\
fn heap_options(n) { [] }
fn max_heaps() { 1 }
fn max_remove() { 1 }
  private fn optoins(n) { [] }
fn helper(x) { x }
fn mex(values) { 0 }
fn split(n) { [] }
fn winner(p) { 0 }
";
        let misses = near_misses(source);
        let found: Vec<(usize, &str, &str)> = misses
            .iter()
            .map(|m| (m.line, m.name.as_str(), m.hook))
            .collect();
        assert_eq!(
            found,
            [
                (3, "max_remove", "max_removed"),
                (4, "optoins", "options"),
                (7, "split", "splits"),
            ]
        );
    }
}
