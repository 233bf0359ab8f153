//! Progress bars on stderr, through the library's `Progress` trait. Hidden when stderr is not a
//! terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;

/// An indicatif bar that follows the library's phases.
pub struct Bar {
    bar: Mutex<Option<ProgressBar>>,
}

impl Bar {
    pub fn new() -> Self {
        Bar {
            bar: Mutex::new(None),
        }
    }
}

impl sprague::progress::Progress for Bar {
    fn start(&self, what: &str, total: u64) {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template = if total > 0 {
            "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta}) {prefix}"
        } else {
            "{msg} [{elapsed_precise}] {pos} ({per_sec}) {prefix}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message(what.to_string());
        if let Ok(mut slot) = self.bar.lock() {
            *slot = Some(bar);
        }
    }

    fn advance(&self, done: u64, note: &str) {
        if let Ok(slot) = self.bar.lock() {
            if let Some(bar) = slot.as_ref() {
                bar.set_position(done);
                if !note.is_empty() {
                    bar.set_prefix(note.to_string());
                }
            }
        }
    }

    /// Printed on stderr whether or not it is a terminal (above the bar when one is drawn).
    fn note(&self, message: &str) {
        let line = format!("sprague: {message}");
        if let Ok(slot) = self.bar.lock() {
            if let Some(bar) = slot.as_ref() {
                bar.suspend(|| eprintln!("{line}"));
                return;
            }
        }
        eprintln!("{line}");
    }

    fn finish(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}
