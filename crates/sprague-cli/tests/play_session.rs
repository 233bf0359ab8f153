//! Compiles the terminal game loop on its own so that its scripted sessions run before the
//! command line wires it in (`cargo test -p sprague-cli --test play_session`).

#[allow(dead_code)]
#[path = "../src/play.rs"]
mod play;
