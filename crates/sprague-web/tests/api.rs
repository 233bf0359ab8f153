//! The JSON API answers what the library (and so the command line) answers, rejects bad input
//! with 400 and work past its bounds with 422, and plays tic-tac-toe without ever losing.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use sprague::game::Play;
use sprague_web::{router, Limits};
use std::time::Duration;
use tower::ServiceExt;

/// The status, content type and body of `GET uri`.
async fn get_with(limits: Limits, uri: &str) -> (StatusCode, String, String) {
    let response = router(sprague::catalog::Catalog::default(), limits)
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap();
    (
        status,
        content_type,
        String::from_utf8(body.to_vec()).unwrap(),
    )
}

async fn get(uri: &str) -> (StatusCode, String, String) {
    get_with(Limits::default(), uri).await
}

/// `GET uri` answered 200 with JSON.
async fn get_json(uri: &str) -> Value {
    let (status, content_type, body) = get(uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    serde_json::from_str(&body).unwrap()
}

/// `GET uri` answered `status` with `{"error": TEXT}`, TEXT containing `needle`.
async fn assert_error(limits: Limits, uri: &str, status: StatusCode, needle: &str) {
    let (got, _, body) = get_with(limits, uri).await;
    assert_eq!(got, status, "{uri}: {body}");
    let value: Value = serde_json::from_str(&body).unwrap();
    let message = value["error"].as_str().unwrap();
    assert!(message.contains(needle), "{uri}: {message}");
}

fn library_value(words: &[&str]) -> Value {
    let position = sprague::catalog::Catalog::default()
        .parse_position(words)
        .unwrap();
    serde_json::to_value(sprague::analysis::value(&position, Play::Normal).unwrap()).unwrap()
}

fn library_moves(words: &[&str]) -> Value {
    let position = sprague::catalog::Catalog::default()
        .parse_position(words)
        .unwrap();
    serde_json::to_value(sprague::analysis::moves(&position, Play::Normal).unwrap()).unwrap()
}

#[tokio::test]
async fn catalog_is_the_library_catalog() {
    let answer = get_json("/api/catalog").await;
    assert_eq!(
        answer,
        serde_json::to_value(sprague::catalog::Catalog::entries()).unwrap()
    );
    assert!(answer.as_array().unwrap().len() > 20);
}

#[tokio::test]
async fn value_and_moves_answer_the_command_line_json() {
    assert_eq!(
        get_json("/api/value?game=nim&position=3+4+5").await,
        json!({"game": "nim", "position": [3, 4, 5], "outcome": "N", "nim_value": 2,
               "remoteness": 11,
               "winning_moves": [{"move": "3 -> 1", "description": "heap 1: 3 → 1",
                                  "position": [1, 4, 5], "component": 0}]})
    );
    // A sum of two games: ` + ` inside the position, URL-encoded.
    assert_eq!(
        get_json("/api/value?game=kayles&position=10%20%2B%20nim%203").await,
        library_value(&["kayles", "10", "+", "nim", "3"])
    );
    assert_eq!(
        get_json("/api/moves?game=sub:1,3,4&position=9").await,
        library_moves(&["sub:1,3,4", "9"])
    );
    // An empty position is a board's start.
    let board = get_json("/api/value?game=mnk:3,3,3&position=").await;
    assert_eq!(board["outcome"], "D");
    assert_eq!(board["remoteness"], 9);
    assert_eq!(
        get_json("/api/moves?game=mnk:3,3,3&position=xx.oo....").await,
        library_moves(&["mnk:3,3,3", "xx.oo...."])
    );
    let misere = get_json("/api/value?game=nim&position=1+1&misere=1").await;
    assert_eq!(misere["outcome"], "N");
}

#[tokio::test]
async fn table_and_period_answer_the_command_line_json_and_csv() {
    let table = get_json("/api/table?game=kayles&to=200").await;
    assert_eq!(table["game"], "kayles");
    assert_eq!(table["values"].as_array().unwrap().len(), 201);
    assert_eq!(
        table["values"].as_array().unwrap()[..6],
        json!([0, 1, 2, 3, 1, 4]).as_array().unwrap()[..]
    );
    assert_eq!(table["period"], json!({"preperiod": 71, "period": 12}));
    assert_eq!(
        get_json("/api/table?game=nim&to=3").await,
        json!({"game": "nim", "values": [0, 1, 2, 3], "period": null})
    );
    let (status, content_type, body) = get("/api/table?game=0.137&to=5&format=csv").await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/csv"), "{content_type}");
    assert_eq!(body, "n,value\n0,0\n1,1\n2,1\n3,2\n4,0\n5,3\n");
    assert_eq!(
        get_json("/api/period?game=kayles").await,
        json!({"preperiod": 71, "period": 12, "certified_at": 167})
    );
    assert_eq!(
        get_json("/api/period?game=0.16&max=100").await,
        json!({"preperiod": null, "period": null, "checked_to": 100})
    );
}

#[tokio::test]
async fn bad_input_answers_400_with_a_message() {
    let bad = StatusCode::BAD_REQUEST;
    let limits = Limits::default;
    assert_error(
        limits(),
        "/api/value?game=nosuch&position=",
        bad,
        "unknown game",
    )
    .await;
    assert_error(
        limits(),
        "/api/value?game=kaylse&position=3",
        bad,
        "did you mean 'kayles'?",
    )
    .await;
    // The suggestion comes as data too, for the page's "Use kayles" button; the page's user
    // is pointed to the catalog menu, not to a command they cannot run.
    let (_, _, body) = get("/api/play?game=nim&position=3+%2B+domineerign:3x3").await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        answer["did_you_mean"],
        json!({"typed": "domineerign", "game": "domineering"})
    );
    let message = answer["error"].as_str().unwrap();
    assert!(
        message.contains("unknown game 'domineerign:3x3'; did you mean 'domineering'?"),
        "{message}"
    );
    assert!(!message.contains("sprague catalog"), "{message}");
    let (_, _, body) = get("/api/value?game=chess&position=").await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer.get("did_you_mean"), None, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("catalog menu"));
    assert_error(
        limits(),
        "/api/value?game=kayles&position=3+nim+4",
        bad,
        "did you forget a '+' before 'nim'?",
    )
    .await;
    assert_error(limits(), "/api/value", bad, "missing parameter 'game'").await;
    // A missing position is refused; an empty one is the empty sum, as on the command line.
    assert_error(
        limits(),
        "/api/value?game=nim",
        bad,
        "missing parameter 'position'",
    )
    .await;
    assert_eq!(
        get_json("/api/value?game=nim&position=").await["outcome"],
        "P"
    );
    assert_error(
        limits(),
        "/api/value?game=nim&position=3+x",
        bad,
        "invalid position for nim",
    )
    .await;
    assert_error(limits(), "/api/value?game=nim&position=3+%2B", bad, "'+'").await;
    assert_error(
        limits(),
        "/api/table?game=wythoff&to=5",
        bad,
        "not a heap game",
    )
    .await;
    assert_error(
        limits(),
        "/api/table?game=nim",
        bad,
        "missing parameter 'to'",
    )
    .await;
    assert_error(limits(), "/api/table?game=nim&to=-1", bad, "to").await;
    assert_error(
        limits(),
        "/api/table?game=nim&to=3&format=xml",
        bad,
        "json or csv",
    )
    .await;
    assert_error(
        limits(),
        "/api/value?game=mnk:3,3,3&position=&misere=1",
        bad,
        "misère",
    )
    .await;
    assert_error(
        limits(),
        "/api/value?game=nim&position=&misere=yes",
        bad,
        "'misere' must be 1 or 0",
    )
    .await;
    assert_error(
        limits(),
        "/api/plot/history.svg?points=w1,q2",
        bad,
        "w, t, d or l",
    )
    .await;
    assert_error(
        limits(),
        "/api/nosuch",
        StatusCode::NOT_FOUND,
        "under /api/",
    )
    .await;
}

#[tokio::test]
async fn work_past_the_bounds_answers_422() {
    let over = StatusCode::UNPROCESSABLE_ENTITY;
    let limits = Limits::default;
    assert_error(
        limits(),
        "/api/table?game=nim&to=1000001",
        over,
        "at most 1000000",
    )
    .await;
    assert_error(
        limits(),
        "/api/period?game=kayles&max=99999999",
        over,
        "at most",
    )
    .await;
    assert_error(
        limits(),
        "/api/plot/table.svg?game=nim&to=5001",
        over,
        "at most 5000",
    )
    .await;
    let long = "1+".repeat(3000);
    assert_error(
        limits(),
        &format!("/api/value?game=nim&position={long}"),
        over,
        "'position' is",
    )
    .await;
    let spec = "a".repeat(300);
    assert_error(
        limits(),
        &format!("/api/value?game={spec}"),
        over,
        "'game' is",
    )
    .await;
    // The library's own limits (too many options to list) also answer 422.
    assert_error(
        limits(),
        "/api/moves?game=nim&position=200000",
        over,
        "more than",
    )
    .await;
    // A computation that outlasts the time limit answers 422 at once, not a hung request.
    let impatient = Limits {
        time: Duration::ZERO,
        ..Limits::default()
    };
    assert_error(
        impatient,
        "/api/table?game=grundy&to=20000",
        over,
        "no answer within",
    )
    .await;
}

/// `GET /api/play?QUERY`.
async fn play(query: &str) -> Value {
    get_json(&format!("/api/play?{query}")).await
}

fn query(game: &str, text: &str) -> String {
    format!("game={}&position={}", urlencode(game), urlencode(text))
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn play_rates_every_move_and_the_engine_never_loses_at_tic_tac_toe() {
    let start = play("game=mnk:3,3,3&position=").await;
    let state = &start["state"];
    assert!(start["reply"].is_null());
    assert_eq!(state["kind"], "board");
    assert_eq!(state["outcome"], "D");
    assert_eq!(state["moves"].as_array().unwrap().len(), 9);
    assert!(state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["value"] == "tie"));
    // The test plays x, picking moves by a seed; the engine answers as o.
    for seed in 0..8usize {
        let mut state = state.clone();
        let mut plies = 0;
        loop {
            let moves = state["moves"].as_array().unwrap().clone();
            let mine = &moves[(seed * 7 + plies) % moves.len()];
            let here = query(
                mine["game"].as_str().unwrap(),
                mine["next"].as_str().unwrap(),
            );
            let after_x = play(&here).await["state"].clone();
            plies += 1;
            if after_x["over"] == true {
                // x made the last move: o, to move, must not have lost.
                assert_ne!(after_x["outcome"], "P", "x won (seed {seed}): {after_x}");
                break;
            }
            let answer = play(&format!("{here}&engine=1&seed={seed}")).await;
            assert_ne!(answer["reply"]["value"], "lose", "{answer}");
            plies += 1;
            state = answer["state"].clone();
            if state["over"] == true {
                // o made the last move: x, to move, has lost or tied.
                assert_ne!(state["outcome"], "N", "{state}");
                break;
            }
        }
        assert!(
            plies >= 5,
            "seed {seed}: the game ended after {plies} moves"
        );
    }
}

#[tokio::test]
async fn play_sums_heaps_and_coins() {
    let heaps = play("game=nim&position=1+2").await["state"].clone();
    assert_eq!(heaps["kind"], "heaps");
    assert_eq!(heaps["nim_value"], 3);
    let labels: Vec<&str> = heaps["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        vec!["heap 1: 1 → 0", "heap 2: 2 → 1", "heap 2: 2 → 0"]
    );
    assert_eq!(heaps["moves"][1]["value"], "win");
    assert_eq!(heaps["moves"][1]["next"], "1 1");
    assert_eq!(heaps["numbers"], json!([1, 2]));
    // Emptying heap 1 leaves heap 2, which keeps its number.
    assert_eq!(heaps["moves"][0]["numbers"], json!([2]));
    let reply = play("game=nim&position=1+2&engine=1&seed=1").await;
    assert_eq!(reply["reply"]["move"], "2 -> 1");
    assert_eq!(reply["reply"]["label"], "heap 2: 2 → 1");
    // The numbers the page kept come back in the labels and in each move's numbers.
    let kept = play("game=nim&position=4+5+6&numbers=2,5,3").await["state"].clone();
    assert_eq!(kept["numbers"], json!([2, 5, 3]));
    assert_eq!(kept["moves"][4]["label"], "heap 5: 5 → 4");
    assert_eq!(kept["moves"][8]["move"], "5 -> 0");
    assert_eq!(kept["moves"][8]["numbers"], json!([2, 3]));
    let (status, body, _) = get("/api/play?game=nim&position=4+5&numbers=1,1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(reply["state"]["outcome"], "P");
    let coins = play("game=ruler&position=3+5").await["state"].clone();
    assert_eq!(coins["kind"], "coins");
    assert_eq!(coins["position"], json!([3, 5]));
    let sum = play("game=kayles&position=2+%2B+nim+1").await["state"].clone();
    assert_eq!(sum["kind"], "heaps");
    assert_eq!(sum["game"], "kayles");
    assert_eq!(sum["text"], "2 + nim 1");
    let over = play("game=nim&position=").await["state"].clone();
    assert_eq!(over["over"], true);
    assert_error(
        Limits::default(),
        "/api/play?game=nim&position=&engine=1",
        StatusCode::BAD_REQUEST,
        "the game is over",
    )
    .await;
}

#[tokio::test]
async fn plots_are_svg() {
    let (status, content_type, body) = get("/api/plot/table.svg?game=kayles&to=200").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(content_type, "image/svg+xml");
    assert!(body.starts_with("<svg"), "{}", &body[..100]);
    assert!(body.contains("preperiod 71"));
    assert!(body.contains("one period (12)"));
    let (status, content_type, body) =
        get("/api/plot/history.svg?points=t9,t8,w5,w3,l1,d2&moves=b2%0Aa1%0Ac3&width=390").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(content_type, "image/svg+xml");
    assert!(body.contains("remoteness"));
    assert!(
        body.contains(r#"width="390""#),
        "drawn at the width asked for"
    );
    assert_eq!(
        body.matches("<circle ").count(),
        2 + 2 + 1 + 1 + 1 + 1,
        "a tie is a pair of points"
    );
    assert!(body.contains("3. c3"), "the moves label the rows");
    assert!(body.contains("level 2"), "a draw shows its draw level");
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (status, content_type, body) = get("/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/html"));
    assert!(body.contains("app.js"));
    let (status, content_type, _) = get("/app.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/javascript"));
    let (status, content_type, _) = get("/style.css").await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/css"));
}

#[tokio::test]
async fn partizan_positions_answer_canonical_forms_and_thermographs() {
    let v = get_json("/api/value?game=domineering:2x2&position=").await;
    assert_eq!(v["canonical_form"], "±1");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["left_winning_moves"].as_array().unwrap().len(), 2);
    // An impartial game joins a partizan sum as its nimber: ^ + * + *2 is ^*3.
    let v = get_json("/api/value?game=cg&position=%5E%20%2B%20nim%201%202").await;
    assert_eq!(v["canonical_form"], "^*3");
    let t = get_json("/api/thermograph?game=cg&position=%7B2%7C-1%7D").await;
    assert_eq!(t["temperature"], "3/2");
    assert_eq!(t["mean"], "1/2");
    let (status, content_type, body) =
        get("/api/thermograph.svg?game=cg&position=%7B2%7C-1%7D").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "image/svg+xml");
    assert!(body.starts_with("<svg") && body.contains("polyline"));
    assert_error(
        Limits::default(),
        "/api/value?game=domineering&position=..%7C.x",
        StatusCode::BAD_REQUEST,
        "unexpected 'x'",
    )
    .await;
}

#[tokio::test]
async fn genus_and_quotient_answer_the_command_line_json() {
    let kayles = sprague::heap::Code::parse("0.77").unwrap();
    let genus = get_json("/api/genus?game=kayles&to=6").await;
    let table = sprague::quotient::GenusTable::compute(&kayles, 6, 1000, &()).unwrap();
    assert_eq!(genus, serde_json::to_value(table.report("kayles")).unwrap());
    assert_eq!(genus["heaps"][5]["genus"], "4^{146}");

    let quotient = get_json("/api/quotient?game=0.75").await;
    assert_eq!(quotient["order"], 8);
    assert_eq!(quotient["p_portion"].as_array().unwrap().len(), 2);
    assert_eq!(quotient["certified"], true);
    let rules = sprague::heap::Code::parse("0.75").unwrap();
    let options = sprague::quotient::QuotientOptions::default();
    let (search, max) =
        sprague::quotient::Quotient::compute_for(&rules, None, &options, &()).unwrap();
    assert_eq!(
        quotient,
        serde_json::to_value(sprague::quotient::QuotientReport::of(&search, "0.75", max)).unwrap()
    );
    let to_30 = get_json("/api/quotient?game=0.75&max_heap=30").await;
    assert_eq!(to_30["heaps"].as_array().unwrap().len(), 31);
    // a runaway is an answer, as on the command line
    let runaway = get_json("/api/quotient?game=4.7&max_order=200").await;
    assert_eq!(runaway["infinite"], true);
    assert_eq!(runaway["order"], Value::Null);
}

#[tokio::test]
async fn genus_and_quotient_refuse_bad_input_and_stop_at_their_bounds() {
    let limits = Limits::default;
    let bad = StatusCode::BAD_REQUEST;
    let over = StatusCode::UNPROCESSABLE_ENTITY;
    assert_error(
        limits(),
        "/api/quotient?game=turtles",
        bad,
        "not a heap game",
    )
    .await;
    assert_error(limits(), "/api/genus?game=0.7z&to=5", bad, "not an octal").await;
    assert_error(
        limits(),
        "/api/genus?game=kayles",
        bad,
        "missing parameter 'to'",
    )
    .await;
    assert_error(
        limits(),
        "/api/quotient?game=kayles&max_heap=x",
        bad,
        "max_heap",
    )
    .await;
    assert_error(
        limits(),
        "/api/quotient?game=kayles&max_order=1",
        bad,
        "max_order",
    )
    .await;
    assert_error(
        limits(),
        "/api/genus?game=kayles&to=5001",
        over,
        "at most 5000",
    )
    .await;
    assert_error(
        limits(),
        "/api/quotient?game=kayles&max_heap=2001",
        over,
        "at most 2000",
    )
    .await;
    // wild games stop at the server's bound on sums searched
    let few = Limits {
        genus_positions: 10,
        ..Limits::default()
    };
    assert_error(few, "/api/genus?game=kayles&to=20", over, "sums searched").await;
    // a quotient past the time limit answers 422, and its computation stops too
    let impatient = Limits {
        time: Duration::ZERO,
        ..Limits::default()
    };
    let (status, _, body) = get_with(impatient, "/api/quotient?game=kayles").await;
    assert_eq!(status, over, "{body}");
}
