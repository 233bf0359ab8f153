//! Property tests of the partizan values: the group laws, the order, the fast paths against
//! the general algorithms, nim values against brute force, thermography identities.

use super::arena::{Arena, GameId, Nus, Outcome, Relation};
use super::dyadic::Dyadic;
use super::notation::{parse, to_notation};
use super::thermograph::{self, Thermal};
use proptest::prelude::*;

/// A random short game built bottom-up: game `i` has the options of `recipe[i]`, each option
/// an earlier game (bit `j` of a mask names game `j`, with game 0 being 0).
#[derive(Clone, Debug)]
struct Recipe(Vec<(u32, u32)>);

fn recipes(max_games: usize) -> impl Strategy<Value = Recipe> {
    prop::collection::vec((any::<u32>(), any::<u32>()), 1..max_games).prop_map(Recipe)
}

impl Recipe {
    fn members(mask: u32, i: usize) -> impl Iterator<Item = usize> {
        (0..i.min(32))
            .filter(move |j| mask >> j & 1 == 1)
            .map(move |j| i - 1 - j)
    }

    /// Every game of the recipe in `arena` (the last is the interesting one).
    fn build(&self, arena: &mut Arena) -> Vec<GameId> {
        let mut games = vec![Arena::ZERO];
        for (i, &(l, r)) in self.0.iter().enumerate() {
            let n = i + 1;
            let left: Vec<GameId> = Recipe::members(l, n).map(|j| games[j]).collect();
            let right: Vec<GameId> = Recipe::members(r, n).map(|j| games[j]).collect();
            games.push(arena.from_options(&left, &right));
        }
        games
    }

    /// Like [`Recipe::build`] with Left's options equal to Right's (impartial games).
    fn build_impartial(&self, arena: &mut Arena) -> Vec<GameId> {
        let mut games = vec![Arena::ZERO];
        for (i, &(l, _)) in self.0.iter().enumerate() {
            let options: Vec<GameId> = Recipe::members(l, i + 1).map(|j| games[j]).collect();
            games.push(arena.from_options(&options, &options));
        }
        games
    }

    /// Grundy values of the impartial games, by mex.
    fn grundy(&self) -> Vec<u32> {
        let mut values = vec![0u32];
        for (i, &(l, _)) in self.0.iter().enumerate() {
            let seen: Vec<u32> = Recipe::members(l, i + 1).map(|j| values[j]).collect();
            values.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        values
    }

    /// Who wins each game moving first, by plain search on the game as written (no
    /// simplification): `(Left starting wins, Right starting wins)`.
    fn brute_force(&self) -> Vec<(bool, bool)> {
        let mut wins = vec![(false, false)];
        for (i, &(l, r)) in self.0.iter().enumerate() {
            let n = i + 1;
            let left = Recipe::members(l, n).any(|j| !wins[j].1);
            let right = Recipe::members(r, n).any(|j| !wins[j].0);
            wins.push((left, right));
        }
        wins
    }
}

fn outcome_of(wins: (bool, bool)) -> Outcome {
    match wins {
        (true, true) => Outcome::N,
        (false, false) => Outcome::P,
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
    }
}

fn pick(games: &[GameId], k: usize) -> GameId {
    games[k % games.len()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn outcomes_agree_with_search(recipe in recipes(12)) {
        let mut arena = Arena::new();
        let games = recipe.build(&mut arena);
        for (g, wins) in games.iter().zip(recipe.brute_force()) {
            prop_assert_eq!(arena.outcome(*g), outcome_of(wins));
        }
    }

    #[test]
    fn group_laws(recipe in recipes(10), a in 0usize..100, b in 0usize..100, c in 0usize..100) {
        let mut arena = Arena::new();
        let games = recipe.build(&mut arena);
        let (g, h, k) = (pick(&games, a), pick(&games, b), pick(&games, c));
        let minus_g = arena.neg(g);
        prop_assert_eq!(arena.add(g, minus_g), Arena::ZERO);
        prop_assert_eq!(arena.neg(minus_g), g);
        let gh = arena.add(g, h);
        prop_assert_eq!(gh, arena.add(h, g));
        let left = arena.add(gh, k);
        let hk = arena.add(h, k);
        prop_assert_eq!(left, arena.add(g, hk));
        // The order agrees with the outcome of the difference.
        let difference = arena.sub(g, h);
        let expected = match arena.outcome(difference) {
            Outcome::P => Relation::Equal,
            Outcome::L => Relation::Greater,
            Outcome::R => Relation::Less,
            Outcome::N => Relation::Confused,
        };
        prop_assert_eq!(arena.compare(g, h), expected);
        // The order is compatible with addition.
        let gk = arena.add(g, k);
        prop_assert_eq!(arena.compare(gk, hk), expected);
    }

    #[test]
    fn simplification_is_idempotent(recipe in recipes(12)) {
        let mut arena = Arena::new();
        for g in recipe.build(&mut arena) {
            let left = arena.left_options(g);
            let right = arena.right_options(g);
            prop_assert_eq!(arena.from_options(&left, &right), g);
        }
    }

    #[test]
    fn fast_paths_agree_with_the_general_algorithm(
        recipe in recipes(10), a in 0usize..100, b in 0usize..100,
    ) {
        let mut fast = Arena::new();
        let mut slow = Arena::without_fast_paths();
        let fast_games = recipe.build(&mut fast);
        let slow_games = recipe.build(&mut slow);
        for (&f, &s) in fast_games.iter().zip(&slow_games) {
            prop_assert_eq!(to_notation(&mut fast, f), to_notation(&mut slow, s));
        }
        let (f1, f2) = (pick(&fast_games, a), pick(&fast_games, b));
        let (s1, s2) = (pick(&slow_games, a), pick(&slow_games, b));
        let fast_sum = fast.add(f1, f2);
        let slow_sum = slow.add(s1, s2);
        prop_assert_eq!(to_notation(&mut fast, fast_sum), to_notation(&mut slow, slow_sum));
        prop_assert_eq!(fast.compare(f1, f2), slow.compare(s1, s2));
    }

    #[test]
    fn nus_closed_forms_agree_with_the_general_algorithm(
        parts in prop::collection::vec((-3i64..=3, 0u32..2, -2i64..=2, 0u32..4), 1..4),
    ) {
        // Sums of numbers, ups and nimbers built from {0|*}, {0|}, {0|1} and {0,*|0,*}...
        let mut fast = Arena::new();
        let mut slow = Arena::without_fast_paths();
        let mut totals = [Arena::ZERO, Arena::ZERO];
        for (arena_index, arena) in [&mut fast, &mut slow].into_iter().enumerate() {
            let zero = Arena::ZERO;
            let star = arena.from_options(&[zero], &[zero]);
            let up = arena.from_options(&[zero], &[star]);
            let one = arena.from_options(&[zero], &[]);
            let half = arena.from_options(&[zero], &[one]);
            let mut total = zero;
            for &(integer, halves, ups, nimber) in &parts {
                let mut term = zero;
                for _ in 0..integer.unsigned_abs() {
                    let unit = if integer > 0 { one } else { arena.neg(one) };
                    term = arena.add(term, unit);
                }
                for _ in 0..halves {
                    term = arena.add(term, half);
                }
                for _ in 0..ups.unsigned_abs() {
                    let unit = if ups > 0 { up } else { arena.neg(up) };
                    term = arena.add(term, unit);
                }
                let mut nimbers = vec![zero];
                for _ in 0..nimber {
                    let next = arena.from_options(&nimbers, &nimbers);
                    nimbers.push(next);
                }
                let nim = nimbers[nimber as usize];
                term = arena.add(term, nim);
                total = arena.add(total, term);
            }
            totals[arena_index] = total;
        }
        prop_assert_eq!(to_notation(&mut fast, totals[0]), to_notation(&mut slow, totals[1]));
        let expected = parts.iter().fold(Nus::default(), |acc, &(i, h, u, _)| Nus {
            number: acc.number + Dyadic::integer(i) + Dyadic::new(i64::from(h), 1),
            ups: acc.ups + u,
            nimber: 0,
        });
        prop_assert_eq!(fast.nus_of(totals[0]).map(|n| (n.number, n.ups)), Some((expected.number, expected.ups)));
    }

    #[test]
    fn impartial_games_are_their_grundy_nimbers(recipe in recipes(14)) {
        let mut fast = Arena::new();
        let mut slow = Arena::without_fast_paths();
        let grundy = recipe.grundy();
        let fast_games = recipe.build_impartial(&mut fast);
        let slow_games = recipe.build_impartial(&mut slow);
        for ((&f, &s), &value) in fast_games.iter().zip(&slow_games).zip(&grundy) {
            prop_assert_eq!(fast.nimber_of(f), Some(value));
            prop_assert_eq!(slow.nimber_of(s), Some(value));
        }
    }

    #[test]
    fn notation_round_trips(recipe in recipes(10)) {
        let mut arena = Arena::new();
        for g in recipe.build(&mut arena) {
            let text = to_notation(&mut arena, g);
            let again = parse(&mut arena, &text);
            prop_assert_eq!(again, Ok(g), "{}", text);
        }
    }

    #[test]
    fn parsing_never_panics(text in "[-+0-9/*^v{}|,() ±xa#]{0,24}") {
        let mut arena = Arena::new();
        if let Ok(g) = parse(&mut arena, &text) {
            let printed = to_notation(&mut arena, g);
            prop_assert_eq!(parse(&mut arena, &printed), Ok(g));
        }
    }

    #[test]
    fn mean_is_additive_and_cooling_above_the_temperature_gives_it(
        recipe in recipes(9), a in 0usize..100, b in 0usize..100,
    ) {
        let mut arena = Arena::new();
        let games = recipe.build(&mut arena);
        let (g, h) = (pick(&games, a), pick(&games, b));
        let sum = arena.add(g, h);
        let mut thermal = Thermal::new(&mut arena);
        let (mg, mh, ms) = (thermal.mean(g), thermal.mean(h), thermal.mean(sum));
        prop_assert_eq!(ms, mg + mh);
        let t = thermal.temperature(g);
        let hot = t + Dyadic::ONE;
        let cooled = thermal.cool(g, hot);
        prop_assert_eq!(arena.number_of(cooled), Some(mg));
        // The temperature of a sum is at most the larger one.
        let mut thermal = Thermal::new(&mut arena);
        let (tg, th, ts) = (thermal.temperature(g), thermal.temperature(h), thermal.temperature(sum));
        prop_assert!(ts <= tg.max(th) || ts <= Dyadic::ZERO);
        // Stops bracket the mean.
        let (l, r) = thermograph::stops(&mut arena, g);
        prop_assert!(r <= mg && mg <= l);
    }

    #[test]
    fn reduced_form_is_infinitesimally_close(recipe in recipes(9)) {
        let mut arena = Arena::new();
        for g in recipe.build(&mut arena) {
            let reduced = thermograph::reduced_canonical_form(&mut arena, g);
            let difference = arena.sub(g, reduced);
            prop_assert_eq!(thermograph::stops(&mut arena, difference), (Dyadic::ZERO, Dyadic::ZERO));
            prop_assert_eq!(thermograph::reduced_canonical_form(&mut arena, reduced), reduced);
        }
    }

    #[test]
    fn atomic_weight_is_additive(recipe in recipes(10), a in 0usize..100, b in 0usize..100) {
        // All-small games: every option set is nonempty on both sides, or both empty.
        let mut arena = Arena::new();
        let mut games = vec![Arena::ZERO];
        for (i, &(l, r)) in recipe.0.iter().enumerate() {
            let left: Vec<GameId> = Recipe::members(l, i + 1).map(|j| games[j]).collect();
            let right: Vec<GameId> = Recipe::members(r, i + 1).map(|j| games[j]).collect();
            let g = if left.is_empty() || right.is_empty() {
                Arena::ZERO
            } else {
                arena.from_options(&left, &right)
            };
            games.push(g);
        }
        let (g, h) = (pick(&games, a), pick(&games, b));
        let sum = arena.add(g, h);
        let wg = thermograph::atomic_weight(&mut arena, g).unwrap();
        let wh = thermograph::atomic_weight(&mut arena, h).unwrap();
        let ws = thermograph::atomic_weight(&mut arena, sum).unwrap();
        let expected = arena.add(wg, wh);
        prop_assert_eq!(ws, expected);
    }
}

fn value(text: &str) -> (Arena, GameId) {
    let mut arena = Arena::new();
    let g = parse(&mut arena, text).unwrap();
    (arena, g)
}

#[test]
fn temperatures_and_means_follow_cgsuite() {
    // CGSuite's convention (cgt-py prints the same): integers -1, 1/2 -1/2, infinitesimals
    // 0; {3|1} = 2±1 has mean 2 and temperature 1; ±1 + ±1 = 0, so {2|0} + {2|0} = 2.
    for (text, mean, temperature) in [
        ("5", "5", "-1"),
        ("0", "0", "-1"),
        ("1/2", "1/2", "-1/2"),
        ("-3/4", "-3/4", "-1/4"),
        ("*", "0", "0"),
        ("^", "0", "0"),
        ("{3|1}", "2", "1"),
        ("±1", "0", "1"),
        ("{2|0}+{2|0}", "2", "-1"),
    ] {
        let (mut arena, g) = value(text);
        let mut thermal = Thermal::new(&mut arena);
        assert_eq!(thermal.mean(g).to_string(), mean, "mean of {text}");
        assert_eq!(
            thermal.temperature(g).to_string(),
            temperature,
            "temperature of {text}"
        );
    }
}

#[test]
fn cooling_heating_and_atomic_weights() {
    // Winning Ways ch. 6: ±1 cooled by 1 is *; cooled by 1/2 it is ±1/2. Heating * by 1 gives
    // ±1 back.
    let (mut arena, g) = value("±1");
    let mut thermal = Thermal::new(&mut arena);
    let cooled = thermal.cool(g, Dyadic::ONE);
    assert_eq!(to_notation(&mut arena, cooled), "*");
    let half = Thermal::new(&mut arena).cool(g, Dyadic::new(1, 1));
    assert_eq!(to_notation(&mut arena, half), "±1/2");
    let one = arena.integer(1);
    let heated = thermograph::heat(&mut arena, cooled, one);
    assert_eq!(heated, g);
    // Lessons in Play ch. 9: aw(↑) = 1, aw(*) = 0, aw(⇑*) = 2, aw({0|↓}) ... = aw of a
    // "tiny"-free all-small game; aw({0||0|*}) is computed by the calculus.
    for (text, weight) in [
        ("^", "1"),
        ("*", "0"),
        ("^^*", "2"),
        ("v3", "-3"),
        ("{0|^*}", "2"),
    ] {
        let (mut arena, g) = value(text);
        let w = thermograph::atomic_weight(&mut arena, g).unwrap();
        assert_eq!(
            to_notation(&mut arena, w),
            weight,
            "atomic weight of {text}"
        );
    }
    let (mut arena, g) = value("{1|-1}");
    assert_eq!(thermograph::atomic_weight(&mut arena, g), None);
    // Reduced canonical forms: infinitesimals vanish.
    for (text, reduced) in [
        ("^*", "0"),
        ("1+^", "1"),
        ("{2|1||0}", "{2|1||0}"),
        ("{1|*}", "{1|0}"),
    ] {
        let (mut arena, g) = value(text);
        let r = thermograph::reduced_canonical_form(&mut arena, g);
        assert_eq!(
            to_notation(&mut arena, r),
            reduced,
            "reduced form of {text}"
        );
    }
}

#[test]
fn large_numbers_need_no_chains() {
    let (mut arena, g) = value("{1000000000|-1000000000}");
    assert_eq!(arena.outcome(g), Outcome::N);
    let (mut arena, g) = value("2000000000 + ^ - {1|0}");
    assert_eq!(to_notation(&mut arena, g), "{2000000000^|1999999999^}");
    assert!(arena.stats().nodes < 100);
}
