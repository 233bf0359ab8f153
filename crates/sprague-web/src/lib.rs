//! # sprague-web
//!
//! The web front end of sprague (`sprague serve`): a JSON API under `/api/` that answers with the
//! same JSON as the command line's `--json`, SVG plots drawn with `plotters`, and one page (HTML,
//! CSS and plain JavaScript embedded in the binary) to explore positions, play against the perfect
//! engine and plot nim-value sequences.
//!
//! No game logic lives here: every answer comes from [`sprague::analysis`], [`sprague::play`] and
//! [`sprague::heap`] and [`sprague::quotient`]. Each request's work runs on a blocking thread,
//! bounded by [`Limits`] in size before it starts and in time while it runs.
//!
//! ```no_run
//! // What `sprague serve` does (the CLI also passes where solutions are stored):
//! let catalog = sprague::catalog::Catalog::default();
//! sprague_web::serve(catalog, sprague_web::Limits::default(), "127.0.0.1".parse()?, 8080)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod api;
mod assets;
mod error;
mod plot;

pub use error::ApiError;

use axum::Router;
use sprague::access::ScriptFiles;
use sprague::catalog::{Catalog, Settings};
use std::future::IntoFuture;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The server's bounds on the work one request may ask for.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The longest a request may take (waiting for a worker included) before it answers 422.
    pub time: Duration,
    /// The most bytes one request's computation may hold (measured when the binary counts its
    /// allocations with [`sprague::memory::Counting`]); past it the request answers 422.
    pub memory: u64,
    /// The most computations running at once; more wait for a free one (within `time`).
    pub workers: usize,
    /// The longest game spec, in bytes.
    pub spec_bytes: usize,
    /// The longest position text, in bytes.
    pub position_bytes: usize,
    /// The largest `to` of `/api/table`.
    pub table_to: u64,
    /// The largest `to` of the nim-value plot.
    pub plot_to: u64,
    /// The largest `max` of `/api/period`.
    pub period_max: u64,
    /// The most points of the value-history chart.
    pub history_points: usize,
    /// The largest `to` of `/api/genus`.
    pub genus_to: u64,
    /// The most sums one `/api/genus` request searches (wild games need many).
    pub genus_positions: usize,
    /// The largest `max_heap` of `/api/quotient`.
    pub quotient_max_heap: u64,
    /// The largest `max_order` of `/api/quotient` (also its default, as the command line's).
    pub quotient_max_order: u64,
    /// The directory whose `.rhai` files `script:NAME` games may load (named relative to it);
    /// `None`, the default, refuses every script game. No other file is ever read for a
    /// client.
    pub scripts: Option<PathBuf>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: Duration::from_secs(20),
            memory: 1 << 30,
            workers: 2,
            spec_bytes: 200,
            position_bytes: 4000,
            table_to: 1_000_000,
            plot_to: 5_000,
            period_max: 1_000_000,
            history_points: 1_000,
            genus_to: 5_000,
            genus_positions: 200_000,
            quotient_max_heap: 2_000,
            quotient_max_order: 4_096,
            scripts: None,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    /// The games, with the settings the front end chose.
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) limits: Arc<Limits>,
    /// One permit per computation; a task that outlives its request keeps its permit until it
    /// ends, so abandoned work still counts against `workers`.
    pub(crate) permits: Arc<Semaphore>,
}

/// The whole application: the page, its assets and the API, with request logging on stderr.
/// Script games load only from `limits.scripts`, whatever the catalog's settings say.
pub fn router(catalog: Catalog, limits: Limits) -> Router {
    let script_files = match &limits.scripts {
        Some(dir) => ScriptFiles::Under(dir.clone()),
        None => ScriptFiles::Nothing,
    };
    let catalog = Catalog::new(Settings {
        script_files,
        ..catalog.settings().clone()
    });
    let state = AppState {
        catalog: Arc::new(catalog),
        permits: Arc::new(Semaphore::new(limits.workers.max(1))),
        limits: Arc::new(limits),
    };
    assets::routes()
        .merge(api::routes(state))
        .layer(axum::middleware::from_fn(log_request))
}

/// Logs one line per request on stderr: method, path, status, time taken, and the memory the
/// process holds then (when the binary counts it with [`sprague::memory::Counting`]).
async fn log_request(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let start = Instant::now();
    let response = next.run(request).await;
    eprintln!(
        "{method} {path} {} {:.1} ms, {} MiB held",
        response.status().as_u16(),
        start.elapsed().as_secs_f64() * 1e3,
        sprague::memory::live_bytes() >> 20
    );
    response
}

/// The stack of the server's threads (the default is 2 MiB).
const WORKER_STACK: usize = 64 << 20;

/// How long requests in flight may go on after Ctrl-C.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Serves the application on `bind:port` (port 0 picks a free port) until Ctrl-C, then shuts
/// down cleanly: requests in flight get two seconds to finish, and computations still running
/// are abandoned. Prints the address it listens on to stderr
/// as `listening on http://ADDRESS/`.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn serve(catalog: Catalog, limits: Limits, bind: IpAddr, port: u16) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Deeply nested script values are walked recursively by the script engine; its
        // per-call time cap bounds their depth, and this stack holds what that allows.
        .thread_stack_size(WORKER_STACK)
        .build()?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(bind, port)).await?;
        let address = listener.local_addr()?;
        if !bind.is_loopback() {
            eprintln!(
                "note: listening on {bind}, reachable from other machines; the default is 127.0.0.1"
            );
        }
        eprintln!("listening on http://{address}/ (Ctrl-C to stop)");
        let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = axum::serve(listener, router(catalog, limits)).with_graceful_shutdown(
            async move {
                shutdown_signal().await;
                let _ = stopping.send(());
            },
        );
        tokio::select! {
            served = server.into_future() => served,
            () = async {
                if stopped.await.is_ok() {
                    tokio::time::sleep(SHUTDOWN_GRACE).await;
                } else {
                    std::future::pending::<()>().await;
                }
            } => {
                eprintln!("requests still running {} s after Ctrl-C are dropped", SHUTDOWN_GRACE.as_secs());
                Ok(())
            }
        }
    });
    // Computations whose requests timed out may still run on blocking threads; they are
    // abandoned rather than awaited, so Ctrl-C always stops the server promptly.
    runtime.shutdown_timeout(Duration::from_millis(100));
    eprintln!("shut down");
    served
}

/// Resolves on Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
