//! Canonical forms of partizan positions, one JSON line each.
//!
//! Reads lines `GAME POSITION` from stdin (or the arguments, as one line): `domineering 4x4`,
//! `domineering ..|..`, `toads-frogs TT..FF`, `hackenbush BBR RG`, `clobber xo|ox`,
//! `konane xo.`, `amazons x..|..o`, `col 4:0-1,1-2`, `snort 2:0-1`, `cutcake 2x3 1x4`,
//! `cg {2|1||0}`, and prints one JSON object a line: `game`, `position`, `canonical_form`
//! (CGSuite notation), `outcome` (L, R, N, P), `temperature`, `mean`, `regions` (distinct
//! regions valued) and `seconds`. Bad lines go to stderr and the exit code is 2.
//! Used by `scripts/partizan-crosscheck.sh` and `scripts/bench-partizan.sh`.
use sprague::games::amazons::Amazons;
use sprague::games::clobber::{Clobber, Rules, Stones};
use sprague::games::col_snort::{self, ColSnort, Coloured};
use sprague::games::cutcake::{Cutcake, Pieces};
use sprague::games::domineering::Domineering;
use sprague::games::grid::Grid;
use sprague::games::hackenbush::{self, Hackenbush};
use sprague::games::toads_frogs::{Strip, ToadsFrogs};
use sprague::partizan::thermograph::Thermal;
use sprague::partizan::{notation, Arena, GameId, Partizan, Solver};
use std::io::BufRead;
use std::time::Instant;

struct Value {
    form: String,
    outcome: &'static str,
    temperature: String,
    mean: String,
    regions: usize,
}

fn describe(arena: &mut Arena, g: GameId, regions: usize) -> Value {
    let graph = Thermal::new(arena).thermograph(g);
    Value {
        form: notation::to_notation(arena, g),
        outcome: arena.outcome(g).letter(),
        temperature: graph.temperature.to_string(),
        mean: graph.mean.to_string(),
        regions,
    }
}

fn solve<G: Partizan>(game: &G, position: &G::Position) -> Result<Value, String> {
    let mut solver = Solver::new(game);
    let g = solver.value(position).map_err(|e| e.to_string())?;
    let regions = solver.regions();
    Ok(describe(solver.arena(), g, regions))
}

fn run(line: &str) -> Result<String, String> {
    let line = line.trim();
    let (game, position) = line.split_once(' ').unwrap_or((line, ""));
    let position = position.trim();
    let words: Vec<&str> = position.split_whitespace().collect();
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let start = Instant::now();
    let value = match game {
        "domineering" => {
            let board = match Grid::parse_size(position) {
                Ok((r, c)) => Domineering::rectangle(r, c),
                Err(_) => Domineering::parse(position),
            }
            .map_err(|e| err(&e))?;
            solve(&Domineering, &board)?
        }
        "toads-frogs" => {
            let strip: Strip = position.parse().map_err(|e| err(&e))?;
            solve(&ToadsFrogs, &strip)?
        }
        "hackenbush" => {
            let stalks = hackenbush::Position::stalks(&words).map_err(|e| err(&e))?;
            solve(&Hackenbush, &stalks)?
        }
        "clobber" | "konane" | "amazons" => {
            let stones = Stones::parse(position).map_err(|e| err(&e))?;
            match game {
                "clobber" => solve(&Clobber(Rules::Clobber), &stones)?,
                "konane" => solve(&Clobber(Rules::Konane), &stones)?,
                _ => solve(&Amazons, &stones)?,
            }
        }
        "col" | "snort" => {
            let graph: Coloured = position.parse().map_err(|e| err(&e))?;
            let rules = if game == "col" {
                col_snort::Rules::Col
            } else {
                col_snort::Rules::Snort
            };
            solve(&ColSnort(rules), &graph)?
        }
        "cutcake" => {
            let pieces = Pieces::parse(&words).map_err(|e| err(&e))?;
            solve(&Cutcake, &pieces)?
        }
        "cg" => {
            let mut arena = Arena::new();
            let g = notation::parse(&mut arena, position).map_err(|e| err(&e))?;
            describe(&mut arena, g, 0)
        }
        other => return Err(format!("unknown game '{other}'")),
    };
    let seconds = start.elapsed().as_secs_f64();
    Ok(serde_json::json!({
        "game": game,
        "position": position,
        "canonical_form": value.form,
        "outcome": value.outcome,
        "temperature": value.temperature,
        "mean": value.mean,
        "regions": value.regions,
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
