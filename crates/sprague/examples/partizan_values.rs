//! Canonical forms of partizan positions, one JSON line each.
//!
//! Reads lines `GAME POSITION` from stdin (or the arguments, as one line), e.g.
//! `domineering 4x4`, `domineering ..|..`, and prints
//! `{"game":..,"position":..,"canonical_form":..,"outcome":..,"regions":..,"seconds":..}`.
//! Used by `scripts/partizan-crosscheck.sh` and `scripts/bench-partizan.sh`.
use sprague::games::domineering::Domineering;
use sprague::partizan::{Partizan, Solver};
use std::io::BufRead;
use std::time::Instant;

fn solve<G: Partizan>(game: &G, position: &G::Position) -> Result<(String, String, usize), String> {
    let mut solver = Solver::new(game);
    let g = solver.value(position).map_err(|e| e.to_string())?;
    let regions = solver.regions();
    let arena = solver.arena();
    let form = sprague::partizan::notation::to_notation(arena, g);
    let outcome = arena.outcome(g).letter().to_string();
    Ok((form, outcome, regions))
}

fn run(line: &str) -> Result<String, String> {
    let (game, position) = line
        .trim()
        .split_once(' ')
        .ok_or("expected GAME POSITION")?;
    let position = position.trim();
    let start = Instant::now();
    let (form, outcome, regions) = match game {
        "domineering" => {
            let board = match sprague::games::grid::Grid::parse_size(position) {
                Ok((r, c)) => Domineering::rectangle(r, c),
                Err(_) => Domineering::parse(position),
            }
            .map_err(|e| e.to_string())?;
            solve(&Domineering, &board)?
        }
        other => return Err(format!("unknown game '{other}'")),
    };
    let seconds = start.elapsed().as_secs_f64();
    Ok(serde_json::json!({
        "game": game,
        "position": position,
        "canonical_form": form,
        "outcome": outcome,
        "regions": regions,
        "seconds": seconds,
    })
    .to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let lines: Vec<String> = if args.is_empty() {
        std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .collect()
    } else {
        vec![args.join(" ")]
    };
    let mut failed = false;
    for line in lines.iter().filter(|l| !l.trim().is_empty()) {
        match run(line) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                eprintln!("{line}: {e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(2);
    }
}
