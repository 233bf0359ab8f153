//! Formatting of reports: JSON to stdout with `--json`, otherwise text for people.

use crate::cli::NimberOp;
use anyhow::Result;
use serde::Serialize;
use sprague::analysis::partizan::{PartizanMoves, PartizanReport, ThermographReport};
use sprague::analysis::{Answer, MovesAnswer, MovesReport, ValueReport};
use sprague::catalog::Entry;
use sprague::erased::Position;
use sprague::game::{Outcome, Play, SolveReport};
use sprague::heap::{PeriodReport, PeriodSearch, Table, TableReport};
use sprague::nimber::Nimber;
use sprague::partizan::{Outcome as PartizanOutcome, Relation};
use sprague::solve::GraphReport;
use std::io::{self, BufWriter, Write};

fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

fn json<T: Serialize>(value: &T) -> Result<()> {
    let mut out = stdout();
    serde_json::to_writer(&mut out, value)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::N => "N (the player to move wins)",
        Outcome::P => "P (the player to move loses)",
        Outcome::D => "D (neither player can force a win)",
    }
}

pub fn value(report: &ValueReport, position: &Position, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "position:   {position}")?;
    if report.play == Play::Misere {
        writeln!(out, "play:       misère (the player unable to move wins)")?;
    }
    writeln!(out, "outcome:    {}", outcome_words(report.outcome))?;
    match (&report.nim_value, &report.loopy_value) {
        (Some(g), _) => writeln!(out, "nim value:  {g}")?,
        (None, Some(loopy)) => writeln!(out, "nim value:  {loopy}")?,
        _ => {}
    }
    if let Some(v) = report.score {
        writeln!(out, "value:      {v}")?;
    }
    match (report.remoteness, report.remoteness_note) {
        (Some(r), _) => writeln!(out, "remoteness: {r}")?,
        (None, Some(note)) => writeln!(out, "remoteness: {note}")?,
        (None, None) => {}
    }
    if let Some(why) = &report.winning_moves_omitted {
        writeln!(out, "winning moves: not all listed ({why})")?;
    }
    if report.winning_moves.is_empty() {
        if report.winning_moves_omitted.is_none() {
            writeln!(out, "winning moves: none")?;
        }
    } else {
        writeln!(out, "winning moves:")?;
        let width = report
            .winning_moves
            .iter()
            .map(|m| m.text.len())
            .max()
            .unwrap_or(0);
        for m in &report.winning_moves {
            writeln!(out, "  {:width$}  => {}", m.text, m.display)?;
        }
    }
    out.flush()?;
    Ok(())
}

pub fn answer(answer: &Answer, position: &Position, as_json: bool) -> Result<()> {
    match answer {
        Answer::Value(report) => value(report, position, as_json),
        Answer::Partizan(report) => partizan_value(report, position, as_json),
    }
}

fn partizan_value(report: &PartizanReport, position: &Position, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "position:       {position}")?;
    writeln!(out, "canonical form: {}", report.canonical_form)?;
    let outcome = match report.outcome {
        PartizanOutcome::L => "L (Left wins, whoever starts)",
        PartizanOutcome::R => "R (Right wins, whoever starts)",
        PartizanOutcome::N => "N (the player to move wins)",
        PartizanOutcome::P => "P (the player to move loses)",
    };
    writeln!(out, "outcome:        {outcome}")?;
    if let Some(g) = report.nim_value {
        writeln!(out, "nim value:      {g}")?;
    }
    writeln!(out, "mean:           {}", report.mean)?;
    writeln!(out, "temperature:    {}", report.temperature)?;
    for (who, moves) in [
        ("Left", &report.left_winning_moves),
        ("Right", &report.right_winning_moves),
    ] {
        if moves.is_empty() {
            writeln!(out, "{who} moving first: no winning move")?;
            continue;
        }
        writeln!(out, "{who} moving first wins with:")?;
        let width = moves.iter().map(|m| m.text.len()).max().unwrap_or(0);
        for m in moves {
            writeln!(out, "  {:width$}  => {}", m.text, m.display)?;
        }
    }
    out.flush()?;
    Ok(())
}

pub fn compare(relation: Relation, g: &Position, h: &Position, as_json: bool) -> Result<()> {
    if as_json {
        return json(&serde_json::json!({ "relation": relation.symbol() }));
    }
    let mut out = stdout();
    writeln!(out, "{}", relation.symbol())?;
    let words = match relation {
        Relation::Less => "is less than (Right wins the difference whoever starts)",
        Relation::Equal => "equals (the player to move in the difference loses)",
        Relation::Greater => "is greater than (Left wins the difference whoever starts)",
        Relation::Confused => "is confused with (the player to move in the difference wins)",
    };
    eprintln!("{g} {words} {h}");
    out.flush()?;
    Ok(())
}

pub fn thermograph(
    report: &ThermographReport,
    position: &Position,
    as_json: bool,
    svg: Option<&std::path::Path>,
) -> Result<()> {
    if let Some(path) = svg {
        if path.as_os_str() == "-" {
            let mut out = stdout();
            out.write_all(report.svg.as_bytes())?;
            out.flush()?;
        } else {
            std::fs::write(path, &report.svg).map_err(|e| sprague::Error::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            })?;
            eprintln!("wrote {}", path.display());
        }
        return Ok(());
    }
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "position:       {position}")?;
    writeln!(out, "canonical form: {}", report.canonical_form)?;
    writeln!(out, "mean:           {}", report.mean)?;
    writeln!(out, "temperature:    {}", report.temperature)?;
    for (name, wall) in [
        ("left wall", &report.left_wall),
        ("right wall", &report.right_wall),
    ] {
        let points: Vec<String> = wall
            .iter()
            .map(|p| format!("({}, {})", p.t, p.value))
            .collect();
        writeln!(out, "{name:<15} (t, value): {}", points.join(" "))?;
    }
    writeln!(
        out,
        "mast:           value {} above t = {}",
        report.mean, report.temperature
    )?;
    out.flush()?;
    Ok(())
}

pub fn moves_answer(answer: &MovesAnswer, position: &Position, as_json: bool) -> Result<()> {
    match answer {
        MovesAnswer::Moves(report) => moves(report, position, as_json),
        MovesAnswer::Partizan(report) => partizan_moves(report, position, as_json),
    }
}

fn partizan_moves(report: &PartizanMoves, position: &Position, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "position: {position}")?;
    for (who, moves) in [("Left", &report.left_moves), ("Right", &report.right_moves)] {
        if moves.is_empty() {
            writeln!(out, "{who}: no moves")?;
            continue;
        }
        writeln!(
            out,
            "{who}'s moves (value after the move; * marks a win for {who} moving first):"
        )?;
        let width = moves.iter().map(|m| m.text.len()).max().unwrap_or(0);
        let form = moves
            .iter()
            .map(|m| m.canonical_form.len())
            .max()
            .unwrap_or(0);
        for m in moves {
            let mark = if m.wins { '*' } else { ' ' };
            writeln!(
                out,
                "  {mark} {:width$}  {:form$}  => {}",
                m.text, m.canonical_form, m.display
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

fn moves(report: &MovesReport, position: &Position, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "position: {position}")?;
    if report.moves.is_empty() {
        writeln!(out, "no moves")?;
    }
    let width = report.moves.iter().map(|m| m.text.len()).max().unwrap_or(0);
    for m in &report.moves {
        let mut value = match (&m.nim_value, &m.loopy_value, m.score) {
            (_, _, Some(v)) => format!("value {v}"),
            (Some(g), _, _) => format!("nim value {g}"),
            (None, Some(l), _) => format!("nim value {l}"),
            _ => String::new(),
        };
        if let Some(r) = m.remoteness {
            value.push_str(&format!(" remoteness {r}"));
        }
        writeln!(
            out,
            "  {:width$}  {}  {:<24} => {}",
            m.text, m.outcome, value, m.display
        )?;
    }
    out.flush()?;
    Ok(())
}

pub fn table(game: &str, table: &Table, as_json: bool, as_csv: bool) -> Result<()> {
    if as_json {
        return json(&TableReport::new(game, table));
    }
    let mut out = stdout();
    if as_csv {
        TableReport::new(game, table).write_csv(&mut out)?;
    } else {
        let width = table
            .values
            .iter()
            .max()
            .map_or(1, |m| m.to_string().len())
            .max(2);
        let label = table.values.len().to_string().len().max(2);
        write!(out, "{:>label$} ", "", label = label + 1)?;
        for d in 0..10 {
            write!(out, " {d:>width$}")?;
        }
        writeln!(out)?;
        for (row, chunk) in table.values.chunks(10).enumerate() {
            write!(out, "{:>label$}: ", row * 10)?;
            for v in chunk {
                write!(out, " {v:>width$}")?;
            }
            writeln!(out)?;
        }
        if let Some(p) = table.period {
            writeln!(
                out,
                "period {} from preperiod {} (certified at n = {})",
                p.period, p.preperiod, p.certified_at
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

pub fn period(game: &str, search: &PeriodSearch, as_json: bool) -> Result<()> {
    if as_json {
        return json(&PeriodReport::from(search));
    }
    let mut out = stdout();
    match *search {
        PeriodSearch::Certified(p) => writeln!(
            out,
            "{game}: period {}, preperiod {} (certified with values up to n = {})",
            p.period, p.preperiod, p.certified_at
        )?,
        PeriodSearch::NotCertified { checked_to } => writeln!(
            out,
            "{game}: no period certified with values up to n = {checked_to}"
        )?,
    }
    out.flush()?;
    Ok(())
}

pub fn solve_game(report: &SolveReport, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "game:       {}", report.game)?;
    writeln!(out, "start:      {}", report.position)?;
    writeln!(out, "outcome:    {}", outcome_words(report.outcome))?;
    match report.remoteness {
        Some(r) => writeln!(out, "remoteness: {r}")?,
        None => writeln!(out, "remoteness: none (a draw)")?,
    }
    writeln!(out, "positions:  {}", report.positions)?;
    for (key, value) in &report.details {
        writeln!(out, "{key}: {value}")?;
    }
    out.flush()?;
    Ok(())
}

pub fn solve_graph(report: &GraphReport, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "vertex  outcome  remoteness  nim value")?;
    for v in &report.vertices {
        let remoteness = v.remoteness.map_or("-".to_string(), |r| r.to_string());
        writeln!(
            out,
            "{:>6}  {:>7}  {:>10}  {}",
            v.id,
            v.outcome.to_string(),
            remoteness,
            v.value()
        )?;
    }
    out.flush()?;
    Ok(())
}

pub fn nimber(op: NimberOp, args: &[Nimber], result: Option<Nimber>, as_json: bool) -> Result<()> {
    if as_json {
        let op = format!("{op:?}").to_lowercase();
        let args: Vec<u64> = args.iter().map(|a| a.0).collect();
        return json(&serde_json::json!({"op": op, "args": args, "result": result.map(|r| r.0)}));
    }
    let mut out = stdout();
    match result {
        Some(r) => writeln!(out, "{r}")?,
        None => writeln!(
            out,
            "no root: x^2 + x = {} has no solution (its trace is 1)",
            args[0]
        )?,
    }
    out.flush()?;
    Ok(())
}

pub fn catalog(entries: &[Entry], as_json: bool) -> Result<()> {
    if as_json {
        return json(&entries);
    }
    let mut out = stdout();
    let width = entries.iter().map(|e| e.spec.len()).max().unwrap_or(0);
    for e in entries {
        writeln!(out, "{:width$}  {}", e.spec, e.summary)?;
        if !e.params.is_empty() {
            writeln!(out, "{:width$}  parameters: {}", "", e.params)?;
        }
        writeln!(out, "{:width$}  position: {}", "", e.position)?;
        writeln!(out, "{:width$}  example: sprague value {}", "", e.example)?;
    }
    out.flush()?;
    Ok(())
}

/// The answer to one Josephus question.
pub enum Josephus {
    /// Step i eliminates this person.
    Kth(u64, u64),
    /// Person j is eliminated at this step.
    When(u64, u64),
    /// The whole order.
    Order(Vec<u64>),
}

pub fn josephus(n: u64, k: u64, answer: &Josephus, as_json: bool) -> Result<()> {
    if as_json {
        return json(&match answer {
            Josephus::Kth(i, person) => {
                serde_json::json!({"n": n, "k": k, "kth": i, "person": person})
            }
            Josephus::When(j, step) => {
                serde_json::json!({"n": n, "k": k, "person": j, "step": step})
            }
            Josephus::Order(order) => serde_json::json!({"n": n, "k": k, "order": order}),
        });
    }
    let mut out = stdout();
    match answer {
        Josephus::Kth(_, person) => writeln!(out, "{person}")?,
        Josephus::When(_, step) => writeln!(out, "{step}")?,
        Josephus::Order(order) => {
            for (i, p) in order.iter().enumerate() {
                if i > 0 {
                    out.write_all(b" ")?;
                }
                write!(out, "{p}")?;
            }
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(())
}
