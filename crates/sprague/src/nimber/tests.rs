use super::*;
use crate::simd::{Kernel, Simd};
use proptest::prelude::*;

/// A small deterministic generator (splitmix64) for random inputs.
fn random_words(seed: u64, n: usize) -> Vec<u64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

/// Mixed-size inputs: full words, and words masked to the subfields.
fn random_inputs(seed: u64, n: usize) -> Vec<u64> {
    random_words(seed, n)
        .into_iter()
        .enumerate()
        .map(|(i, x)| match i % 4 {
            0 => x,
            1 => x & 0xffff_ffff,
            2 => x & 0xffff,
            _ => x >> (x % 64),
        })
        .collect()
}

/// Every path of the nimber products that this CPU runs, the portable one always.
fn backends() -> Vec<Multiplier> {
    let paths = Kernel::NimberProducts.available();
    assert!(paths.contains(&Simd::Portable));
    paths
        .into_iter()
        .map(|p| Multiplier::new(p).unwrap())
        .collect()
}

#[test]
fn reference_matches_the_mex_definition() {
    const N: usize = 32;
    let mut table = [[0u64; N]; N];
    for a in 0..N {
        for b in 0..N {
            // Products of numbers below 32 lie below 256 (the next subfield).
            let mut seen = [false; 257];
            for a2 in 0..a {
                for b2 in 0..b {
                    let v = table[a2][b] ^ table[a][b2] ^ table[a2][b2];
                    seen[v as usize] = true;
                }
            }
            table[a][b] = seen.iter().position(|s| !s).unwrap() as u64;
            assert_eq!(mul_reference(a as u64, b as u64), table[a][b], "{a} ⊗ {b}");
        }
    }
}

#[test]
fn reference_knows_the_fermat_powers() {
    for k in 0..6 {
        let f = 1u64 << (1 << k);
        if f == 0 {
            continue;
        }
        assert_eq!(
            mul_reference(f, f),
            f | (f >> 1),
            "F ⊗ F = 3/2 F for F = {f}"
        );
    }
    assert_eq!(mul_reference(1 << 32, 1 << 32), 3 << 31);
}

#[test]
fn every_backend_matches_the_reference_on_all_pairs_of_powers_of_two() {
    for backend in backends() {
        for i in 0..64 {
            for j in 0..64 {
                let (a, b) = (1u64 << i, 1u64 << j);
                assert_eq!(
                    backend.mul(a, b),
                    mul_reference(a, b),
                    "{backend:?}: 2^{i} ⊗ 2^{j}"
                );
            }
        }
    }
}

#[test]
fn every_backend_matches_the_reference_on_random_inputs() {
    let xs = random_inputs(1, 3000);
    let ys = random_inputs(2, 3000);
    for backend in backends() {
        for (&a, &b) in xs.iter().zip(&ys) {
            assert_eq!(
                backend.mul(a, b),
                mul_reference(a, b),
                "{backend:?}: {a} ⊗ {b}"
            );
        }
        for &a in &xs[..50] {
            for b in [0, 1, u64::MAX, 1 << 63] {
                assert_eq!(
                    backend.mul(a, b),
                    mul_reference(a, b),
                    "{backend:?}: {a} ⊗ {b}"
                );
            }
        }
    }
}

#[test]
fn the_best_multiplier_takes_the_last_path_this_cpu_runs() {
    let paths = Kernel::NimberProducts.available();
    assert_eq!(Some(&Multiplier::best().path()), paths.last());
    for path in Kernel::NimberProducts.paths() {
        assert_eq!(
            Multiplier::new(*path).is_ok(),
            paths.contains(path),
            "{path}"
        );
    }
    assert_eq!(Multiplier::new(Simd::Auto), Ok(Multiplier::best()));
    let refused = Multiplier::new(Simd::Avx2Vpclmul);
    if !Kernel::NimberProducts.runs(Simd::Avx2Vpclmul) {
        assert!(refused
            .unwrap_err()
            .to_string()
            .starts_with("this CPU does not run the avx2-vpclmul path"));
    }
}

#[test]
fn slice_functions_refuse_unequal_lengths() {
    let mut out = [0u64; 3];
    for m in backends() {
        let error = m.mul_slices(&[1, 2, 3], &[1, 2], &mut out).unwrap_err();
        assert_eq!(error.to_string(), "the slices differ in length (3, 2, 3)");
        assert!(m.mul_slices(&[1, 2], &[1, 2], &mut out).is_err());
        assert!(m.dot(&[1], &[]).is_err());
    }
    assert!(mul_slices(&[1], &[1], &mut out[..1], Simd::Portable).is_ok());
    assert!(dot(&[1], &[1, 2], Simd::Auto).is_err());
}

#[test]
fn slice_functions_match_the_reference_at_every_length_up_to_40() {
    // Every length 0..=40 exercises the eight-wide loop and every tail length.
    let xs = random_inputs(21, 40);
    let ys = random_inputs(22, 40);
    for backend in backends() {
        for n in 0..=40 {
            let (a, b) = (&xs[..n], &ys[..n]);
            let expected: Vec<u64> = a
                .iter()
                .zip(b)
                .map(|(&x, &y)| mul_reference(x, y))
                .collect();
            let mut out = vec![0; n];
            backend.mul_slices(a, b, &mut out).unwrap();
            assert_eq!(out, expected, "{backend:?} mul_slices of length {n}");
            let dot = expected.iter().fold(0, |s, p| s ^ p);
            assert_eq!(backend.dot(a, b), Ok(dot), "{backend:?} dot of length {n}");
            let product = a.iter().fold(1, |p, &x| mul_reference(p, x));
            assert_eq!(
                backend.product(a),
                product,
                "{backend:?} product of length {n}"
            );
            let c = ys[n % 40];
            let mut scaled = a.to_vec();
            backend.scale(c, &mut scaled);
            let expected: Vec<u64> = a.iter().map(|&x| mul_reference(c, x)).collect();
            assert_eq!(scaled, expected, "{backend:?} scale of length {n}");
        }
    }
}

#[test]
fn slice_functions_match_the_reference_on_all_pairs_of_powers_of_two() {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..64 {
        for j in 0..64 {
            a.push(1u64 << i);
            b.push(1u64 << j);
        }
    }
    let expected: Vec<u64> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| mul_reference(x, y))
        .collect();
    for backend in backends() {
        let mut out = vec![0; a.len()];
        backend.mul_slices(&a, &b, &mut out).unwrap();
        assert_eq!(out, expected, "{backend:?} mul_slices of powers of two");
        for i in 0..64 {
            let mut scaled: Vec<u64> = (0..64).map(|j| 1u64 << j).collect();
            backend.scale(1 << i, &mut scaled);
            assert_eq!(
                scaled,
                expected[64 * i..64 * (i + 1)],
                "{backend:?} scale by 2^{i}"
            );
        }
    }
}

#[test]
fn slice_functions_match_single_products() {
    let xs = random_inputs(3, 1001);
    let ys = random_inputs(4, 1001);
    let singles: Vec<u64> = xs
        .iter()
        .zip(&ys)
        .map(|(&a, &b)| mul_reference(a, b))
        .collect();
    for backend in backends() {
        let mut out = vec![0; xs.len()];
        backend.mul_slices(&xs, &ys, &mut out).unwrap();
        assert_eq!(out, singles, "{backend:?} mul_slices");

        let dot_expected = singles.iter().fold(0, |s, p| s ^ p);
        assert_eq!(backend.dot(&xs, &ys), Ok(dot_expected), "{backend:?} dot");

        let few = &xs[..37];
        let product_expected = few.iter().fold(1, |p, &x| mul_reference(p, x));
        assert_eq!(
            backend.product(few),
            product_expected,
            "{backend:?} product"
        );
        assert_eq!(backend.product(&[]), 1);

        let c = ys[5];
        let mut scaled = xs.clone();
        backend.scale(c, &mut scaled);
        let expected: Vec<u64> = xs.iter().map(|&x| mul_reference(c, x)).collect();
        assert_eq!(scaled, expected, "{backend:?} scale");
    }
}

#[test]
fn slices_split_between_threads_give_the_products_of_one_thread() {
    // Long enough for two and three parts, and not a multiple of a block.
    let n = 3 * PARALLEL_PART + 37;
    let xs = random_inputs(31, n);
    let ys = random_inputs(32, n);
    for one in backends() {
        let singles: Vec<u64> = xs.iter().zip(&ys).map(|(&a, &b)| one.mul(a, b)).collect();
        let product = xs.iter().fold(1, |p, &x| one.mul(p, x));
        let dot = singles.iter().fold(0, |s, p| s ^ p);
        let c = ys[7];
        let scaled: Vec<u64> = xs.iter().map(|&x| one.mul(c, x)).collect();
        for threads in [2, 3] {
            let split = one.threads(threads);
            assert!(split.part(n).is_some(), "{split:?} splits {n}");
            let mut out = vec![0; n];
            split.mul_slices(&xs, &ys, &mut out).unwrap();
            assert_eq!(out, singles, "{split:?} mul_slices");
            assert_eq!(split.dot(&xs, &ys), Ok(dot), "{split:?} dot");
            assert_eq!(split.product(&xs), product, "{split:?} product");
            let mut x = xs.clone();
            split.scale(c, &mut x);
            assert_eq!(x, scaled, "{split:?} scale");
        }
    }
}

#[test]
fn only_long_slices_are_split_into_whole_blocks() {
    let m = Multiplier::best();
    assert_eq!(m.threads(0), m);
    assert_eq!(m.part(1 << 20), None, "one thread by default");
    let two = m.threads(2);
    assert_eq!(two.part(2 * PARALLEL_PART - 1), None);
    assert_eq!(two.part(2 * PARALLEL_PART), Some(PARALLEL_PART));
    // 32,769 in two parts: 16,385 rounded up to whole blocks of 64.
    assert_eq!(two.part(2 * PARALLEL_PART + 1), Some(PARALLEL_PART + 64));
    assert_eq!(m.threads(8).part(3 * PARALLEL_PART), Some(PARALLEL_PART));
}

#[test]
fn the_polynomial_basis_api_round_trips() {
    let xs = random_inputs(11, 500);
    let ys = random_inputs(12, 500);
    let (mut pa, mut pb) = (xs.clone(), ys.clone());
    Polynomial::from_nimbers(&mut pa);
    Polynomial::from_nimbers(&mut pb);
    let mut out = vec![0; xs.len()];
    Polynomial::mul_slices(&pa, &pb, &mut out);
    Polynomial::to_nimbers(&mut out);
    for i in 0..xs.len() {
        assert_eq!(out[i], mul_reference(xs[i], ys[i]));
        let single = Polynomial::from_nimber(xs[i]) * Polynomial::from_nimber(ys[i]);
        assert_eq!(single.to_nimber(), out[i]);
        assert_eq!(single.0, clmul::poly_mul_soft(pa[i], pb[i]));
        assert_eq!(Polynomial(pa[i]).to_nimber(), xs[i]);
    }
}

#[test]
fn matches_the_nimber_crate() {
    for (&a, &b) in random_words(13, 300).iter().zip(&random_words(14, 300)) {
        let p = &::nimber::FiniteNimber::from(a) * &::nimber::FiniteNimber::from(b);
        assert_eq!(
            p.as_slice().first().copied().unwrap_or(0),
            mul(a, b),
            "{a} ⊗ {b}"
        );
    }
}

#[test]
fn the_change_of_basis_is_multiplicative() {
    let images = clmul::poly_images();
    let to_poly = |x: u64| {
        (0..64)
            .filter(|i| x >> i & 1 == 1)
            .fold(0, |acc, i| acc ^ images[i])
    };
    for (&a, &b) in random_inputs(5, 300).iter().zip(&random_inputs(6, 300)) {
        assert_eq!(
            to_poly(mul_reference(a, b)),
            clmul::poly_mul_soft(to_poly(a), to_poly(b))
        );
    }
}

#[test]
fn inverse_pow_sqrt_and_trace() {
    assert_eq!(Nimber(0).inverse(), None);
    assert_eq!(Nimber(1).inverse(), Some(Nimber(1)));
    for &a in &random_inputs(7, 200) {
        let x = Nimber(a);
        if a != 0 {
            let inv = x.inverse().unwrap();
            assert_eq!(Nimber(mul_reference(a, inv.0)), Nimber::ONE);
            assert_eq!(x.pow(u64::MAX), Nimber::ONE);
            assert_eq!(x / x, Nimber::ONE);
        }
        assert_eq!(x.pow(0), Nimber::ONE);
        assert_eq!(x.pow(1), x);
        assert_eq!(x.pow(3).0, mul_reference(mul_reference(a, a), a));

        let r = x.sqrt();
        assert_eq!(mul_reference(r.0, r.0), a);
        assert!(x.trace() <= 1);
        let slow_trace = (0..64)
            .fold((0u64, a), |(t, y), _| (t ^ y, mul_reference(y, y)))
            .0;
        assert_eq!(x.trace(), slow_trace);
        match x.solve_quadratic() {
            Some(z) => {
                assert_eq!(mul_reference(z.0, z.0) ^ z.0, a);
                assert_eq!(z.0 & 1, 0);
                assert_eq!(x.trace(), 0);
            }
            None => assert_eq!(x.trace(), 1),
        }
    }
    // Half of the field has trace 1; such elements have bits above 2^32.
    let with_trace_one = random_words(8, 64)
        .into_iter()
        .filter(|&a| Nimber(a).trace() == 1)
        .count();
    assert!((16..=48).contains(&with_trace_one));
}

#[test]
fn pow_agrees_in_both_bases_of_its_chain() {
    // `pow` multiplies in the polynomial basis when the CPU has PCLMULQDQ; both bases (and the
    // software carry-less multiply) give the nim power.
    for (&a, &e) in random_inputs(41, 12).iter().zip(&random_words(42, 12)) {
        let x = Nimber(a);
        let nim = square_and_multiply(Nimber::ONE, x, e, |p, q| Nimber(mul_reference(p.0, q.0)));
        assert_eq!(x.pow(e), nim, "{a}^{e}");
        let (one, p) = (Polynomial::from_nimber(1), Polynomial::from_nimber(a));
        let poly =
            square_and_multiply(one, p, e, |p, q| Polynomial(clmul::poly_mul_soft(p.0, q.0)));
        assert_eq!(poly.to_nimber(), nim.0, "{a}^{e}");
    }
}

#[test]
fn checked_div_and_assign_operators() {
    assert_eq!(Nimber(5).checked_div(Nimber(0)), None);
    let mut x = Nimber(10);
    x += Nimber(3);
    assert_eq!(x, Nimber(9));
    x -= Nimber(1);
    assert_eq!(x, Nimber(8));
    x *= Nimber(8);
    assert_eq!(x, Nimber(13));
    x /= Nimber(8);
    assert_eq!(x, Nimber(8));
}

#[test]
#[should_panic(expected = "division by zero")]
fn division_by_zero_panics() {
    let _ = Nimber(3) / Nimber(0);
}

#[test]
fn display_and_parse() {
    assert_eq!(Nimber(42).to_string(), "42");
    assert_eq!(format!("{:#}", Nimber(42)), "*42");
    assert_eq!(" 7 ".parse(), Ok(Nimber(7)));
    assert_eq!("*0x10".parse(), Ok(Nimber(16)));
    assert_eq!("18446744073709551615".parse(), Ok(Nimber(u64::MAX)));
    assert_eq!("".parse::<Nimber>(), Err(ParseNimberError::Empty));
    assert_eq!("*".parse::<Nimber>(), Err(ParseNimberError::Empty));
    assert!(matches!(
        "+3".parse::<Nimber>(),
        Err(ParseNimberError::Invalid(_))
    ));
    assert!(matches!(
        "0x".parse::<Nimber>(),
        Err(ParseNimberError::Invalid(_))
    ));
    assert!(matches!(
        "18446744073709551616".parse::<Nimber>(),
        Err(ParseNimberError::Overflow(_))
    ));
    for &a in &random_words(9, 50) {
        assert_eq!(Nimber(a).to_string().parse(), Ok(Nimber(a)));
    }
}

#[test]
fn batch_io_multiplies_and_names_bad_lines() {
    let xs = random_words(10, 500);
    let mut input = format!("{}\n", xs.len() / 2);
    for pair in xs.chunks(2) {
        input.push_str(&format!("{} {}\n", pair[0], pair[1]));
    }
    let expected: Vec<u64> = xs.chunks(2).map(|p| mul_reference(p[0], p[1])).collect();
    for path in Kernel::NimberProducts.available() {
        let mut out = Vec::new();
        assert_eq!(mul_batch(input.as_bytes(), &mut out, path).unwrap(), 250);
        let lines: Vec<u64> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(lines, expected, "{path}");
    }

    // CRLF line ends and trailing blank lines are fine; T = 0 prints nothing.
    let mut out = Vec::new();
    assert_eq!(
        mul_batch("1\r\n2\t3\r\n\n".as_bytes(), &mut out, Simd::Auto).unwrap(),
        1
    );
    assert_eq!(out, b"1\n");
    let mut out = Vec::new();
    assert_eq!(
        mul_batch("0\n".as_bytes(), &mut out, Simd::Auto).unwrap(),
        0
    );
    assert!(out.is_empty());

    let error = |text: &str| {
        mul_batch(text.as_bytes(), Vec::new(), Simd::Auto)
            .unwrap_err()
            .to_string()
    };
    assert!(
        error("").contains("line 1: the count T is missing"),
        "{}",
        error("")
    );
    assert!(error("x\n").contains("line 1"));
    assert!(error("2 3\n").contains("line 1"));
    assert!(
        error("2\n1 2\n3\n").contains("line 3: B is missing"),
        "{}",
        error("2\n1 2\n3\n")
    );
    assert!(error("2\n1 2\n").contains("line 3"));
    assert!(error("1\n1 2 3\n").contains("line 2: expected exactly two"));
    assert!(error("1\n1 -2\n").contains("line 2: B must be a whole number, got '-2'"));
    assert!(error("1\n1 2x\n").contains("got '2x'"));
    assert!(error("1\n99999999999999999999 1\n").contains("line 2: A is larger than 2^64-1"));
    assert!(error("1\n1 2\n3 4\n").contains("line 3: more lines"));
}

/// 0, 1, 2^64 − 1, every power of two, the Fermat 2-powers with their neighbours, squares and
/// random words: the fixed edge cases that every path is checked on.
fn edge_words() -> Vec<u64> {
    let mut words = vec![0, 1, u64::MAX, u64::MAX - 1];
    words.extend((0..64).map(|k| 1u64 << k));
    for k in 0..6 {
        let f = 1u64 << (1 << k);
        words.extend([f - 1, f + 1, f | (f >> 1)]);
    }
    let random = random_words(31, 40);
    words.extend(random.iter().map(|&x| mul_reference(x, x)));
    words.extend(random);
    words
}

#[test]
fn every_path_squares_inverts_and_takes_roots_like_the_reference() {
    let words = edge_words();
    for m in backends() {
        // Squares, elementwise and one at a time.
        let squares: Vec<u64> = words.iter().map(|&x| mul_reference(x, x)).collect();
        let mut out = vec![0; words.len()];
        m.mul_slices(&words, &words, &mut out).unwrap();
        assert_eq!(out, squares, "{m:?} squares");
        for (&x, &sq) in words.iter().zip(&squares) {
            assert_eq!(m.mul(x, x), sq, "{m:?}: {x} squared");
        }
        // x ⊗ x⁻¹ = 1 and √x ⊗ √x = x on every path, single and sliced.
        let nonzero: Vec<u64> = words.iter().copied().filter(|&x| x != 0).collect();
        let inverses: Vec<u64> = nonzero
            .iter()
            .map(|&x| Nimber(x).inverse().unwrap().0)
            .collect();
        let mut out = vec![0; nonzero.len()];
        m.mul_slices(&nonzero, &inverses, &mut out).unwrap();
        assert!(out.iter().all(|&p| p == 1), "{m:?} inverses: {out:?}");
        for (&x, &inv) in nonzero.iter().zip(&inverses) {
            assert_eq!(m.mul(inv, x), 1, "{m:?}: {x} ⊗ {inv}");
            assert_eq!(m.product(&[x, inv, x]), x, "{m:?}: product {x}");
        }
        let roots: Vec<u64> = words.iter().map(|&x| Nimber(x).sqrt().0).collect();
        let mut out = vec![0; words.len()];
        m.mul_slices(&roots, &roots, &mut out).unwrap();
        assert_eq!(out, words, "{m:?} square roots");
        for (&r, &x) in roots.iter().zip(&words) {
            let mut v = [r, 1, 0];
            m.scale(r, &mut v);
            assert_eq!(v, [x, r, 0], "{m:?}: scale by the root of {x}");
        }
        assert_eq!(
            m.dot(&roots, &roots),
            Ok(words.iter().fold(0, |s, x| s ^ x))
        );
    }
}

fn any_nimber() -> impl Strategy<Value = Nimber> {
    prop_oneof![
        any::<u64>().prop_map(Nimber),
        (0u64..1 << 16).prop_map(Nimber),
        (0u32..64).prop_map(|i| Nimber(1 << i)),
    ]
}

/// Operands where fast paths go wrong: 0, 1, 2^64 − 1, powers of two, the Fermat 2-powers
/// 2^(2^k) with their neighbours, subfield elements, field squares and random words.
fn edge_operand() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>().prop_map(|x| mul_reference(x, x)),
        Just(0u64),
        Just(1u64),
        Just(u64::MAX),
        (0u32..64).prop_map(|k| 1u64 << k),
        (0u32..6, 0u64..3).prop_map(|(k, d)| (1u64 << (1 << k)) - 1 + d),
        (0u32..6).prop_map(|k| u64::MAX >> (64 - (1 << k))),
        any::<u64>(),
        (0u64..1 << 16),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_path_matches_the_reference_on_edge_operands(a in edge_operand(), b in edge_operand()) {
        let expected = mul_reference(a, b);
        prop_assert_eq!(mul(a, b), expected);
        prop_assert_eq!((Nimber(a) * Nimber(b)).0, expected);
        for m in backends() {
            prop_assert_eq!(m.mul(a, b), expected, "{:?}", m);
            let mut out = [0u64; 1];
            m.mul_slices(&[a], &[b], &mut out).unwrap();
            prop_assert_eq!(out[0], expected, "{:?}", m);
        }
    }

    #[test]
    fn every_path_multiplies_slices_like_the_reference(
        pairs in proptest::collection::vec((edge_operand(), edge_operand()), 0..300),
        c in edge_operand(),
    ) {
        let (a, b): (Vec<u64>, Vec<u64>) = pairs.into_iter().unzip();
        let expected: Vec<u64> = a.iter().zip(&b).map(|(&x, &y)| mul_reference(x, y)).collect();
        let dot_expected = expected.iter().fold(0, |s, p| s ^ p);
        let product_expected = a.iter().fold(1, |p, &x| mul_reference(p, x));
        let scaled_expected: Vec<u64> = a.iter().map(|&x| mul_reference(c, x)).collect();
        for m in backends() {
            let mut out = vec![0; a.len()];
            m.mul_slices(&a, &b, &mut out).unwrap();
            prop_assert_eq!(&out, &expected, "{:?} mul_slices", m);
            prop_assert_eq!(m.dot(&a, &b), Ok(dot_expected), "{:?} dot", m);
            prop_assert_eq!(m.product(&a), product_expected, "{:?} product", m);
            let mut scaled = a.clone();
            m.scale(c, &mut scaled);
            prop_assert_eq!(&scaled, &scaled_expected, "{:?} scale", m);
            let mut out = vec![0; a.len()];
            super::mul_slices(&a, &b, &mut out, m.path()).unwrap();
            prop_assert_eq!(&out, &expected, "{:?} nimber::mul_slices", m);
        }
    }
}

proptest! {
    #[test]
    fn multiplication_is_associative_and_commutative(a in any_nimber(), b in any_nimber(), c in any_nimber()) {
        prop_assert_eq!((a * b) * c, a * (b * c));
        prop_assert_eq!(a * b, b * a);
        prop_assert_eq!(a * Nimber::ONE, a);
        prop_assert_eq!((a * b).0, mul_reference(a.0, b.0));
    }

    #[test]
    fn multiplication_distributes_over_addition(a in any_nimber(), b in any_nimber(), c in any_nimber()) {
        prop_assert_eq!(a * (b + c), a * b + a * c);
        prop_assert_eq!(a + b - b, a);
    }

    #[test]
    fn every_nonzero_nimber_has_an_inverse(a in any_nimber(), b in any_nimber()) {
        match a.inverse() {
            None => prop_assert_eq!(a, Nimber::ZERO),
            Some(inv) => {
                prop_assert_eq!(a * inv, Nimber::ONE);
                prop_assert_eq!((b * a) / a, b);
            }
        }
    }

    #[test]
    fn square_roots_square_back(a in any_nimber()) {
        prop_assert_eq!(a.sqrt() * a.sqrt(), a);
        prop_assert_eq!(a.square().sqrt(), a);
        prop_assert_eq!(a.sqrt(), a.pow(1 << 63));
    }

    #[test]
    fn quadratic_roots_are_roots(a in any_nimber(), x in any_nimber()) {
        // x² + x always has a root (x itself), and a has one exactly when its trace is 0.
        let c = x * x + x;
        let root = c.solve_quadratic().expect("c = x² + x has a root");
        prop_assert!(root == x || root == x + Nimber::ONE);
        match a.solve_quadratic() {
            Some(z) => prop_assert_eq!(z * z + z, a),
            None => prop_assert_eq!(a.trace(), 1),
        }
    }
}
