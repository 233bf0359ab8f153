use super::*;
use crate::game::Notation;
use crate::games::coins::CoinGame;
use crate::solve::NimValues;
use proptest::prelude::*;

fn rules() -> Vec<TartanRule> {
    [
        "corners",
        "corners:2,3",
        "corners:3,3",
        "rectangles",
        "rectangles:2,3",
        "rectangles:3,4",
        "rectangles:1,2",
        "tartan:turtles*mock-turtles",
        "tartan:ruler:2*turtles",
        "tartan:mock-turtles*twins:3",
    ]
    .iter()
    .map(|spec| rule_of(spec))
    .collect()
}

fn rule_of(spec: &str) -> TartanRule {
    let (name, params) = spec
        .split_once(':')
        .map_or((spec, None), |(n, p)| (n, Some(p)));
    parse_tartan(name, params).unwrap().unwrap()
}

/// The winning moves of `heads` from the algebra, as the positions they leave.
fn winning(rule: &TartanRule, heads: &[(u64, u64)]) -> Vec<Vec<(u64, u64)>> {
    CoinGame(rule.clone())
        .options_with_nim_value(&heads.to_vec(), 0, 1000)
        .unwrap()
        .unwrap()
        .items
}

fn mex(values: &[u64]) -> u64 {
    (0..).find(|v| !values.contains(v)).unwrap()
}

fn value_of(rule: &TartanRule, heads: &[(u64, u64)]) -> u64 {
    heads.iter().fold(0, |s, &(x, y)| s ^ rule.value(x, y))
}

#[test]
fn corners_values_are_nim_products_of_the_coordinates() {
    let rule = rule_of("corners");
    for x in 0..40 {
        for y in 0..40 {
            assert_eq!(rule.value(x, y), crate::nimber::mul_reference(x, y));
        }
    }
}

#[test]
fn option_values_exist_for_every_target_below_the_product() {
    for a in 1..48u64 {
        for b in 1..48u64 {
            let ab = mul(a, b);
            for t in 0..ab {
                let (alpha, beta) = option_values(a, b, t)
                    .unwrap_or_else(|| panic!("a = {a}, b = {b}, target {t}"));
                assert!(alpha < a && beta < b);
                assert_eq!(mul(alpha, b) ^ mul(a, beta) ^ mul(alpha, beta), t);
            }
            assert_eq!(option_values(a, b, ab), None);
        }
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn option_values_exist_for_large_values() {
    let mut state = 42;
    let mut checked = 0;
    while checked < 3000 {
        let r = splitmix(&mut state);
        let a = splitmix(&mut state) >> (r % 64);
        let b = splitmix(&mut state) >> ((r >> 8) % 64);
        if a == 0 || b == 0 {
            continue;
        }
        let ab = mul(a, b);
        for t in [0, ab - 1, splitmix(&mut state) % ab, ab >> 1] {
            let (alpha, beta) =
                option_values(a, b, t).unwrap_or_else(|| panic!("a = {a}, b = {b}, target {t}"));
            assert!(alpha < a && beta < b);
            assert_eq!(mul(alpha, b) ^ mul(a, beta) ^ mul(alpha, beta), t);
        }
        checked += 1;
    }
}

#[test]
fn single_heads_match_the_mex_of_their_options_on_8x8_boards() {
    // G(x, y) = mex over options of the XOR of the heads each leaves (the coin-sum rule,
    // itself checked on whole boards below), independent of the Tartan theorem.
    for rule in rules() {
        let board = TartanBoard {
            rule: rule.clone(),
            width: 8,
            height: 8,
        };
        let mut table = [[0u64; 8]; 8];
        for y in 0..8u64 {
            for x in 0..8u64 {
                let head = 1u64 << (y * 8 + x);
                let values: Vec<u64> = board
                    .options(&head)
                    .into_iter()
                    .map(|b| {
                        (0..64)
                            .filter(|i| b >> i & 1 == 1)
                            .fold(0, |s, i| s ^ table[i / 8][i % 8])
                    })
                    .collect();
                table[y as usize][x as usize] = mex(&values);
                assert_eq!(
                    table[y as usize][x as usize],
                    rule.value(x, y),
                    "{} at {x},{y}",
                    rule.spec
                );
            }
        }
    }
}

fn check_whole_boards(sizes: &[(u64, u64)]) {
    for rule in rules() {
        for &(width, height) in sizes {
            let board = TartanBoard {
                rule: rule.clone(),
                width,
                height,
            };
            let mut solver = NimValues::new(board);
            for bits in 0..1u64 << (width * height) {
                let heads: Vec<(u64, u64)> = (0..width * height)
                    .filter(|i| bits >> i & 1 == 1)
                    .map(|i| (i % width, i / width))
                    .collect();
                assert_eq!(
                    solver.nim_value(&bits).unwrap(),
                    value_of(&rule, &heads),
                    "{}",
                    rule.spec
                );
            }
        }
    }
}

#[test]
fn whole_boards_match_brute_force() {
    // Every position of boards of 12 cells, by brute force.
    check_whole_boards(&[(4, 3), (3, 4), (6, 2)]);
}

#[test]
#[ignore = "about 15 s in debug; run with cargo test -p sprague -- --ignored whole_boards_of_16"]
fn whole_boards_of_16_cells_match_brute_force() {
    check_whole_boards(&[(4, 4), (5, 3), (3, 5)]);
}

#[test]
fn winning_moves_are_winning_on_5x5_boards() {
    let mut state = 7;
    for rule in rules() {
        let mut solver = NimValues::new(TartanBoard {
            rule: rule.clone(),
            width: 4,
            height: 4,
        });
        for round in 0..300 {
            let (width, height) = if round % 2 == 0 { (5, 5) } else { (4, 4) };
            let bits = splitmix(&mut state) & ((1 << (width * height)) - 1);
            let heads: Vec<(u64, u64)> = (0..width * height)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| (i % width, i / width))
                .collect();
            let moves = winning(&rule, &heads);
            let value = value_of(&rule, &heads);
            assert_eq!(moves.is_empty(), value == 0, "{} {heads:?}", rule.spec);
            for after in &moves {
                let text = CoinGame(rule.clone()).write_move(&heads, after);
                assert_eq!(value_of(&rule, after), 0, "{} {heads:?}: {text}", rule.spec,);
                if width == 4 {
                    // The move is a real move of the board: brute force lists the position.
                    let after_bits = after.iter().fold(0u64, |b, (x, y)| b | 1 << (y * 4 + x));
                    assert!(
                        solver.winning_moves(&bits).unwrap().contains(&after_bits),
                        "{text}"
                    );
                }
            }
        }
    }
}

#[test]
fn huge_coordinates_answer_from_the_algebra() {
    let mut state = 99;
    for spec in [
        "corners",
        "corners:1000,77",
        "rectangles",
        "rectangles:100,1000000",
    ] {
        let rule = rule_of(spec);
        let heads: Vec<(u64, u64)> = (0..300)
            .map(|_| {
                (
                    splitmix(&mut state) % 1_000_000_000_000_000_000,
                    splitmix(&mut state) % 1_000_000_000_000_000_000,
                )
            })
            .collect();
        let mut heads = crate::games::coins::cancel_pairs(heads);
        heads.sort();
        let value = value_of(&rule, &heads);
        assert_ne!(value, 0);
        // Ruler moves from heads with a large power of 2 may be too long to list; the others
        // give at least one winning move for the head that holds the top bit.
        let moves = winning(&rule, &heads);
        assert!(!moves.is_empty(), "{spec}");
        for after in &moves {
            assert_eq!(value_of(&rule, after), 0, "{spec}");
        }
    }
}

#[test]
fn the_corners_example() {
    let rule = rule_of("corners");
    let game = CoinGame(rule.clone());
    let heads = game.parse_position(&["1,1", "2,3", "5,2"]).unwrap();
    assert_eq!(value_of(&rule, &heads), 1 ^ mul(2, 3) ^ mul(5, 2));
    let moves = winning(&rule, &heads);
    assert_eq!(value_of(&rule, &moves[0]), 0);
    assert!(game.write_move(&heads, &moves[0]).starts_with("flip x="));
}

#[test]
fn bad_specs_and_positions_are_errors() {
    for (name, params) in [
        ("corners", Some("1,3")),
        ("corners", Some("3")),
        ("rectangles", Some("0,3")),
        ("rectangles", Some("x,3")),
        ("tartan", None),
        ("tartan", Some("ruler")),
        ("tartan", Some("ruler*nim")),
        ("tartan", Some("ruler:0*turtles")),
        ("tartan", Some("twins:1*turtles")),
    ] {
        assert!(
            matches!(parse_tartan(name, params), Some(Err(_))),
            "{name}:{params:?}"
        );
    }
    assert_eq!(
        parse_tartan("tartan", Some("Ruler:3*twins"))
            .unwrap()
            .unwrap()
            .spec,
        "tartan:ruler:3*twins"
    );
    let game = CoinGame(rule_of("corners"));
    assert!(game.parse_position(&["3"]).is_err());
    assert!(game.parse_position(&["3,x"]).is_err());
    assert!(game.parse_position(&["18446744073709551615,0"]).is_err());
    let heads = game.parse_position(&["3,4", "1,1", "3,4"]).unwrap();
    assert_eq!(game.position_json(&heads), serde_json::json!([[1, 1]]));
}

proptest! {
    #[test]
    fn option_values_solve_random_targets(a in 1u64.., b in 1u64.., t in any::<u64>()) {
        let ab = mul(a, b);
        let t = t % ab;
        let found = option_values(a, b, t);
        prop_assert!(found.is_some(), "a = {}, b = {}, t = {}", a, b, t);
        let (alpha, beta) = found.unwrap();
        prop_assert!(alpha < a && beta < b);
        prop_assert_eq!(mul(alpha, b) ^ mul(a, beta) ^ mul(alpha, beta), t);
    }
}

/// Every move of a given value is listed, also those above the head's own value (a sum's
/// winning move may raise one part): the listing equals brute force over the head's flips.
#[test]
fn moves_of_every_value_are_all_listed_on_small_boards() {
    for rule in rules() {
        for x in 0..7 {
            for y in 0..7 {
                let mut brute: std::collections::BTreeMap<u64, Vec<Vec<(u64, u64)>>> =
                    Default::default();
                for mut cells in rule.flips((x, y)) {
                    let value = value_of(&rule, &cells);
                    cells.sort();
                    brute.entry(value).or_default().push(cells);
                }
                let top = brute.keys().max().copied().unwrap_or(0);
                for target in 0..=top + 2 {
                    let listing = rule.flips_with_value((x, y), target, 10_000).unwrap();
                    assert!(listing.is_complete(), "{} ({x},{y}) {target}", rule.spec);
                    let mut listed: Vec<Vec<(u64, u64)>> = listing
                        .items
                        .into_iter()
                        .map(|mut c| {
                            c.sort();
                            c
                        })
                        .collect();
                    listed.sort();
                    let mut want = brute.get(&target).cloned().unwrap_or_default();
                    want.sort();
                    assert_eq!(listed, want, "{} ({x},{y}) to {target}", rule.spec);
                }
            }
        }
    }
}

/// Found by the catalog-wide test: in `moore:2 0 2 0 0 + corners ...` (nim value 2 ⊕ 1) the
/// corners part has two moves up to value 2 (above its own value 1), and both win.
#[test]
fn a_sum_lists_the_moves_that_raise_a_corners_part() {
    let rule = rule_of("corners");
    let heads = vec![(0, 0), (0, 2), (1, 1), (2, 3), (4, 0), (4, 1), (5, 1)];
    assert_eq!(value_of(&rule, &heads), 1);
    let raising = CoinGame(rule.clone())
        .options_with_nim_value(&heads, 2, 100)
        .unwrap()
        .unwrap();
    assert!(raising.is_complete());
    let texts: Vec<String> = raising
        .items
        .iter()
        .map(|after| CoinGame(rule.clone()).write_move(&heads, after))
        .collect();
    assert_eq!(texts, ["flip x=0,2 y=1,3", "flip x=1,2 y=2,3"]);
}

// ---------------------------------------------------------------- three factors

fn rules3() -> Vec<Tartan3Rule> {
    [
        "twins*twins*twins",
        "ruler*ruler*ruler",
        "ruler:2*turtles*twins:3",
        "mock-turtles*ruler*twins",
    ]
    .iter()
    .map(|p| parse_tartan3(p).unwrap())
    .collect()
}

fn value3(rule: &Tartan3Rule, heads: &[Cell3]) -> u64 {
    heads.iter().fold(0, |s, &h| s ^ rule.value(h))
}

/// The head's value is the mex of its options' values (each the XOR of the other cells it
/// flips, by the coin-sum rule checked on whole boxes below), computed cell by cell up from
/// the origin: the Tartan theorem for three factors, checked on 6 × 6 × 6 boxes.
#[test]
fn three_factor_heads_match_the_mex_of_their_options() {
    const N: usize = 6;
    for rule in rules3() {
        let mut table = [[[0u64; N]; N]; N];
        for z in 0..N {
            for y in 0..N {
                for x in 0..N {
                    let head = (x as u64, y as u64, z as u64);
                    let values: Vec<u64> = rule
                        .flips(head)
                        .iter()
                        .map(|cells| {
                            cells.iter().fold(0, |s, &(u, v, w)| {
                                s ^ table[u as usize][v as usize][w as usize]
                            })
                        })
                        .collect();
                    table[x][y][z] = mex(&values);
                    assert_eq!(
                        table[x][y][z],
                        rule.value(head),
                        "{} at {head:?}",
                        rule.spec
                    );
                }
            }
        }
    }
    // 3-D corner flipping is the nim product of the three coordinates.
    let corners = parse_tartan3("twins*twins*twins").unwrap();
    assert_eq!(corners.value((2, 3, 5)), mul(mul(2, 3), 5));
}

/// Every position of a 2 × 2 × 3 box by brute force: the coin-sum rule (a position's value
/// is the XOR of its heads') for three factors.
#[test]
fn whole_three_factor_boxes_match_brute_force() {
    for rule in rules3() {
        let size = [2, 2, 3];
        let board = Tartan3Board {
            rule: rule.clone(),
            size,
        };
        let mut solver = NimValues::new(board);
        for bits in 0..1u64 << 12 {
            let heads: Vec<Cell3> = (0..12)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| (i % 2, i / 2 % 2, i / 4))
                .collect();
            assert_eq!(
                solver.nim_value(&bits).unwrap(),
                value3(&rule, &heads),
                "{} {heads:?}",
                rule.spec
            );
        }
    }
}

/// The listing of moves of each value equals brute force over the head's flips, and the
/// algebra's one move has the value asked for, for every target below the head's value.
#[test]
fn three_factor_moves_of_every_value_match_brute_force() {
    for rule in rules3() {
        for x in 0..5 {
            for y in 0..4 {
                for z in 0..4 {
                    let head = (x, y, z);
                    let mut brute: std::collections::BTreeMap<u64, Vec<Vec<Cell3>>> =
                        Default::default();
                    for mut cells in rule.flips(head) {
                        let value = value3(&rule, &cells);
                        cells.sort();
                        brute.entry(value).or_default().push(cells);
                    }
                    let top = brute.keys().max().copied().unwrap_or(0);
                    for target in 0..=top + 1 {
                        let listing = rule.flips_with_value(head, target, 10_000).unwrap();
                        let mut listed: Vec<Vec<Cell3>> = listing
                            .items
                            .into_iter()
                            .map(|mut c| {
                                c.sort();
                                c
                            })
                            .collect();
                        listed.sort();
                        let mut want = brute.get(&target).cloned().unwrap_or_default();
                        want.sort();
                        assert_eq!(listed, want, "{} {head:?} to {target}", rule.spec);
                    }
                    for target in 0..rule.value(head) {
                        let mut cells = rule
                            .flip_by_algebra(head, target, 10_000)
                            .unwrap()
                            .unwrap_or_else(|| panic!("{} {head:?} to {target}", rule.spec));
                        assert_eq!(value3(&rule, &cells), target, "{} {head:?}", rule.spec);
                        cells.sort();
                        assert!(
                            brute[&target].contains(&cells),
                            "{} {head:?}: not a move",
                            rule.spec
                        );
                    }
                }
            }
        }
    }
}

/// Heads far out (coordinates up to 10^18) answer from the algebra: a winning move of the
/// whole position, which leaves value 0.
#[test]
fn three_factor_winning_moves_of_huge_heads() {
    let mut state = 5;
    for p in ["twins*twins*twins", "twins:1000*turtles*twins"] {
        let rule = parse_tartan3(p).unwrap();
        let game = CoinGame(rule.clone());
        for _ in 0..20 {
            let heads: Vec<Cell3> = (0..5)
                .map(|_| {
                    let mut c = || splitmix(&mut state) % 1_000_000_000_000_000_000;
                    (c(), c(), c())
                })
                .collect();
            let heads = crate::games::coins::cancel_pairs(heads);
            let value = value3(&rule, &heads);
            let moves = game
                .options_with_nim_value(&heads, 0, 10)
                .unwrap()
                .unwrap()
                .items;
            assert_eq!(moves.is_empty(), value == 0, "{p} {heads:?}");
            for after in &moves {
                assert_eq!(value3(&rule, after), 0, "{p} {heads:?}");
                assert!(game.write_move(&heads, after).starts_with("flip x="));
            }
        }
    }
}

#[test]
fn three_factor_specs_and_heads_parse() {
    let rule = parse_tartan3("Ruler*twins:3*turtles").unwrap();
    assert_eq!(rule.spec, "tartan:ruler*twins:3*turtles");
    assert!(parse_tartan3("ruler*ruler").is_err());
    assert!(parse_tartan3("ruler*ruler*nim").is_err());
    assert!(parse_tartan3("ruler*ruler*ruler*ruler").is_err());
    assert!(matches!(
        parse_tartan("tartan", Some("ruler*ruler*ruler")),
        Some(Err(_))
    ));
    let game = CoinGame(rule);
    let heads = game.parse_position(&["1,2,3", "0,0,0", "1,2,3"]).unwrap();
    assert_eq!(game.position_json(&heads), serde_json::json!([[0, 0, 0]]));
    assert!(game.parse_position(&["1,2"]).is_err());
    assert!(game.parse_position(&["1,2,x"]).is_err());
}
