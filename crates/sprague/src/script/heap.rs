//! Heap rulesets written as scripts: `fn heap_options(n)`, as CGSuite's `HeapRuleset`.
//!
//! The ruleset runs on the heap engine ([`crate::heap::HeapGame`]): tables, sums with other
//! games and winning moves work as for built-in codes. A period is certified only when the
//! script defines both `fn max_heaps()` and `fn max_removed()`, promising that its moves are
//! translation invariant in the sense of [`MoveBounds`]; every option computed is checked
//! against these bounds.

use super::{to_u64, Script};
use crate::error::{Error, Result};
use crate::heap::{HeapRules, MoveBounds};
use std::sync::Arc;

/// A heap ruleset defined by a script.
pub struct ScriptHeapRules {
    script: Arc<Script>,
    bounds: Option<MoveBounds>,
}

impl ScriptHeapRules {
    /// The ruleset of `script`, which must define `heap_options(n)`; reads the certificate
    /// bounds if it declares them.
    ///
    /// # Errors
    /// [`Error::Script`] when only one bound is declared, or a bound is not a non-negative
    /// integer.
    pub fn new(script: Arc<Script>) -> Result<ScriptHeapRules> {
        let bound = |name: &str| -> Result<Option<u64>> {
            if !script.defines(name, 0) {
                return Ok(None);
            }
            let value = script.call(name, ())?;
            to_u64(&value)
                .map(Some)
                .map_err(|why| script.error_in(name, format!("{name}() returned {why}")))
        };
        let bounds = match (bound("max_heaps")?, bound("max_removed")?) {
            (Some(max_heaps), Some(max_removed)) => Some(MoveBounds {
                max_heaps: max_heaps.max(1),
                max_removed,
            }),
            (None, None) => None,
            (Some(_), None) => return Err(script.error_in(
                "max_heaps",
                "max_heaps() is declared but max_removed() is not; a period certificate needs both",
            )),
            (None, Some(_)) => return Err(script.error_in(
                "max_removed",
                "max_removed() is declared but max_heaps() is not; a period certificate needs both",
            )),
        };
        Ok(ScriptHeapRules { script, bounds })
    }
}

impl HeapRules for ScriptHeapRules {
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        self.try_options(n).unwrap_or_default()
    }

    fn try_options(&self, n: u64) -> Result<Vec<Vec<u64>>> {
        let script = &self.script;
        let cap = script.limits().max_positions as u64;
        if n > cap {
            return Err(Error::Limit(format!(
                "script:{}: heap {n} is past {cap} heaps; raise the cap with --script-max-positions",
                script.file()
            )));
        }
        let arg = i64::try_from(n).map_err(|_| Error::Limit(format!("heap {n} is past 2^63-1")))?;
        let result = script.call("heap_options", (arg,))?;
        let wrong =
            |what: String| script.error_in("heap_options", format!("heap_options({n}) {what}"));
        let Some(items) = result.read_lock::<rhai::Array>() else {
            return Err(wrong(format!(
                "must return an array of options, each an array of heap sizes, not {}",
                result.type_name()
            )));
        };
        let mut out = Vec::with_capacity(items.len());
        for item in items.iter() {
            let Some(parts) = item.read_lock::<rhai::Array>() else {
                return Err(wrong(format!(
                    "returned an option that is a {}, not an array of heap sizes",
                    item.type_name()
                )));
            };
            let mut heaps = Vec::with_capacity(parts.len());
            for part in parts.iter() {
                let h =
                    to_u64(part).map_err(|why| wrong(format!("returned a heap that is {why}")))?;
                if h >= n {
                    return Err(wrong(format!(
                        "returned an option leaving a heap of {h}; every heap left must be smaller than {n}"
                    )));
                }
                if h > 0 {
                    heaps.push(h);
                }
            }
            if let Some(b) = self.bounds {
                let left: u64 = heaps.iter().sum();
                if heaps.len() as u64 > b.max_heaps {
                    return Err(wrong(format!(
                        "returned an option leaving {} heaps, but max_heaps() is {}",
                        heaps.len(),
                        b.max_heaps
                    )));
                }
                if left > n || n - left > b.max_removed {
                    return Err(wrong(format!(
                        "returned an option removing {} tokens, but max_removed() is {}",
                        n as i128 - left as i128,
                        b.max_removed
                    )));
                }
            }
            out.push(heaps);
        }
        Ok(out)
    }

    fn certificate(&self) -> Option<MoveBounds> {
        self.bounds
    }
}
