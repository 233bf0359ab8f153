//! Integration tests of the library, as one binary.

/// Counts allocations, so that the fuzz's budgets can cap memory as the `sprague` binary's do.
#[global_allocator]
static ALLOC: sprague::memory::Counting = sprague::memory::Counting;

mod catalog;
mod partizan_rulesets;
mod robustness;
mod script;
mod seeds;
mod support;
