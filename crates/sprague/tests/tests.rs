//! Integration tests of the library, as one binary.

mod robustness;
