//! Integration tests of the library, as one binary.

mod catalog;
mod robustness;
mod script;
mod seeds;
mod support;
