//! Memory accounting for budgets: an allocator that counts the bytes it hands out, and
//! accounts that one computation's allocations are charged to.
//!
//! A front end that wants memory budgets installs [`Counting`] as its global allocator (the
//! library never does); a [`Budget`](crate::budget::Budget) with a memory cap then reads a
//! [`Meter`] wherever it is checked, so every loop that stops at a deadline also stops when
//! its memory runs out, with [`Error::Stopped`](crate::Error::Stopped) naming the cap.
//! Without [`Counting`] installed every meter reads 0 and memory caps never trigger.
//!
//! ```
//! use sprague::memory::{Account, Meter};
//!
//! let account = Account::new();
//! let meter = Meter::Account(account.clone());
//! {
//!     let _charged = account.enter();
//!     let _bytes = vec![0u8; 1 << 20];
//!     // With `Counting` as the global allocator, `meter.bytes()` is now about 1 MiB.
//! }
//! assert!(meter.bytes() < 1 << 30);
//! ```

use crate::error::{Error, Result};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;

/// Bytes allocated and not yet freed, by every thread (only counted under [`Counting`]).
static LIVE: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// The account this thread's allocations are charged to, if any.
    static CHARGED: Cell<*const AtomicIsize> = const { Cell::new(ptr::null()) };
}

/// The system allocator, counting live bytes for the process and for the calling thread's
/// [`Account`]. Install it in a binary with
/// `#[global_allocator] static ALLOC: sprague::memory::Counting = sprague::memory::Counting;`.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counting;

#[inline]
fn charge(bytes: isize) {
    LIVE.fetch_add(bytes, Ordering::Relaxed);
    // `try_with`: a thread being torn down has no account, and must not panic in the allocator.
    let _ = CHARGED.try_with(|account| {
        let account = account.get();
        if !account.is_null() {
            // SAFETY: the pointer is set only by `Account::enter`, whose guard keeps the
            // account alive and clears the pointer before it is dropped.
            unsafe { (*account).fetch_add(bytes, Ordering::Relaxed) };
        }
    });
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            charge(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            charge(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        charge(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            charge(new_size as isize - layout.size() as isize);
        }
        q
    }
}

/// Bytes the whole process holds from [`Counting`] (0 when it is not the global allocator).
pub fn live_bytes() -> u64 {
    LIVE.load(Ordering::Relaxed).max(0) as u64
}

/// The bytes one computation allocated and has not freed, on the threads that
/// [entered](Account::enter) it. Clones share the count.
#[derive(Clone, Debug, Default)]
pub struct Account(Arc<AtomicIsize>);

impl Account {
    /// An account with nothing charged.
    pub fn new() -> Account {
        Account::default()
    }

    /// The bytes charged so far (frees of memory allocated elsewhere may take it below 0,
    /// read as 0).
    pub fn bytes(&self) -> u64 {
        self.0.load(Ordering::Relaxed).max(0) as u64
    }

    /// Charges the calling thread's allocations to this account until the guard is dropped
    /// (then the previous account, if any, is charged again).
    pub fn enter(&self) -> Entered {
        let previous = CHARGED.with(|c| c.replace(Arc::as_ptr(&self.0)));
        Entered {
            _account: self.0.clone(),
            previous,
        }
    }
}

/// While alive, the thread that made it charges its allocations to an [`Account`].
#[derive(Debug)]
pub struct Entered {
    _account: Arc<AtomicIsize>,
    previous: *const AtomicIsize,
}

impl Drop for Entered {
    fn drop(&mut self) {
        CHARGED.with(|c| c.set(self.previous));
    }
}

/// The memory this machine can give now (`MemAvailable` in `/proc/meminfo`), where known.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// A bound on what one allocation may take, besides the machine's available memory.
#[derive(Clone, Copy, Debug)]
pub enum Cap {
    /// What is left of the computation's memory budget ([`crate::progress::Progress::memory_left`]).
    Budget(Option<u64>),
    /// A fixed bound of the engine, named for the message ("option lists", "strong solves").
    Fixed(u64, &'static str),
}

/// The one check before a large allocation: `Ok` when about `need` bytes fit every cap and the
/// machine's available memory.
///
/// ```
/// use sprague::memory::{reserve, Cap};
///
/// assert!(reserve("a small table", 1 << 10, &[Cap::Budget(Some(1 << 20))]).is_ok());
/// let e = reserve("a table to heap 10^9", 4 << 30, &[Cap::Budget(Some(100 << 20))]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "a table to heap 10^9 needs about 4096 MiB, more than the 100 MiB left in its memory budget"
/// );
/// ```
///
/// # Errors
/// [`Error::Limit`] naming what would not fit, its size and the bound it passes.
pub fn reserve(what: &str, need: u64, caps: &[Cap]) -> Result<()> {
    let mib = |bytes: u64| bytes >> 20;
    let too_much = |bound: String| {
        Error::Limit(format!(
            "{what} needs about {} MiB, more than {bound}",
            mib(need)
        ))
    };
    for cap in caps {
        match *cap {
            Cap::Budget(Some(left)) if need > left => {
                return Err(too_much(format!(
                    "the {} MiB left in its memory budget",
                    mib(left)
                )))
            }
            Cap::Fixed(bound, name) if need > bound => {
                return Err(too_much(format!(
                    "the {} MiB allowed for {name}",
                    mib(bound)
                )))
            }
            _ => {}
        }
    }
    match available() {
        Some(free) if need > free => Err(too_much(format!(
            "the {} MiB this machine has available",
            mib(free)
        ))),
        _ => Ok(()),
    }
}

/// What a memory cap is measured on.
#[derive(Clone, Debug)]
pub enum Meter {
    /// Every byte the process holds (a command-line run).
    Process,
    /// The bytes of one computation (a server request).
    Account(Account),
}

impl Meter {
    /// The bytes this meter reads now.
    pub fn bytes(&self) -> u64 {
        match self {
            Meter::Process => live_bytes(),
            Meter::Account(account) => account.bytes(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Charges `bytes` to the calling thread's account until the result is dropped, as
    /// [`Counting`] would for an allocation (unit tests do not install it).
    pub(crate) fn hold(bytes: isize) -> impl Drop {
        struct Held(isize);
        impl Drop for Held {
            fn drop(&mut self) {
                charge(-self.0);
            }
        }
        charge(bytes);
        Held(bytes)
    }

    #[test]
    fn an_account_is_charged_only_while_entered() {
        // The test binary does not install `Counting`, so charge by hand.
        let account = Account::new();
        {
            let _charged = account.enter();
            charge(1000);
            charge(-200);
        }
        charge(5000);
        assert_eq!(account.bytes(), 800);
        let other = Account::new();
        {
            let _outer = account.enter();
            {
                let _inner = other.enter();
                charge(7);
            }
            charge(3);
        }
        assert_eq!(other.bytes(), 7);
        assert_eq!(account.bytes(), 803);
        assert_eq!(Meter::Account(account).bytes(), 803);
    }

    #[test]
    fn a_negative_balance_reads_as_zero() {
        let account = Account::new();
        let _charged = account.enter();
        charge(-10);
        assert_eq!(account.bytes(), 0);
    }
}
