//! Integration tests of the library, as one binary.

mod catalog;
mod partizan_rulesets;
mod robustness;
mod script;
mod seeds;
mod support;
