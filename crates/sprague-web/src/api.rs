//! The JSON API: `catalog`, `value`, `moves`, `table`, `period`, `genus`, `quotient`, `play`,
//! and the SVG plots.
//!
//! Every handler checks its inputs against [`Limits`] first, then runs the work on a blocking
//! thread with a time limit ([`AppState::run`]). Errors answer `{"error": TEXT}` with 400 (bad
//! input) or 422 (past the server's bounds).

use crate::error::ApiError;
use crate::{plot, AppState, Limits};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::Value as Json_;
use sprague::analysis::{rate, Rated, Which};
use sprague::budget::{Budget, Spent};
use sprague::catalog::Catalog;
use sprague::erased::Position;
use sprague::game::{Layout, Outcome, Play};
use sprague::heap::{PeriodReport, TableReport};
use sprague::memory::{Account, Meter};
use sprague::play::{choose, Numbering, XorShift};
use sprague::quotient::{GenusTable, Quotient, QuotientOptions, QuotientReport};
use std::collections::HashMap;
use std::time::Instant;

type Params = Query<HashMap<String, String>>;
type Answer = Result<Response, ApiError>;

/// The routes under `/api/`.
pub(crate) fn routes(state: AppState) -> axum::Router {
    Router::new()
        .route("/api/catalog", get(catalog))
        .route("/api/value", get(value))
        .route("/api/moves", get(moves))
        .route("/api/table", get(table))
        .route("/api/period", get(period))
        .route("/api/genus", get(genus))
        .route("/api/quotient", get(quotient))
        .route("/api/play", get(play))
        .route("/api/thermograph", get(thermograph))
        .route("/api/thermograph.svg", get(thermograph_svg))
        .route("/api/plot/table.svg", get(plot_table))
        .route("/api/plot/history.svg", get(plot_history))
        .fallback(|| async {
            ApiError {
                status: axum::http::StatusCode::NOT_FOUND,
                message: "no such page; the API is under /api/ (catalog, value, moves, table, period, genus, quotient, play)".into(),
                did_you_mean: None,
            }
        })
        .with_state(state)
}

/// Stops a request's budget when the request ends, answered or not (a client that goes
/// away drops the request's future), so its computation never outlives it by long.
struct StopOnDrop(Budget);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

impl AppState {
    /// Runs `work` on a blocking thread, holding one of the worker permits, and gives up with
    /// 422 when the answer takes longer than the time limit (waiting for a permit included).
    /// `work` gets the catalog and the request's budget: its searches stop at the time limit,
    /// and the permit is freed then.
    async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(Catalog, Budget) -> Result<T, ApiError> + Send + 'static,
    {
        let limit = self.limits.time;
        let account = Account::new();
        let budget =
            Budget::within(limit).with_memory(self.limits.memory, Meter::Account(account.clone()));
        let stop = StopOnDrop(budget.clone());
        let catalog = self.catalog.with_budget(budget.clone());
        let permits = self.permits.clone();
        let job = async move {
            let permit = permits
                .acquire_owned()
                .await
                .map_err(|_| ApiError::internal("the worker pool is closed"))?;
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                // This thread's allocations count against the request's memory.
                let _charged = account.enter();
                work(catalog, budget)
            })
            .await
            .map_err(|e| ApiError::internal(format!("the computation failed: {e}")))?
        };
        let over = || {
            ApiError::limit(format!(
                "no answer within the server's limit of {} s; try a smaller position or range",
                limit.as_secs()
            ))
        };
        match tokio::time::timeout(limit, job).await {
            // Work stopped by its budget says which limit it reached: past the deadline as
            // a timeout does, past its memory with the cap.
            Ok(Err(_)) if stop.0.reason() == Some(Spent::Memory) => Err(ApiError::limit(format!(
                "no answer within the server's memory limit of {} MiB per request; try a smaller position or range",
                self.limits.memory >> 20
            ))),
            Ok(Err(_)) if stop.0.is_over() => Err(over()),
            Ok(answer) => answer,
            Err(_) => Err(over()),
        }
    }
}

fn json<T: Serialize>(value: &T) -> Answer {
    Ok(Json(value).into_response())
}

/// A required text parameter, at most `max` bytes.
fn text<'a>(params: &'a Params, name: &str, max: usize) -> Result<&'a str, ApiError> {
    let value = params
        .get(name)
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad(format!("missing parameter '{name}'")))?;
    check_length(value, name, max)?;
    Ok(value)
}

fn check_length(value: &str, name: &str, max: usize) -> Result<(), ApiError> {
    if value.len() > max {
        return Err(ApiError::limit(format!(
            "'{name}' is {} bytes long; the server takes at most {max}",
            value.len()
        )));
    }
    Ok(())
}

/// A number parameter: `default` when absent, 422 above `max`.
fn number(params: &Params, name: &str, default: Option<u64>, max: u64) -> Result<u64, ApiError> {
    let n = match params.get(name).map(|s| s.trim()) {
        None | Some("") => {
            default.ok_or_else(|| ApiError::bad(format!("missing parameter '{name}'")))?
        }
        Some(text) => sprague::game::notation::parse_u64(text, name).map_err(ApiError::bad)?,
    };
    if n > max {
        return Err(ApiError::limit(format!(
            "'{name}' is {n}; the server takes at most {max}"
        )));
    }
    Ok(n)
}

fn flag(params: &Params, name: &str) -> Result<bool, ApiError> {
    match params.get(name).map(|s| s.trim()) {
        None | Some("") | Some("0") | Some("false") => Ok(false),
        Some("1") | Some("true") => Ok(true),
        Some(other) => Err(ApiError::bad(format!(
            "'{name}' must be 1 or 0, got '{other}'"
        ))),
    }
}

fn play_rule(params: &Params) -> Result<Play, ApiError> {
    Ok(if flag(params, "misere")? {
        Play::Misere
    } else {
        Play::Normal
    })
}

/// The command-line words of `game` and `position`: the game, then the position split on
/// spaces (`+` joins a sum, as on the command line).
/// `position` must be there; empty, it is a board's start, or the empty sum (as
/// `sprague value nim` on the command line).
fn words(params: &Params, limits: &Limits) -> Result<Vec<String>, ApiError> {
    let game = text(params, "game", limits.spec_bytes)?;
    let position = params.get("position").map(String::as_str).ok_or_else(|| {
        ApiError::bad(
            "missing parameter 'position' (the position's words, such as position=3+4+5; position= for a board's start position)",
        )
    })?;
    check_length(position, "position", limits.position_bytes)?;
    let mut words = vec![game.to_string()];
    words.extend(position.split_whitespace().map(str::to_string));
    Ok(words)
}

async fn catalog() -> Answer {
    json(&Catalog::entries())
}

/// `GET /api/value?game=G&position=P[&misere=1][&explain=1]`: the CLI's `value --json`; with
/// `explain=1`, its `--explain` too (the field `explanation`, one string a line).
async fn value(State(state): State<AppState>, params: Params) -> Answer {
    let words = words(&params, &state.limits)?;
    let play = play_rule(&params)?;
    let explain = flag(&params, "explain")?;
    let report = state
        .run(move |catalog, _| {
            let position = catalog.parse_position(&words)?;
            let answer = sprague::analysis::answer(&position, play)?;
            let mut json = serde_json::to_value(&answer)
                .map_err(|e| ApiError::internal(format!("the report did not serialise: {e}")))?;
            if explain {
                let lines = sprague::analysis::explain::explain(&position, play)?;
                if let Json_::Object(fields) = &mut json {
                    fields.insert("explanation".into(), Json_::from(lines));
                }
            }
            Ok(json)
        })
        .await?;
    json(&report)
}

/// The thermograph of the request's position.
async fn thermograph_of(
    state: &AppState,
    params: &Params,
) -> Result<sprague::analysis::partizan::ThermographReport, ApiError> {
    let words = words(params, &state.limits)?;
    state
        .run(move |catalog, _| {
            let position = catalog.parse_position(&words)?;
            Ok(sprague::analysis::partizan::thermograph(&position)?)
        })
        .await
}

/// `GET /api/thermograph?game=G&position=P`: the CLI's `thermograph --json`.
async fn thermograph(State(state): State<AppState>, params: Params) -> Answer {
    json(&thermograph_of(&state, &params).await?)
}

/// `GET /api/thermograph.svg?game=G&position=P`: the thermograph drawn, as the CLI's `--svg`.
async fn thermograph_svg(State(state): State<AppState>, params: Params) -> Answer {
    svg(thermograph_of(&state, &params).await?.svg)
}

async fn moves(State(state): State<AppState>, params: Params) -> Answer {
    let words = words(&params, &state.limits)?;
    let play = play_rule(&params)?;
    let report = state
        .run(move |catalog, _| {
            let position = catalog.parse_position(&words)?;
            Ok(sprague::analysis::moves_answer(&position, play)?)
        })
        .await?;
    json(&report)
}

/// `format=json` (the default) answers the CLI's `table --format json`; `format=csv` its CSV,
/// as a download.
async fn table(State(state): State<AppState>, params: Params) -> Answer {
    let spec = text(&params, "game", state.limits.spec_bytes)?.to_string();
    let to = number(&params, "to", None, state.limits.table_to)?;
    let csv = match params.get("format").map(|s| s.trim()) {
        None | Some("") | Some("json") => false,
        Some("csv") => true,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "'format' must be json or csv, got '{other}'"
            )))
        }
    };
    let (name, table) = state
        .run(move |catalog, budget| compute_table(&catalog, &spec, to, &budget))
        .await?;
    let report = TableReport::new(&name, &table);
    if !csv {
        return json(&report);
    }
    let mut body = Vec::new();
    report
        .write_csv(&mut body)
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let file: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}-to-{to}.csv\""),
            ),
        ],
        body,
    )
        .into_response())
}

/// The table of single heaps 0..=to, by the same engines `sprague table` uses.
fn compute_table(
    catalog: &Catalog,
    spec: &str,
    to: u64,
    budget: &Budget,
) -> Result<(String, sprague::heap::Table), ApiError> {
    let (game, heap) = catalog.heap_game(spec)?;
    let options = sprague::heap::rare::Options::default();
    let table = match heap.long_table(to, &options, budget) {
        Some(table) => table?,
        None => heap.table(to, budget)?,
    };
    Ok((game, table))
}

async fn period(State(state): State<AppState>, params: Params) -> Answer {
    let spec = text(&params, "game", state.limits.spec_bytes)?.to_string();
    let max = number(
        &params,
        "max",
        Some(state.limits.period_max),
        state.limits.period_max,
    )?;
    let search = state
        .run(move |catalog, budget| {
            let (_, heap) = catalog.heap_game(&spec)?;
            Ok(heap.period(max, &budget)?)
        })
        .await?;
    json(&PeriodReport::from(&search))
}

/// `GET /api/genus?game=G&to=N`: the genus of heaps 0..=N, as `sprague genus --json`; wild
/// games are searched within [`Limits::genus_positions`] sums.
async fn genus(State(state): State<AppState>, params: Params) -> Answer {
    let spec = text(&params, "game", state.limits.spec_bytes)?.to_string();
    let to = number(&params, "to", None, state.limits.genus_to)?;
    let positions = state.limits.genus_positions;
    let report = state
        .run(move |catalog, budget| {
            let (name, rules) = catalog.heap_rules(&spec)?;
            Ok(GenusTable::compute(rules.as_ref(), to, positions, &budget)?.report(&name))
        })
        .await?;
    json(&report)
}

/// `GET /api/quotient?game=G[&max_heap=N][&max_order=M]`: the misère quotient, as `sprague
/// quotient --json` (without `max_heap`, heaps until its period is proven; past `max_order`
/// elements it is reported infinite); the computation stops at the time limit.
async fn quotient(State(state): State<AppState>, params: Params) -> Answer {
    let spec = text(&params, "game", state.limits.spec_bytes)?.to_string();
    let max_heap = match params.get("max_heap").map(|s| s.trim()) {
        None | Some("") => None,
        Some(_) => Some(number(
            &params,
            "max_heap",
            None,
            state.limits.quotient_max_heap,
        )?),
    };
    let max_order = state.limits.quotient_max_order;
    let max_order = number(&params, "max_order", Some(max_order), max_order)?;
    if max_order < 2 {
        return Err(ApiError::bad("'max_order' must be at least 2"));
    }
    let options = QuotientOptions {
        max_order: max_order as usize,
        deadline: Some(Instant::now() + state.limits.time),
        ..QuotientOptions::default()
    };
    let report = state
        .run(move |catalog, budget| {
            let (name, rules) = catalog.heap_rules(&spec)?;
            let (search, max_heap) =
                Quotient::compute_for(rules.as_ref(), max_heap, &options, &budget)?;
            Ok(QuotientReport::of(&search, &name, max_heap))
        })
        .await?;
    json(&report)
}

/// How the page draws a position: `board`, `heaps`, `coins` or `other`.
fn kind(layout: Layout) -> &'static str {
    match layout {
        Layout::Board { .. } => "board",
        Layout::Heaps => "heaps",
        Layout::Coins => "coins",
        _ => "other",
    }
}

/// A position as the request words it round-trips through: the game, then the rest.
fn request_words(position: &Position) -> (String, String) {
    let text = position.to_string();
    match text.split_once(' ') {
        Some((game, rest)) => (game.to_string(), rest.to_string()),
        None => (text, String::new()),
    }
}

/// A move of the play view: what it is worth to the mover, and the request for the position
/// it leads to (`game`, `next`).
#[derive(Serialize)]
struct PlayMove {
    #[serde(rename = "move")]
    text: String,
    /// The move as the page shows it: in words, with the summand's stable number
    /// (`heap 2: 7 → 3`).
    label: String,
    component: Option<usize>,
    /// The summands' numbers after the move, to send back with the position it leads to.
    numbers: Vec<u64>,
    /// `win`, `tie`, `draw` or `lose`, for the player making the move.
    value: &'static str,
    remoteness: Option<u64>,
    /// The outcome of the position after the move, for the player then to move.
    outcome: Outcome,
    /// The nim value of the position after the move, where finite.
    nim_value: Option<u64>,
    /// Scored games: the value after the move, for the player then to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i64>,
    /// A draw's level and its remoteness to that level's fringe, after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_level: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_remoteness: Option<u32>,
    position: Json_,
    game: String,
    next: String,
}

impl PlayMove {
    /// The move `m` of a position whose summands are numbered by `numbering`.
    fn new(m: &Rated, numbering: &Numbering) -> PlayMove {
        let (game, next) = request_words(&m.position);
        let parts = numbering.numbers().len();
        PlayMove {
            text: m.text.clone(),
            label: numbering.describe(m),
            component: m.component.filter(|_| parts > 1),
            numbers: numbering.after(m).numbers().to_vec(),
            value: m.value.name(),
            remoteness: m.remoteness,
            outcome: m.outcome,
            nim_value: m.nim_value,
            score: m.score,
            draw_level: m.draw_level.map(|d| d.level),
            draw_remoteness: m.draw_level.map(|d| d.remoteness),
            position: m.position.to_json(),
            game,
            next,
        }
    }
}

/// A position of the play view with every move rated.
#[derive(Serialize)]
struct PlayState {
    game: String,
    position: Json_,
    /// The position words after the game, to send back.
    text: String,
    kind: &'static str,
    /// How to draw the position (a board's size, whether pieces drop).
    layout: Layout,
    /// The summands' stable numbers (`heap 2` stays heap 2 when heap 1 is emptied).
    numbers: Vec<u64>,
    outcome: Outcome,
    /// With outcome `D`: `tie` (the game ends with no winner) or `loop` (play goes on for ever).
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_kind: Option<&'static str>,
    nim_value: Option<u64>,
    /// Scored games: the value for the player to move (what they win by when positive).
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<i64>,
    remoteness: Option<u64>,
    /// Why the remoteness is not given, when the library says.
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness_note: Option<&'static str>,
    /// A draw's level (GamesmanUni's `drawLevel`) and its remoteness to that level's fringe.
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_level: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_remoteness: Option<u32>,
    over: bool,
    moves: Vec<PlayMove>,
}

#[derive(Serialize)]
struct PlayAnswer {
    /// The engine's move, when asked for one.
    reply: Option<PlayMove>,
    state: PlayState,
}

fn play_state(
    position: &Position,
    moves: &[Rated],
    play: Play,
    numbering: &Numbering,
) -> Result<PlayState, ApiError> {
    let report = sprague::analysis::value(position, play)?;
    let (game, text) = request_words(position);
    Ok(PlayState {
        game,
        position: position.to_json(),
        text,
        kind: kind(position.layout()),
        layout: position.layout(),
        numbers: numbering.numbers().to_vec(),
        outcome: report.outcome,
        draw_kind: report.draw_kind,
        nim_value: report.nim_value,
        value: report.score,
        remoteness: report.remoteness,
        remoteness_note: report.remoteness_note,
        draw_level: report.draw_level,
        draw_remoteness: report.draw_remoteness,
        over: moves.is_empty(),
        moves: moves.iter().map(|m| PlayMove::new(m, numbering)).collect(),
    })
}

/// The summands' numbers a client kept (`numbers=1,3,4`), or `None`.
fn numbers(params: &Params) -> Result<Option<Vec<u64>>, ApiError> {
    let Some(text) = params
        .get("numbers")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
    else {
        return Ok(None);
    };
    check_length(text, "numbers", 4000)?;
    text.split(',')
        .map(|n| {
            sprague::game::notation::parse_u64(n.trim(), "a summand number").map_err(ApiError::bad)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// `GET /api/play?game=G&position=P[&misere=1][&engine=1][&seed=S][&numbers=N,N,...]`: the
/// position with every move rated; with `engine=1`, the engine's reply first and the position
/// after it. `numbers` are the summands' numbers the page keeps through a game (each move
/// gives those of the position it leads to); by default 1, 2, … in order.
async fn play(State(state): State<AppState>, params: Params) -> Answer {
    let words = words(&params, &state.limits)?;
    let kept = numbers(&params)?;
    let play = play_rule(&params)?;
    let engine = flag(&params, "engine")?;
    let seed = match params.get("seed") {
        Some(_) => number(&params, "seed", None, u64::MAX)?,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
    };
    let answer = state
        .run(move |catalog, _| {
            let position = catalog.parse_position(&words)?;
            let parts = position.parts().len();
            let numbering = match kept {
                Some(numbers) => Numbering::from_numbers(numbers, parts).map_err(ApiError::bad)?,
                None => Numbering::new(parts),
            };
            let moves = rate(&position, play, Which::All)?.moves;
            if !engine {
                return Ok(PlayAnswer {
                    reply: None,
                    state: play_state(&position, &moves, play, &numbering)?,
                });
            }
            let i = choose(&moves, &mut XorShift::new(seed))
                .ok_or_else(|| ApiError::bad("the game is over: the engine has no move"))?;
            let reply = &moves[i];
            let after = rate(&reply.position, play, Which::All)?.moves;
            Ok(PlayAnswer {
                reply: Some(PlayMove::new(reply, &numbering)),
                state: play_state(&reply.position, &after, play, &numbering.after(reply))?,
            })
        })
        .await?;
    json(&answer)
}

fn svg(body: String) -> Answer {
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
}

/// `GET /api/plot/table.svg?game=G&to=N`: nim values of single heaps against n, with the
/// certified preperiod and period marked.
async fn plot_table(State(state): State<AppState>, params: Params) -> Answer {
    let spec = text(&params, "game", state.limits.spec_bytes)?.to_string();
    let to = number(&params, "to", None, state.limits.plot_to)?;
    let width = plot_width(&params, 900)?;
    let body = state
        .run(move |catalog, budget| {
            let (name, table) = compute_table(&catalog, &spec, to, &budget)?;
            plot::table(&name, &table, width)
        })
        .await?;
    svg(body)
}

/// The `width` of a plot in pixels (the page asks for the width it shows it at, so that a
/// phone gets a chart drawn for its screen): 320 to 1600, `default` when absent.
fn plot_width(params: &Params, default: u64) -> Result<u32, ApiError> {
    let width = number(params, "width", Some(default), 1600)?;
    if width < 320 {
        return Err(ApiError::bad(format!(
            "'width' is {width}; plots are at least 320 pixels wide"
        )));
    }
    Ok(width as u32)
}

/// `GET /api/plot/history.svg?points=t9,t8,w5,l2,d1[&moves=b2%0Aa1...][&width=W]`: the
/// visual value history of a game (GamesmanUni's layout), from the first player's side: one
/// point a position, the start first (`w` the first player wins, `l` loses, `t` a tie, then
/// its remoteness; `d` a draw, then its draw level); `moves` the moves' labels, one a line.
async fn plot_history(State(state): State<AppState>, params: Params) -> Answer {
    let points = params.get("points").map(String::as_str).unwrap_or("");
    check_length(points, "points", state.limits.history_points * 24)?;
    let points = plot::parse_history(points)?;
    if points.len() > state.limits.history_points {
        return Err(ApiError::limit(format!(
            "{} points; the chart takes at most {}",
            points.len(),
            state.limits.history_points
        )));
    }
    let moves = params.get("moves").map(String::as_str).unwrap_or("");
    check_length(moves, "moves", state.limits.history_points * 64)?;
    let moves: Vec<String> = moves.lines().map(str::to_string).collect();
    let width = plot_width(&params, 640)?;
    let body = state
        .run(move |_, _| plot::history(&points, &moves, width))
        .await?;
    svg(body)
}
