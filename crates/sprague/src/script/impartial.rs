//! Impartial games written as scripts: `fn options(pos)` and optionally `fn splits(pos)`.
//!
//! Every position reached is memoised with its options. A query explores the positions
//! reachable from it (each script function called once per position), then values them all:
//! - without splitting moves, by the generalized Sprague–Grundy labelling of
//!   [`crate::solve::loopy`], so cycles get ∞(K) and acyclic games their nim values;
//! - with splitting moves, by memoised mex over the XOR of the parts; a cycle is then an error,
//!   since loopy values of sums are not single values.

use super::{Key, Script};
use crate::error::{Error, Result};
use crate::game::notation::ParseError;
use crate::game::{Game, Impartial, NimValue, Notation, Outcome, SolveReport};
use crate::heap::{HeapValues, PeriodSearch, Table};
use crate::progress::Progress;
use crate::solve::{loopy_values, mex, retrograde, Graph};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// The most options of one position listed before [`Impartial::try_options`] answers
/// [`Error::Limit`].
pub const OPTION_LIMIT: usize = 100_000;

/// Positions seen so far: each with its options (each option as the positions it leaves) and
/// its nim value.
type Memo = super::memo::Memo<Vec<Vec<u32>>, NimValue>;

/// An impartial game defined by a script.
pub struct ImpartialGame {
    spec: String,
    script: Arc<Script>,
    memo: Mutex<Memo>,
}

impl ImpartialGame {
    /// The game `spec` defined by `script`, which must define `options(pos)` or `splits(pos)`.
    pub fn new(spec: String, script: Arc<Script>) -> Arc<ImpartialGame> {
        Arc::new(ImpartialGame {
            spec,
            script,
            memo: Mutex::new(Memo::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Memo> {
        self.memo.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The number of positions explored so far.
    pub fn positions(&self) -> usize {
        self.lock().keys.len()
    }

    fn intern(&self, memo: &mut Memo, key: Key) -> Result<u32> {
        memo.intern(key, &self.script.limits(), &self.spec)
    }

    /// The script's options of `key`, each as the positions it leaves.
    fn script_options(&self, key: &Key) -> Result<Vec<Vec<Key>>> {
        let script = &self.script;
        let mut out = Vec::new();
        if script.defines("options", 1) {
            let result = script.call("options", (key.to_dynamic(),))?;
            let Some(items) = result.read_lock::<rhai::Array>() else {
                return Err(script.error_in(
                    "options",
                    format!(
                        "options({key}) must return an array of positions, not {}",
                        result.type_name()
                    ),
                ));
            };
            for item in items.iter() {
                let option = Key::from_dynamic(item).map_err(|why| {
                    script.error_in("options", format!("options({key}) returned {why}"))
                })?;
                out.push(vec![option]);
            }
        }
        if script.defines("splits", 1) {
            let result = script.call("splits", (key.to_dynamic(),))?;
            let wrong = || {
                script.error_in(
                    "splits",
                    format!(
                        "splits({key}) must return an array of options, each an array of positions"
                    ),
                )
            };
            let items = result.read_lock::<rhai::Array>().ok_or_else(wrong)?;
            for item in items.iter() {
                let parts = item.read_lock::<rhai::Array>().ok_or_else(wrong)?;
                let parts = parts
                    .iter()
                    .map(Key::from_dynamic)
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .map_err(|why| {
                        script.error_in("splits", format!("splits({key}) returned {why}"))
                    })?;
                out.push(parts);
            }
        }
        Ok(out)
    }

    /// Explores every position reachable from `start`; returns them, `start` first. With
    /// `stop_at_valued`, positions already valued are listed but not gone through (everything
    /// they reach is valued too).
    fn explore(&self, memo: &mut Memo, start: u32, stop_at_valued: bool) -> Result<Vec<u32>> {
        memo.explore(
            start,
            |memo, v| {
                let key = memo.keys[v as usize].clone();
                let mut options = Vec::new();
                for parts in self.script_options(&key)? {
                    let ids = parts
                        .into_iter()
                        .map(|p| self.intern(memo, p))
                        .collect::<Result<Vec<_>>>()?;
                    options.push(ids);
                }
                Ok(options)
            },
            |options| options.iter().flatten().copied().collect(),
            |memo, v| stop_at_valued && memo.solved[v as usize].is_some(),
        )
    }

    /// Values every position reachable from `start`.
    fn solve(&self, memo: &mut Memo, start: u32) -> Result<()> {
        if memo.solved[start as usize].is_some() {
            return Ok(());
        }
        let order = self.explore(memo, start, true)?;
        let splits = order.iter().any(|&v| {
            memo.expanded[v as usize]
                .iter()
                .flatten()
                .any(|o| o.len() != 1)
        });
        if splits {
            self.solve_splitting(memo, start)
        } else {
            let (graph, _) = local_graph(memo, &order, true);
            let values = loopy_values(&graph);
            for (local, &v) in order.iter().enumerate() {
                if memo.solved[v as usize].is_none() {
                    memo.solved[v as usize] = Some(values.nim_value(&graph, local as u32));
                }
            }
            Ok(())
        }
    }

    /// Memoised mex over the XOR of the parts, by an explicit depth-first stack.
    fn solve_splitting(&self, memo: &mut Memo, start: u32) -> Result<()> {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        let mut state = vec![NEW; memo.keys.len()];
        let children = |memo: &Memo, v: u32| -> Vec<u32> {
            memo.expanded[v as usize]
                .iter()
                .flatten()
                .flatten()
                .copied()
                .collect()
        };
        let mut stack = vec![(start, children(memo, start), 0usize)];
        state[start as usize] = OPEN;
        while let Some((v, kids, i)) = stack.last_mut() {
            if *i < kids.len() {
                let w = kids[*i];
                *i += 1;
                if memo.solved[w as usize].is_some() {
                    continue;
                }
                if state[w as usize] == OPEN {
                    return Err(Error::Unsupported(format!(
                        "{}: position {} lies on a cycle, and the game has moves that split a position; loopy values are defined only when every move leaves one position",
                        self.spec,
                        self.script.display(&memo.keys[w as usize])
                    )));
                }
                state[w as usize] = OPEN;
                let grandchildren = children(memo, w);
                stack.push((w, grandchildren, 0));
                continue;
            }
            let v = *v;
            let mut seen = Vec::new();
            for option in memo.expanded[v as usize].iter().flatten() {
                let mut x = 0;
                for &w in option {
                    match &memo.solved[w as usize] {
                        Some(NimValue::Finite(g)) => x ^= g,
                        _ => return Err(Error::Internal("unvalued part".into())),
                    }
                }
                seen.push(x);
            }
            memo.solved[v as usize] = Some(NimValue::Finite(mex(&seen)));
            stack.pop();
        }
        Ok(())
    }

    /// The value of `key`.
    ///
    /// # Errors
    /// [`Error::Script`] from the script, [`Error::Limit`] past the positions cap.
    pub fn nim_value(&self, key: &Key) -> Result<NimValue> {
        let mut memo = self.lock();
        let v = self.intern(&mut memo, key.clone())?;
        self.solve(&mut memo, v)?;
        memo.solved[v as usize]
            .clone()
            .ok_or_else(|| Error::Internal("position not valued".into()))
    }

    /// The options of `key`, each as the positions it leaves.
    ///
    /// # Errors
    /// As [`ImpartialGame::nim_value`].
    pub fn options(&self, key: &Key) -> Result<Vec<Vec<Arc<Key>>>> {
        let mut memo = self.lock();
        let v = self.intern(&mut memo, key.clone())?;
        self.solve(&mut memo, v)?;
        Ok(memo.expanded[v as usize]
            .iter()
            .flatten()
            .map(|o| o.iter().map(|&w| memo.keys[w as usize].clone()).collect())
            .collect())
    }

    /// Outcome, remoteness and the count of positions reachable from `key` (moves that split
    /// have no remoteness here: `None`).
    fn solve_report(&self, key: &Key) -> Result<SolveReport> {
        let mut memo = self.lock();
        let v = self.intern(&mut memo, key.clone())?;
        self.solve(&mut memo, v)?;
        let order = self.explore(&mut memo, v, false)?;
        let value = memo.solved[v as usize]
            .clone()
            .unwrap_or(NimValue::Finite(0));
        let splits = order.iter().any(|&u| {
            memo.expanded[u as usize]
                .iter()
                .flatten()
                .any(|o| o.len() != 1)
        });
        let remoteness = if splits {
            None
        } else {
            let (graph, _) = local_graph(&memo, &order, false);
            let r = retrograde(&graph, |_| None);
            r.remoteness(0).map(u64::from)
        };
        let outcome = match value {
            NimValue::Finite(0) => Outcome::P,
            NimValue::Finite(_) => Outcome::N,
            NimValue::Infinite(_) => Outcome::D,
        };
        let mut details = serde_json::Map::new();
        match value {
            NimValue::Finite(g) => details.insert("nim_value".into(), Json::from(g)),
            NimValue::Infinite(_) => {
                details.insert("nim_value".into(), Json::Null);
                details.insert("loopy_value".into(), Json::String(value.to_string()))
            }
        };
        Ok(SolveReport {
            game: self.spec.clone(),
            position: key.to_json(),
            outcome,
            draw_kind: crate::game::Value::from_outcome(outcome).draw_kind(),
            remoteness,
            positions: order.len() as u64,
            details,
        })
    }
}

/// The positions `order` as a graph numbered by their place in `order`; an option that leaves
/// nothing goes to an extra vertex with no options. Returns the graph and that vertex.
///
/// With `keep_values`, a position already valued keeps its value without its options: a finite g gets options of
/// values 0..g (Nim heaps, extra vertices), and ∞(K) gets a move to itself and options of the
/// values in K. The labelling of its parents sees only these values, so it is unchanged.
fn local_graph(memo: &Memo, order: &[u32], keep_values: bool) -> (Graph, u32) {
    let local: HashMap<u32, u32> = order
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i as u32))
        .collect();
    let sink = order.len() as u32;
    let heap = |k: u64| sink + 1 + k as u32;
    let mut largest = None;
    let mut edges = Vec::new();
    for (i, &v) in order.iter().enumerate() {
        let i = i as u32;
        let known = if keep_values {
            &memo.solved[v as usize]
        } else {
            &None
        };
        match known {
            Some(NimValue::Finite(g)) => {
                edges.extend((0..*g).map(|k| (i, heap(k))));
                largest = largest.max(g.checked_sub(1));
            }
            Some(NimValue::Infinite(escapes)) => {
                edges.push((i, i));
                edges.extend(escapes.iter().map(|&k| (i, heap(k))));
                largest = largest.max(escapes.last().copied());
            }
            None => {
                for option in memo.expanded[v as usize].iter().flatten() {
                    let target = option.first().map_or(sink, |w| local[w]);
                    edges.push((i, target));
                }
            }
        }
    }
    let heaps = largest.map_or(0, |g| g + 1);
    for k in 0..heaps {
        edges.extend((0..k).map(|j| (heap(k), heap(j))));
    }
    (
        Graph::from_edges(order.len() + 1 + heaps as usize, &edges),
        sink,
    )
}

/// Integer positions 0..=N as a table, for `sprague table` and `period` (never certified: the
/// script promises nothing about its moves).
impl HeapValues for ImpartialGame {
    fn table(&self, to: u64, _progress: &dyn Progress) -> Result<Table> {
        let mut values = Vec::new();
        for n in 0..=to {
            let n = i64::try_from(n)
                .map_err(|_| Error::Limit(format!("position {n} is past 2^63-1")))?;
            match self.nim_value(&Key::Int(n))? {
                NimValue::Finite(g) => values.push(g),
                loopy => {
                    return Err(Error::Unsupported(format!(
                        "{}: position {n} has the loopy value {loopy}, which a table of nim values cannot hold",
                        self.spec
                    )))
                }
            }
        }
        Ok(Table {
            values: values.into(),
            period: None,
        })
    }

    fn period(&self, _max: u64, _progress: &dyn Progress) -> Result<PeriodSearch> {
        Ok(PeriodSearch::NoCertificate {
            reason: "a script that defines options(pos) promises nothing about its moves, so no \
                     computation can prove a period; write heap_options(n) with max_heaps() and \
                     max_removed() for a certified one",
        })
    }
}

/// A scripted impartial game as a typed [`Impartial`] game: a position is a sum of the
/// script's positions, each a component.
#[derive(Clone)]
pub struct ScriptImpartial(Arc<ImpartialGame>);

impl ScriptImpartial {
    /// The game `spec` defined by `script`, which must define `options(pos)` or `splits(pos)`.
    pub fn new(spec: String, script: Arc<Script>) -> ScriptImpartial {
        ScriptImpartial(ImpartialGame::new(spec, script))
    }

    /// The values of integer positions, for `table` and `period`.
    pub fn heap_values(&self) -> Arc<dyn HeapValues> {
        self.0.clone()
    }
}

impl Game for ScriptImpartial {
    /// The script's positions, summed.
    type Position = Vec<Arc<Key>>;
}

impl Impartial for ScriptImpartial {
    /// Every option (empty when the script fails; see [`Impartial::try_options`]).
    fn options(&self, position: &Vec<Arc<Key>>) -> Vec<Vec<Arc<Key>>> {
        self.try_options(position).unwrap_or_default()
    }

    fn try_options(&self, position: &Vec<Arc<Key>>) -> Result<Vec<Vec<Arc<Key>>>> {
        let mut out = Vec::new();
        for (i, key) in position.iter().enumerate() {
            let options = self.0.options(key)?;
            if options.len() > OPTION_LIMIT {
                return Err(Error::Limit(format!(
                    "{}: position {} has more than {OPTION_LIMIT} options to list",
                    self.0.spec,
                    self.0.script.display(key)
                )));
            }
            for parts in options {
                let mut next = position[..i].to_vec();
                next.extend(parts);
                next.extend_from_slice(&position[i + 1..]);
                out.push(next);
            }
        }
        Ok(out)
    }

    fn components(&self, position: &Vec<Arc<Key>>) -> Vec<Vec<Arc<Key>>> {
        position.iter().map(|k| vec![k.clone()]).collect()
    }

    fn join(&self, parts: Vec<Vec<Arc<Key>>>) -> Option<Vec<Arc<Key>>> {
        Some(parts.concat())
    }

    fn known_nim_value(&self, position: &Vec<Arc<Key>>) -> Result<Option<NimValue>> {
        match &position[..] {
            [key] => Ok(Some(self.0.nim_value(key)?)),
            _ => Ok(None),
        }
    }

    fn solve(
        &self,
        start: &Vec<Arc<Key>>,
        _progress: &dyn Progress,
    ) -> Option<Result<SolveReport>> {
        Some(match &start[..] {
            [key] => self.0.solve_report(key),
            _ => Err(Error::Unsupported(format!(
                "{}: solve takes one position, not a sum",
                self.0.spec
            ))),
        })
    }
}

impl Notation for ScriptImpartial {
    /// One position a word; no words: the script's `start()`.
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Vec<Arc<Key>>, ParseError> {
        let game = &self.0;
        let keys = if words.is_empty() {
            match game.script.start() {
                Some(start) => vec![start?],
                None => return Err("give a position (the script defines no start())".into()),
            }
        } else {
            words
                .iter()
                .map(|a| game.script.parse_position(&game.spec, a))
                .collect::<Result<Vec<_>>>()
                .map_err(|e| match e {
                    Error::Position { reason, .. } => ParseError::Invalid(reason),
                    other => ParseError::Failed(other),
                })?
        };
        Ok(keys.into_iter().map(Arc::new).collect())
    }

    fn write_position(&self, position: &Vec<Arc<Key>>) -> String {
        let words: Vec<String> = position.iter().map(|k| self.0.script.display(k)).collect();
        words.join(" ")
    }

    fn position_json(&self, position: &Vec<Arc<Key>>) -> Json {
        Json::Array(position.iter().map(|k| k.to_json()).collect())
    }

    /// `from -> to` with the script's `show`; `+` between the parts a split leaves, `nothing`
    /// when it leaves none.
    fn write_move(&self, from: &Vec<Arc<Key>>, to: &Vec<Arc<Key>>) -> String {
        let script = &self.0.script;
        let show = |k: &Key| script.show(k).unwrap_or_else(|_| k.to_string());
        let from: Vec<String> = from.iter().map(|k| show(k)).collect();
        let to: Vec<String> = to.iter().map(|k| show(k)).collect();
        let to = if to.is_empty() {
            "nothing".to_string()
        } else {
            to.join("+")
        };
        format!("{} -> {to}", from.join("+"))
    }
}
