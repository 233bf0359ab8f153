//! `sprague play GAME [POSITION...]`: a game against the perfect engine in the terminal.
//!
//! The human moves first; `engine` hands the move to the engine (so the human can play second).
//! The game logic (move values, the engine's choice) lives in `sprague::play`.

use crate::error::BadInput;
use anyhow::Context;
use sprague::analysis::{rate, Rated, Which};
use sprague::catalog::Catalog;
use sprague::erased::Position;
use sprague::game::{Outcome, Play, Value};
use sprague::play::{choose, final_outcome, find_move, Numbering, XorShift};
use std::io::{BufRead, IsTerminal, Write};

const HELP: &str = "\
Type a move as listed by 'moves' (for boards: a cell such as b2, or a column number; for
sums, the summand's number first, as in 2:7 -> 3), or:
  hint    every move with its value for you (win, draw or tie, lose) and its remoteness
  moves   the legal moves
  engine  let the engine move now (you then play the other side)
  undo    take back your last move (and the engine's reply)
  help    this text
  quit    leave";

/// Plays `words` (`GAME [POSITION...]`, optionally with `--misere`) against the engine, reading
/// commands from `input` and writing to `output`. `seed` fixes the engine's random choice among
/// equally good moves. Colour is used only when standard output is a terminal.
///
/// # Errors
/// A bad game or position (before play starts), or a failure to write.
pub fn run(
    catalog: &Catalog,
    words: &[String],
    seed: Option<u64>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> anyhow::Result<()> {
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    run_with(catalog, words, seed, colour, input, output)
}

/// Every move of `position`, rated.
fn rated_moves(position: &Position, play: Play) -> sprague::Result<Vec<Rated>> {
    Ok(rate(position, play, Which::All)?.moves)
}

struct Colours(bool);

impl Colours {
    fn paint(&self, value: Value, text: &str) -> String {
        if !self.0 {
            return text.to_string();
        }
        let code = match value {
            Value::Win => "32",
            Value::Tie | Value::Draw => "33",
            Value::Lose => "31",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

/// A state of the game and whose turn it is.
#[derive(Clone)]
struct Turn {
    position: Position,
    human_to_move: bool,
    /// The summands' numbers, kept for the whole game.
    numbering: Numbering,
}

/// The position for the terminal; a sum of several summands lists them with their numbers
/// (`heap 1: 3, heap 4: 1, heap 2: 7`), which stay the same for the whole game.
fn render(position: &Position, numbering: &Numbering) -> String {
    let parts = position.parts();
    if parts.len() < 2 {
        return position.render();
    }
    let listed: Vec<String> = parts
        .iter()
        .zip(numbering.numbers())
        .map(|(p, n)| format!("{} {n}: {p}", p.noun()))
        .collect();
    format!("{position}\n{}", listed.join(", "))
}

/// [`run`] with colour chosen by the caller.
pub fn run_with(
    catalog: &Catalog,
    words: &[String],
    seed: Option<u64>,
    colour: bool,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> anyhow::Result<()> {
    let play = if words.iter().any(|w| w == "--misere") {
        Play::Misere
    } else {
        Play::Normal
    };
    let words: Vec<&String> = words.iter().filter(|w| *w != "--misere").collect();
    if words.is_empty() {
        anyhow::bail!("give a game to play, e.g. 'sprague play mnk:3,3,3'");
    }
    let position = catalog.parse_position(&words)?;
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let mut rng = XorShift::new(seed);
    let colours = Colours(colour);
    // The start's moves are rated once, here, and used by the first turn below.
    let mut start_moves = Some(rated_moves(&position, play)?);
    if start_moves.as_ref().is_some_and(Vec::is_empty) {
        return Err(BadInput(format!(
            "there is no move to make in '{position}': give a position to play from, such as \
             'sprague play nim 3 4 5' (see 'sprague catalog' for each game's positions)"
        ))
        .into());
    }
    let numbering = Numbering::new(position.parts().len());
    let mut history = vec![Turn {
        position,
        human_to_move: true,
        numbering,
    }];
    writeln!(
        output,
        "Playing {} against the perfect engine. You move first; type 'help' for commands.",
        history[0].position.game()
    )?;
    let mut shown = false;
    loop {
        let turn = history.last().cloned().context("empty history")?;
        let moves = match start_moves.take() {
            Some(moves) => moves,
            None => rated_moves(&turn.position, play)?,
        };
        let numbering = &turn.numbering;
        if !shown {
            writeln!(output, "\n{}", render(&turn.position, numbering))?;
            shown = true;
        }
        if moves.is_empty() {
            let verdict = match final_outcome(&turn.position, play)? {
                // The player to move has lost: the other side made the last move.
                Outcome::P if turn.human_to_move => "Game over: the engine wins.",
                Outcome::P => "Game over: you win.",
                Outcome::N if turn.human_to_move => "Game over: you win.",
                Outcome::N => "Game over: the engine wins.",
                Outcome::D => "Game over: a tie.",
            };
            writeln!(
                output,
                "{verdict} Type 'undo' to take back a move, or 'quit'."
            )?;
        } else if !turn.human_to_move {
            let Some(i) = choose(&moves, &mut rng) else {
                anyhow::bail!("the engine found no move");
            };
            let m = &moves[i];
            writeln!(output, "The engine plays {}.", numbering.describe(m))?;
            history.push(Turn {
                position: m.position.clone(),
                human_to_move: true,
                numbering: numbering.after(m),
            });
            shown = false;
            continue;
        } else {
            write!(output, "Your move: ")?;
        }
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(output)?;
            return Ok(());
        }
        let command = line.trim();
        match command.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => writeln!(output, "{HELP}")?,
            "moves" => {
                let labels: Vec<String> = moves.iter().map(|m| numbering.label(m)).collect();
                if labels.is_empty() {
                    writeln!(output, "No legal moves: the game is over.")?;
                } else {
                    writeln!(output, "Legal moves: {}", labels.join(", "))?;
                }
            }
            "hint" => {
                if moves.is_empty() {
                    writeln!(output, "No legal moves: the game is over.")?;
                }
                let width = moves
                    .iter()
                    .map(|m| numbering.describe(m).chars().count())
                    .max()
                    .unwrap_or(0);
                for m in &moves {
                    let value = m.value.name();
                    let remoteness = m
                        .remoteness
                        .map(|r| format!("  remoteness {r}"))
                        .unwrap_or_default();
                    let said = numbering.describe(m);
                    let pad = width - said.chars().count();
                    writeln!(
                        output,
                        "  {said}{:pad$}  {}{}",
                        "",
                        colours.paint(m.value, &format!("{value:4}")),
                        remoteness
                    )?;
                }
            }
            "undo" => {
                // Back to the last earlier state where it was the human's turn.
                let mut undone = false;
                while history.len() > 1 {
                    history.pop();
                    undone = true;
                    if history.last().is_some_and(|t| t.human_to_move) {
                        break;
                    }
                }
                // Back at the start after 'engine': the human now has the first move.
                if let [first] = history.as_mut_slice() {
                    first.human_to_move = true;
                }
                if undone {
                    writeln!(output, "Move taken back.")?;
                    shown = false;
                } else {
                    writeln!(output, "Nothing to undo.")?;
                }
            }
            "engine" | "go" | "pass" => {
                if moves.is_empty() {
                    writeln!(output, "No legal moves: the game is over.")?;
                } else if let Some(last) = history.last_mut() {
                    last.human_to_move = false;
                }
            }
            _ if moves.is_empty() => {
                writeln!(output, "The game is over; type 'undo' or 'quit'.")?;
            }
            _ => match find_move(&moves, numbering, command) {
                Ok(i) => {
                    writeln!(output, "You play {}.", numbering.describe(&moves[i]))?;
                    history.push(Turn {
                        position: moves[i].position.clone(),
                        human_to_move: false,
                        numbering: numbering.after(&moves[i]),
                    });
                    shown = false;
                }
                Err(message) => writeln!(output, "{message}")?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(words: &[&str], script: &str, seed: u64) -> String {
        let words: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        let mut input = std::io::Cursor::new(script.as_bytes().to_vec());
        let mut output = Vec::new();
        run_with(
            &Catalog::default(),
            &words,
            Some(seed),
            false,
            &mut input,
            &mut output,
        )
        .unwrap();
        String::from_utf8(output).unwrap()
    }

    /// A human who types cells in a random order: occupied cells are refused, so each accepted
    /// move is a random legal move.
    fn random_script(seed: u64) -> String {
        let cells = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];
        let mut rng = XorShift::new(seed);
        let mut lines = Vec::new();
        for _ in 0..12 {
            let mut order = cells.to_vec();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            lines.extend(order);
        }
        lines.push("quit");
        lines.join("\n")
    }

    #[test]
    fn the_engine_never_loses_at_tic_tac_toe() {
        for seed in 0..40 {
            let script = random_script(seed);
            let out = session(&["mnk:3,3,3"], &script, seed);
            assert!(out.contains("Game over"), "seed {seed}: no end\n{out}");
            assert!(
                !out.contains("you win"),
                "seed {seed}: the human won\n{out}"
            );
            // Moving second, too.
            let out = session(&["mnk:3,3,3"], &format!("engine\n{script}"), seed);
            assert!(out.contains("Game over"), "seed {seed}: no end\n{out}");
            assert!(
                !out.contains("you win"),
                "seed {seed}: the human won\n{out}"
            );
        }
    }

    #[test]
    #[ignore = "prints a session: cargo test -p sprague-cli --test play_session -- --ignored --nocapture"]
    fn show_a_session() {
        println!(
            "{}",
            session(
                &["mnk:3,3,3"],
                "hint\nb2\nc3\nhint\na1\nundo\nhelp\nquit\n",
                5
            )
        );
        println!("{}", session(&["connect:4,4,3"], "2\nhint\n2\nquit\n", 5));
    }

    #[test]
    fn hints_undo_and_bad_input() {
        let out = session(&["mnk:3,3,3"], "hint\nzz\nb2\nundo\nmoves\nquit\n", 1);
        assert!(out.contains("a1  tie   remoteness 8"), "{out}");
        assert!(
            out.contains("'zz' is not a legal move; legal moves: a3"),
            "{out}"
        );
        assert!(out.contains("You play b2."), "{out}");
        assert!(out.contains("The engine plays"), "{out}");
        assert!(out.contains("Move taken back."), "{out}");
        assert!(
            out.contains("Legal moves: a3, b3, c3, a2, b2, c2, a1, b1, c1"),
            "{out}"
        );
    }

    #[test]
    fn undo_after_the_engine_opened_returns_to_the_start() {
        let out = session(&["mnk:3,3,3"], "engine\nundo\nundo\nmoves\nquit\n", 2);
        assert!(out.contains("Move taken back.\n"), "{out}");
        assert!(out.contains("Nothing to undo."), "{out}");
        assert!(
            out.contains("Legal moves: a3, b3, c3, a2, b2, c2, a1, b1, c1"),
            "{out}"
        );
    }

    #[test]
    fn heap_games_play_to_the_end() {
        // nim 1 2 is a first-player win; the human empties the 2, the engine takes the 1.
        let out = session(&["nim", "1", "2"], "hint\n2:2->0\nquit\n", 3);
        assert!(out.contains("heap 2: 2 → 1  win"), "{out}");
        assert!(out.contains("heap 1: 1 → 0  lose"), "{out}");
        assert!(out.contains("You play heap 2: 2 → 0."), "{out}");
        // Heap 2 is gone; the last heap keeps its number 1.
        assert!(out.contains("The engine plays 1 → 0."), "{out}");
        assert!(out.contains("Game over: the engine wins."), "{out}");
        // Stable numbers: emptying heap 1 of nim 1 2 3 leaves heaps 2 and 3, still so named.
        let out = session(&["nim", "1", "2", "3"], "1:1->0\nquit\n", 3);
        assert!(out.contains("You play heap 1: 1 → 0."), "{out}");
        assert!(out.contains("heap 2: 2, heap 3: 3"), "{out}");
        assert!(out.contains("The engine plays heap 3: 3 → 2."), "{out}");
        let words = vec!["nosuch".to_string()];
        let mut input = std::io::Cursor::new(Vec::new());
        assert!(run_with(
            &Catalog::default(),
            &words,
            None,
            false,
            &mut input,
            &mut Vec::new()
        )
        .is_err());
    }
}
