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
use sprague::quotient::{GenusReport, Quotient, QuotientReport, Search};
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
    if report.variant == Some("anti-sg") {
        writeln!(
            out,
            "play:       Anti-SG, the SJ ending rule (the game ends when every summand's nim value is 0; the player who moved last loses)"
        )?;
    } else if report.play == Play::Misere {
        writeln!(out, "play:       misère (the player unable to move wins)")?;
    }
    match report.play {
        Play::Misere if report.variant.is_some() => writeln!(
            out,
            "outcome:    {} in Anti-SG play",
            outcome_words(report.outcome)
        )?,
        Play::Misere => writeln!(
            out,
            "outcome:    {} in misère play",
            outcome_words(report.outcome)
        )?,
        Play::Normal => writeln!(out, "outcome:    {}", outcome_words(report.outcome))?,
    }
    if let Some(note) = &report.misere_note {
        writeln!(out, "method:     {note}")?;
    }
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
        if report.variant.is_some() && report.outcome == Outcome::N {
            writeln!(
                out,
                "winning moves: none: every summand is 0, so the game is over and the player to move has won"
            )?;
        } else if report.winning_moves_omitted.is_none() {
            writeln!(out, "winning moves: none")?;
        }
    } else {
        writeln!(out, "winning moves:")?;
        let width = report
            .winning_moves
            .iter()
            .map(|m| m.description.chars().count())
            .max()
            .unwrap_or(0);
        for m in &report.winning_moves {
            let pad = width - m.description.chars().count();
            writeln!(out, "  {}{:pad$}  => {}", m.description, "", m.display)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// `explanation`: the lines of `--explain`, printed after the report (JSON: `"explanation"`).
pub fn answer(
    answer: &Answer,
    position: &Position,
    explanation: Option<&[String]>,
    as_json: bool,
) -> Result<()> {
    if let (Some(lines), true) = (explanation, as_json) {
        // The report's fields in their order, then "explanation".
        let report = serde_json::to_string(answer)?;
        let fields = report.strip_suffix('}').unwrap_or(&report);
        let mut out = stdout();
        writeln!(
            out,
            "{fields},\"explanation\":{}}}",
            serde_json::to_string(lines)?
        )?;
        out.flush()?;
        return Ok(());
    }
    match answer {
        Answer::Value(report) => value(report, position, as_json)?,
        Answer::Partizan(report) => partizan_value(report, position, as_json)?,
    }
    if let Some(lines) = explanation {
        let mut out = stdout();
        writeln!(out, "why:")?;
        for line in lines {
            writeln!(out, "  {line}")?;
        }
        out.flush()?;
    }
    Ok(())
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

pub fn moves_answer(
    answer: &MovesAnswer,
    position: &Position,
    play: Play,
    as_json: bool,
) -> Result<()> {
    match answer {
        MovesAnswer::Moves(report) => moves(report, position, play, as_json),
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

fn moves(report: &MovesReport, position: &Position, play: Play, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    writeln!(out, "position: {position}")?;
    if play == Play::Misere {
        writeln!(
            out,
            "play:     misère (the player unable to move wins); outcomes below are misère outcomes"
        )?;
    }
    if report.moves.is_empty() {
        writeln!(out, "no moves")?;
    }
    let width = report
        .moves
        .iter()
        .map(|m| m.description.chars().count())
        .max()
        .unwrap_or(0);
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
        let pad = width - m.description.chars().count();
        writeln!(
            out,
            "  {}{:pad$}  {}  {:<24} => {}",
            m.description, "", m.outcome, value, m.display
        )?;
    }
    out.flush()?;
    Ok(())
}

/// `csv`: CSV with (`Some(true)`) or without its header line.
pub fn table(game: &str, table: &Table, as_json: bool, csv: Option<bool>) -> Result<()> {
    if as_json {
        return json(&TableReport::new(game, table));
    }
    let mut out = stdout();
    if let Some(header) = csv {
        TableReport::new(game, table).write_csv_rows(&mut out, header)?;
    } else {
        let width = table.values.max().to_string().len().max(2);
        let label = table.values.len().to_string().len().max(2);
        write!(out, "{:>label$} ", "", label = label + 1)?;
        for d in 0..10 {
            write!(out, " {d:>width$}")?;
        }
        writeln!(out)?;
        for (n, v) in table.values.iter().enumerate() {
            if n % 10 == 0 {
                write!(out, "{n:>label$}: ")?;
            }
            write!(out, " {v:>width$}")?;
            if n % 10 == 9 || n + 1 == table.values.len() {
                writeln!(out)?;
            }
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
        PeriodSearch::NoCertificate { reason } => writeln!(
            out,
            "{game}: no period can be certified, so none was searched for: {reason}"
        )?,
    }
    out.flush()?;
    Ok(())
}

pub fn genus(report: &GenusReport, as_json: bool) -> Result<()> {
    if as_json {
        return json(report);
    }
    let mut out = stdout();
    let last = report.heaps.last().map_or(0, |h| h.heap);
    writeln!(out, "{}: genus of heaps 0..={last}", report.game)?;
    writeln!(
        out,
        "g^{{γ0γ1…}}: g the normal-play nim value, γk the misère Grundy value with k nim-heaps of 2 added"
    )?;
    writeln!(out)?;
    let genus_width = report
        .heaps
        .iter()
        .map(|h| h.genus.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    let misere: Vec<String> = report
        .heaps
        .iter()
        .map(|h| {
            let values: Vec<String> = h.misere.iter().map(u64::to_string).collect();
            values.join(" ")
        })
        .collect();
    let misere_width = misere.iter().map(String::len).max().unwrap_or(0).max(10);
    let heap_width = last.to_string().len().max(4);
    writeln!(
        out,
        "{:>heap_width$}  {:genus_width$}  {:>6}  {:misere_width$}  tame/wild",
        "heap", "genus", "normal", "γ0 γ1 …"
    )?;
    for (h, values) in report.heaps.iter().zip(&misere) {
        // pad by characters: the superscript braces are ASCII, the digits too
        writeln!(
            out,
            "{:>heap_width$}  {:genus_width$}  {:>6}  {values:misere_width$}  {}",
            h.heap,
            h.genus,
            h.normal,
            if h.tame { "tame" } else { "wild" }
        )?;
    }
    let wild: Vec<String> = report
        .heaps
        .iter()
        .filter(|h| !h.tame)
        .map(|h| h.heap.to_string())
        .collect();
    writeln!(out)?;
    if wild.is_empty() {
        writeln!(
            out,
            "every heap is tame: misère sums of these heaps play like Nim (the genus of a sum is that of the Nim position with the same values)"
        )?;
    } else {
        const SHOWN: usize = 20;
        let more = if wild.len() > SHOWN {
            format!(", … ({} in all)", wild.len())
        } else {
            String::new()
        };
        let listed = wild.iter().take(SHOWN).cloned().collect::<Vec<_>>();
        writeln!(
            out,
            "wild heaps: {}{more}; sums of tame heaps alone play like Nim",
            listed.join(", ")
        )?;
    }
    out.flush()?;
    Ok(())
}

/// The largest quotient whose multiplication table is printed as text.
const PRINTED_TABLE: usize = 32;

/// The largest quotient whose elements are listed one a line.
const LISTED_ELEMENTS: usize = 64;

pub fn quotient(game: &str, search: &Search, max_heap: u64, as_json: bool) -> Result<()> {
    if as_json {
        return json(&QuotientReport::of(search, game, max_heap));
    }
    let mut out = stdout();
    let q = match search {
        Search::Finite(q) => q,
        Search::Runaway { runaway, below } => {
            writeln!(
                out,
                "{game}: the misère quotient is infinite as far as it was followed: it ran away {runaway}."
            )?;
            writeln!(
                out,
                "The heaps below {} have a quotient of order {}; raise --max-order to follow it further.",
                runaway.heap,
                below.order()
            )?;
            out.flush()?;
            return Ok(());
        }
    };
    let words = &q.presentation().words;
    let order = q.order();
    writeln!(out, "game:          {game}")?;
    writeln!(out, "heaps:         0..={}", q.max_heap())?;
    writeln!(out, "order:         {order}")?;
    writeln!(out, "presentation:  {}", q.presentation())?;
    let p: Vec<&str> = q
        .p_portion()
        .iter()
        .map(|&x| words[x as usize].as_str())
        .collect();
    if p.is_empty() {
        writeln!(
            out,
            "P-portion:     none: every sum of these heaps is a misère N-position"
        )?;
    } else {
        writeln!(
            out,
            "P-portion:     {} ({} of {order} elements: sums with these images are misère P-positions)",
            p.join(", "),
            p.len()
        )?;
    }
    match q.period() {
        Some(period) => writeln!(
            out,
            "periodicity:   proven for every heap: heap n + {} has the element of heap n from n = {} (the periodicity theorem needs heaps to {})",
            period.period, period.preperiod, period.certified_at
        )?,
        None => writeln!(
            out,
            "periodicity:   not proven: this is the quotient of heaps 0..={} only (larger heaps may change it)",
            q.max_heap()
        )?,
    }
    writeln!(out)?;
    writeln!(out, "heap → element (as normal forms in the generators):")?;
    heap_map(&mut out, q)?;
    writeln!(out)?;
    if order <= LISTED_ELEMENTS {
        writeln!(out, "elements (P: in the P-portion):")?;
        let width = order.to_string().len();
        let word_width = words.iter().map(String::len).max().unwrap_or(1);
        for (x, word) in words.iter().enumerate() {
            if q.is_p(x as u32) {
                writeln!(out, "  {x:>width$}  {word:word_width$}  P")?;
            } else {
                writeln!(out, "  {x:>width$}  {word}")?;
            }
        }
    } else {
        writeln!(
            out,
            "elements: {order}, too many to list here; --json gives their normal forms as \"words\""
        )?;
    }
    writeln!(out)?;
    if order <= PRINTED_TABLE {
        writeln!(out, "multiplication table (elements by number, as listed):")?;
        let width = (order - 1).to_string().len();
        write!(out, "{:>width$} ", "")?;
        for b in 0..order {
            write!(out, " {b:>width$}")?;
        }
        writeln!(out)?;
        for a in 0..order as u32 {
            write!(out, "{a:>width$}:")?;
            for b in 0..order as u32 {
                write!(out, " {:>width$}", q.multiply(a, b))?;
            }
            writeln!(out)?;
        }
    } else {
        writeln!(
            out,
            "multiplication table: {order} × {order}, too large to print here; --json gives it as \"multiply\""
        )?;
    }
    out.flush()?;
    Ok(())
}

/// Each heap's element as its normal form, several heaps a line.
fn heap_map(out: &mut impl Write, q: &Quotient) -> Result<()> {
    let words = &q.presentation().words;
    let heaps = q.heaps();
    let label = (heaps.len() - 1).to_string().len();
    let width = heaps
        .iter()
        .map(|&x| words[x as usize].len())
        .max()
        .unwrap_or(1);
    let per_line = (72 / (label + width + 4)).max(1);
    for (row, chunk) in heaps.chunks(per_line).enumerate() {
        let cells: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                format!(
                    "{:>label$}: {:width$}",
                    row * per_line + i,
                    words[x as usize]
                )
            })
            .collect();
        writeln!(out, "  {}", cells.join("  ").trim_end())?;
    }
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
    match (report.remoteness, report.outcome) {
        (Some(r), _) => writeln!(out, "remoteness: {r}")?,
        (None, Outcome::D) => writeln!(out, "remoteness: none (a draw)")?,
        (None, _) => writeln!(out, "remoteness: not computed")?,
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

/// The answer of `count`: the number is the last word of the text.
pub fn count(problem: &str, heaps: usize, count: u64, as_json: bool) -> Result<()> {
    let modulus = sprague::counting::MODULUS;
    if as_json {
        return json(&serde_json::json!({
            "problem": problem, "heaps": heaps, "modulus": modulus, "count": count
        }));
    }
    let mut out = stdout();
    writeln!(
        out,
        "{problem}: losing (subset, designated heap) pairs of {heaps} heaps, modulo {modulus}: {count}"
    )?;
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
