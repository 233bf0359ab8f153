//! The option lists of heaps 0..=N that the genus and quotient searches walk, built once, with
//! their memory estimated before they are built.

use crate::error::{Error, Result};
use crate::heap::HeapRules;

/// The most memory the option lists of one genus or quotient computation may take.
pub const MAX_OPTION_BYTES: u64 = 1 << 30;

/// What one listed option costs: its vector (24 bytes) and the allocation of its heaps (at
/// least 16 bytes with the allocator's overhead), rounded up.
const BYTES_PER_OPTION: u64 = 48;

/// The options of each heap 0..=N, each as the sorted nonzero heaps it leaves, without repeats.
pub(crate) struct HeapOptions {
    /// `options[n]`: the options of heap n (none for heap 0).
    pub(crate) options: Vec<Vec<Vec<u32>>>,
}

/// The memory the option lists of heaps 1..=`max_heap` take, when the rules can count their
/// options without listing them (saturating).
fn estimated_bytes(rules: &dyn HeapRules, max_heap: u64) -> Option<u64> {
    let mut options: u64 = 0;
    for n in 1..=max_heap {
        options = options.saturating_add(rules.option_count(n)?);
    }
    Some(options.saturating_mul(BYTES_PER_OPTION))
}

/// The shared check for `bytes` of option lists, with the advice that goes with it.
fn reserve(what: &str, max_heap: u64, bytes: u64) -> Result<()> {
    crate::memory::reserve(
        &format!("the {what} to heap {max_heap}"),
        bytes,
        &[crate::memory::Cap::Fixed(MAX_OPTION_BYTES, "option lists")],
    )
    .map_err(|e| Error::Limit(format!("{e}; choose a smaller heap")))
}

impl HeapOptions {
    /// The option lists of heaps 0..=`max_heap`, for the computation named `what` (in errors).
    ///
    /// # Errors
    /// [`Error::Limit`] when they would take more than [`MAX_OPTION_BYTES`] (estimated before
    /// listing when the rules count their options, checked while listing otherwise); a cycle
    /// when a move leaves a heap not smaller than the one moved in; the rules' own errors.
    pub(crate) fn build(rules: &dyn HeapRules, max_heap: u64, what: &str) -> Result<HeapOptions> {
        if let Some(bytes) = estimated_bytes(rules, max_heap) {
            reserve(what, max_heap, bytes)?;
        }
        let mut options = vec![Vec::new()];
        let mut bytes: u64 = 0;
        for n in 1..=max_heap {
            let listed = rules.try_options(n)?;
            bytes = bytes.saturating_add(listed.len() as u64 * BYTES_PER_OPTION);
            if bytes > MAX_OPTION_BYTES {
                reserve(what, max_heap, bytes)?;
            }
            let mut list = Vec::with_capacity(listed.len());
            for option in listed {
                let mut parts = Vec::with_capacity(option.len());
                for h in option {
                    if h >= n {
                        return Err(Error::Cycle(format!(
                            "heap {n} (a move leaves a heap of {h})"
                        )));
                    }
                    if h > 0 {
                        parts.push(h as u32);
                    }
                }
                parts.sort_unstable();
                list.push(parts);
            }
            list.sort();
            list.dedup();
            options.push(list);
        }
        Ok(HeapOptions { options })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Code;

    #[test]
    fn options_are_sorted_nonzero_and_without_repeats() {
        let kayles = HeapOptions::build(&Code::parse("0.77").unwrap(), 4, "test").unwrap();
        // heap 4: take 1 (3, 1+2) or 2 (2, 1+1)
        assert_eq!(
            kayles.options[4],
            vec![vec![1, 1], vec![1, 2], vec![2], vec![3]]
        );
        assert_eq!(kayles.options[1], vec![Vec::<u32>::new()]);
        assert!(kayles.options[0].is_empty());
    }

    #[test]
    fn memory_is_estimated_before_listing() {
        // Kayles to 2^14 lists about n options a heap: 2^27 of them, far past the budget.
        let kayles = Code::parse("0.77").unwrap();
        let bytes = estimated_bytes(&kayles, 1 << 14).unwrap();
        assert!(bytes > MAX_OPTION_BYTES, "{bytes}");
        let Err(Error::Limit(why)) = HeapOptions::build(&kayles, 1 << 14, "quotient") else {
            panic!("Kayles to 2^14 fits?");
        };
        // Refused by the estimate, before listing anything: the message gives the whole
        // estimate (listing would have stopped just past the cap).
        assert_eq!(
            why,
            format!(
                "the quotient to heap 16384 needs about {} MiB, more than the 1024 MiB allowed for option lists; choose a smaller heap",
                bytes >> 20
            )
        );
        // and small tables pass
        assert!(estimated_bytes(&kayles, 100).unwrap() < 1 << 20);
    }

    #[test]
    fn rules_without_a_count_are_checked_while_listing() {
        struct Many;
        impl HeapRules for Many {
            fn options(&self, n: u64) -> Vec<Vec<u64>> {
                // far more options than a heap has, all alike (n - 1)
                vec![vec![n - 1]; 1 << 20]
            }
        }
        assert!(estimated_bytes(&Many, 10).is_none());
        assert!(matches!(
            HeapOptions::build(&Many, 100, "genus table"),
            Err(Error::Limit(_))
        ));
    }
}
