//! The one registry of games: every spec with its parameters, position syntax, summary,
//! examples, kind and layout, and the builder that turns a spec into a game. The command line,
//! the server, `sprague catalog` and `--help` all read it; nothing else lists games.
//!
//! A [`Catalog`] holds the [`Settings`] games are built with (where strong solutions are kept,
//! the caps of scripts): the front end chooses them, the library reads no environment.
//!
//! ```
//! use sprague::catalog::Catalog;
//! let catalog = Catalog::default();
//! assert_eq!(catalog.game("sub:4,1,3")?.spec(), "sub:1,3,4");
//! assert!(catalog.game("sub:1,x").is_err());
//! let position = catalog.parse_position(&["kayles", "5", "+", "nim", "3"])?;
//! assert_eq!(position.to_string(), "kayles 5 + nim 3");
//! // The README's example: what `sprague value kayles 10 + nim 3` reports.
//! let position = catalog.parse_position(&["kayles", "10", "+", "nim", "3"])?;
//! let report = sprague::analysis::value(&position, sprague::game::Play::Normal)?;
//! assert_eq!(report.nim_value, Some(1));
//! # Ok::<(), sprague::Error>(())
//! ```

use crate::erased::Ruleset;
use crate::erased::{parse_sum, DynGame, EvaluatedGame, ImpartialGame, PartizanGame, Position};
use crate::error::{Error, Result};
use crate::game::{Evaluated, Impartial, Notation};
use crate::games::toads_frogs;
use crate::games::{amazons, cg, chomp, clobber, col_snort, cram, cutcake, domineering, grid};
use crate::games::{
    cards, circle, coins, ends, fibonacci, flipping, graph_file, median, mnk, moore, nim, octal,
};
use crate::games::{hackenbush, node_kayles};
use crate::games::{queues, quixo, split, strips, subtraction, tartan, teeko, wythoff};
use crate::heap::{Code, HeapGame, HeapRules, HeapValues};
use crate::solve::nimsearch::ComponentValues;
use crate::solve::store::{FileStore, Store};
use serde::Serialize;
use std::sync::Arc;

/// A game chosen at run time.
pub type GameRef = Arc<dyn DynGame>;

/// What kind of game an entry is, for front ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Kind {
    /// Impartial: nim values, sums with every other impartial game, misère play.
    Impartial,
    /// Scored: the game's value is a number the players fight over.
    Scored,
    /// A board solved whole by retrograde analysis (wins, losses, ties, draws, remoteness).
    Board,
    /// A two-player game that may go on for ever (draws).
    Loopy,
    /// A game written as a script: its kind depends on the script.
    Script,
    /// Partizan: Left and Right have moves of their own; values are canonical forms (CGSuite's
    /// notation), summable with each other and with impartial games (as nimbers).
    Partizan,
}

/// How front ends draw an entry's positions (the exact board size comes with the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Shape {
    /// Heaps of tokens.
    Heaps,
    /// A row of coins.
    Coins,
    /// A grid of cells.
    Board,
    /// Text.
    Text,
}

/// A spec split into its name (lower case) and parameters, as builders get it.
#[derive(Clone, Copy, Debug)]
pub struct Spec<'a> {
    /// The spec as written.
    pub text: &'a str,
    /// The name, lower case (for take-and-break codes, the code).
    pub name: &'a str,
    /// What follows the first `:`, if anything.
    pub params: Option<&'a str>,
}

impl Spec<'_> {
    /// An [`Error::Spec`] about this spec.
    pub fn error(&self, reason: impl Into<String>) -> Error {
        Error::spec(self.text, reason)
    }

    /// The parameters, or an error naming an example.
    ///
    /// # Errors
    /// [`Error::Spec`] when there are none.
    pub fn params(&self, example: &str) -> Result<&str> {
        match self.params {
            Some(p) if !p.trim().is_empty() => Ok(p.trim()),
            _ => Err(self.error(format!("{} needs parameters, as in {example}", self.name))),
        }
    }

    /// An error if parameters were given.
    ///
    /// # Errors
    /// [`Error::Spec`] when there are some.
    pub fn no_params(&self) -> Result<()> {
        match self.params {
            Some(_) => Err(self.error(format!("{} takes no parameters", self.name))),
            None => Ok(()),
        }
    }
}

/// The settings games are built with: chosen by the front end.
#[derive(Clone)]
pub struct Settings {
    /// Where strong solutions of boards are kept.
    pub store: Arc<dyn Store>,
    /// The caps of `script:PATH` games.
    #[cfg(feature = "rhai")]
    pub script: crate::script::Limits,
    /// Which files `script:PATH` games may load (any, for the command line; a server's own
    /// directory, or none).
    pub script_files: crate::access::ScriptFiles,
    /// When the searches of these games' positions stop (a server request's deadline, an
    /// interrupt); unlimited by default.
    pub budget: crate::budget::Budget,
    /// How the nim-value searches of Cram, Node Kayles and Chomp run: their tables' memory,
    /// threads, checkpoint.
    pub search: crate::solve::nimsearch::Settings,
}

impl Default for Settings {
    /// Solutions in memory only, the default script caps.
    fn default() -> Self {
        Settings {
            store: Arc::new(FileStore::memory()),
            #[cfg(feature = "rhai")]
            script: crate::script::Limits::DEFAULT,
            script_files: crate::access::ScriptFiles::Any,
            budget: crate::budget::Budget::unlimited(),
            search: crate::solve::nimsearch::Settings::default(),
        }
    }
}

/// How an entry recognises a spec's name.
#[derive(Clone, Copy, Debug)]
pub enum Matcher {
    /// Exactly this name (before any `:`).
    Name(&'static str),
    /// A take-and-break code written as the name (`0.77`, `4.07`).
    Code,
}

/// Builds a game from a spec that matched its entry.
pub type Builder = fn(&Spec<'_>, &Settings) -> Result<GameRef>;

/// A catalog entry: how to write one game and its positions, and how to build it.
#[derive(Clone)]
pub struct Entry {
    /// The spec's name or pattern, e.g. `sub:S`.
    pub spec: &'static str,
    /// What the parameters mean (empty if none).
    pub params: &'static str,
    /// The position syntax.
    pub position: &'static str,
    /// A one-line summary, including any rule choices we made.
    pub summary: &'static str,
    /// An example command-line position.
    pub example: &'static str,
    /// More examples.
    pub examples: &'static [&'static str],
    /// What kind of game it is.
    pub kind: Kind,
    /// How its positions are drawn.
    pub layout: Shape,
    /// How a spec's name is recognised.
    pub matcher: Matcher,
    /// The builder.
    pub build: Builder,
}

/// An entry as `sprague catalog --json` prints it.
#[derive(Serialize)]
struct EntryJson<'a> {
    spec: &'a str,
    name: &'a str,
    params: &'a str,
    position: &'a str,
    summary: &'a str,
    example: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    examples: &'a [&'a str],
    kind: Kind,
    layout: Shape,
}

impl Serialize for Entry {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        EntryJson {
            spec: self.spec,
            name: self.name(),
            params: self.params,
            position: self.position,
            summary: self.summary,
            example: self.example,
            examples: self.examples,
            kind: self.kind,
            layout: self.layout,
        }
        .serialize(serializer)
    }
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl Entry {
    /// The name front ends match specs against: the spec up to its `:`.
    pub fn name(&self) -> &'static str {
        self.spec.split(':').next().unwrap_or(self.spec)
    }

    fn matches(&self, name: &str) -> bool {
        match self.matcher {
            Matcher::Name(n) => n == name,
            Matcher::Code => octal::looks_like_code(name),
        }
    }
}

/// The optimal string alignment distance of `a` and `b`: insertions, deletions, substitutions
/// and swaps of neighbours, each one edit.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// A heap game over `rules`, with its table for `table` and `period`.
fn heap(settings: &Settings, spec: impl Into<String>, rules: Arc<dyn HeapRules>) -> GameRef {
    let spec = spec.into();
    heap_game(settings, HeapGame::new(spec, rules))
}

/// [`heap`], for a heap game already built (rows of pins).
fn heap_game(settings: &Settings, game: HeapGame) -> GameRef {
    let game = game.with_budget(settings.budget.clone());
    let spec = game.solver().spec().to_string();
    let values: Arc<dyn HeapValues> = game.solver().clone();
    Arc::new(ImpartialGame::with_heap(spec, game, values).with_budget(settings.budget.clone()))
}

fn impartial<G>(settings: &Settings, spec: impl Into<String>, game: G) -> GameRef
where
    G: Impartial + Notation + Clone + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    Arc::new(ImpartialGame::new(spec, game).with_budget(settings.budget.clone()))
}

/// An impartial game whose components `values` values by a search of its own.
fn searched<G>(
    settings: &Settings,
    spec: impl Into<String>,
    game: G,
    start: Option<G::Position>,
    values: Arc<dyn ComponentValues<G::Position>>,
) -> GameRef
where
    G: Impartial + Notation + Clone + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    let game = match start {
        Some(start) => ImpartialGame::with_start(spec, game, start),
        None => ImpartialGame::new(spec, game),
    };
    Arc::new(
        game.with_values(values)
            .with_budget(settings.budget.clone()),
    )
}

fn evaluated<G>(spec: impl Into<String>, game: G) -> GameRef
where
    G: Evaluated + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    Arc::new(EvaluatedGame::new(spec, game))
}

fn partizan<G: Ruleset>(
    settings: &Settings,
    spec: impl Into<String>,
    game: G,
    start: Option<G::Position>,
) -> GameRef {
    Arc::new(PartizanGame::within(
        spec,
        game,
        start,
        settings.budget.clone(),
    ))
}

/// Wraps a family's own reason as a spec error.
fn spec_error<T>(spec: &Spec<'_>, result: std::result::Result<T, String>) -> Result<T> {
    result.map_err(|r| spec.error(r))
}

fn build_nim(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(heap(settings, "nim", Arc::new(nim::NimRules)))
}

fn build_bash(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let rules = spec_error(s, subtraction::parse_bash(s.params("bash:3")?))?;
    Ok(heap(settings, format!("bash:{}", rules.m), Arc::new(rules)))
}

fn build_sub(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let (spec, code) = spec_error(s, subtraction::parse_sub(s.params("sub:1,3,4")?))?;
    Ok(heap(settings, spec, Arc::new(code)))
}

fn build_allbut(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let (spec, code) = spec_error(s, subtraction::parse_allbut(s.params("allbut:1,2")?))?;
    Ok(heap(settings, spec, Arc::new(code)))
}

fn build_code(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let (spec, code) = match s.name {
        "octal" => spec_error(s, octal::parse_code(s.params("octal:0.77")?))?,
        name => {
            s.no_params()?;
            match octal::parse_code_name(name) {
                Some(parsed) => spec_error(s, parsed)?,
                None => return Err(s.error("not a take-and-break code")),
            }
        }
    };
    // Kayles and Dawson's Kayles are rows of pins: their moves are read as pins knocked down.
    if matches!(spec.as_str(), "kayles" | "dawson") {
        return Ok(heap_game(
            settings,
            HeapGame::new(spec, Arc::new(code)).as_pins(),
        ));
    }
    Ok(heap(settings, spec, Arc::new(code)))
}

fn build_split(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let rules = spec_error(s, split::parse_split(s.params("split:take=any/into=2")?))?;
    let spec = rules.spec.clone();
    // Rules that are a take-and-break code run on the code's fast engine.
    Ok(match rules.as_code() {
        Some(code) => heap(settings, spec, Arc::new(code)),
        None => heap(settings, spec, Arc::new(rules)),
    })
}

fn build_grundy(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(heap(settings, "grundy", Arc::new(Code::grundy())))
}

fn build_strips(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let (spec, code) = spec_error(s, strips::parse_strips(s.params("strips:1,5,1")?))?;
    Ok(heap(settings, spec, Arc::new(code)))
}

fn build_wythoff(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(impartial(settings, "wythoff", wythoff::Wythoff::default()))
}

fn build_moore(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let game = spec_error(s, moore::parse_moore(s.params("moore:2")?))?;
    Ok(impartial(settings, format!("moore:{}", game.k), game))
}

fn build_fib(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(impartial(settings, "fib", fibonacci::Fib))
}

fn build_circle(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let game = spec_error(s, circle::parse_circle(s.params("circle:2")?))?;
    Ok(impartial(settings, format!("circle:{}", game.k), game))
}

fn build_ends(s: &Spec<'_>, _: &Settings) -> Result<GameRef> {
    let take = spec_error(s, ends::parse_take(s.params))?;
    let spec = match take {
        ends::Take::Any => "ends:any",
        ends::Take::One => "ends:1",
    };
    Ok(evaluated(spec, ends::Ends { take }))
}

fn build_median(s: &Spec<'_>, _: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(evaluated("median", median::Median))
}

fn build_queues(s: &Spec<'_>, _: &Settings) -> Result<GameRef> {
    let game = spec_error(s, queues::parse_queues(s.params("queues:10")?))?;
    Ok(evaluated(format!("queues:{}", game.threshold), game))
}

fn build_coins(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let rule = spec_error(s, coins::parse_rule(s.name, s.params))?;
    Ok(impartial(settings, rule.spec(), coins::CoinGame(rule)))
}

fn build_tartan(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    if let (Some(p), "tartan") = (s.params, s.name) {
        if p.matches('*').count() >= 2 {
            let rule = spec_error(s, tartan::parse_tartan3(p))?;
            return Ok(impartial(
                settings,
                rule.spec.clone(),
                coins::CoinGame(rule),
            ));
        }
    }
    let rule = match tartan::parse_tartan(s.name, s.params) {
        Some(rule) => spec_error(s, rule)?,
        None => return Err(s.error("not a Tartan product")),
    };
    Ok(impartial(
        settings,
        rule.spec.clone(),
        coins::CoinGame(rule),
    ))
}

fn build_graph(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    let path = match s.params {
        Some(p) if !p.trim().is_empty() => p.trim(),
        _ => {
            return Err(s.error(
                "write graph:FILE with the path of a graph file ('n m', then m lines 'u v')",
            ))
        }
    };
    let file = settings.script_files.resolve_graph(path)?;
    let game = graph_file::GraphGame::new(crate::solve::Graph::read(file)?);
    Ok(impartial(settings, format!("graph:{path}"), game))
}

fn build_flip(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(impartial(settings, "flip", flipping::Flipping))
}

fn build_cards(s: &Spec<'_>, _: &Settings) -> Result<GameRef> {
    let game = cards::parse_cards(s.params("cards:2,10")?)?;
    Ok(evaluated(game.spec(), game))
}

fn build_board(s: &Spec<'_>, settings: &Settings, gravity: bool, example: &str) -> Result<GameRef> {
    let (spec, rules) = spec_error(s, mnk::parse_board_game(s.params(example)?, gravity))?;
    let game = mnk::BoardGame::new(spec.clone(), rules, settings.store.clone())
        .with_budget(settings.budget.clone());
    Ok(evaluated(spec, game))
}

fn build_mnk(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    build_board(s, settings, false, "mnk:3,3,3")
}

fn build_connect(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    build_board(s, settings, true, "connect:7,6,4")
}

fn build_quixo(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    use quixo::SquareRules;
    let rules = spec_error(s, quixo::parse_quixo(s.params("quixo:4")?))?;
    let spec = rules.spec();
    Ok(evaluated(
        spec,
        quixo::SquareGame::new(rules, settings.store.clone()).with_budget(settings.budget.clone()),
    ))
}

fn build_teeko(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    let game = quixo::SquareGame::new(teeko::Teeko::new(), settings.store.clone())
        .with_budget(settings.budget.clone());
    Ok(evaluated("teeko", game))
}

/// The size of `name:RxC`, if given, with the spec written back.
fn board_size(s: &Spec<'_>) -> Result<Option<(String, usize, usize)>> {
    match s.params {
        None => Ok(None),
        Some(p) => {
            let (rows, cols) =
                grid::Grid::parse_size(p.trim()).map_err(|e| s.error(e.to_string()))?;
            Ok(Some((format!("{}:{rows}x{cols}", s.name), rows, cols)))
        }
    }
}

/// A board's text from a function of the cell.
fn board_of(rows: usize, cols: usize, cell: impl Fn(usize, usize) -> char) -> String {
    let rows: Vec<String> = (0..rows)
        .map(|r| (0..cols).map(|c| cell(r, c)).collect())
        .collect();
    rows.join("|")
}

fn build_domineering(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    use domineering::Domineering;
    Ok(match board_size(s)? {
        None => partizan(settings, "domineering", Domineering, None),
        Some((spec, rows, cols)) => {
            let start = Domineering::rectangle(rows, cols).map_err(|e| s.error(e.to_string()))?;
            partizan(settings, spec, Domineering, Some(start))
        }
    })
}

fn build_cram(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    use cram::{Cram, CramValues};
    let (spec, start) = match board_size(s)? {
        None => ("cram".to_string(), None),
        Some((spec, rows, cols)) => {
            let start = Cram::rectangle(rows, cols).map_err(|e| s.error(e.to_string()))?;
            (spec, Some(start))
        }
    };
    let values = Arc::new(CramValues::new(settings.search.clone()));
    Ok(searched(settings, spec, Cram, start, values))
}

fn build_node_kayles(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    use node_kayles::{NodeKayles, NodeKaylesValues};
    s.no_params()?;
    // Graph files only where the front end lets the user name files (not a server).
    let files = settings.script_files == crate::access::ScriptFiles::Any;
    let values = Arc::new(NodeKaylesValues::new(settings.search.clone()));
    Ok(searched(
        settings,
        "node-kayles",
        NodeKayles { files },
        None,
        values,
    ))
}

fn build_chomp(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    use chomp::{Chomp, ChompValues, Diagram};
    let (spec, start) = match s.params {
        None => ("chomp".to_string(), None),
        Some(p) => {
            let bad = || {
                s.error(format!(
                    "invalid bar size '{}' (expected RxC, such as 4x7)",
                    grid::printable(p.trim())
                ))
            };
            let (r, c) = p.trim().split_once(['x', 'X']).ok_or_else(bad)?;
            let rows: usize = r.trim().parse().map_err(|_| bad())?;
            let cols: usize = c.trim().parse().map_err(|_| bad())?;
            let start = Diagram::rectangle(rows, cols).map_err(|e| s.error(e))?;
            (format!("chomp:{rows}x{cols}"), Some(start))
        }
    };
    let values = Arc::new(ChompValues::new(settings.search.clone()));
    Ok(searched(settings, spec, Chomp, start, values))
}

fn build_clobber(s: &Spec<'_>, settings: &Settings, rules: clobber::Rules) -> Result<GameRef> {
    let game = clobber::Clobber(rules);
    Ok(match board_size(s)? {
        None => partizan(settings, s.name, game, None),
        Some((spec, rows, cols)) => {
            // The usual start: a full checkerboard, Left's stone in the top-left corner.
            let text = board_of(rows, cols, |r, c| if (r + c) % 2 == 0 { 'x' } else { 'o' });
            let start = clobber::Stones::parse(&text).map_err(|e| s.error(e.to_string()))?;
            partizan(settings, spec, game, Some(start))
        }
    })
}

fn build_amazons(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    use amazons::Amazons;
    Ok(match board_size(s)? {
        None => partizan(settings, "amazons", Amazons, None),
        Some((spec, rows, cols)) => {
            // Left's amazon in the top-left corner, Right's in the bottom-right one.
            let last = (rows - 1, cols - 1);
            let text = board_of(rows, cols, |r, c| match (r, c) {
                (0, 0) => 'x',
                p if p == last => 'o',
                _ => '.',
            });
            let start = Amazons::parse(&text).map_err(|e| s.error(e.to_string()))?;
            partizan(settings, spec, Amazons, Some(start))
        }
    })
}

fn build_hackenbush(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(partizan(
        settings,
        "hackenbush",
        hackenbush::Hackenbush,
        None,
    ))
}

fn build_toads_frogs(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(partizan(
        settings,
        "toads-frogs",
        toads_frogs::ToadsFrogs,
        None,
    ))
}

fn build_cutcake(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(partizan(settings, "cutcake", cutcake::Cutcake, None))
}

fn build_col_snort(s: &Spec<'_>, settings: &Settings, rules: col_snort::Rules) -> Result<GameRef> {
    s.no_params()?;
    Ok(partizan(settings, s.name, col_snort::ColSnort(rules), None))
}

fn build_cg(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    s.no_params()?;
    Ok(partizan(settings, "cg", cg::Cg::default(), None))
}

#[cfg(feature = "rhai")]
fn build_script(s: &Spec<'_>, settings: &Settings) -> Result<GameRef> {
    use crate::script::{load_game, ScriptGame};
    let path = match s.params {
        Some(p) if !p.trim().is_empty() => p.trim(),
        _ => return Err(s.error("write script:PATH with the path of a .rhai file")),
    };
    let spec = format!("script:{path}");
    Ok(
        match load_game(
            path,
            settings.script,
            settings.budget.clone(),
            &settings.script_files,
        )? {
            ScriptGame::Impartial(game) => {
                let values = game.heap_values();
                Arc::new(
                    ImpartialGame::with_heap(spec, game, values)
                        .with_budget(settings.budget.clone()),
                )
            }
            ScriptGame::Heap(rules) => heap(settings, spec, Arc::new(rules)),
            ScriptGame::TwoPlayer(game) => evaluated(spec, game),
        },
    )
}

const HEAPS: &str = "heap sizes";
const COINS: &str = "1-based positions of the heads (a coin given twice is tails)";
const CELLS: &str = "heads as x,y pairs, 0-based (x the column, y the row)";

/// Every entry, in catalog order.
pub static ENTRIES: &[Entry] = &[
    Entry {
        spec: "nim",
        params: "",
        position: HEAPS,
        summary: "Nim: take any positive number from one heap; G(n) = n",
        example: "nim 3 4 5",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("nim"),
        build: build_nim,
    },
    Entry {
        spec: "bash:M",
        params: "M ≥ 1: the most tokens a move takes",
        position: HEAPS,
        summary: "Bash: take 1 to M tokens from one heap; G(n) = n mod (M+1)",
        example: "bash:3 10 7",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("bash"),
        build: build_bash,
    },
    Entry {
        spec: "sub:S",
        params: "S: the amounts a move may take, numbers and ranges (1-3,7); 0 is not allowed",
        position: HEAPS,
        summary: "subtraction game: take exactly s tokens for some s in S; periods certified after n0+p+max(S) values",
        example: "sub:1,3,4 10 12",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("sub"),
        build: build_sub,
    },
    Entry {
        spec: "allbut:S",
        params: "S: the amounts a move may not take, numbers and ranges; 0 is not allowed",
        position: HEAPS,
        summary: "take any positive number of tokens except those in S; periods are never certified",
        example: "allbut:1,2 10",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("allbut"),
        build: build_allbut,
    },
    Entry {
        spec: "0.D1D2...",
        params: "digits d_t (octal, or hexadecimal 8-F) for removing t tokens: +1 take the whole heap, +2 leave one heap, +4 leave two, +8 leave three; also written octal:CODE",
        position: HEAPS,
        summary: "take-and-break game in Guy-Smith code; periods certified by the Guy-Smith bound (h·n0 + h·p + k values for moves leaving up to h heaps)",
        example: "0.137 8 9",
        examples: &["octal:0.6 20"],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Code,
        build: build_code,
    },
    Entry {
        spec: "D0.D1D2...",
        params: "a digit before the point splits without removing: 4 into two heaps, 8 into three, C either",
        position: HEAPS,
        summary: "take-and-break game whose moves may split a heap without taking from it",
        example: "4.07 10",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("octal"),
        build: build_code,
    },
    Entry {
        spec: "kayles",
        params: "",
        position: HEAPS,
        summary: "Kayles (0.77): knock down one pin or two adjacent pins of a row; period 12 from 71",
        example: "kayles 5 9",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("kayles"),
        build: build_code,
    },
    Entry {
        spec: "dawson",
        params: "",
        position: HEAPS,
        summary: "Dawson's Kayles (0.07): knock down two adjacent pins; period 34 from 53",
        example: "dawson 10",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("dawson"),
        build: build_code,
    },
    Entry {
        spec: "dawson-chess",
        params: "",
        position: HEAPS,
        summary: "Dawson's Chess (0.137); period 34 from 52",
        example: "dawson-chess 10",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("dawson-chess"),
        build: build_code,
    },
    Entry {
        spec: "officers",
        params: "",
        position: HEAPS,
        summary: "Officers (0.6): take one token, leaving the rest as one heap or two; no period known",
        example: "officers 20",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("officers"),
        build: build_code,
    },
    Entry {
        spec: "treblecross",
        params: "",
        position: HEAPS,
        summary: "Treblecross (0.007), one-dimensional tic-tac-toe as a take-and-break game; no period known",
        example: "treblecross 20",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("treblecross"),
        build: build_code,
    },
    Entry {
        spec: "grundy",
        params: "",
        position: HEAPS,
        summary: "Grundy's game: split one heap into two nonempty heaps of different sizes; no period is known or certified",
        example: "grundy 10",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("grundy"),
        build: build_grundy,
    },
    Entry {
        spec: "split:CLAUSES",
        params: "clauses joined by '/': take=S (remove s in S, e.g. 1-3,7 or any), into=K (split into k in K nonempty heaps; into=K@S removes s first), distinct=K and equal=K (pieces all different, all equal), below=K (replace the heap by k chips on any smaller nodes; 0 removes it)",
        position: HEAPS,
        summary: "chip splitting (seed 004): a heap is a chip on node n, a move replaces it by chips on smaller nodes as the clauses allow; Lasker's Nim is split:take=any/into=2, Grundy's game split:distinct=2; take-and-break rules run on the code engine",
        example: "split:take=any/into=2 5 7",
        examples: &["split:distinct=3/below=1 9 4", "split:equal=2-3@1 12"],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("split"),
        build: build_split,
    },
    Entry {
        spec: "strips:C,Z,N",
        params: "C,Z,N ≥ 1: the lengths of the red, green and blue stripes",
        position: "strip lengths (free segments of the board)",
        summary: "POI 2000 Strips: place a stripe of length C, Z or N on free cells of a 1×p strip; the player who cannot loses (code: digit 7 at C, Z, N)",
        example: "strips:1,5,1 6",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Heaps,
        matcher: Matcher::Name("strips"),
        build: build_strips,
    },
    Entry {
        spec: "wythoff",
        params: "",
        position: "two heap sizes",
        summary: "Wythoff's game: take any number from one heap or the same number from both; P-positions (⌊kφ⌋, ⌊kφ⌋+k) in exact integer arithmetic for any 64-bit heaps; nim values (for sums with other games) when both heaps are at most 512, or the smaller at most 64 by the rows' certified additive periodicity",
        example: "wythoff 4 5",
        examples: &["wythoff 3 1000000000 + nim 7"],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("wythoff"),
        build: build_wythoff,
    },
    Entry {
        spec: "moore:K",
        params: "K ≥ 1: the most heaps one move may take from",
        position: "heap sizes (the whole list is one position)",
        summary: "Moore's Nim_K: take from 1 to K heaps, any positive amount from each; P iff every bit count is a multiple of K+1; winning moves: all of them when there are at most 100000 options, else the constructive move of seed 004; its nim value (for sums) by search, as far as memory allows",
        example: "moore:2 5 6 7 1",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("moore"),
        build: build_moore,
    },
    Entry {
        spec: "fib",
        params: "",
        position: "n (the start: the first move takes 1..n-1), or n t (n left, the previous move took t, so 1..2t may be taken)",
        summary: "Fibonacci Nim: P iff 2t (n-1 at the start) is below the least Zeckendorf term of n; every winning move listed for any 64-bit n; nim value (for sums) by search for n up to 256",
        example: "fib 20",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("fib"),
        build: build_fib,
    },
    Entry {
        spec: "circle:K",
        params: "K ≥ 1: the most adjacent coins one move takes",
        position: "n (coins in a circle); several numbers are a sum of circles; line:M is a row of M coins, what the circle becomes after the first move",
        summary: "coins in a circle, take 1..K adjacent; K ≥ 2: N iff 1 ≤ n ≤ K (the second player splits the row symmetrically), nim value n or 0; K = 1: parity; rows are the octal game 0.77…7, valued by a mex table up to 20000 coins",
        example: "circle:2 7",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("circle"),
        build: build_circle,
    },
    Entry {
        spec: "ends:any",
        params: "",
        position: "the numbers (negative allowed)",
        summary: "take any positive count of numbers from either end; value: the mover's total minus the other's; outcome N/P/D by its sign; the winning moves are the optimal ones ('left K', 'right K'); O(n²)",
        example: "ends:any 3 -1 4 1 -5 9",
        examples: &[],
        kind: Kind::Scored,
        layout: Shape::Text,
        matcher: Matcher::Name("ends"),
        build: build_ends,
    },
    Entry {
        spec: "ends:1",
        params: "",
        position: "the numbers (negative allowed)",
        summary: "take one number from either end; value: the mover's total minus the other's (never negative for an even count); the winning moves are the optimal ones; O(n²)",
        example: "ends:1 3 9 1 2",
        examples: &[],
        kind: Kind::Scored,
        layout: Shape::Text,
        matcher: Matcher::Name("ends"),
        build: build_ends,
    },
    Entry {
        spec: "median",
        params: "",
        position: "the numbers, optionally after 'max' (the default) or 'min': the goal of the player to move",
        summary: "remove the first or last number until one is left; max wants it large, min small; value: the number left (O(1), seed 004's formula); outcome D (no winner); the winning moves are the optimal ones",
        example: "median 1 5 2 9",
        examples: &[],
        kind: Kind::Scored,
        layout: Shape::Text,
        matcher: Matcher::Name("median"),
        build: build_median,
    },
    Entry {
        spec: "queues:M",
        params: "M: the threshold; whoever makes the running sum reach M loses",
        position: "two comma lists of non-negative numbers (- for an empty queue), then optionally the running sum (default 0); M must not exceed the sum plus every number",
        summary: "two-queue game of seed 004: pop the head of either queue; win or loss only (no value); solved in O((W+H) log) by the diagonal lemma",
        example: "queues:10 1,2,3 4,5",
        examples: &[],
        kind: Kind::Scored,
        layout: Shape::Text,
        matcher: Matcher::Name("queues"),
        build: build_queues,
    },
    Entry {
        spec: "ruler",
        params: "",
        position: COINS,
        summary: "Ruler: flip any run of consecutive coins whose rightmost coin is heads; G(n) = the largest power of 2 dividing n",
        example: "ruler 5 8 10 11 13",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Coins,
        matcher: Matcher::Name("ruler"),
        build: build_coins,
    },
    Entry {
        spec: "ruler:K",
        params: "K ≥ 1: the longest run a move may flip",
        position: COINS,
        summary: "Ruler with runs of at most K coins; G(n) = lowbit(((n-1) mod h) + 1), h the largest power of 2 ≤ K",
        example: "ruler:3 1 4 6",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Coins,
        matcher: Matcher::Name("ruler"),
        build: build_coins,
    },
    Entry {
        spec: "turtles",
        params: "",
        position: COINS,
        summary: "Turning Turtles: flip a head, and optionally one coin to its left; G(n) = n (it is Nim)",
        example: "turtles 3 5 6",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Coins,
        matcher: Matcher::Name("turtles"),
        build: build_coins,
    },
    Entry {
        spec: "mock-turtles",
        params: "",
        position: COINS,
        summary: "Mock Turtles: flip a head and up to two coins to its left; G(n) = the (n-1)-th odious number 1, 2, 4, 7, 8, …",
        example: "mock-turtles 2 5 9",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Coins,
        matcher: Matcher::Name("mock-turtles"),
        build: build_coins,
    },
    Entry {
        spec: "corners",
        params: "",
        position: CELLS,
        summary: "2D corner flipping (Tartan product): choose a rectangle with both sides ≥ 2 whose lower-right coin is heads, flip its four corners; G(x,y) = x ⊗ y",
        example: "corners 1,1 2,3 5,2",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("corners"),
        build: build_tartan,
    },
    Entry {
        spec: "corners:W,H",
        params: "W, H ≥ 2: the widest and tallest rectangle",
        position: CELLS,
        summary: "corner flipping with rectangles at most W wide and H tall; G(x,y) = (x mod W) ⊗ (y mod H)",
        example: "corners:3,4 2,2 4,5",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("corners"),
        build: build_tartan,
    },
    Entry {
        spec: "rectangles",
        params: "",
        position: CELLS,
        summary: "Ruler × Ruler: flip every coin of a rectangle whose lower-right coin is heads; G(x,y) = lowbit(x+1) ⊗ lowbit(y+1)",
        example: "rectangles 3,3 1,7",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("rectangles"),
        build: build_tartan,
    },
    Entry {
        spec: "rectangles:W,H",
        params: "W, H ≥ 1: the widest and tallest rectangle",
        position: CELLS,
        summary: "seed 004 problem 5 as the product of ruler:W and ruler:H: flip every coin of a rectangle at most W wide and H tall whose lower-right coin is heads",
        example: "rectangles:3,5 2,2 6,9",
        examples: &["rectangles:2,2 1,1 2,0"],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("rectangles"),
        build: build_tartan,
    },
    Entry {
        spec: "tartan:A*B",
        params: "A, B: coin games (ruler, ruler:K, turtles, mock-turtles, twins, twins:W) on the x and y axes",
        position: "heads as x,y pairs, 0-based: coordinate u is coin u+1 of the coin game",
        summary: "the Tartan product of two coin-turning games: a move flips the product of a move of A on x and a move of B on y; G(x,y) = GA(x+1) ⊗ GB(y+1)",
        example: "tartan:ruler*turtles 2,3 5,1",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("tartan"),
        build: build_tartan,
    },
    Entry {
        spec: "tartan:A*B*C",
        params: "A, B, C: coin games (ruler, ruler:K, turtles, mock-turtles, twins, twins:W) on the x, y and z axes",
        position: "heads as x,y,z triples, 0-based: coordinate u is coin u+1 of its coin game",
        summary: "the Tartan product of three coin-turning games (tartan:twins*twins*twins is 3-D corner flipping: flip the 8 corners of a box whose far corner is heads); G(x,y,z) = GA(x+1) ⊗ GB(y+1) ⊗ GC(z+1), and winning moves come from the nimber algebra",
        example: "tartan:ruler*ruler*ruler 1,1,2 2,1,0",
        examples: &["tartan:twins*twins*twins 1,1,1 1,2,3"],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("tartan"),
        build: build_tartan,
    },
    Entry {
        spec: "graph:FILE",
        params: "FILE: a graph file as for 'sprague solve FILE' (a first line 'n m', then m lines 'u v', a move from u to v); cycles allowed",
        position: "a vertex (0 to n-1): where the token is",
        summary: "a token on a vertex of a graph, moved along an edge; valued by Smith's generalized Sprague–Grundy rule (finite, or ∞(K) on cycles), so it sums with any impartial game",
        example: "graph:examples/graphs/loop.txt 2 + kayles 4",
        examples: &["graph:examples/graphs/loop.txt 7 + nim 2", "graph:examples/graphs/loop.txt 3 + nim 1"],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("graph"),
        build: build_graph,
    },
    Entry {
        spec: "flip",
        params: "",
        position: "the counts a1 … an (the nim value needs n ≤ 64 when a1 is odd)",
        summary: "seed 004's flipping game: take one from some a_i > 0 and add one to any set of later counts; it is Nim with a heap of 2^(n-i) per odd a_i, so P iff every count is even",
        example: "flip 3 0 2 1",
        examples: &[],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("flip"),
        build: build_flip,
    },
    Entry {
        spec: "cards:N,M",
        params: "N cards a hand (1 to 7), card values 0..M-1 (M from 1 to 256); at most 3000000 states",
        position: "the mover's hand and the opponent's hand as comma lists, then optionally y, the card the opponent played last (default 0): '1,2 3,4' or '1,2 3,4 7'; without a position, all cards 1 and y = 0",
        summary: "seed 004's loopy card game: the mover replaces one own card x by (x+y) mod M, y being the card the opponent played last (0 before anyone has played); the card played is x, its value before the change; a player wins as soon as one of their cards is 0 after their own move (so the mover has lost if the opponent holds a 0); endless play is a draw (D)",
        example: "cards:2,10 1,2 3,4",
        examples: &[],
        kind: Kind::Loopy,
        layout: Shape::Text,
        matcher: Matcher::Name("cards"),
        build: build_cards,
    },
    Entry {
        spec: "mnk:M,N,K",
        params: "M columns, N rows (M×N at most 64), K in a row wins",
        position: "board string, rows top to bottom, x o . (e.g. x...o....); empty if omitted; x moves first",
        summary: "m,n,k-game (mnk:3,3,3 is tic-tac-toe); a full board without a line is a tie (D); moves name cells like b2",
        example: "mnk:3,3,3 x...o....",
        examples: &[],
        kind: Kind::Board,
        layout: Shape::Board,
        matcher: Matcher::Name("mnk"),
        build: build_mnk,
    },
    Entry {
        spec: "connect:W,H,K",
        params: "W columns, H rows (W×H at most 64), K in a row wins",
        position: "board string as for mnk (rows top to bottom, x o .), no floating pieces; empty if omitted",
        summary: "Connect-K with gravity (connect:7,6,4 is Connect Four, too large to solve here); a full board is a tie (D); moves are column numbers",
        example: "connect:4,4,3 ........x...o..x",
        examples: &[],
        kind: Kind::Board,
        layout: Shape::Board,
        matcher: Matcher::Name("connect"),
        build: build_connect,
    },
    Entry {
        spec: "domineering:RxC",
        params: "optional R×C: the empty board of R rows and C columns, when no board is given (at most 128 cells)",
        position: "a board, rows joined by | (or /) as in CGSuite's grids: . empty, # blocked (e.g. '...|.#.|...')",
        summary: "Domineering: place a domino on two empty adjacent cells; Left places them vertically, Right horizontally (CGSuite's convention); the player who cannot loses; moves read (1,2)-(2,2)",
        example: "domineering:2x2",
        examples: &["domineering '....|.#..|....'", "domineering:4x4"],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("domineering"),
        build: build_domineering,
    },
    Entry {
        spec: "cram:RxC",
        params: "optional R×C: the empty board of R rows and C columns, when no board is given (at most 128 cells)",
        position: "a board as for domineering, rows joined by | (or /): . empty, # blocked (e.g. '...|.#.|...')",
        summary: "Cram: place a domino on two empty adjacent cells, either way (impartial Domineering); the player who cannot loses; each region is valued once up to the board's symmetries, by search of the region plus a nim heap (tables capped by --search-memory); moves read (1,1)-(1,2)",
        example: "cram ...|.#.|...",
        examples: &["cram:3x4", "cram '....|.#..|....'"],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("cram"),
        build: build_cram,
    },
    Entry {
        spec: "node-kayles",
        params: "",
        position: "a graph N:u-v,u-v,... as for col (N vertices numbered from 0, then the edges; at most 256 vertices), optionally ;V,V,... for vertices already taken; on the command line, or a file holding such a graph or an edge list (a line 'n m', then m lines 'u v')",
        summary: "Node Kayles: take a vertex together with its neighbours; the player who cannot loses (on a path of n vertices, Dawson's Chess 0.137); components valued by search of the component plus a nim heap; moves read take V",
        example: "node-kayles 5:0-1,1-2,2-3,3-4,4-0",
        examples: &["node-kayles 4:0-1,1-2,2-3"],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("node-kayles"),
        build: build_node_kayles,
    },
    Entry {
        spec: "chomp:RxC",
        params: "optional R×C: the full bar of R rows and C columns (at most 255 squares), when no heights are given",
        position: "column heights, longest first (a Young diagram; e.g. 4 4 3 1); the poisoned square is the bottom of the first column",
        summary: "Chomp: eat a square with every square above and to the right of it; the poisoned square is never taken, so the player left with it alone loses; values from a table of every diagram of the bar (one pass over their ranks); moves read (row,column) from the poisoned square",
        example: "chomp 4 4 3 1",
        examples: &["chomp:4x7", "chomp 3 2 2"],
        kind: Kind::Impartial,
        layout: Shape::Text,
        matcher: Matcher::Name("chomp"),
        build: build_chomp,
    },
    Entry {
        spec: "hackenbush",
        params: "",
        position: "stalks from the ground up, one word each: B blue (Left's), R red (Right's), G green (either's), e.g. BBR RG; 0 for nothing; a graph grounded at vertex 0 as edges u-v:C joined by commas (0-1:B,1-2:R,1-2:G)",
        summary: "Hackenbush: Left (Blue) cuts a blue or green edge, Right (Red) a red or green one; what no longer touches the ground falls; moves read cut u-v",
        example: "hackenbush BBR RG",
        examples: &["hackenbush BR", "hackenbush 0-1:B,1-2:R,1-2:G"],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("hackenbush"),
        build: build_hackenbush,
    },
    Entry {
        spec: "toads-frogs",
        params: "",
        position: "a strip of T (toads, Left's, moving right), F (frogs, Right's, moving left) and . (at most 256 squares)",
        summary: "Toads and Frogs: a toad or frog steps into the empty square ahead or jumps one opposing piece into the empty square beyond; moves read T 2-3",
        example: "toads-frogs TT..FF",
        examples: &["toads-frogs T.F"],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("toads-frogs"),
        build: build_toads_frogs,
    },
    Entry {
        spec: "clobber:RxC",
        params: "optional R×C: the full checkerboard of R rows and C columns (x in the top-left corner), when no board is given",
        position: "a board, rows joined by |: x Left's stones, o Right's, . empty, # off the board",
        summary: "Clobber: move a stone of yours onto an orthogonally adjacent stone of the opponent's, removing it; moves read (1,1)-(1,2)",
        example: "clobber xo|ox",
        examples: &["clobber:2x3"],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("clobber"),
        build: |s, settings| build_clobber(s, settings, clobber::Rules::Clobber),
    },
    Entry {
        spec: "konane:RxC",
        params: "optional R×C: the full checkerboard of R rows and C columns, when no board is given",
        position: "a board as for clobber: x Left's stones, o Right's, . empty, # off the board",
        summary: "Konane: jump a stone of yours over an orthogonally adjacent opposing stone into the empty cell beyond, removing it, and keep jumping in the same direction if you like",
        example: "konane xo.|...",
        examples: &[],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("konane"),
        build: |s, settings| build_clobber(s, settings, clobber::Rules::Konane),
    },
    Entry {
        spec: "cutcake",
        params: "",
        position: "pieces RxC (R rows by C columns, sides up to 64), e.g. 2x3 1x4",
        summary: "Cutcake: Left cuts a piece vertically (splitting its columns), Right horizontally (splitting its rows); moves read cut RxC at a",
        example: "cutcake 2x3 1x4",
        examples: &[],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("cutcake"),
        build: build_cutcake,
    },
    Entry {
        spec: "col",
        params: "",
        position: "a graph N:u-v,u-v,... (N vertices numbered from 0, then the edges; at most 62 vertices), optionally ;0B,3R for vertices already coloured",
        summary: "Col: colour an uncoloured vertex, Left blue, Right red, never next to a vertex of your own colour; moves read colour V",
        example: "col 4:0-1,1-2,2-3",
        examples: &[],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("col"),
        build: |s, settings| build_col_snort(s, settings, col_snort::Rules::Col),
    },
    Entry {
        spec: "snort",
        params: "",
        position: "a graph as for col",
        summary: "Snort: colour an uncoloured vertex, Left blue, Right red, never next to a vertex of the opponent's colour; moves read colour V",
        example: "snort 4:0-1,1-2,2-3",
        examples: &[],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("snort"),
        build: |s, settings| build_col_snort(s, settings, col_snort::Rules::Snort),
    },
    Entry {
        spec: "amazons:RxC",
        params: "optional R×C: when no board is given, the R×C board with Left's amazon in the top-left corner and Right's in the bottom-right one",
        position: "a small board, rows joined by |: x Left's amazons, o Right's, . empty, # burnt",
        summary: "Amazons: move an amazon of yours like a chess queen, then shoot an arrow from where it lands, like a queen; the arrow burns its cell; moves read (1,1)-(2,2)/(1,2)",
        example: "amazons x..|..o",
        examples: &["amazons:2x3"],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("amazons"),
        build: build_amazons,
    },
    Entry {
        spec: "cg",
        params: "",
        position: "a value in CGSuite's notation, one argument: 0, *, *3, 1/2, -3/4, ^, v, ^*, ^2, v3*, ±1 (or +-1), {1|-1}, {2|1||0}, {0,*|0}, with + and - between terms",
        summary: "a short partizan game written as its value: its canonical form, summable with any partizan or impartial game; moves read to V (an option's canonical form)",
        example: "cg '{2|1||0}+^'",
        examples: &["cg '{0|{0|0}}'"],
        kind: Kind::Partizan,
        layout: Shape::Text,
        matcher: Matcher::Name("cg"),
        build: build_cg,
    },
    #[cfg(feature = "rhai")]
    Entry {
        spec: "script:PATH",
        params: "PATH: a Rhai script defining options(pos) (impartial), heap_options(n) (heap ruleset, certified periods with max_heaps() and max_removed()), or moves(pos) and result(pos) (two players, draws)",
        position: "words parsed by the script's parse(text), else Rhai literals (5, \"abc\", [1,2]); impartial games take one summand a word; start() when omitted",
        summary: "a game written as a sandboxed script; see examples/scripts/",
        example: "script:examples/scripts/kayles.rhai 5 6",
        examples: &[],
        kind: Kind::Script,
        layout: Shape::Text,
        matcher: Matcher::Name("script"),
        build: build_script,
    },
    Entry {
        spec: "quixo:N",
        params: "the board side N: 3, 4 or 5 (quixo:5 is too large to solve here)",
        position: "board string, rows top to bottom, x o . (e.g. x...o...........), then the player to move, x or o (default x); the empty board if omitted",
        summary: "Quixo: take a blank or own cube from the border, push it back in at an end of its row or column, now showing your symbol; N in a row wins, completing the opponent's line loses; endless play is a draw (D); moves read like a1-a4 (take a1, push in at a4)",
        example: "quixo:3 x...o.... x",
        examples: &[],
        kind: Kind::Board,
        layout: Shape::Text,
        matcher: Matcher::Name("quixo"),
        build: build_quixo,
    },
    Entry {
        spec: "teeko",
        params: "",
        position: "board string, 5 rows of 5 top to bottom, x o . ; while placing, the player to move follows from the counts (x first); with all eight pieces down, add x or o (default x); the empty board if omitted",
        summary: "Teeko: each player places four pieces, then moves one a turn to an adjacent empty cell (8 directions); four in a line or a 2×2 square wins; endless play is a draw (D); moves read c3 (place) or c3-d4 (move)",
        example: "teeko x...o....................",
        examples: &[],
        kind: Kind::Board,
        layout: Shape::Text,
        matcher: Matcher::Name("teeko"),
        build: build_teeko,
    },
];

/// The registry with the settings its games are built with.
#[derive(Clone, Default)]
pub struct Catalog {
    settings: Settings,
}

impl Catalog {
    /// A catalog that builds games with `settings`.
    pub fn new(settings: Settings) -> Catalog {
        Catalog { settings }
    }

    /// Every entry, in catalog order.
    pub fn entries() -> &'static [Entry] {
        ENTRIES
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The same catalog, whose games' searches stop when `budget` is spent (one per server
    /// request, say).
    pub fn with_budget(&self, budget: crate::budget::Budget) -> Catalog {
        Catalog::new(Settings {
            budget,
            ..self.settings.clone()
        })
    }

    /// Builds the game of a spec such as `kayles`, `sub:1,3,4` or `0.137`.
    ///
    /// # Errors
    /// [`Error::Spec`] naming the problem, for an unknown name or bad parameters.
    pub fn game(&self, text: &str) -> Result<GameRef> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::spec(text, "empty game name"));
        }
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (text, None),
        };
        let name = name.to_ascii_lowercase();
        let spec = Spec {
            text,
            name: &name,
            params,
        };
        match ENTRIES.iter().find(|e| e.matches(&name)) {
            Some(entry) => (entry.build)(&spec, &self.settings),
            None => Err(spec.error(match Catalog::suggest(&name) {
                Some(near) => {
                    format!(
                        "unknown game; did you mean '{near}'? (run 'sprague catalog' for the list)"
                    )
                }
                None => "unknown game; run 'sprague catalog' for the list".into(),
            })),
        }
    }

    /// The catalog's game name nearest to `name` when one is near enough to be a typo (at most
    /// one edit in four letters, two at most; a swap of two neighbours counts as one), for "did
    /// you mean ...?".
    ///
    /// ```
    /// use sprague::catalog::Catalog;
    /// assert_eq!(Catalog::suggest("kaylse"), Some("kayles"));
    /// assert_eq!(Catalog::suggest("domineerign:3x3"), Some("domineering"));
    /// assert_eq!(Catalog::suggest("chess"), None);
    /// assert_eq!(Catalog::suggest("fibonnaci"), Some("fib"));
    /// ```
    pub fn suggest(name: &str) -> Option<&'static str> {
        let name = name.split(':').next().unwrap_or(name).to_ascii_lowercase();
        let allowed = (name.chars().count() / 4).clamp(1, 2);
        ENTRIES
            .iter()
            .filter_map(|e| match e.matcher {
                Matcher::Name(n) => Some((n, e.summary)),
                Matcher::Code => None,
            })
            .map(|(n, summary)| {
                // The name, or the first word of the game's title in its summary when that is a
                // proper name ("Fibonacci Nim: …" for `fib`, "Wythoff's game" for `wythoff`).
                let title = summary
                    .split([' ', ':', '\''])
                    .next()
                    .filter(|w| w.len() >= 5 && w.starts_with(|c: char| c.is_uppercase()))
                    .map(str::to_ascii_lowercase);
                let distance = title
                    .map_or(usize::MAX, |t| edit_distance(&name, &t))
                    .min(edit_distance(&name, n));
                (distance, n)
            })
            .filter(|&(d, _)| d <= allowed)
            .min_by_key(|&(d, _)| d)
            .map(|(_, n)| n)
    }

    /// Whether `word` names a game of the catalog by its name (`nim`, `sub:1,2`), as a word
    /// inside a position does when a `+` was forgotten before it.
    fn names_a_game(word: &str) -> bool {
        let name = word.split(':').next().unwrap_or(word).to_ascii_lowercase();
        ENTRIES
            .iter()
            .any(|e| matches!(e.matcher, Matcher::Name(n) if n == name))
    }

    /// Parses command-line words `GAME POSITION... [+ GAME POSITION...]` into a position.
    ///
    /// # Errors
    /// [`Error::Spec`] for a bad spec or a stray `+`; [`Error::Position`] for a bad position.
    pub fn parse_position<S: AsRef<str>>(&self, words: &[S]) -> Result<Position> {
        parse_sum(words, |spec| self.game(spec)).map_err(|e| match e {
            // A game's name among a position's words: most likely a forgotten '+'.
            Error::Position { game, reason } => {
                let forgotten = words
                    .split(|w| w.as_ref() == "+")
                    .flat_map(|group| group.iter().skip(1))
                    .map(AsRef::as_ref)
                    .find(|w| Catalog::names_a_game(w));
                match forgotten {
                    Some(word) => Error::Position {
                        game,
                        reason: format!(
                            "{reason}; did you forget a '+' before '{word}'? (sums are written GAME POSITION + GAME POSITION)"
                        ),
                    },
                    None => Error::Position { game, reason },
                }
            }
            other => other,
        })
    }

    /// The game of `spec` with its single-heap values, for `table`, `period`, `genus` and
    /// `quotient` (the last two through [`HeapValues::heap_rules`]).
    ///
    /// # Errors
    /// [`Error::Spec`] for a bad spec; [`Error::Unsupported`] when it is not a heap game.
    pub fn heap_game(&self, spec: &str) -> Result<(String, Arc<dyn HeapValues>)> {
        let game = self.game(spec)?;
        let heap = game.heap().ok_or_else(|| {
            Error::Unsupported(format!(
                "{} is not a heap game; 'table', 'period', 'genus' and 'quotient' need one (see 'sprague catalog')",
                game.spec()
            ))
        })?;
        Ok((game.spec().to_string(), heap))
    }

    /// The game of `spec` with its heap rules, for genus tables and misère quotients
    /// ([`crate::quotient`]).
    ///
    /// # Errors
    /// As [`Catalog::heap_game`]; [`Error::Unsupported`] when the game's heaps have no rules to
    /// share.
    pub fn heap_rules(&self, spec: &str) -> Result<(String, Arc<dyn HeapRules>)> {
        let (name, heap) = self.heap_game(spec)?;
        let rules = heap.heap_rules().ok_or_else(|| {
            Error::Unsupported(format!(
                "{name} gives no rules for its heaps; 'genus' and 'quotient' need a heap game such as kayles or 0.75"
            ))
        })?;
        Ok((name, rules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances_count_swaps_as_one() {
        assert_eq!(edit_distance("kayles", "kayles"), 0);
        assert_eq!(edit_distance("kaylse", "kayles"), 1);
        assert_eq!(edit_distance("nmi", "nim"), 1);
        assert_eq!(edit_distance("", "nim"), 3);
        assert_eq!(edit_distance("wythof", "wythoff"), 1);
        assert_eq!(edit_distance("dawson-chess", "dawson"), 6);
    }

    #[test]
    fn typos_get_a_suggestion_and_strangers_do_not() {
        assert_eq!(Catalog::suggest("nmi"), Some("nim"));
        assert_eq!(Catalog::suggest("wythof"), Some("wythoff"));
        assert_eq!(Catalog::suggest("Kayls"), Some("kayles"));
        assert_eq!(Catalog::suggest("xyzzy"), None);
        let e = Catalog::default().game("kaylse").err().unwrap().to_string();
        assert!(e.contains("did you mean 'kayles'?"), "{e}");
    }

    #[test]
    fn a_game_name_inside_a_position_is_a_forgotten_plus() {
        let catalog = Catalog::default();
        let e = catalog
            .parse_position(&["kayles", "3", "nim", "4"])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("did you forget a '+' before 'nim'?"), "{e}");
        let e = catalog
            .parse_position(&["kayles", "3", "x"])
            .err()
            .unwrap()
            .to_string();
        assert!(!e.contains("forget"), "{e}");
        assert!(catalog
            .parse_position(&["kayles", "3", "+", "nim", "4"])
            .is_ok());
    }
}
