//! Two-player games with draws written as scripts: `fn moves(pos)` and `fn result(pos)`.
//!
//! `result(pos)` is `"win"`, `"loss"` or `"tie"` for the player to move when the game is over
//! there, and `"none"` or `()` otherwise; a position with no moves and no result is a loss for
//! the player to move. Positions must encode whose turn it is when that matters. Every position
//! reachable from a query is explored once and solved by retrograde analysis
//! ([`crate::solve::retrograde`]): win, loss, tie or draw, with remoteness.

use super::{Key, Script};
use crate::error::{Error, Result};
use crate::game::notation::ParseError;
use crate::game::{Evaluated, Evaluation, Game, Notation, SolveReport, Terminal, Value};
use crate::progress::Progress;
use crate::solve::{retrograde, Graph, Solved};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Positions seen so far: each with its result and moves, and its solution.
type Memo = super::memo::Memo<(Option<Terminal>, Vec<u32>), Solved>;

/// A two-player game defined by a script.
pub struct TwoPlayerGame {
    spec: String,
    script: Arc<Script>,
    memo: Mutex<Memo>,
}

impl TwoPlayerGame {
    /// The game `spec` defined by `script`, which must define `moves(pos)`.
    pub fn new(spec: String, script: Arc<Script>) -> Arc<TwoPlayerGame> {
        Arc::new(TwoPlayerGame {
            spec,
            script,
            memo: Mutex::new(Memo::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Memo> {
        self.memo.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn intern(&self, memo: &mut Memo, key: Key) -> Result<u32> {
        memo.intern(key, &self.script.limits(), &self.spec)
    }

    fn script_result(&self, key: &Key) -> Result<Option<Terminal>> {
        let script = &self.script;
        if !script.defines("result", 1) {
            return Ok(None);
        }
        let result = script.call("result", (key.to_dynamic(),))?;
        if result.is_unit() {
            return Ok(None);
        }
        let text = if result.is_string() {
            result.to_string()
        } else {
            String::new()
        };
        match text.as_str() {
            "win" => Ok(Some(Terminal::Win)),
            "loss" => Ok(Some(Terminal::Loss)),
            "tie" => Ok(Some(Terminal::Tie)),
            "none" => Ok(None),
            _ => Err(script.error_in(
                "result",
                format!(
                    "result({key}) must return \"win\", \"loss\", \"tie\" or \"none\", not {}",
                    if result.is_string() {
                        format!("\"{text}\"")
                    } else {
                        format!("a {}", result.type_name())
                    }
                ),
            )),
        }
    }

    fn script_moves(&self, key: &Key) -> Result<Vec<Key>> {
        let script = &self.script;
        let result = script.call("moves", (key.to_dynamic(),))?;
        let Some(items) = result.read_lock::<rhai::Array>() else {
            return Err(script.error_in(
                "moves",
                format!(
                    "moves({key}) must return an array of positions, not {}",
                    result.type_name()
                ),
            ));
        };
        items
            .iter()
            .map(|item| {
                Key::from_dynamic(item)
                    .map_err(|why| script.error_in("moves", format!("moves({key}) returned {why}")))
            })
            .collect()
    }

    /// Explores every position reachable from `start`, `start` first.
    fn explore(&self, memo: &mut Memo, start: u32) -> Result<Vec<u32>> {
        memo.explore(
            start,
            |memo, v| {
                let key = memo.keys[v as usize].clone();
                let terminal = self.script_result(&key)?;
                let mut targets = Vec::new();
                if terminal.is_none() {
                    for option in self.script_moves(&key)? {
                        targets.push(self.intern(memo, option)?);
                    }
                }
                Ok((terminal, targets))
            },
            |(_, targets)| targets.clone(),
            |_, _| false,
        )
    }

    /// Solves every position reachable from `start`; returns them.
    fn solve(&self, memo: &mut Memo, start: u32) -> Result<Vec<u32>> {
        let order = self.explore(memo, start)?;
        if memo.solved[start as usize].is_some() {
            return Ok(order);
        }
        let local: HashMap<u32, u32> = order
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, i as u32))
            .collect();
        let mut edges = Vec::new();
        let mut terminal = Vec::with_capacity(order.len());
        for (i, &v) in order.iter().enumerate() {
            let (t, targets) = memo.expanded[v as usize]
                .as_ref()
                .ok_or_else(|| Error::Internal("unexpanded position".into()))?;
            terminal.push(*t);
            edges.extend(targets.iter().map(|w| (i as u32, local[w])));
        }
        let graph = Graph::from_edges(order.len(), &edges);
        let values = retrograde(&graph, |v| terminal[v as usize]);
        for (i, &v) in order.iter().enumerate() {
            if memo.solved[v as usize].is_none() {
                memo.solved[v as usize] = Some(values.get(i as u32));
            }
        }
        Ok(order)
    }

    /// The value and remoteness of `key`.
    ///
    /// # Errors
    /// [`Error::Script`] from the script, [`Error::Limit`] past the positions cap.
    pub fn solved(&self, key: &Key) -> Result<Solved> {
        let mut memo = self.lock();
        let v = self.intern(&mut memo, key.clone())?;
        if memo.solved[v as usize].is_none() {
            self.solve(&mut memo, v)?;
        }
        memo.solved[v as usize].ok_or_else(|| Error::Internal("position not solved".into()))
    }

    /// The positions after each move from `key` (none once the game is over).
    ///
    /// # Errors
    /// As [`TwoPlayerGame::solved`].
    pub fn moves(&self, key: &Key) -> Result<Vec<Arc<Key>>> {
        let mut memo = self.lock();
        let v = self.intern(&mut memo, key.clone())?;
        if memo.expanded[v as usize].is_none() {
            self.solve(&mut memo, v)?;
        }
        let (_, targets) = memo.expanded[v as usize]
            .as_ref()
            .ok_or_else(|| Error::Internal("unexpanded position".into()))?;
        Ok(targets
            .iter()
            .map(|&w| memo.keys[w as usize].clone())
            .collect())
    }

    fn solve_report(&self, key: &Key) -> Result<SolveReport> {
        let mut memo = self.lock();
        let v = self.intern(&mut memo, key.clone())?;
        let order = self.solve(&mut memo, v)?;
        let start =
            memo.solved[v as usize].ok_or_else(|| Error::Internal("position not solved".into()))?;
        let mut counts = [0u64; 4];
        for &u in &order {
            if let Some(s) = memo.solved[u as usize] {
                counts[match s.value {
                    Value::Win => 0,
                    Value::Lose => 1,
                    Value::Tie => 2,
                    Value::Draw => 3,
                }] += 1;
            }
        }
        let mut details = serde_json::Map::new();
        for (name, count) in ["wins", "losses", "ties", "draws"].iter().zip(counts) {
            details.insert(name.to_string(), Json::from(count));
        }
        Ok(SolveReport {
            game: self.spec.clone(),
            position: key.to_json(),
            outcome: start.outcome(),
            draw_kind: start.value.draw_kind(),
            remoteness: start.remoteness.map(u64::from),
            positions: order.len() as u64,
            details,
        })
    }
}

/// A scripted two-player game as a typed [`Evaluated`] game.
#[derive(Clone)]
pub struct ScriptTwoPlayer(Arc<TwoPlayerGame>);

impl ScriptTwoPlayer {
    /// The game `spec` defined by `script`, which must define `moves(pos)`.
    pub fn new(spec: String, script: Arc<Script>) -> ScriptTwoPlayer {
        ScriptTwoPlayer(TwoPlayerGame::new(spec, script))
    }
}

impl Game for ScriptTwoPlayer {
    type Position = Arc<Key>;
}

impl Evaluated for ScriptTwoPlayer {
    fn moves(&self, key: &Arc<Key>) -> Result<Vec<Arc<Key>>> {
        self.0.moves(key)
    }

    fn evaluate(&self, key: &Arc<Key>) -> Result<Evaluation> {
        let solved = self.0.solved(key)?;
        Ok(Evaluation::of(
            solved.value,
            solved.remoteness.map(u64::from),
        ))
    }

    fn solve(&self, start: &Arc<Key>, _progress: &dyn Progress) -> Option<Result<SolveReport>> {
        Some(self.0.solve_report(start))
    }
}

impl Notation for ScriptTwoPlayer {
    /// The words joined by spaces, through the script's `parse`; none: its `start()`.
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Arc<Key>, ParseError> {
        let game = &self.0;
        let key = if words.is_empty() {
            match game.script.start() {
                Some(start) => start?,
                None => return Err("give a position (the script defines no start())".into()),
            }
        } else {
            game.script
                .parse_position(&game.spec, &words.join(" "))
                .map_err(|e| match e {
                    Error::Position { reason, .. } => ParseError::Invalid(reason),
                    other => ParseError::Failed(other),
                })?
        };
        Ok(Arc::new(key))
    }

    fn write_position(&self, key: &Arc<Key>) -> String {
        self.0.script.display(key)
    }

    fn position_json(&self, key: &Arc<Key>) -> Json {
        key.to_json()
    }

    /// The script's `move_text(pos, next)`, else the position reached.
    fn write_move(&self, from: &Arc<Key>, to: &Arc<Key>) -> String {
        let script = &self.0.script;
        if script.defines("move_text", 2) {
            if let Ok(text) = script.call("move_text", (from.to_dynamic(), to.to_dynamic())) {
                if text.is_string() {
                    return text.to_string();
                }
            }
        }
        script.show(to).unwrap_or_else(|_| to.to_string())
    }

    fn render(&self, key: &Arc<Key>) -> String {
        let script = &self.0.script;
        if script.defines("render", 1) {
            if let Ok(drawn) = script.call("render", (key.to_dynamic(),)) {
                if drawn.is_string() {
                    return drawn.to_string();
                }
            }
        }
        script.show(key).unwrap_or_else(|_| key.to_string())
    }
}
