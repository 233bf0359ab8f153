//! Integration tests: run the `sprague` binary as a user would.

mod cli;
mod common;
mod distributed;
mod explain;
mod misere;
mod partizan;
mod script;
mod search;
mod serve;
mod solve_resume;
