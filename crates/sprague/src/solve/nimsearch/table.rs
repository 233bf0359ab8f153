//! The transposition table of the search: nim values of components by their codes, in 8 bytes
//! an entry, exact (no false hits), under a memory cap. An entry holds either a component's
//! value or the values among 0 to 7 that it is known not to have (what searches that answered
//! "not in the set" learnt); a value replaces such an entry.
//!
//! A code of `c + 54` bits (`c`: the log of the number of clusters) is cut into its high 54
//! bits, stored beside the data and two flags, and its low `c` bits, which XORed with a hash of
//! the high bits pick the cluster: an entry and its cluster give the whole code back (one round
//! of a Feistel network; the quotienting of Beling's succinct tables). Codes too wide for the
//! table go to a side map. A cluster is one cache line of eight entries, and the clusters of a
//! large table lie on huge pages where the system has them.
//!
//! Entries are atomic words, so two threads share the table without locks: every word read
//! is some complete entry of its cluster. A cluster that is full drops its oldest entry
//! (first in, first out). Refutations that cost no search (listing the options sufficed) are
//! cheap entries: they only fill room the others leave and give way first. Below its cap the
//! table doubles when its full entries fill 70% of it, or once full clusters have dropped
//! 1/256 of its entries since it last doubled; threads hold a read lock for stretches of
//! work and let go of it for the doubling.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock, RwLockReadGuard};

/// Entries a cluster holds (one cache line).
const CLUSTER: usize = 8;

/// Bits of the code stored in an entry (the other bits pick the cluster).
const ID_BITS: u32 = 54;

/// Bits of an entry below the stored code: the flag [`REFUTED`] and a byte, the value plus
/// one or the refuted values.
const DATA_BITS: u32 = 9;

/// The flag of an entry that holds refuted values.
const REFUTED: u16 = 1 << 8;

/// The flag of a cheap entry: refuted values that listing the options found, with no search
/// below. Cheap entries fill only room that full entries leave, give way first, and do not
/// count towards doubling the table.
const CHEAP: u64 = 1 << DATA_BITS;

/// Where the stored code starts in an entry.
const ID_SHIFT: u32 = DATA_BITS + 1;

/// The data bits of an entry.
#[inline]
fn data_of(e: u64) -> u16 {
    (e & ((1 << DATA_BITS) - 1)) as u16
}

/// What a store did to the count of full (not cheap) entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stored {
    /// One more full entry.
    Added,
    /// A full entry took the place of the oldest full entry of a full cluster.
    Replaced,
    /// No change in the count.
    Same,
}

/// What the table knows of a code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// The value.
    pub value: Option<u8>,
    /// Values of 0 to 7 it does not have, as bits (0 when the value is known).
    pub refuted: u8,
}

impl Probe {
    /// The entry's data bits (0: nothing known).
    fn of(data: u16) -> Probe {
        if data == 0 {
            Probe::default()
        } else if data & REFUTED != 0 {
            Probe {
                value: None,
                refuted: data as u8,
            }
        } else {
            Probe {
                value: Some(data as u8 - 1),
                refuted: 0,
            }
        }
    }
}

/// Combines what is stored for a code (`old`, 0 for nothing) with new data: a value stays,
/// replaces refuted values, refuted values add up.
#[inline]
fn combine(old: u16, new: u16) -> u16 {
    if old == 0 || (old & REFUTED != 0 && new & REFUTED == 0) {
        new
    } else if old & REFUTED != 0 {
        old | new
    } else {
        old
    }
}

/// Bytes of one entry.
pub const ENTRY_BYTES: u64 = 8;

/// The least number of cluster bits (a table of 64 KiB).
const MIN_CLUSTER_BITS: u32 = 10;

/// A hash of the stored part of a code (a 64-bit mixer).
#[inline]
fn scramble(id: u64) -> u64 {
    let mut z = id.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One cluster of entries, aligned on a cache line.
#[repr(C, align(64))]
struct Cluster([AtomicU64; CLUSTER]);

/// The entries of one size of the table.
struct Slots {
    clusters: Clusters,
    cluster_bits: u32,
}

/// A zeroed array of clusters. A large one is aligned on huge pages and, on Linux, asks to be
/// backed by them: the table is read at random, and with 4 KiB pages most reads of a large
/// table also miss the TLB.
struct Clusters {
    ptr: std::ptr::NonNull<Cluster>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: `Clusters` owns its array alone, like a `Box<[Cluster]>`, and clusters are atomic
// words, which threads may share.
unsafe impl Send for Clusters {}
// SAFETY: as for `Send`: shared access only reads or writes atomic words.
unsafe impl Sync for Clusters {}

/// Bytes of a huge page (x86-64 and most aarch64 Linux kernels).
const HUGE_PAGE: usize = 2 << 20;

impl Clusters {
    /// `n` clusters (n ≥ 1), all zero.
    fn zeroed(n: usize) -> Clusters {
        let bytes = n * std::mem::size_of::<Cluster>();
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Cluster>()
        };
        let layout = std::alloc::Layout::from_size_align(bytes, align)
            .expect("a table that fits the address space");
        // SAFETY: the layout has a non-zero size (n ≥ 1, clusters are 64 bytes).
        let p = unsafe { std::alloc::alloc(layout) };
        let Some(ptr) = std::ptr::NonNull::new(p) else {
            std::alloc::handle_alloc_error(layout);
        };
        if align == HUGE_PAGE {
            advise_huge_pages(p, bytes);
        }
        // SAFETY: `p` holds `bytes` writable bytes; all-zero bytes are valid clusters (atomic
        // words holding 0). Zeroed after the advice, so that the first touch of each page
        // is this write.
        unsafe { std::ptr::write_bytes(p, 0, bytes) };
        Clusters {
            ptr: ptr.cast(),
            len: n,
            layout,
        }
    }
}

impl std::ops::Deref for Clusters {
    type Target = [Cluster];

    fn deref(&self) -> &[Cluster] {
        // SAFETY: `ptr` holds `len` initialised clusters, owned until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this very layout, and freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// Asks Linux to back the `len` bytes at `p` (aligned on a huge page) with huge pages. Only a
/// hint: where they are off, nothing changes.
fn advise_huge_pages(p: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: the range is an allocation of ours; MADV_HUGEPAGE changes how its pages are
    // backed, never their contents.
    unsafe {
        libc::madvise(p.cast(), len, libc::MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, len);
}

impl Slots {
    fn new(cluster_bits: u32) -> Slots {
        Slots {
            clusters: Clusters::zeroed(1 << cluster_bits),
            cluster_bits,
        }
    }

    fn entries(&self) -> u64 {
        (self.clusters.len() * CLUSTER) as u64
    }

    fn key_bits(&self) -> u32 {
        self.cluster_bits + ID_BITS
    }

    /// The cluster and the stored id of a code that fits.
    #[inline]
    fn place(&self, code: u128) -> (usize, u64) {
        let id = (code >> self.cluster_bits) as u64;
        let cluster = (code as u64 ^ scramble(id)) & ((1 << self.cluster_bits) - 1);
        (cluster as usize, id)
    }

    /// The code of an entry's id in a cluster.
    #[inline]
    fn code_of(&self, cluster: usize, id: u64) -> u128 {
        let low = (cluster as u64 ^ scramble(id)) & ((1 << self.cluster_bits) - 1);
        u128::from(id) << self.cluster_bits | u128::from(low)
    }

    #[inline]
    fn fits(&self, code: u128) -> bool {
        code >> self.key_bits() == 0
    }

    /// The data bits stored for `code` (0 for none).
    #[inline]
    fn get(&self, code: u128) -> u16 {
        let (cluster, id) = self.place(code);
        for slot in &self.clusters[cluster].0 {
            let e = slot.load(Ordering::Relaxed);
            if e == 0 {
                return 0;
            }
            if e >> ID_SHIFT == id {
                return data_of(e);
            }
        }
        0
    }

    /// Starts loading the cluster of a code that fits into the cache.
    #[inline]
    fn prefetch(&self, code: u128) {
        let (cluster, _) = self.place(code);
        #[cfg(target_arch = "x86_64")]
        {
            let line: *const Cluster = &self.clusters[cluster];
            // SAFETY: a prefetch reads nothing the program sees and cannot fault; the
            // address is that of a live cluster. SSE is part of every x86-64 CPU.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    line.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = cluster;
    }

    /// Stores `data` (not 0) as [`combine`] says. A full entry goes first in its cluster
    /// and shifts the others down (first in, first out), taking the place of an empty or
    /// cheap entry, or else of the oldest; a cheap one takes an empty place or the oldest
    /// cheap entry's, or is not stored.
    #[inline]
    fn put(&self, code: u128, data: u16, cheap: bool) -> Stored {
        let (cluster, id) = self.place(code);
        let flag = if cheap { CHEAP } else { 0 };
        let entry = id << ID_SHIFT | flag | u64::from(data);
        let cluster = &self.clusters[cluster].0;
        let mut room = None;
        for (i, slot) in cluster.iter().enumerate() {
            let e = slot.load(Ordering::Relaxed);
            if e == 0 {
                room = Some(i);
                break;
            }
            if e >> ID_SHIFT == id {
                let old = data_of(e);
                let new = combine(old, data);
                // The entry stays cheap only if both are.
                let kept = e & CHEAP & flag;
                if new != old || kept != e & CHEAP {
                    slot.store(id << ID_SHIFT | kept | u64::from(new), Ordering::Relaxed);
                }
                return if kept != e & CHEAP {
                    Stored::Added
                } else {
                    Stored::Same
                };
            }
            if e & CHEAP != 0 {
                room = Some(i);
            }
        }
        if cheap {
            if let Some(i) = room {
                cluster[i].store(entry, Ordering::Relaxed);
            }
            return Stored::Same;
        }
        let (last, stored) = match room {
            Some(i) => (i, Stored::Added),
            None => (CLUSTER - 1, Stored::Replaced),
        };
        for i in (1..=last).rev() {
            let moved = cluster[i - 1].load(Ordering::Relaxed);
            cluster[i].store(moved, Ordering::Relaxed);
        }
        cluster[0].store(entry, Ordering::Relaxed);
        stored
    }

    /// Moves every entry to `other`, oldest first within each cluster; returns the number of
    /// full entries.
    fn drain_into(&self, other: &Slots) -> u64 {
        let mut full = 0;
        for (cluster, slots) in self.clusters.iter().enumerate() {
            for slot in slots.0.iter().rev() {
                let e = slot.load(Ordering::Relaxed);
                if e == 0 {
                    continue;
                }
                let cheap = e & CHEAP != 0;
                full += u64::from(!cheap);
                other.put(self.code_of(cluster, e >> ID_SHIFT), data_of(e), cheap);
            }
        }
        full
    }

    fn bytes(&self) -> u64 {
        self.entries() * ENTRY_BYTES
    }
}

/// A transposition table of nim values by code, shared by the search threads.
pub struct Table {
    slots: RwLock<Slots>,
    /// Codes too wide for the table's size.
    wide: Mutex<HashMap<u128, u16>>,
    /// Entries in use (about: concurrent stores may count twice).
    filled: AtomicU64,
    /// Full entries that full clusters dropped since the table last doubled.
    dropped: AtomicU64,
    /// A thread found the table too full.
    grow: AtomicBool,
    /// The machine or the budget could not give a bigger table.
    stuck: AtomicBool,
    /// Threads waiting for the write lock in [`Table::grow`].
    waiting: AtomicUsize,
    max_bytes: u64,
}

/// Bytes a side-map entry costs, about.
const WIDE_BYTES: u64 = 40;

impl Table {
    /// An empty table that grows up to `max_bytes` (at least its least size of 32 KiB).
    pub fn new(max_bytes: u64) -> Table {
        Table {
            slots: RwLock::new(Slots::new(MIN_CLUSTER_BITS)),
            wide: Mutex::new(HashMap::new()),
            filled: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            grow: AtomicBool::new(false),
            stuck: AtomicBool::new(false),
            waiting: AtomicUsize::new(0),
            max_bytes,
        }
    }

    /// A handle for lookups and stores, holding the read lock until dropped.
    pub fn reader(&self) -> Reader<'_> {
        Reader {
            table: self,
            slots: self.slots.read().unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// Whether a thread asked for the table to double, or waits in [`Table::grow`]: then
    /// every thread must let go of its [`Reader`] and call [`Table::grow`] too, or the one
    /// waiting waits until the next request.
    pub fn wants_to_grow(&self) -> bool {
        self.grow.load(Ordering::Relaxed) || self.has_waiting()
    }

    /// Whether a thread waits for the write lock in [`Table::grow`].
    pub fn has_waiting(&self) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0
    }

    /// Doubles the table if a thread asked for it (call with no [`Reader`] held by this
    /// thread). When the memory left (or the machine's) cannot hold the doubled table, the
    /// table stays as it is for good: it is a cache, and replaces entries when full.
    pub fn grow(&self, memory_left: Option<u64>) {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        if !self.grow.swap(false, Ordering::Relaxed) || self.stuck.load(Ordering::Relaxed) {
            return;
        }
        let bigger = slots.bytes() * 2;
        if bigger > self.max_bytes {
            return;
        }
        // The new table is held beside the old one while entries move.
        let need = bigger + slots.bytes();
        let caps = [crate::memory::Cap::Budget(memory_left)];
        if crate::memory::reserve("the transposition table", need, &caps).is_err() {
            self.stuck.store(true, Ordering::Relaxed);
            return;
        }
        let next = Slots::new(slots.cluster_bits + 1);
        let mut filled = slots.drain_into(&next);
        // Side-map codes that now fit move into the table.
        let mut wide = self.wide.lock().unwrap_or_else(|e| e.into_inner());
        wide.retain(|&code, &mut data| {
            if next.fits(code) {
                next.put(code, data, false);
                filled += 1;
                false
            } else {
                true
            }
        });
        self.filled.store(filled, Ordering::Relaxed);
        self.dropped.store(0, Ordering::Relaxed);
        *slots = next;
    }

    /// Bytes the table holds now (entries and side map).
    pub fn bytes(&self) -> u64 {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        let wide = self.wide.lock().unwrap_or_else(|e| e.into_inner()).len() as u64;
        slots.bytes() + wide * WIDE_BYTES
    }

    /// Entries in use and entries in all (the side map counts on both sides).
    pub fn fill(&self) -> (u64, u64) {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        let wide = self.wide.lock().unwrap_or_else(|e| e.into_inner()).len() as u64;
        (
            self.filled.load(Ordering::Relaxed) + wide,
            slots.entries() + wide,
        )
    }

    /// The cap on the table's bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }
}

/// Lookups and stores under the table's read lock.
pub struct Reader<'a> {
    table: &'a Table,
    slots: RwLockReadGuard<'a, Slots>,
}

impl Reader<'_> {
    /// The value stored for `code`.
    #[inline]
    pub fn get(&self, code: u128) -> Option<u8> {
        self.probe(code).value
    }

    /// What is stored for `code`: its value, or values it does not have.
    #[inline]
    pub fn probe(&self, code: u128) -> Probe {
        Probe::of(if self.slots.fits(code) {
            self.slots.get(code)
        } else {
            self.table
                .wide
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&code)
                .copied()
                .unwrap_or(0)
        })
    }

    /// Starts loading what [`Reader::probe`] will read for `code` (a hint).
    #[inline]
    pub fn prefetch(&self, code: u128) {
        if self.slots.fits(code) {
            self.slots.prefetch(code);
        }
    }

    /// Entries in use and entries in all, of the table only.
    pub fn fill(&self) -> (u64, u64) {
        (
            self.table.filled.load(Ordering::Relaxed),
            self.slots.entries(),
        )
    }

    /// Stores `value` for `code` (values above 254 are not stored).
    #[inline]
    pub fn put(&self, code: u128, value: u8) {
        if value != u8::MAX {
            self.write(code, u16::from(value) + 1, false);
        }
    }

    /// Records that `code`'s value is none of the values of 0 to 7 whose bits `bits` has (no
    /// change once its value is stored); `cheap` when no search below found it (only
    /// listing the options), so that it gives way first and keeps the table from growing.
    #[inline]
    pub fn refute(&self, code: u128, bits: u8, cheap: bool) {
        if bits != 0 {
            self.write(code, REFUTED | u16::from(bits), cheap);
        }
    }

    #[inline]
    fn write(&self, code: u128, data: u16, cheap: bool) {
        let table = self.table;
        if !self.slots.fits(code) {
            if cheap {
                return;
            }
            let mut wide = table.wide.lock().unwrap_or_else(|e| e.into_inner());
            // The side map is a cache too: it stops growing at the cap.
            if (wide.len() as u64 + 1) * WIDE_BYTES + self.slots.bytes() <= table.max_bytes {
                let entry = wide.entry(code).or_insert(0);
                *entry = combine(*entry, data);
            }
            return;
        }
        let stored = self.slots.put(code, data, cheap);
        let (filled, dropped) = match stored {
            Stored::Added => (table.filled.fetch_add(1, Ordering::Relaxed) + 1, 0),
            Stored::Replaced => (
                table.filled.load(Ordering::Relaxed),
                table.dropped.fetch_add(1, Ordering::Relaxed) + 1,
            ),
            Stored::Same => return,
        };
        // Double when full entries fill 70% of the table, or when full clusters have dropped
        // 1/256 of its entries since it last doubled (a few clusters are always full long
        // before 70%), while below the cap.
        let entries = self.slots.entries();
        if (filled * 10 > entries * 7 || dropped * 256 > entries)
            && self.slots.bytes() * 2 <= table.max_bytes
            && !table.stuck.load(Ordering::Relaxed)
        {
            table.grow.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread that waits in `grow` while another holds a reader and no doubling is asked
    /// for any more (another thread did it) is seen by the holder, which then lets go.
    #[test]
    fn a_thread_waiting_to_grow_is_seen() {
        let table = Table::new(1 << 20);
        let reader = table.reader();
        assert!(!table.wants_to_grow());
        std::thread::scope(|scope| {
            let grower = scope.spawn(|| table.grow(None));
            let start = std::time::Instant::now();
            while !table.wants_to_grow() {
                assert!(
                    start.elapsed() < std::time::Duration::from_secs(20),
                    "the waiting thread was never seen"
                );
                std::thread::yield_now();
            }
            drop(reader);
            grower.join().unwrap();
        });
        assert!(!table.wants_to_grow());
    }

    #[test]
    fn places_give_codes_back() {
        let slots = Slots::new(12);
        for code in [
            0u128,
            1,
            2,
            12345,
            (1 << 68) - 1,
            (1 << 65) - 1,
            0xdead_beef << 40,
        ] {
            let (cluster, id) = slots.place(code);
            assert_eq!(slots.code_of(cluster, id), code);
        }
        // Codes that differ in their high bits only spread over the clusters.
        let clusters: std::collections::HashSet<_> =
            (0..5000u128).map(|c| slots.place(c << 20).0).collect();
        assert!(clusters.len() > 2500, "{}", clusters.len());
    }

    #[test]
    fn stores_grow_and_keep_values() {
        let table = Table::new(1 << 30);
        let n = 200_000u128;
        for code in 0..n {
            let reader = table.reader();
            reader.put(code * 7919, (code % 200) as u8);
            drop(reader);
            if table.wants_to_grow() {
                table.grow(None);
            }
        }
        let reader = table.reader();
        let found = (0..n)
            .filter(|&c| reader.get(c * 7919) == Some((c % 200) as u8))
            .count();
        // A few may have been dropped by full clusters; none is wrong.
        assert!(found as u128 > n * 98 / 100, "{found}");
        for c in 0..n {
            if let Some(v) = reader.get(c * 7919) {
                assert_eq!(v, (c % 200) as u8);
            }
        }
        assert_eq!(reader.get(u128::MAX), None);
        reader.put(u128::MAX, 7);
        assert_eq!(reader.get(u128::MAX), Some(7));
        // Big enough for the huge-page layout.
        assert!(reader.slots.bytes() >= 4 << 20, "{}", reader.slots.bytes());
    }

    #[test]
    fn large_cluster_arrays_are_zero_and_aligned_on_huge_pages() {
        for n in [1, 3, HUGE_PAGE / 64, HUGE_PAGE / 64 * 3] {
            let clusters = Clusters::zeroed(n);
            assert_eq!(clusters.len(), n);
            let aligned = if n * 64 >= HUGE_PAGE { HUGE_PAGE } else { 64 };
            assert_eq!(clusters.as_ptr() as usize % aligned, 0);
            assert!(clusters
                .iter()
                .all(|c| c.0.iter().all(|e| e.load(Ordering::Relaxed) == 0)));
            clusters[n - 1].0[7].store(5, Ordering::Relaxed);
            assert_eq!(clusters[n - 1].0[7].load(Ordering::Relaxed), 5);
        }
    }

    #[test]
    fn cheap_entries_fill_room_give_way_first_and_are_not_counted() {
        let slots = Slots::new(MIN_CLUSTER_BITS);
        let code = |id: u64| slots.code_of(0, id);
        let refuted = REFUTED | 0b1;
        for id in 1..=8 {
            assert_eq!(slots.put(code(id), refuted, true), Stored::Same);
        }
        assert!((1..=8).all(|id| slots.get(code(id)) == refuted));
        // A full entry takes the oldest cheap entry's place.
        assert_eq!(slots.put(code(9), 5, false), Stored::Added);
        assert_eq!(slots.get(code(8)), 0);
        assert_eq!(slots.get(code(9)), 5);
        // A cheap entry made full counts once; a full one stays full.
        assert_eq!(slots.put(code(1), 3, false), Stored::Added);
        assert_eq!(slots.put(code(1), refuted, true), Stored::Same);
        assert_eq!(slots.get(code(1)), 3);
        for id in 10..=15 {
            assert_eq!(slots.put(code(id), 1, false), Stored::Added);
        }
        // Now eight full entries: a cheap one finds no room, a full one drops the oldest.
        assert_eq!(slots.put(code(20), refuted, true), Stored::Same);
        assert_eq!(slots.get(code(20)), 0);
        // (Code 1 kept the place it took when it came in cheap: it is the oldest.)
        assert_eq!(slots.put(code(16), 1, false), Stored::Replaced);
        assert_eq!(slots.get(code(1)), 0);
        assert_eq!(slots.get(code(9)), 5);
        // Doubling keeps both kinds and counts the full ones.
        let next = Slots::new(MIN_CLUSTER_BITS + 1);
        assert_eq!(slots.drain_into(&next), 8);
        assert_eq!(next.get(code(16)), 1);
    }

    #[test]
    fn refuted_values_add_up_and_give_way_to_the_value() {
        let table = Table::new(1 << 20);
        let reader = table.reader();
        // In the table and in the side map (a code too wide for the table).
        for code in [12345u128, u128::MAX - 3] {
            assert_eq!(reader.probe(code), Probe::default());
            reader.refute(code, 0b0000_0001, false);
            reader.refute(code, 0b0010_0000, false);
            let probe = reader.probe(code);
            assert_eq!((probe.value, probe.refuted), (None, 0b0010_0001));
            assert_eq!(reader.get(code), None);
            reader.put(code, 3);
            assert_eq!(
                reader.probe(code),
                Probe {
                    value: Some(3),
                    refuted: 0
                }
            );
            // A value stays: later refutations change nothing.
            reader.refute(code, 0b1000_0000, false);
            assert_eq!(reader.get(code), Some(3));
        }
        // Refuted values move with the table when it doubles.
        reader.refute(777, 0b110, false);
        drop(reader);
        table.grow.store(true, Ordering::Relaxed);
        table.grow(None);
        assert_eq!(table.reader().probe(777).refuted, 0b110);
        assert_eq!(table.reader().get(12345), Some(3));
    }

    #[test]
    fn a_capped_table_replaces_and_stays_within_its_cap() {
        let table = Table::new(1 << 16);
        for code in 0..100_000u128 {
            table.reader().put(code, 1);
            if table.wants_to_grow() {
                table.grow(None);
            }
        }
        assert!(table.bytes() <= 1 << 16);
        let hits = (0..100_000u128)
            .filter(|&c| table.reader().get(c).is_some())
            .count();
        assert!(hits <= 8192 && hits > 4000, "{hits}");
    }
}
