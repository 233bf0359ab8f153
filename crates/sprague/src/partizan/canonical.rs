//! [`Canonical`]: a short partizan game in canonical form, as a value.

use super::arena::{Arena, GameId, Nus, Outcome, Relation};
use super::dyadic::Dyadic;
use super::notation::{self, ParseGameError};
use super::thermograph::{self, Thermal, Thermograph};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard};

/// An [`Arena`] that several values (and threads) share behind a mutex.
#[derive(Clone, Default)]
pub struct SharedArena(Arc<Mutex<Arena>>);

impl fmt::Debug for SharedArena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedArena")
    }
}

impl SharedArena {
    /// A new arena holding only 0.
    pub fn new() -> SharedArena {
        SharedArena::default()
    }

    /// Shares an arena that a computation filled (a solver's, say).
    pub fn from_arena(arena: Arena) -> SharedArena {
        SharedArena(Arc::new(Mutex::new(arena)))
    }

    /// Locks the arena for a batch of operations on ids.
    pub fn lock(&self) -> MutexGuard<'_, Arena> {
        // A panic while holding the lock leaves the arena consistent: every mutation appends.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value named `id` in this arena.
    pub fn value(&self, id: GameId) -> Canonical {
        Canonical {
            arena: self.clone(),
            id,
        }
    }

    /// Parses CGSuite notation into a value of this arena.
    ///
    /// # Errors
    /// See [`notation::parse`].
    pub fn parse(&self, text: &str) -> Result<Canonical, ParseGameError> {
        let id = notation::parse(&mut self.lock(), text)?;
        Ok(self.value(id))
    }

    fn same(&self, other: &SharedArena) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The id in this arena of the form `id` of another (unshared) arena, copied over.
    pub fn import_from(&self, arena: &mut Arena, id: GameId) -> GameId {
        Portable::export(arena, id).import(&mut self.lock())
    }

    /// The id of `g` in this arena (copying its form over when it lives in another one).
    pub fn import(&self, g: &Canonical) -> GameId {
        if self.same(&g.arena) {
            return g.id;
        }
        let portable = Portable::export(&mut g.arena.lock(), g.id);
        portable.import(&mut self.lock())
    }
}

/// A canonical form copied out of an arena: nodes in an order where options come first.
enum PortableNode {
    Nus(Nus),
    Options(Vec<usize>, Vec<usize>),
}

struct Portable(Vec<PortableNode>);

impl Portable {
    fn export(arena: &mut Arena, root: GameId) -> Portable {
        let mut index = hashbrown::HashMap::new();
        let mut nodes = Vec::new();
        // Iterative post-order, so deep games need no deep stack.
        let mut stack = vec![(root, false)];
        while let Some((g, children_done)) = stack.pop() {
            if index.contains_key(&g) {
                continue;
            }
            if let Some(n) = arena.nus_of(g) {
                index.insert(g, nodes.len());
                nodes.push(PortableNode::Nus(n));
                continue;
            }
            let (left, right) = (arena.left_options(g), arena.right_options(g));
            if children_done {
                let l = left.iter().map(|o| index[o]).collect();
                let r = right.iter().map(|o| index[o]).collect();
                index.insert(g, nodes.len());
                nodes.push(PortableNode::Options(l, r));
            } else {
                stack.push((g, true));
                stack.extend(left.into_iter().chain(right).map(|o| (o, false)));
            }
        }
        Portable(nodes)
    }

    fn import(&self, arena: &mut Arena) -> GameId {
        let mut ids = Vec::with_capacity(self.0.len());
        for node in &self.0 {
            let id = match node {
                PortableNode::Nus(n) => arena.nus(*n),
                PortableNode::Options(l, r) => {
                    let left: Vec<GameId> = l.iter().map(|&i| ids[i]).collect();
                    let right: Vec<GameId> = r.iter().map(|&i| ids[i]).collect();
                    arena.intern_canonical(left, right)
                }
            };
            ids.push(id);
        }
        *ids.last().expect("an export holds its root")
    }
}

/// A short partizan game in canonical form: a value of the group of short games.
///
/// Equal values are equal games (`=` of combinatorial game theory); `<`, `>` and
/// [`Canonical::compare`] order them partially (`||` for confused games, where `partial_cmp`
/// gives `None`). A value names a form in a [`SharedArena`]; values of different arenas can
/// be mixed (the form is copied over). `Canonical` is `Send + Sync`: operations lock the
/// arena, so heavy parallel work should give each thread its own [`Arena`].
///
/// ```
/// use sprague::partizan::Canonical;
/// let g: Canonical = "{2|1||0}".parse()?;
/// let up: Canonical = "^".parse()?;
/// assert_eq!((&up + &up).to_string(), "^^");
/// // {2|1||0} is {{2|1}|0}: mean and temperature 3/4.
/// assert_eq!(g.mean().to_string(), "3/4");
/// assert_eq!(g.temperature().to_string(), "3/4");
/// assert_eq!(Canonical::parse("{0|{0|0}}")?.to_string(), "^");
/// # Ok::<(), sprague::partizan::ParseGameError>(())
/// ```
#[derive(Clone)]
pub struct Canonical {
    arena: SharedArena,
    id: GameId,
}

impl fmt::Debug for Canonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Canonical({self})")
    }
}

impl Canonical {
    /// Parses CGSuite notation (see [`notation`]) into a value in a new arena.
    ///
    /// # Errors
    /// See [`notation::parse`].
    pub fn parse(text: &str) -> Result<Canonical, ParseGameError> {
        SharedArena::new().parse(text)
    }

    /// The game 0.
    pub fn zero() -> Canonical {
        SharedArena::new().value(Arena::ZERO)
    }

    /// The number `x`.
    pub fn number(x: Dyadic) -> Canonical {
        let arena = SharedArena::new();
        let id = arena.lock().number(x);
        arena.value(id)
    }

    /// `x + ups·↑ + *nimber`.
    pub fn nus(nus: Nus) -> Canonical {
        let arena = SharedArena::new();
        let id = arena.lock().nus(nus);
        arena.value(id)
    }

    /// The canonical form of `{ left | right }` (in the first option's arena).
    pub fn from_options(left: &[Canonical], right: &[Canonical]) -> Canonical {
        let arena = left
            .iter()
            .chain(right)
            .next()
            .map_or_else(SharedArena::new, |g| g.arena.clone());
        let l: Vec<GameId> = left.iter().map(|g| arena.import(g)).collect();
        let r: Vec<GameId> = right.iter().map(|g| arena.import(g)).collect();
        let id = arena.lock().from_options(&l, &r);
        arena.value(id)
    }

    /// The arena the value lives in, and its id there.
    pub fn id(&self) -> (&SharedArena, GameId) {
        (&self.arena, self.id)
    }

    fn with<T>(&self, f: impl FnOnce(&mut Arena, GameId) -> T) -> T {
        f(&mut self.arena.lock(), self.id)
    }

    fn with_other<T>(
        &self,
        other: &Canonical,
        f: impl FnOnce(&mut Arena, GameId, GameId) -> T,
    ) -> T {
        let h = self.arena.import(other);
        f(&mut self.arena.lock(), self.id, h)
    }

    fn wrap(&self, id: GameId) -> Canonical {
        self.arena.value(id)
    }

    /// Left's options in canonical form.
    pub fn left_options(&self) -> Vec<Canonical> {
        let ids = self.with(|a, g| a.left_options(g));
        ids.into_iter().map(|id| self.wrap(id)).collect()
    }

    /// Right's options in canonical form.
    pub fn right_options(&self) -> Vec<Canonical> {
        let ids = self.with(|a, g| a.right_options(g));
        ids.into_iter().map(|id| self.wrap(id)).collect()
    }

    /// The outcome class.
    pub fn outcome(&self) -> Outcome {
        self.with(|a, g| a.outcome(g))
    }

    /// How `self` compares with `other`.
    pub fn compare(&self, other: &Canonical) -> Relation {
        self.with_other(other, |a, g, h| a.compare(g, h))
    }

    /// The value as `number + ups·↑ + *nimber`, when it is one.
    pub fn as_nus(&self) -> Option<Nus> {
        self.with(|a, g| a.nus_of(g))
    }

    /// The value as a number, when it is one.
    pub fn as_number(&self) -> Option<Dyadic> {
        self.with(|a, g| a.number_of(g))
    }

    /// The value as a nimber `*m`, when it is one (0 is `*0`).
    pub fn as_nimber(&self) -> Option<u32> {
        self.with(|a, g| a.nimber_of(g))
    }

    /// The thermograph.
    pub fn thermograph(&self) -> Thermograph {
        self.with(|a, g| Thermal::new(a).thermograph(g))
    }

    /// The thermograph, or [`crate::Error::Stopped`] once `budget` is spent.
    ///
    /// # Errors
    /// As [`crate::budget::Budget::check`].
    pub fn thermograph_within(&self, budget: &crate::budget::Budget) -> crate::Result<Thermograph> {
        self.with(|a, g| {
            let mut thermal = Thermal::within(a, budget.clone());
            let graph = thermal.thermograph(g);
            if thermal.is_stopped() {
                Err(budget.spent().unwrap_or_else(crate::Error::stopped))
            } else {
                Ok(graph)
            }
        })
    }

    /// The temperature (negative for numbers, as in CGSuite).
    pub fn temperature(&self) -> Dyadic {
        self.thermograph().temperature
    }

    /// The mean value.
    pub fn mean(&self) -> Dyadic {
        self.thermograph().mean
    }

    /// The Left and Right stops.
    pub fn stops(&self) -> (Dyadic, Dyadic) {
        self.with(thermograph::stops)
    }

    /// The value cooled by `t`.
    pub fn cool(&self, t: Dyadic) -> Canonical {
        let id = self.with(|a, g| Thermal::new(a).cool(g, t));
        self.wrap(id)
    }

    /// The value heated by `t`.
    pub fn heat(&self, t: &Canonical) -> Canonical {
        let id = self.with_other(t, thermograph::heat);
        self.wrap(id)
    }

    /// The atomic weight, for an all-small value.
    pub fn atomic_weight(&self) -> Option<Canonical> {
        let id = self.with(thermograph::atomic_weight);
        id.map(|id| self.wrap(id))
    }

    /// The reduced canonical form (the simplest game infinitesimally close to this one).
    pub fn reduced(&self) -> Canonical {
        let id = self.with(thermograph::reduced_canonical_form);
        self.wrap(id)
    }

    /// The birthday.
    pub fn birthday(&self) -> u64 {
        self.with(|a, g| a.birthday(g))
    }
}

impl fmt::Display for Canonical {
    /// CGSuite's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.with(notation::to_notation))
    }
}

impl FromStr for Canonical {
    type Err = ParseGameError;
    fn from_str(text: &str) -> Result<Canonical, ParseGameError> {
        Canonical::parse(text)
    }
}

impl PartialEq for Canonical {
    fn eq(&self, other: &Canonical) -> bool {
        self.with_other(other, |_, g, h| g == h)
    }
}

impl Eq for Canonical {}

impl PartialOrd for Canonical {
    fn partial_cmp(&self, other: &Canonical) -> Option<Ordering> {
        match self.compare(other) {
            Relation::Less => Some(Ordering::Less),
            Relation::Equal => Some(Ordering::Equal),
            Relation::Greater => Some(Ordering::Greater),
            Relation::Confused => None,
        }
    }
}

macro_rules! binary {
    ($trait:ident, $method:ident, $op:ident) => {
        impl std::ops::$trait<&Canonical> for &Canonical {
            type Output = Canonical;
            fn $method(self, other: &Canonical) -> Canonical {
                let id = self.with_other(other, |a, g, h| a.$op(g, h));
                self.wrap(id)
            }
        }
        impl std::ops::$trait for Canonical {
            type Output = Canonical;
            fn $method(self, other: Canonical) -> Canonical {
                (&self).$method(&other)
            }
        }
    };
}

binary!(Add, add, add);
binary!(Sub, sub, sub);

impl std::ops::Neg for &Canonical {
    type Output = Canonical;
    fn neg(self) -> Canonical {
        let id = self.with(|a, g| a.neg(g));
        self.wrap(id)
    }
}

impl std::ops::Neg for Canonical {
    type Output = Canonical;
    fn neg(self) -> Canonical {
        -&self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> Canonical {
        Canonical::parse(text).unwrap()
    }

    #[test]
    fn values_from_different_arenas_mix() {
        let a = c("{2|1||0}");
        let b = c("{0||-1|-2}");
        assert_eq!((&a + &b).to_string(), "0");
        assert_eq!(a, -b.clone());
        assert!(c("^") > c("0"));
        assert_eq!(c("*").partial_cmp(&c("0")), None);
        assert_eq!(c("^*").compare(&c("0")), Relation::Confused);
        assert_eq!(
            Canonical::from_options(&[c("0"), c("*")], &[c("0")]).to_string(),
            "^*"
        );
        let here = (&a + &a).to_string();
        let there = std::thread::spawn(move || (&a + &a).to_string())
            .join()
            .unwrap();
        assert_eq!(here, there);
    }
}
