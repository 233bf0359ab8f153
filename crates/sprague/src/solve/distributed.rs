//! The tier solver spread over many processes (*ranks*), as MPI runs them: every rank holds a
//! share of each tier, and no rank holds the whole game.
//!
//! - **Partition.** Tier `t` is cut into blocks of [`BLOCK`] consecutive ranks (indices); a
//!   keyed permutation of the block numbers (a Feistel network, [`Partition`]) deals the blocks
//!   out, so that a position's owner is a hash of its index, shares differ by at most one
//!   block, and the owner finds a position's slot in its share without a table.
//! - **Tiers in dependency order**, from the last to the first, as [`crate::solve::tiered`]
//!   solves them. Within a tier each rank scans the positions it owns in *windows* (every
//!   rank takes the same windows of the index space, so the exchanges match): it lists the
//!   children, asks their owners for the records of those in later tiers, and folds them in.
//!   The requests and the answers go out in one all-to-all exchange each (`MPI_Alltoallv`),
//!   deduplicated per destination.
//! - **Loopy tiers** are then finished level by level, as the one-process solver does: the
//!   owner of each newly decided position lists its parents in the tier (from the game's
//!   un-moves, or from a reverse graph each rank keeps for the children it owns) and sends
//!   each parent's owner a message (the child lost, won or tied), in rounds of at most one
//!   window. One collective per level says whether any rank has work left.
//! - **Files** (rank 0 only): each finished tier is gathered window by window into the same
//!   `.tier-K.part` checkpoint the one-process solver writes, and at the end the database is
//!   written the same way, byte for byte the file of a one-process solve. A rerun scatters the
//!   saved tiers back to their owners and solves only the tiers before them. Rank 0 holds one
//!   window of records at a time, never a whole tier.
//! - **Errors** are agreed on: after each step that can fail on one rank (memory, files, a stop
//!   request), every rank learns whether any failed, and all return the first failure (its text
//!   travels to every rank), so that they leave their collectives together.
//!
//! The ranks talk through the [`Comm`] trait: the command line implements it over MPI (feature
//! `mpi`), and [`LocalComm`] runs ranks as threads of one process, for tests.

use crate::error::{Error, Result};
use crate::game::Terminal;
use crate::progress::Progress;
use crate::solve::records::{RecordReader, RecordWriter};
use crate::solve::tiered::{
    plus_one, process_cpu_seconds, Fold, Levels, Record, Settled, SolveStats, TieredGame, DRAW,
    INVALID, KIND, LOSE, REM, TIE, WIN,
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

/// How ranks exchange data: the few collective operations the distributed solver uses. Every
/// rank calls the same operations in the same order.
pub trait Comm: Send + Sync {
    /// This rank, `0..size`.
    fn rank(&self) -> usize;

    /// The number of ranks.
    fn size(&self) -> usize;

    /// All-to-all with varying counts (`MPI_Alltoallv` on bytes): `send` holds `counts[0]`
    /// bytes for rank 0, then `counts[1]` for rank 1, and so on. Returns the bytes received,
    /// rank 0's first, and how many came from each rank.
    fn exchange(&self, send: &[u8], counts: &[usize]) -> (Vec<u8>, Vec<usize>);

    /// Replaces each of `values` by its maximum over the ranks (`MPI_Allreduce`, `MPI_MAX`).
    fn max(&self, values: &mut [u64]);

    /// Replaces each of `values` by its sum over the ranks (`MPI_Allreduce`, `MPI_SUM`).
    fn sum(&self, values: &mut [u64]);
}

/// Ranks as threads of one process, exchanging through shared memory: for tests of the
/// distributed solver without MPI. [`LocalComm::group`] makes one per rank.
pub struct LocalComm {
    rank: usize,
    shared: Arc<Shared>,
}

struct Shared {
    size: usize,
    barrier: Barrier,
    /// `mail[from * size + to]`: the bytes in flight.
    mail: Mutex<Vec<Vec<u8>>>,
    /// Each rank's operands of a reduction.
    operands: Mutex<Vec<Vec<u64>>>,
}

impl LocalComm {
    /// `size` communicators that reach each other, one for each rank (give each to its own
    /// thread).
    pub fn group(size: usize) -> Vec<LocalComm> {
        let shared = Arc::new(Shared {
            size,
            barrier: Barrier::new(size),
            mail: Mutex::new(vec![Vec::new(); size * size]),
            operands: Mutex::new(vec![Vec::new(); size]),
        });
        (0..size)
            .map(|rank| LocalComm {
                rank,
                shared: shared.clone(),
            })
            .collect()
    }

    fn reduce(&self, values: &mut [u64], op: fn(u64, u64) -> u64) {
        let s = &self.shared;
        s.operands.lock().unwrap_or_else(|e| e.into_inner())[self.rank] = values.to_vec();
        s.barrier.wait();
        {
            let all = s.operands.lock().unwrap_or_else(|e| e.into_inner());
            for (i, v) in values.iter_mut().enumerate() {
                *v = all.iter().map(|o| o[i]).reduce(op).unwrap_or(*v);
            }
        }
        s.barrier.wait();
    }
}

impl Comm for LocalComm {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn exchange(&self, send: &[u8], counts: &[usize]) -> (Vec<u8>, Vec<usize>) {
        let s = &self.shared;
        {
            let mut mail = s.mail.lock().unwrap_or_else(|e| e.into_inner());
            let mut at = 0;
            for (to, &n) in counts.iter().enumerate() {
                mail[self.rank * s.size + to] = send[at..at + n].to_vec();
                at += n;
            }
        }
        s.barrier.wait();
        let (mut received, mut from) = (Vec::new(), Vec::with_capacity(s.size));
        {
            let mut mail = s.mail.lock().unwrap_or_else(|e| e.into_inner());
            for sender in 0..s.size {
                let bytes = std::mem::take(&mut mail[sender * s.size + self.rank]);
                from.push(bytes.len());
                received.extend_from_slice(&bytes);
            }
        }
        s.barrier.wait();
        (received, from)
    }

    fn max(&self, values: &mut [u64]) {
        self.reduce(values, u64::max);
    }

    fn sum(&self, values: &mut [u64]) {
        self.reduce(values, u64::wrapping_add);
    }
}

/// Ranks per block: the unit the partition deals out.
pub const BLOCK: u64 = 64;

/// The positions a window of a tier gives each rank, by default: one batch of requests and
/// answers covers about this many positions per rank.
pub const DEFAULT_WINDOW: u64 = 1 << 16;

/// Which rank owns each position, and where in its share the position lies.
#[derive(Clone, Debug)]
pub struct Partition {
    ranks: u64,
    tiers: Vec<Shape>,
}

#[derive(Clone, Debug)]
struct Shape {
    size: u64,
    blocks: u64,
    /// Bits of each half of the Feistel network (the network permutes `0..2^(2·half)`).
    half: u32,
    key: u64,
}

/// A 64-bit mixer (the finaliser of SplitMix64).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Partition {
    /// The partition of tiers of these sizes over `ranks` ranks.
    pub fn new(tier_sizes: &[u64], ranks: usize) -> Partition {
        let tiers = tier_sizes
            .iter()
            .enumerate()
            .map(|(t, &size)| {
                let blocks = size.div_ceil(BLOCK);
                let bits = 64 - blocks.saturating_sub(1).leading_zeros();
                Shape {
                    size,
                    blocks,
                    half: bits.div_ceil(2).max(1),
                    key: mix(t as u64 ^ 0x7370_7261_6775_6521),
                }
            })
            .collect();
        Partition {
            ranks: ranks.max(1) as u64,
            tiers,
        }
    }

    /// The number of ranks.
    pub fn ranks(&self) -> usize {
        self.ranks as usize
    }

    /// The place of block `block` of tier `tier` in the keyed permutation of its blocks
    /// (cycle-walking a Feistel network over the next power of four).
    fn permute(&self, tier: usize, block: u64) -> u64 {
        let shape = &self.tiers[tier];
        let mask = (1u64 << shape.half) - 1;
        let mut x = block;
        loop {
            let (mut l, mut r) = (x >> shape.half, x & mask);
            for round in 0..4 {
                let f = mix(r ^ shape.key.wrapping_add(round)) & mask;
                (l, r) = (r, l ^ f);
            }
            x = (l << shape.half) | r;
            if x < shape.blocks {
                return x;
            }
        }
    }

    /// The rank that owns rank `index` of `tier`, and the position's slot in that rank's share
    /// of the tier.
    pub fn place(&self, tier: usize, index: u64) -> (usize, u64) {
        let p = self.permute(tier, index / BLOCK);
        (
            (p % self.ranks) as usize,
            (p / self.ranks) * BLOCK + index % BLOCK,
        )
    }

    /// The rank that owns rank `index` of `tier`.
    pub fn owner(&self, tier: usize, index: u64) -> usize {
        self.place(tier, index).0
    }

    /// The slots of `rank`'s share of `tier` (whole blocks; a partial last block leaves a few
    /// slots unused).
    pub fn slots(&self, tier: usize, rank: usize) -> u64 {
        let blocks = self.tiers[tier].blocks;
        let rank = rank as u64;
        let owned = if rank >= blocks {
            0
        } else {
            (blocks - rank - 1) / self.ranks + 1
        };
        owned * BLOCK
    }

    /// The indices of `tier` in `from..to` that `rank` owns, in increasing order (`from` a
    /// multiple of [`BLOCK`]).
    pub fn owned(&self, tier: usize, rank: usize, from: u64, to: u64) -> Vec<u64> {
        let size = self.tiers[tier].size;
        let mut out = Vec::new();
        for block in from / BLOCK..to.min(size).div_ceil(BLOCK) {
            if self.permute(tier, block) % self.ranks == rank as u64 {
                out.extend(block * BLOCK..((block + 1) * BLOCK).min(size).min(to));
            }
        }
        out
    }

    /// The windows of `tier` that every rank goes through together: ranges of about `window`
    /// positions per rank, cut at block boundaries.
    pub fn windows(&self, tier: usize, window: u64) -> impl Iterator<Item = (u64, u64)> {
        let size = self.tiers[tier].size;
        let span = window.saturating_mul(self.ranks).div_ceil(BLOCK).max(1) * BLOCK;
        (0..size.div_ceil(span)).map(move |w| (w * span, ((w + 1) * span).min(size)))
    }
}

/// A fixed-size value sent between ranks as little-endian bytes.
trait Word: Copy + Send + Sync + Default {
    const BYTES: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Self;
}

impl Word for u16 {
    const BYTES: usize = 2;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        u16::from_le_bytes([b[0], b[1]])
    }
}

impl Word for u64 {
    const BYTES: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[..8]);
        u64::from_le_bytes(w)
    }
}

/// A [`Comm`] with typed exchanges, agreement on errors, and the count of bytes sent to other
/// ranks.
pub(crate) struct Link<'a> {
    comm: &'a dyn Comm,
    sent: AtomicU64,
}

impl<'a> Link<'a> {
    /// Wraps `comm`.
    pub(crate) fn new(comm: &'a dyn Comm) -> Self {
        Link {
            comm,
            sent: AtomicU64::new(0),
        }
    }

    fn rank(&self) -> usize {
        self.comm.rank()
    }

    fn size(&self) -> usize {
        self.comm.size()
    }

    /// Sends `parts[r]` to rank `r`; returns what each rank sent to this one.
    fn exchange<T: Word>(&self, parts: &[Vec<T>]) -> Vec<Vec<T>> {
        let total: usize = parts.iter().map(Vec::len).sum();
        let mut bytes = Vec::with_capacity(total * T::BYTES);
        let mut counts = Vec::with_capacity(parts.len());
        for (to, part) in parts.iter().enumerate() {
            for &w in part {
                w.put(&mut bytes);
            }
            counts.push(part.len() * T::BYTES);
            if to != self.rank() {
                self.sent.fetch_add((part.len() * T::BYTES) as u64, Relaxed);
            }
        }
        let (received, from) = self.comm.exchange(&bytes, &counts);
        let mut out = Vec::with_capacity(from.len());
        let mut at = 0;
        for n in from {
            out.push(
                received[at..at + n]
                    .chunks_exact(T::BYTES)
                    .map(T::get)
                    .collect(),
            );
            at += n;
        }
        out
    }

    /// The maximum of `value` over the ranks.
    pub(crate) fn max(&self, value: u64) -> u64 {
        let mut v = [value];
        self.comm.max(&mut v);
        v[0]
    }

    fn sum(&self, value: u64) -> u64 {
        let mut v = [value];
        self.comm.sum(&mut v);
        v[0]
    }

    /// Whether any rank says `yes`.
    pub(crate) fn any(&self, yes: bool) -> bool {
        self.max(u64::from(yes)) != 0
    }

    /// Every rank's result, agreed: `Ok` on every rank when no rank failed; otherwise every
    /// rank returns an error, its own if it failed, else the first failing rank's text (of the
    /// same class: a limit for the user's errors, an internal error for the others).
    pub(crate) fn agree<T>(&self, local: Result<T>) -> Result<T> {
        let class = match &local {
            Ok(_) => 0,
            Err(e) if e.is_user_error() => 1,
            Err(_) => 2,
        };
        if self.max(class) == 0 {
            return local;
        }
        // Every failing rank sends its text to every rank; the first one is reported.
        let text = match &local {
            Ok(_) => Vec::new(),
            Err(e) => format!("{}\u{0}{e}", u8::from(e.is_user_error())).into_bytes(),
        };
        let parts: Vec<Vec<u64>> = (0..self.size())
            .map(|_| text.iter().map(|&b| u64::from(b)).collect())
            .collect();
        let texts = self.exchange(&parts);
        local?;
        let (rank, text) = texts
            .iter()
            .enumerate()
            .find(|(_, t)| !t.is_empty())
            .map(|(r, t)| (r, t.iter().map(|&b| b as u8).collect::<Vec<u8>>()))
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&text).into_owned();
        let (user, message) = text.split_once('\u{0}').unwrap_or(("0", &text));
        let message = format!("rank {rank} of {}: {message}", self.size());
        Err(if user == "1" {
            Error::Limit(message)
        } else {
            Error::Internal(message)
        })
    }
}

/// What rank 0 keeps on disk: the finished tiers and the database (the store's files; see
/// [`crate::solve::store::Store::distributed`]).
pub trait Keep {
    /// The saved records of `tier`, to read piece by piece; `None` when none were saved.
    fn open_tier(&self, tier: usize, size: u64) -> Result<Option<RecordReader>>;
    /// Starts the file of finished tier `tier`; `None` when it may be skipped.
    fn create_tier(&self, tier: usize, size: u64) -> Result<Option<RecordWriter>>;
    /// Starts the database of a game of these tier sizes; `None` when it may be skipped.
    fn create_database(&self, tier_sizes: &[u64]) -> Result<Option<RecordWriter>>;
}

/// Figures of one tier of a distributed solve (the same on every rank: summed over them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TierFigures {
    /// The tier.
    pub tier: usize,
    /// Legal canonical positions solved in it.
    pub positions: u64,
    /// Bytes the ranks sent to other ranks while solving it (requests, answers, messages).
    pub bytes: u64,
    /// Milliseconds spent on it (rank 0's clock).
    pub millis: u64,
}

/// The result of a distributed solve, on every rank.
#[derive(Clone, Debug)]
pub struct Distributed {
    /// The record of the start position given to [`solve`].
    pub start: Record,
    /// Figures of the whole solve: `positions` and `cpu_seconds` summed over the ranks,
    /// `peak_bytes` the most one rank held, `threads` per rank.
    pub stats: SolveStats,
    /// The number of ranks.
    pub ranks: usize,
    /// Tiers reopened from an earlier run's checkpoints.
    pub resumed: usize,
    /// Figures of each tier solved by this run, in the order solved.
    pub tiers: Vec<TierFigures>,
}

impl Distributed {
    /// Bytes sent between ranks over the whole solve.
    pub fn bytes(&self) -> u64 {
        self.tiers.iter().map(|t| t.bytes).sum()
    }
}

/// The memory one rank needs to solve `game` spread over `ranks` ranks, in bytes: its share
/// of every tier's records (2 bytes a position), and, while the largest loopy tier is solved,
/// its share of that tier's counters and frontier lists (1 + 16 bytes a position; 16 more for
/// the reverse graph when the game has no un-moves), plus the buffers of one window.
pub fn memory_per_rank<G: TieredGame>(game: &G, ranks: usize, window: u64) -> u64 {
    let part = Partition::new(&tier_sizes(game), ranks);
    let tiers = game.tier_count();
    let mut most = 0u64;
    for rank in 0..part.ranks() {
        let records: u64 = (0..tiers).map(|t| part.slots(t, rank)).sum();
        let loopy = (0..tiers)
            .filter(|&t| game.is_loopy(t))
            .map(|t| part.slots(t, rank))
            .max()
            .unwrap_or(0);
        let reverse = if game.has_parents() { 0 } else { 16 };
        let bytes = records
            .saturating_mul(2)
            .saturating_add(loopy.saturating_mul(17 + reverse));
        most = most.max(bytes);
    }
    // A window: the positions, their children (about 32 each, 8 bytes a reference, twice).
    most.saturating_add(window.saturating_mul(32 * 16 + 16))
}

fn tier_sizes<G: TieredGame>(game: &G) -> Vec<u64> {
    (0..game.tier_count()).map(|t| game.tier_size(t)).collect()
}

/// Refers to rank `index` of `tier` in messages: the tier in the top 16 bits.
fn encode(tier: usize, index: u64) -> u64 {
    ((tier as u64) << 48) | index
}

fn decode(code: u64) -> (usize, u64) {
    ((code >> 48) as usize, code & ((1 << 48) - 1))
}

/// What a message says about a parent's child.
const CHILD_LOST: u64 = 0;
const CHILD_WON: u64 = 1;
const CHILD_TIED: u64 = 2;

/// One rank's part of a distributed solve.
struct Solver<'a, G: TieredGame> {
    game: &'a G,
    link: Link<'a>,
    part: Partition,
    /// This rank's share of each tier.
    share: Vec<Vec<AtomicU16>>,
    progress: &'a dyn Progress,
    window: u64,
    broken: AtomicBool,
    too_remote: AtomicBool,
    peak_bytes: u64,
}

/// What one position of a window is, once listed.
#[derive(Clone, Copy)]
enum Listed {
    /// Not a legal canonical position.
    Skip,
    /// Terminal, with its record.
    Decided(u16),
    /// Its children are `refs[from..to]` of its piece.
    Open(usize, usize),
}

/// The positions of part of a window with their children.
struct Piece {
    items: Vec<(u64, Listed)>,
    refs: Vec<u64>,
}

/// The loopy state of one tier on one rank.
#[derive(Default)]
struct Frontiers {
    lose: Levels,
    win: Levels,
    tie: Levels,
    pending_win: Levels,
    pending_tie: Levels,
}

impl Frontiers {
    fn levels(&self, ties: bool) -> usize {
        if ties {
            self.tie.len().max(self.pending_tie.len())
        } else {
            self.lose
                .len()
                .max(self.win.len())
                .max(self.pending_win.len())
        }
    }
}

impl<'a, G: TieredGame> Solver<'a, G> {
    fn rank(&self) -> usize {
        self.link.rank()
    }

    fn cell(&self, tier: usize, index: u64) -> &AtomicU16 {
        let (_, slot) = self.part.place(tier, index);
        &self.share[tier][slot as usize]
    }

    fn check_flags(&self) -> Result<()> {
        let broken = self.link.any(self.broken.load(Relaxed));
        let too_remote = self.link.any(self.too_remote.load(Relaxed));
        if broken {
            return Err(Error::Internal(
                "a child ranks to an unsolved or illegal index; the game's ranking is inconsistent"
                    .into(),
            ));
        }
        if too_remote {
            return Err(Error::Limit(format!(
                "remoteness exceeds {}, the most a record holds",
                crate::solve::tiered::MAX_REMOTENESS
            )));
        }
        Ok(())
    }

    /// Lists the positions of `indices` (owned by this rank) with their children.
    fn list(&self, tier: usize, indices: &[u64]) -> Vec<Piece> {
        let game = self.game;
        indices
            .par_chunks(256)
            .map_init(Vec::new, |buffer, chunk| {
                let mut piece = Piece {
                    items: Vec::with_capacity(chunk.len()),
                    refs: Vec::new(),
                };
                for &index in chunk {
                    let listed = match game.unrank(tier, index) {
                        Some(p) if game.canonical(&p) == p => match game.terminal(&p) {
                            Some(Terminal::Win) => Listed::Decided(WIN),
                            Some(Terminal::Loss) => Listed::Decided(LOSE),
                            Some(Terminal::Tie) => Listed::Decided(TIE),
                            None => {
                                buffer.clear();
                                game.children(&p, buffer);
                                let from = piece.refs.len();
                                piece.refs.extend(buffer.iter().map(|c| {
                                    let (t, i) = game.rank(&game.canonical(c));
                                    encode(t, i)
                                }));
                                Listed::Open(from, piece.refs.len())
                            }
                        },
                        _ => Listed::Skip,
                    };
                    piece.items.push((index, listed));
                }
                piece
            })
            .collect()
    }

    /// Asks the owners for the records of every child in a later tier; returns the requests
    /// per owner (sorted) and the answers in the same order.
    fn fetch(&self, tier: usize, pieces: &[Piece]) -> (Vec<Vec<u64>>, Vec<Vec<u16>>) {
        let mut wanted: Vec<(u32, u64)> = pieces
            .par_iter()
            .flat_map_iter(|piece| {
                piece.refs.iter().filter_map(move |&code| {
                    let (t, i) = decode(code);
                    (t > tier).then(|| (self.part.owner(t, i) as u32, code))
                })
            })
            .collect();
        wanted.par_sort_unstable();
        wanted.dedup();
        let mut requests = vec![Vec::new(); self.link.size()];
        for (to, code) in wanted {
            requests[to as usize].push(code);
        }
        let asked = self.link.exchange(&requests);
        let answers: Vec<Vec<u16>> = asked
            .par_iter()
            .map(|codes| {
                codes
                    .iter()
                    .map(|&code| {
                        let (t, i) = decode(code);
                        let (owner, slot) = self.part.place(t, i);
                        match self.share.get(t).and_then(|s| s.get(slot as usize)) {
                            Some(cell) if owner == self.rank() => cell.load(Relaxed),
                            _ => INVALID,
                        }
                    })
                    .collect()
            })
            .collect();
        let answers = self.link.exchange(&answers);
        (requests, answers)
    }

    /// Scans the positions this rank owns in one window of `tier`: decides what the later
    /// tiers decide; for loopy tiers, sets counters and frontiers and returns the in-tier
    /// edges (child, parent) to send to the children's owners.
    fn scan_window(
        &self,
        tier: usize,
        from: u64,
        to: u64,
        loopy: Option<(&[AtomicU8], &Mutex<Frontiers>)>,
    ) -> Vec<Vec<u64>> {
        let rank = self.rank();
        let indices = self.part.owned(tier, rank, from, to);
        let pieces = self.list(tier, &indices);
        let (requests, answers) = self.fetch(tier, &pieces);
        let record_of = |code: u64| -> u16 {
            let (t, i) = decode(code);
            let owner = self.part.owner(t, i);
            match requests[owner].binary_search(&code) {
                Ok(k) => answers[owner].get(k).copied().unwrap_or(INVALID),
                Err(_) => INVALID,
            }
        };
        let keep_edges = loopy.is_some() && !self.game.has_parents();
        let size = self.link.size();
        let edges = pieces
            .par_iter()
            .fold(
                || (vec![Vec::new(); size], Vec::new(), Frontiers::default()),
                |(mut edges, mut in_tier, mut found), piece| {
                    for &(index, listed) in &piece.items {
                        let record = match listed {
                            Listed::Skip => continue,
                            Listed::Decided(r) => Settled::Decided(r),
                            Listed::Open(a, b) => {
                                let mut fold = Fold::default();
                                in_tier.clear();
                                for &code in &piece.refs[a..b] {
                                    let (t, i) = decode(code);
                                    if t == tier {
                                        in_tier.push(i);
                                    } else if t < tier {
                                        self.broken.store(true, Relaxed);
                                    } else {
                                        let r = record_of(code);
                                        if r == INVALID {
                                            self.broken.store(true, Relaxed);
                                        } else {
                                            fold.add(r);
                                        }
                                    }
                                }
                                in_tier.sort_unstable();
                                in_tier.dedup();
                                fold.settle(in_tier.len(), &self.too_remote)
                            }
                        };
                        let cell = self.cell(tier, index);
                        match (record, loopy) {
                            (Settled::Draw, _) => cell.store(DRAW, Relaxed),
                            (Settled::Decided(r), _) => {
                                cell.store(r, Relaxed);
                                if loopy.is_some() {
                                    let level = r & REM;
                                    match r & KIND {
                                        WIN => found.win.push(level, index),
                                        LOSE => found.lose.push(level, index),
                                        _ => found.tie.push(level, index),
                                    }
                                }
                            }
                            (Settled::Pending { .. }, None) => {
                                // The game promised no move stays in this tier.
                                self.broken.store(true, Relaxed);
                            }
                            (
                                Settled::Pending {
                                    counter,
                                    floor,
                                    win_at,
                                    tie_at,
                                },
                                Some((counters, _)),
                            ) => {
                                let Ok(counter) = u8::try_from(counter) else {
                                    self.broken.store(true, Relaxed);
                                    continue;
                                };
                                let (_, slot) = self.part.place(tier, index);
                                counters[slot as usize].store(counter, Relaxed);
                                cell.store(DRAW | floor, Relaxed);
                                if let Some(l) = win_at {
                                    found.pending_win.push(l, index);
                                }
                                if let Some(l) = tie_at {
                                    found.pending_tie.push(l, index);
                                }
                                if keep_edges {
                                    for &c in &in_tier {
                                        let owner = self.part.owner(tier, c);
                                        edges[owner].push(c);
                                        edges[owner].push(index);
                                    }
                                }
                            }
                        }
                    }
                    (edges, in_tier, found)
                },
            )
            .map(|(edges, _, found)| {
                if let Some((_, frontiers)) = loopy {
                    let mut all = frontiers.lock().unwrap_or_else(|e| e.into_inner());
                    merge(&mut all, found);
                }
                edges
            })
            .reduce(
                || vec![Vec::new(); size],
                |mut a, b| {
                    for (x, mut y) in a.iter_mut().zip(b) {
                        x.append(&mut y);
                    }
                    a
                },
            );
        edges
    }

    fn solve_tier(&mut self, tier: usize) -> Result<()> {
        let loopy = self.game.is_loopy(tier);
        let slots = self.part.slots(tier, self.rank()) as usize;
        let counters: Vec<AtomicU8> = if loopy {
            (0..slots).map(|_| AtomicU8::new(0)).collect()
        } else {
            Vec::new()
        };
        let frontiers = Mutex::new(Frontiers::default());
        // Reverse edges (child, parent) of the children this rank owns, without un-moves.
        let mut reverse: Vec<(u64, u64)> = Vec::new();
        let windows: Vec<(u64, u64)> = self.part.windows(tier, self.window).collect();
        for (from, to) in windows {
            let state = loopy.then_some((&counters[..], &frontiers));
            let edges = self.scan_window(tier, from, to, state);
            if loopy && !self.game.has_parents() {
                for pairs in self.link.exchange(&edges) {
                    reverse.extend(pairs.chunks_exact(2).map(|p| (p[0], p[1])));
                }
            }
        }
        if !loopy {
            return Ok(());
        }
        reverse.par_sort_unstable();
        let bytes = self.share_bytes() + slots as u64 + reverse.len() as u64 * 16;
        self.peak_bytes = self.peak_bytes.max(bytes);
        let mut frontiers = frontiers.into_inner().unwrap_or_else(|e| e.into_inner());
        let undecided = |r: u16| r != INVALID && r & KIND == DRAW;
        let claim = |index: u64, record: u16| {
            let cell = self.cell(tier, index);
            let r = cell.load(Relaxed);
            undecided(r) && cell.compare_exchange(r, record, Relaxed, Relaxed).is_ok()
        };
        // Wins and losses, by remoteness; then ties.
        for ties in [false, true] {
            let mut level = 0usize;
            while (level as u64) < self.link.max(frontiers.levels(ties) as u64) {
                let l16 = level as u16;
                let next = plus_one(l16, &self.too_remote);
                let mut frontier: Vec<u64> = Vec::new();
                if ties {
                    let mut tied = frontiers.tie.take(level);
                    tied.extend(
                        frontiers
                            .pending_tie
                            .take(level)
                            .into_iter()
                            .filter(|&g| claim(g, TIE | l16)),
                    );
                    frontier.extend(tied.iter().map(|&g| (g << 2) | CHILD_TIED));
                } else {
                    let mut won = frontiers.win.take(level);
                    won.extend(
                        frontiers
                            .pending_win
                            .take(level)
                            .into_iter()
                            .filter(|&g| claim(g, WIN | l16)),
                    );
                    let lost = frontiers.lose.take(level);
                    frontier.extend(lost.iter().map(|&g| (g << 2) | CHILD_LOST));
                    frontier.extend(won.iter().map(|&g| (g << 2) | CHILD_WON));
                }
                self.propagate(
                    tier,
                    &frontier,
                    next,
                    &counters,
                    &reverse,
                    &claim,
                    &mut frontiers,
                );
                if self
                    .link
                    .any(self.too_remote.load(Relaxed) || self.broken.load(Relaxed))
                {
                    return Ok(());
                }
                level += 1;
            }
        }
        // Whatever is still undecided is a draw.
        self.share[tier].par_iter().for_each(|cell| {
            let r = cell.load(Relaxed);
            if undecided(r) {
                cell.store(DRAW, Relaxed);
            }
        });
        Ok(())
    }

    /// Sends each parent (in the tier) of the frontier's positions what its child became, in
    /// rounds of at most one window, and applies the messages this rank receives: a lost child
    /// makes a win at `next`, a won child takes one from the counter (a loss when it reaches
    /// 0), a tied child makes a tie at `next`.
    #[allow(clippy::too_many_arguments)]
    fn propagate(
        &self,
        tier: usize,
        frontier: &[u64],
        next: u16,
        counters: &[AtomicU8],
        reverse: &[(u64, u64)],
        claim: &(dyn Fn(u64, u16) -> bool + Sync),
        frontiers: &mut Frontiers,
    ) {
        let game = self.game;
        let size = self.link.size();
        let chunk = self.window.max(1) as usize;
        let rounds = self.link.max(frontier.len().div_ceil(chunk) as u64) as usize;
        for round in 0..rounds {
            let part = frontier.chunks(chunk).nth(round).unwrap_or(&[]);
            let outgoing = part
                .par_iter()
                .fold(
                    || (vec![Vec::new(); size], Vec::new(), Vec::new()),
                    |(mut out, mut buffer, mut parents), &message| {
                        let (g, what) = (message >> 2, message & 3);
                        parents.clear();
                        if game.has_parents() {
                            let Some(p) = game.unrank(tier, g) else {
                                self.broken.store(true, Relaxed);
                                return (out, buffer, parents);
                            };
                            buffer.clear();
                            game.parents_in_tier(&p, &mut buffer);
                            for q in &buffer {
                                let (t, h) = game.rank(&game.canonical(q));
                                if t == tier {
                                    parents.push(h);
                                }
                            }
                            parents.sort_unstable();
                            parents.dedup();
                        } else {
                            let from = reverse.partition_point(|&(c, _)| c < g);
                            let to = reverse.partition_point(|&(c, _)| c <= g);
                            parents.extend(reverse[from..to].iter().map(|&(_, q)| q));
                        }
                        for &q in &parents {
                            out[self.part.owner(tier, q)].push((q << 2) | what);
                        }
                        (out, buffer, parents)
                    },
                )
                .map(|(out, _, _)| out)
                .reduce(
                    || vec![Vec::new(); size],
                    |mut a, b| {
                        for (x, mut y) in a.iter_mut().zip(b) {
                            x.append(&mut y);
                        }
                        a
                    },
                );
            let incoming = self.link.exchange(&outgoing);
            let decided: Vec<(u16, u64)> = incoming
                .par_iter()
                .flat_map_iter(|messages| messages.iter())
                .filter_map(|&message| {
                    let (q, what) = (message >> 2, message & 3);
                    match what {
                        CHILD_LOST => claim(q, WIN | next).then_some((WIN | next, q)),
                        CHILD_TIED => claim(q, TIE | next).then_some((TIE | next, q)),
                        _ => {
                            let cell = self.cell(tier, q);
                            let r = cell.load(Relaxed);
                            if r == INVALID || r & KIND != DRAW {
                                return None;
                            }
                            let (_, slot) = self.part.place(tier, q);
                            if counters[slot as usize].fetch_sub(1, Relaxed) != 1 {
                                return None;
                            }
                            let r = cell.load(Relaxed);
                            let rem = (r & REM).max(next);
                            cell.compare_exchange(r, LOSE | rem, Relaxed, Relaxed)
                                .is_ok()
                                .then_some((LOSE | rem, q))
                        }
                    }
                })
                .collect();
            for (record, q) in decided {
                let level = record & REM;
                match record & KIND {
                    WIN => frontiers.win.push(level, q),
                    LOSE => frontiers.lose.push(level, q),
                    _ => frontiers.tie.push(level, q),
                }
            }
        }
    }

    fn share_bytes(&self) -> u64 {
        self.share.iter().map(|s| s.len() as u64 * 2).sum()
    }

    /// Gathers `tier` window by window to rank 0, which writes it into `writer` (when it has
    /// one); returns the first write error.
    fn gather_into(&self, tier: usize, writer: &mut Option<RecordWriter>) -> Result<()> {
        let mut failed: Result<()> = Ok(());
        let mut buffer = Vec::new();
        for (from, to) in self.part.windows(tier, self.window) {
            let mine: Vec<u16> = self
                .part
                .owned(tier, self.rank(), from, to)
                .iter()
                .map(|&i| self.cell(tier, i).load(Relaxed))
                .collect();
            let mut parts = vec![Vec::new(); self.link.size()];
            parts[0] = mine;
            let received = self.link.exchange(&parts);
            if self.rank() != 0 {
                continue;
            }
            buffer.clear();
            let mut cursor = vec![0usize; received.len()];
            let mut block_start = from;
            while block_start < to {
                let block_end = (block_start + BLOCK).min(to);
                let owner = self.part.owner(tier, block_start);
                let n = (block_end - block_start) as usize;
                buffer.extend_from_slice(&received[owner][cursor[owner]..cursor[owner] + n]);
                cursor[owner] += n;
                block_start = block_end;
            }
            if let (Some(w), Ok(())) = (writer.as_mut(), &failed) {
                failed = w.write(&buffer).map_err(Error::from);
            }
        }
        failed
    }

    /// Rank 0 reads `tier` from `reader` window by window and sends each owner its records.
    /// Returns whether the tier was read whole and verified (on every rank); when it was not,
    /// the tier's share is reset.
    fn scatter_from(&self, tier: usize, reader: Option<RecordReader>) -> Result<()> {
        let mut reader = reader;
        let mut failed: Result<()> = Ok(());
        let mut buffer = Vec::new();
        for (from, to) in self.part.windows(tier, self.window) {
            let mut parts = vec![Vec::new(); self.link.size()];
            if let Some(r) = reader.as_mut() {
                buffer.resize((to - from) as usize, INVALID);
                if failed.is_ok() {
                    failed = r.read(&mut buffer);
                }
                let mut block_start = from;
                while block_start < to {
                    let block_end = (block_start + BLOCK).min(to);
                    let owner = self.part.owner(tier, block_start);
                    parts[owner].extend_from_slice(
                        &buffer[(block_start - from) as usize..(block_end - from) as usize],
                    );
                    block_start = block_end;
                }
            }
            let received = self.link.exchange(&parts);
            let mine = self.part.owned(tier, self.rank(), from, to);
            for (&i, &r) in mine.iter().zip(&received[0]) {
                self.cell(tier, i).store(r, Relaxed);
            }
        }
        if let (Some(r), Ok(())) = (reader, &failed) {
            failed = r.finish();
        }
        let verified = self.link.agree(failed);
        if verified.is_err() {
            self.share[tier]
                .par_iter()
                .for_each(|cell| cell.store(INVALID, Relaxed));
        }
        verified
    }

    /// Reopens the tiers an earlier run saved, from the last one down while they verify;
    /// returns how many.
    fn reopen(&self, keep: Option<&dyn Keep>) -> usize {
        let tiers = self.game.tier_count();
        let mut done = 0;
        for tier in (0..tiers).rev() {
            // Rank 0 says whether the tier was saved (1), not (0), or refused (2).
            let opened = keep.map(|k| k.open_tier(tier, self.game.tier_size(tier)));
            let status = match &opened {
                Some(Ok(Some(_))) => 1,
                Some(Err(_)) => 2,
                _ => 0,
            };
            let status = self.link.max(status);
            if status == 0 {
                break;
            }
            let (reader, problem) = match opened {
                Some(Ok(reader)) => (reader, None),
                Some(Err(e)) => (None, Some(e)),
                None => (None, None),
            };
            if status == 2 {
                if let Some(e) = problem {
                    self.progress.note(&format!(
                        "{e}; solving tier {tier} and those before it again"
                    ));
                }
                break;
            }
            if let Err(e) = self.scatter_from(tier, reader) {
                if self.rank() == 0 {
                    self.progress.note(&format!(
                        "{e}; solving tier {tier} and those before it again"
                    ));
                }
                break;
            }
            done += 1;
        }
        if done == tiers && tiers > 0 {
            self.progress.note(&format!(
                "resuming after tier {tiers} of {tiers}: an earlier run finished every tier"
            ));
        } else if done > 0 {
            self.progress.note(&format!(
                "resuming from tier {} of {tiers}: {done} finished by an earlier run",
                done + 1
            ));
        }
        done
    }

    /// The legal canonical positions of this rank's share of `tier`.
    fn positions(&self, tier: usize) -> u64 {
        self.share[tier]
            .par_iter()
            .filter(|c| c.load(Relaxed) != INVALID)
            .count() as u64
    }
}

fn merge(into: &mut Frontiers, from: Frontiers) {
    for (a, b) in [
        (&mut into.lose, from.lose),
        (&mut into.win, from.win),
        (&mut into.tie, from.tie),
        (&mut into.pending_win, from.pending_win),
        (&mut into.pending_tie, from.pending_tie),
    ] {
        a.append(b);
    }
}

/// Solves every position of `game` over the ranks of `comm`, every rank calling this with
/// the same arguments but `keep` and `progress`: rank 0 passes the store's files (or `None`
/// for memory only) and the user's progress; the others pass `None` and a progress that only
/// stops them. Returns the record of `start` and the figures, on every rank.
///
/// `window`: positions per rank in each batch of requests and answers ([`DEFAULT_WINDOW`]).
/// `max_bytes`: refuse with [`Error::Limit`] when one rank would need more.
///
/// # Errors
/// The same on every rank: [`Error::Limit`] for a game past `max_bytes` (or a rank's memory
/// budget), remoteness past [`crate::solve::tiered::MAX_REMOTENESS`], or tiers too large to
/// address; [`Error::Internal`] for an inconsistent ranking; a file that rank 0 could not write;
/// [`Error::Stopped`] when a rank's progress asked to stop.
pub(crate) fn solve<G: TieredGame>(
    game: &G,
    comm: &dyn Comm,
    keep: Option<&dyn Keep>,
    start: &G::Position,
    window: u64,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Distributed> {
    let started = Instant::now();
    let cpu_start = process_cpu_seconds();
    let link = Link::new(comm);
    let sizes = tier_sizes(game);
    let tiers = sizes.len();
    if tiers >= 1 << 16 || sizes.iter().any(|&s| s >= 1 << 48) {
        return Err(Error::Limit(
            "a distributed solve takes at most 65,535 tiers of fewer than 2^48 positions".into(),
        ));
    }
    let window = window.max(1);
    let need = memory_per_rank(game, comm.size(), window);
    link.agree(crate::memory::reserve(
        &format!(
            "one rank's share of {} positions",
            sizes.iter().sum::<u64>()
        ),
        need,
        &[
            crate::memory::Cap::Fixed(max_bytes, "strong solves"),
            crate::memory::Cap::Budget(progress.memory_left()),
        ],
    ))?;
    let part = Partition::new(&sizes, comm.size());
    let share = (0..tiers)
        .map(|t| {
            (0..part.slots(t, comm.rank()))
                .into_par_iter()
                .map(|_| AtomicU16::new(INVALID))
                .collect()
        })
        .collect();
    let mut solver = Solver {
        game,
        link,
        part,
        share,
        progress,
        window,
        broken: AtomicBool::new(false),
        too_remote: AtomicBool::new(false),
        peak_bytes: 0,
    };
    solver.peak_bytes = solver.share_bytes();
    let keeping = solver.link.any(keep.is_some());
    let resumed = solver.reopen(keep);
    progress.start("solving tiers", tiers as u64);
    if resumed > 0 {
        progress.advance(resumed as u64, "");
    }
    let mut figures = Vec::new();
    for (done, tier) in (0..tiers).rev().enumerate().skip(resumed) {
        solver.link.agree(crate::progress::check(progress))?;
        let tier_start = Instant::now();
        let sent = solver.link.sent.load(Relaxed);
        solver.solve_tier(tier)?;
        solver.check_flags()?;
        let bytes = solver.link.sum(solver.link.sent.load(Relaxed) - sent);
        let positions = solver.link.sum(solver.positions(tier));
        if keeping {
            let mut writer = solver.link.agree(match keep {
                Some(k) => k.create_tier(tier, sizes[tier]),
                None => Ok(None),
            })?;
            let written = solver.gather_into(tier, &mut writer);
            let committed = written.and_then(|()| match writer {
                Some(w) => w.commit().map_err(Error::from),
                None => Ok(()),
            });
            solver.link.agree(committed)?;
        }
        figures.push(TierFigures {
            tier,
            positions,
            bytes,
            millis: tier_start.elapsed().as_millis() as u64,
        });
        progress.advance(done as u64 + 1, "");
    }
    progress.finish();
    if keeping {
        let mut writer = solver.link.agree(match keep {
            Some(k) => k.create_database(&sizes),
            None => Ok(None),
        })?;
        let mut written = Ok(());
        for tier in 0..tiers {
            let w = solver.gather_into(tier, &mut writer);
            if written.is_ok() {
                written = w;
            }
        }
        let committed = written.and_then(|()| match writer {
            Some(w) => w.commit().map_err(Error::from),
            None => Ok(()),
        });
        solver.link.agree(committed)?;
    }
    // The owner of the start tells every rank its record.
    let (t, i) = game.rank(&game.canonical(start));
    let (owner, slot) = solver.part.place(t, i);
    let mine = if owner == comm.rank() {
        u64::from(solver.share[t][slot as usize].load(Relaxed)) + 1
    } else {
        0
    };
    let start_record = Record(solver.link.max(mine).saturating_sub(1) as u16);
    let positions: u64 = (0..tiers).map(|t| solver.positions(t)).sum();
    let positions = solver.link.sum(positions);
    let peak_bytes = solver.link.max(solver.peak_bytes);
    let cpu = cpu_start
        .zip(process_cpu_seconds())
        .map(|(a, b)| ((b - a) * 1000.0) as u64);
    let cpu_total = solver.link.sum(cpu.unwrap_or(0));
    let elapsed = Duration::from_millis(solver.link.max(started.elapsed().as_millis() as u64));
    Ok(Distributed {
        start: start_record,
        stats: SolveStats {
            indices: sizes.iter().sum(),
            positions,
            elapsed,
            peak_bytes,
            threads: rayon::current_num_threads(),
            cpu_seconds: cpu.map(|_| cpu_total as f64 / 1000.0),
        },
        ranks: comm.size(),
        resumed,
        tiers: figures,
    })
}

/// Counts the positions reachable from the game's start over the ranks of `comm` (canonical
/// positions under symmetry, the start included), and sums `weight` over them: a breadth-first
/// search in which each rank marks the positions it owns ([`Partition`]) in a bit set of its
/// share. The same on every rank.
///
/// # Errors
/// [`Error::Limit`] when the tiers are too large to address.
pub(crate) fn reachable_weighted<G: TieredGame>(
    game: &G,
    comm: &dyn Comm,
    window: u64,
    weight: impl Fn(&G::Position) -> u64 + Sync,
) -> Result<(u64, u64)> {
    let link = Link::new(comm);
    let sizes = tier_sizes(game);
    if sizes.len() >= 1 << 16 || sizes.iter().any(|&s| s >= 1 << 48) {
        return Err(Error::Limit(
            "a distributed search takes at most 65,535 tiers of fewer than 2^48 positions".into(),
        ));
    }
    let part = Partition::new(&sizes, comm.size());
    let seen: Vec<Vec<AtomicU64>> = (0..sizes.len())
        .map(|t| {
            (0..part.slots(t, comm.rank()).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect()
        })
        .collect();
    let mark = |code: u64| -> bool {
        let (t, i) = decode(code);
        let (_, slot) = part.place(t, i);
        let bit = 1u64 << (slot % 64);
        seen[t][(slot / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    };
    let start = game.canonical(&game.start());
    let (t, i) = game.rank(&start);
    let mut frontier = Vec::new();
    let (mut count, mut sum) = (0u64, 0u64);
    if part.owner(t, i) == comm.rank() && mark(encode(t, i)) {
        frontier.push(encode(t, i));
        count += 1;
        sum += weight(&start);
    }
    let chunk = window.max(1) as usize;
    let size = comm.size();
    loop {
        let rounds = link.max(frontier.len().div_ceil(chunk) as u64) as usize;
        if rounds == 0 {
            break;
        }
        let mut next = Vec::new();
        for round in 0..rounds {
            let part_of = frontier.chunks(chunk).nth(round).unwrap_or(&[]);
            let outgoing = part_of
                .par_iter()
                .fold(
                    || (vec![Vec::new(); size], Vec::new()),
                    |(mut out, mut buffer), &code| {
                        let (t, i) = decode(code);
                        if let Some(p) = game.unrank(t, i) {
                            if game.terminal(&p).is_none() {
                                buffer.clear();
                                game.children(&p, &mut buffer);
                                for c in &buffer {
                                    let (ct, ci) = game.rank(&game.canonical(c));
                                    out[part.owner(ct, ci)].push(encode(ct, ci));
                                }
                            }
                        }
                        (out, buffer)
                    },
                )
                .map(|(out, _)| out)
                .reduce(
                    || vec![Vec::new(); size],
                    |mut a, b| {
                        for (x, mut y) in a.iter_mut().zip(b) {
                            x.append(&mut y);
                        }
                        a
                    },
                );
            let incoming = link.exchange(&outgoing);
            let fresh: Vec<u64> = incoming
                .par_iter()
                .flat_map_iter(|codes| codes.iter().copied())
                .filter(|&code| mark(code))
                .collect();
            let weights: u64 = fresh
                .par_iter()
                .map(|&code| {
                    let (t, i) = decode(code);
                    game.unrank(t, i).map_or(0, |p| weight(&p))
                })
                .sum();
            count += fresh.len() as u64;
            sum += weights;
            next.extend(fresh);
        }
        frontier = next;
    }
    Ok((link.sum(count), link.sum(sum)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::store::{file_name, Disk, FileStore, Shared};
    use crate::solve::tiered::{self, ExplicitGame};
    use std::path::{Path, PathBuf};

    #[test]
    fn the_partition_deals_every_index_to_one_slot_of_one_rank() {
        for ranks in 1..6 {
            let sizes = [0, 1, 63, 64, 65, 1000, 4097, 20_000];
            let part = Partition::new(&sizes, ranks);
            for (t, &size) in sizes.iter().enumerate() {
                let mut used: Vec<Vec<bool>> = (0..ranks)
                    .map(|r| vec![false; part.slots(t, r) as usize])
                    .collect();
                let mut per_rank = vec![0u64; ranks];
                for i in 0..size {
                    let (r, slot) = part.place(t, i);
                    assert!(!used[r][slot as usize], "tier {t} index {i} shares a slot");
                    used[r][slot as usize] = true;
                    per_rank[r] += 1;
                }
                // Shares differ by at most one block (and the last block's shortfall).
                let (lo, hi) = (per_rank.iter().min(), per_rank.iter().max());
                assert!(hi.unwrap() - lo.unwrap() <= 2 * BLOCK, "{per_rank:?}");
                // The windows cover the tier, and `owned` lists exactly each rank's indices.
                let mut listed = vec![Vec::new(); ranks];
                for (from, to) in part.windows(t, 100) {
                    for (r, l) in listed.iter_mut().enumerate() {
                        l.extend(part.owned(t, r, from, to));
                    }
                }
                for (r, l) in listed.iter().enumerate() {
                    assert!(l.windows(2).all(|w| w[0] < w[1]));
                    assert!(l.iter().all(|&i| part.owner(t, i) == r));
                    assert_eq!(l.len() as u64, per_rank[r]);
                }
            }
        }
    }

    #[test]
    fn the_partition_is_not_the_identity_order() {
        // A hash: consecutive blocks do not go round the ranks in turn.
        let part = Partition::new(&[1 << 20], 4);
        let owners: Vec<usize> = (0..64).map(|b| part.owner(0, b * BLOCK)).collect();
        let round_robin: Vec<usize> = (0..64).map(|b| b % 4).collect();
        assert_ne!(owners, round_robin);
    }

    #[test]
    fn local_ranks_exchange_and_reduce() {
        let comms = LocalComm::group(3);
        let results: Vec<(Vec<Vec<u64>>, u64, u64)> = std::thread::scope(|s| {
            let handles: Vec<_> = comms
                .iter()
                .map(|c| {
                    s.spawn(move || {
                        let link = Link::new(c);
                        let me = c.rank() as u64;
                        let parts: Vec<Vec<u64>> =
                            (0..3).map(|to| vec![me * 10 + to; to as usize]).collect();
                        (link.exchange(&parts), link.max(me), link.sum(me + 1))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (rank, (received, max, sum)) in results.iter().enumerate() {
            assert_eq!(*max, 2);
            assert_eq!(*sum, 6);
            for (from, got) in received.iter().enumerate() {
                assert_eq!(*got, vec![from as u64 * 10 + rank as u64; rank]);
            }
        }
    }

    #[test]
    fn agreement_tells_every_rank_the_failing_ranks_text() {
        let comms = LocalComm::group(3);
        let results: Vec<Result<u32>> = std::thread::scope(|s| {
            let handles: Vec<_> = comms
                .iter()
                .map(|c| {
                    s.spawn(move || {
                        let link = Link::new(c);
                        let local = if c.rank() == 2 {
                            Err(Error::Limit("too big".into()))
                        } else {
                            Ok(1)
                        };
                        link.agree(local)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(results[0], Err(Error::Limit("rank 2 of 3: too big".into())));
        assert_eq!(results[2], Err(Error::Limit("too big".into())));
    }

    /// Runs `f` on `ranks` ranks (threads), each with its own communicator.
    pub(crate) fn on_ranks<T: Send>(ranks: usize, f: impl Fn(&LocalComm) -> T + Sync) -> Vec<T> {
        let comms = LocalComm::group(ranks);
        std::thread::scope(|s| {
            let handles: Vec<_> = comms.iter().map(|c| s.spawn(|| f(c))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    fn random_game(seed: u64, n: usize, loopy: bool) -> ExplicitGame {
        let game = tiered::testing::random_explicit_game(seed, n, loopy);
        if seed.is_multiple_of(2) {
            game.with_parents()
        } else {
            game
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sprague-distributed-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Fails the save of a tier once `left` tiers are saved, as a kill would stop the run.
    struct Killed<'a> {
        inner: &'a dyn Keep,
        left: AtomicU64,
    }

    impl Keep for Killed<'_> {
        fn open_tier(&self, tier: usize, size: u64) -> Result<Option<RecordReader>> {
            self.inner.open_tier(tier, size)
        }
        fn create_tier(&self, tier: usize, size: u64) -> Result<Option<RecordWriter>> {
            if self.left.load(Relaxed) == 0 {
                return Err(Error::Internal("killed".into()));
            }
            self.left.fetch_sub(1, Relaxed);
            self.inner.create_tier(tier, size)
        }
        fn create_database(&self, sizes: &[u64]) -> Result<Option<RecordWriter>> {
            self.inner.create_database(sizes)
        }
    }

    /// Solves `game` on `ranks` ranks into `dir` through a store, rank 0 stopping after
    /// `stop_after` saved tiers (if any); returns every rank's result and rank 0's notes.
    fn solve_into(
        game: &ExplicitGame,
        dir: &Path,
        ranks: usize,
        window: u64,
        stop_after: Option<u64>,
    ) -> (Vec<Result<Shared>>, Vec<String>) {
        let sizes: Vec<u64> = (0..game.tier_count()).map(|t| game.tier_size(t)).collect();
        let notes = Notes::default();
        let results = on_ranks(ranks, |c| {
            let store = FileStore::new(Disk::Directory(dir.to_path_buf()));
            let quiet = ();
            let progress: &dyn Progress = if c.rank() == 0 { &notes } else { &quiet };
            store.solve_distributed(
                c,
                "explicit",
                &sizes,
                game.rank(&0),
                progress,
                &mut |comm, keep| {
                    let killed = keep.map(|inner| Killed {
                        inner,
                        left: AtomicU64::new(stop_after.unwrap_or(u64::MAX)),
                    });
                    let keep = killed.as_ref().map(|k| k as &dyn Keep);
                    solve(game, comm, keep, &0, window, u64::MAX, progress)
                },
            )
        });
        (results, notes.0.into_inner().unwrap())
    }

    #[derive(Default)]
    struct Notes(Mutex<Vec<String>>);

    impl Progress for Notes {
        fn note(&self, message: &str) {
            self.0.lock().unwrap().push(message.to_string());
        }
    }

    /// On random games, loopy and acyclic, with and without un-moves: every number of ranks
    /// and window sizes writes the database of a one-process solve byte for byte, and every
    /// rank reports the start's record and the count of positions.
    #[test]
    fn distributed_solves_write_the_database_of_a_one_process_solve() {
        let dir = temp("agree");
        for seed in 1..40 {
            let game = random_game(seed, 1 + (seed as usize % 90), seed % 3 != 0);
            let straight = tiered::solve(&game, Some(1), u64::MAX, &()).unwrap();
            let reference = dir.join("reference.sdb");
            crate::solve::store::save(&reference, "explicit", &straight).unwrap();
            let reference = std::fs::read(&reference).unwrap();
            for ranks in [1, 2, 3, 4] {
                let window = 1 + seed % 7;
                let run = dir.join(format!("run-{seed}-{ranks}"));
                let (results, _) = solve_into(&game, &run, ranks, window, None);
                for r in results {
                    let Ok(Shared::Solved(d)) = r else {
                        panic!("seed {seed}, {ranks} ranks: {r:?}");
                    };
                    assert_eq!(d.start, straight.record(&game, &0), "seed {seed}");
                    assert_eq!(d.stats.positions, straight.stats.positions);
                    assert_eq!(d.ranks, ranks);
                }
                let written = std::fs::read(run.join(file_name("explicit"))).unwrap();
                assert!(
                    written == reference,
                    "seed {seed}, {ranks} ranks: databases differ"
                );
                // Only the database and the lock are left; a rerun reopens the database.
                let mut names: Vec<String> = std::fs::read_dir(&run)
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                assert_eq!(names, ["explicit.lock", "explicit.sdb"]);
                let (again, _) = solve_into(&game, &run, ranks, window, None);
                for r in again {
                    let Ok(Shared::Reopened(record, positions)) = r else {
                        panic!("seed {seed}: {r:?}");
                    };
                    assert_eq!(record, straight.record(&game, &0));
                    assert_eq!(positions, straight.stats.positions);
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run stopped after any number of saved tiers fails on every rank with rank 0's
    /// error; the rerun (on another number of ranks) says where it resumes, solves only the
    /// rest, and writes the database of a one-process solve.
    #[test]
    fn a_stopped_distributed_solve_resumes_from_its_last_finished_tier() {
        let dir = temp("resume");
        let mut resumed_runs = 0;
        for seed in 1..25 {
            let game = random_game(seed, 20 + (seed as usize % 60), seed % 3 != 0);
            let tiers = game.tier_count() as u64;
            let straight = tiered::solve(&game, Some(1), u64::MAX, &()).unwrap();
            let reference = dir.join("reference.sdb");
            crate::solve::store::save(&reference, "explicit", &straight).unwrap();
            let reference = std::fs::read(&reference).unwrap();
            for stop_after in 0..tiers {
                let run = dir.join(format!("run-{seed}-{stop_after}"));
                let ranks = 1 + (seed + stop_after) as usize % 4;
                let (results, _) = solve_into(&game, &run, ranks, 3, Some(stop_after));
                for (rank, r) in results.iter().enumerate() {
                    let message = match r {
                        Err(e) => e.to_string(),
                        Ok(_) => panic!("seed {seed}: the stopped run finished"),
                    };
                    let expected = if rank == 0 {
                        "internal error: killed".to_string()
                    } else {
                        format!("internal error: rank 0 of {ranks}: internal error: killed")
                    };
                    assert_eq!(message, expected);
                }
                let ranks = 1 + (seed + stop_after + 1) as usize % 4;
                let (results, notes) = solve_into(&game, &run, ranks, 2, None);
                let Ok(Shared::Solved(d)) = &results[0] else {
                    panic!("seed {seed}: {:?}", results[0]);
                };
                assert_eq!(d.resumed as u64, stop_after);
                assert_eq!(d.tiers.len() as u64, tiers - stop_after);
                if stop_after > 0 {
                    resumed_runs += 1;
                    assert_eq!(
                        notes,
                        [format!(
                            "resuming from tier {} of {tiers}: {stop_after} finished by an earlier run",
                            stop_after + 1
                        )]
                    );
                }
                let written = std::fs::read(run.join(file_name("explicit"))).unwrap();
                assert!(
                    written == reference,
                    "seed {seed}, stopped after {stop_after}"
                );
            }
        }
        assert!(resumed_runs > 20, "{resumed_runs}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A damaged tier file is named and solved again, with the tiers before it.
    #[test]
    fn a_damaged_tier_file_is_solved_again() {
        let dir = temp("damaged");
        let game = (1..)
            .map(|seed| random_game(seed, 80, true))
            .find(|g| g.tier_count() >= 3)
            .unwrap();
        let tiers = game.tier_count();
        let straight = tiered::solve(&game, Some(1), u64::MAX, &()).unwrap();
        let (results, _) = solve_into(&game, &dir, 3, 2, Some(tiers as u64 - 1));
        assert!(results.iter().all(Result::is_err));
        // Damage the second-to-last tier's file (tiers are solved from the last).
        let path = dir.join(crate::solve::store::tier_file_name("explicit", tiers - 2));
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 10] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        let (results, notes) = solve_into(&game, &dir, 2, 5, None);
        let Ok(Shared::Solved(d)) = &results[1] else {
            panic!("{:?}", results[1]);
        };
        assert_eq!(d.resumed, 1);
        assert_eq!(d.start, straight.record(&game, &0));
        assert_eq!(
            notes,
            [
                format!(
                    "{}: checksum mismatch: the file is damaged; solving tier {} and those before it again",
                    path.display(),
                    tiers - 2
                ),
                format!("resuming from tier 2 of {tiers}: 1 finished by an earlier run"),
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The distributed breadth-first search counts what the one-process one counts.
    #[test]
    fn distributed_reachability_agrees_with_one_process() {
        for seed in 1..30 {
            let game = random_game(seed, 1 + (seed as usize % 80), seed % 3 != 0);
            let expected = tiered::reachable_weighted(&game, Some(1), |&v| u64::from(v) + 1);
            for ranks in [1, 2, 3] {
                let results = on_ranks(ranks, |c| {
                    reachable_weighted(&game, c, 1 + seed % 4, |&v| u64::from(v) + 1)
                });
                for r in results {
                    assert_eq!(r, expected, "seed {seed}, {ranks} ranks");
                }
            }
        }
    }
}
