//! Integration tests of the library, as one binary.

mod robustness;
mod script;
mod seeds;
