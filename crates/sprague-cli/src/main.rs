//! The `sprague` command line: parse, call the library, format. No game logic lives here.

mod bench_nimber;
mod bench_octal;
mod bench_search;
mod cli;
mod clock;
mod cluster;
mod commands;
mod error;
mod output;
mod play;
mod progress;

use clap::FromArgMatches;
use std::process::ExitCode;

/// Counts the bytes held, so that `--max-memory` (and the server's per-request memory) can
/// stop a computation before the system runs out.
#[global_allocator]
static ALLOC: sprague::memory::Counting = sprague::memory::Counting;

fn main() -> ExitCode {
    let args = cli::Cli::from_arg_matches(&cli::command().get_matches())
        .unwrap_or_else(|error| error.exit());
    match commands::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            if is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            // In a distributed run every rank has the same error; rank 0 prints it.
            if !cluster::quiet() {
                eprintln!("sprague: {error:#}");
            }
            ExitCode::from(exit_code(&error))
        }
    }
}

/// 2 for bad input (the library's user errors, unreadable files), 1 for anything else.
fn exit_code(error: &anyhow::Error) -> u8 {
    for cause in error.chain() {
        if let Some(e) = cause.downcast_ref::<sprague::Error>() {
            return if e.is_user_error() { 2 } else { 1 };
        }
        if cause.downcast_ref::<error::BadInput>().is_some() {
            return 2;
        }
    }
    1
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    let pipe = Some(std::io::ErrorKind::BrokenPipe);
    error.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().map(|e| e.kind()) == pipe
            || c.downcast_ref::<serde_json::Error>()
                .and_then(|e| e.io_error_kind())
                == pipe
    })
}
