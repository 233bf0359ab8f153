//! Integration tests of the library, as one binary.

mod robustness;
mod seeds;
