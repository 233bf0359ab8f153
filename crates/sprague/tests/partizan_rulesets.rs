//! The partizan rulesets through the public API: the region solver (components and symmetry
//! keys) against plain search of the whole position, outcomes against brute-force search,
//! and parsers on arbitrary text (a typed error or a position that prints back, never a
//! panic).

use proptest::prelude::*;
use sprague::game::Game;
use sprague::games::amazons::Amazons;
use sprague::games::clobber::{Clobber, Rules, Stones};
use sprague::games::col_snort::{self, ColSnort, Coloured};
use sprague::games::cutcake::{Cutcake, Pieces};
use sprague::games::domineering::Domineering;
use sprague::games::grid::{Grid, GridError};
use sprague::games::hackenbush::{self, Hackenbush};
use sprague::games::toads_frogs::{Strip, ToadsFrogs};
use sprague::partizan::solve::canonical_form;
use sprague::partizan::{notation, Outcome, Partizan, Side, Solver};
use std::collections::HashMap;

/// A ruleset without its regions and symmetries: every position is valued whole.
struct Plain<'a, G>(&'a G);

impl<G: Partizan> Game for Plain<'_, G> {
    type Position = G::Position;
}

impl<G: Partizan> Partizan for Plain<'_, G> {
    fn options(&self, position: &G::Position, side: Side) -> Vec<G::Position> {
        self.0.options(position, side)
    }
}

/// Whether the player to move wins, by plain search: `(Left starting, Right starting)`.
fn brute_force<G: Partizan>(
    game: &G,
    position: &G::Position,
    memo: &mut HashMap<G::Position, (bool, bool)>,
) -> (bool, bool) {
    if let Some(&wins) = memo.get(position) {
        return wins;
    }
    let left = game
        .left_options(position)
        .iter()
        .any(|p| !brute_force(game, p, memo).1);
    let right = game
        .right_options(position)
        .iter()
        .any(|p| !brute_force(game, p, memo).0);
    memo.insert(position.clone(), (left, right));
    (left, right)
}

/// The region solver, plain search and brute force agree on `position`.
fn agree<G: Partizan>(game: &G, position: &G::Position) -> Result<(), TestCaseError> {
    let mut fast = Solver::new(game);
    let fast_value = fast.canonical(position).unwrap().to_string();
    let plain_game = Plain(game);
    let mut plain = Solver::new(&plain_game);
    let plain_value = plain.canonical(position).unwrap().to_string();
    prop_assert_eq!(&fast_value, &plain_value);
    let outcome = fast.analyse(position).unwrap().outcome;
    let expected = match brute_force(game, position, &mut HashMap::new()) {
        (true, true) => Outcome::N,
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (false, false) => Outcome::P,
    };
    prop_assert_eq!(outcome, expected, "{}", fast_value);
    Ok(())
}

/// Random board text of `rows × cols` cells drawn from `cells`.
fn board(rows: usize, cols: usize, cells: &'static str) -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = cells.chars().collect();
    prop::collection::vec(prop::sample::select(alphabet), rows * cols).prop_map(move |v| {
        v.chunks(cols)
            .map(|row| row.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("|")
    })
}

fn small_board(cells: &'static str, max_cells: usize) -> impl Strategy<Value = String> {
    (1usize..=4, 1usize..=5)
        .prop_filter("small", move |(r, c)| r * c <= max_cells)
        .prop_flat_map(move |(r, c)| board(r, c, cells))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn domineering_regions_agree_with_plain_search(text in small_board("...#", 12)) {
        agree(&Domineering, &Domineering::parse(&text).unwrap())?;
    }

    #[test]
    fn clobber_and_konane_regions_agree_with_plain_search(text in small_board("xxoo.", 9)) {
        let stones = Stones::parse(&text).unwrap();
        agree(&Clobber(Rules::Clobber), &stones)?;
        agree(&Clobber(Rules::Konane), &stones)?;
    }

    #[test]
    fn amazons_regions_agree_with_plain_search(text in small_board("xo...#", 6)) {
        agree(&Amazons, &Amazons::parse(&text).unwrap())?;
    }

    #[test]
    fn toads_frogs_regions_agree_with_plain_search(text in "[TF.]{1,9}") {
        agree(&ToadsFrogs, &text.parse::<Strip>().unwrap())?;
    }

    #[test]
    fn hackenbush_regions_agree_with_plain_search(
        stalks in prop::collection::vec("[BRG]{1,4}", 1..4),
    ) {
        agree(&Hackenbush, &hackenbush::Position::stalks(&stalks).unwrap())?;
    }

    #[test]
    fn col_and_snort_regions_agree_with_plain_search(
        n in 1usize..7, edges in prop::collection::vec((0usize..7, 0usize..7), 0..9),
        colours in prop::collection::vec((0usize..7, prop::bool::ANY), 0..2),
    ) {
        let edges: Vec<String> = edges
            .iter()
            .filter(|(u, v)| u < v && *v < n)
            .map(|(u, v)| format!("{u}-{v}"))
            .collect();
        let colours: Vec<String> = colours
            .iter()
            .filter(|(v, _)| *v < n)
            .map(|(v, blue)| format!("{v}{}", if *blue { 'B' } else { 'R' }))
            .collect();
        let mut text = format!("{n}:{}", edges.join(","));
        if !colours.is_empty() {
            text = format!("{text};{}", colours.join(","));
        }
        // Colourings that break the rules (two neighbours alike in Col) may be refused.
        if let Ok(graph) = text.parse::<Coloured>() {
            agree(&ColSnort(col_snort::Rules::Col), &graph)?;
            agree(&ColSnort(col_snort::Rules::Snort), &graph)?;
        }
    }

    #[test]
    fn cutcake_regions_agree_with_plain_search(
        pieces in prop::collection::vec((1usize..5, 1usize..5), 1..3),
    ) {
        let words: Vec<String> = pieces.iter().map(|(r, c)| format!("{r}x{c}")).collect();
        agree(&Cutcake, &Pieces::parse(&words).unwrap())?;
    }
}

/// An error's message is one nonempty line.
fn one_line(e: impl std::fmt::Display) -> Result<(), TestCaseError> {
    let message = e.to_string();
    prop_assert!(
        !message.is_empty() && !message.contains('\n'),
        "{:?}",
        message
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parsers_never_panic(text in "[-.#xoTFBRG|/:;,0-9x \\n{}a*é]{0,16}") {
        match Domineering::parse(&text) {
            Ok(cells) => prop_assert_eq!(Domineering::parse(&cells.to_string()), Ok(cells)),
            Err(e) => one_line(e)?,
        }
        match Stones::parse(&text) {
            Ok(stones) => prop_assert_eq!(Stones::parse(&stones.to_string()), Ok(stones)),
            Err(e) => one_line(e)?,
        }
        match text.parse::<Strip>() {
            Ok(strip) => prop_assert_eq!(strip.to_string().parse::<Strip>(), Ok(strip)),
            Err(e) => one_line(e)?,
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        match hackenbush::Position::stalks(&words) {
            Ok(p) => {
                // Stalks print as stalks, and no stalks as 0.
                let printed = p.to_string();
                let again: Vec<&str> = printed.split_whitespace().filter(|w| *w != "0").collect();
                prop_assert_eq!(hackenbush::Position::stalks(&again), Ok(p));
            }
            Err(e) => one_line(e)?,
        }
        if let Err(e) = hackenbush::Position::graph(&text) {
            one_line(e)?;
        }
        match text.parse::<Coloured>() {
            Ok(graph) => prop_assert_eq!(graph.to_string().parse::<Coloured>(), Ok(graph)),
            Err(e) => one_line(e)?,
        }
        match Pieces::parse(&words) {
            Ok(pieces) => {
                let printed = pieces.to_string();
                let again: Vec<&str> = printed.split_whitespace().collect();
                prop_assert_eq!(Pieces::parse(&again), Ok(pieces));
            }
            Err(e) => one_line(e)?,
        }
        if let Err(e) = Grid::parse_size(&text) {
            one_line(e)?;
        }
    }
}

#[test]
fn bad_input_names_the_problem() {
    assert_eq!(
        Domineering::parse("...|..").unwrap_err(),
        GridError::Ragged {
            row: 2,
            len: 2,
            expected: 3
        }
    );
    let stray = Stones::parse("xo|oz").unwrap_err();
    assert!(matches!(
        stray,
        GridError::Stray {
            found: 'z',
            row: 2,
            column: 2,
            ..
        }
    ));
    assert!(stray.to_string().contains("'z'"), "{stray}");
    let colour = hackenbush::Position::stalks(&["BRQ"])
        .unwrap_err()
        .to_string();
    assert!(colour.contains('Q'), "{colour}");
    let frog = "T.X".parse::<Strip>().unwrap_err().to_string();
    assert!(frog.contains('X'), "{frog}");
    let vertex = "3:0-5".parse::<Coloured>().unwrap_err().to_string();
    assert!(vertex.contains('5'), "{vertex}");
    assert!(Pieces::parse(&["2x0"]).is_err());
    let mut arena = sprague::partizan::Arena::new();
    for bad in ["{1|", "{|}}", "1/3", "{a|b}", "", "^^x"] {
        let e = notation::parse(&mut arena, bad).unwrap_err();
        one_line(e).unwrap();
    }
}

/// Literal values not in the rulesets' own tests, each with its source.
#[test]
fn known_values_across_rulesets() {
    // The empty 4x4 Domineering board: cgt-py 0.11 prints the same value (its notation
    // spells ± out: `{0, {{2|0}, {2|{2|0}}|{2|0}, {{2|0}|0}}|0, ...}`).
    let board = Domineering::rectangle(4, 4).unwrap();
    let value = Solver::new(&Domineering).canonical(&board).unwrap();
    assert_eq!(value.to_string(), "±{0,{{2|0},{2||2|0}|{2|0||0},{2|0}}}");
    // Hackenbush stalks (Winning Ways ch. 2, Berlekamp's rule: the first run of one colour
    // counts whole, each later edge half the one before): BBRB is 2 - 1/2 + 1/4; green
    // stalks are nim heaps, so three single green edges are *.
    let stalks = |words: &[&str]| {
        let position = hackenbush::Position::stalks(words).unwrap();
        canonical_form(&Hackenbush, &position).unwrap()
    };
    assert_eq!(stalks(&["BBRB"]), "7/4");
    assert_eq!(stalks(&["RRBR"]), "-7/4");
    assert_eq!(stalks(&["G", "G", "G"]), "*");
    assert_eq!(stalks(&["GG", "G"]), "*3");
}
