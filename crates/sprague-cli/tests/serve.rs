//! `sprague serve`: answers the same JSON as the command line, logs requests, stops on Ctrl-C.

use crate::common::sprague_json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

/// `GET path` over a fresh connection: the status line's code and the body.
fn get(address: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("the server accepts connections");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response
        .split_once("\r\n\r\n")
        .expect("a header and a body");
    let code = head.split(' ').nth(1).unwrap().parse().unwrap();
    (code, body.to_string())
}

#[test]
fn serve_answers_the_cli_json_and_stops_on_ctrl_c() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprague"))
        .env("SPRAGUE_DB_DIR", "")
        .args(["serve", "--port", "0"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(address.starts_with("127.0.0.1:"), "{line}");

    for (path, args) in [
        (
            "/api/value?game=nim&position=3+4+5",
            vec!["value", "nim", "3", "4", "5", "--json"],
        ),
        (
            "/api/moves?game=kayles&position=6+%2B+nim+2",
            vec!["moves", "kayles", "6", "+", "nim", "2", "--json"],
        ),
        (
            "/api/table?game=0.137&to=60",
            vec!["table", "0.137", "--to", "60", "--format", "json"],
        ),
        (
            "/api/period?game=kayles",
            vec!["period", "kayles", "--json"],
        ),
        ("/api/catalog", vec!["catalog", "--json"]),
    ] {
        let (code, body) = get(&address, path);
        assert_eq!(code, 200, "{path}: {body}");
        let served: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(served, sprague_json(&args), "{path}");
    }
    let (code, body) = get(&address, "/api/value?game=nosuch");
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("unknown game"), "{body}");

    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    let mut log = String::new();
    stderr.read_to_string(&mut log).unwrap();
    assert!(log.contains("GET /api/value 200"), "{log}");
    assert!(log.contains("GET /api/value 400"), "{log}");
    assert!(log.contains("shut down"), "{log}");
}

#[test]
fn serve_rejects_a_bad_address() {
    crate::common::assert_bad_input(
        &["serve", "--bind", "localhost:1"],
        "--bind must be an IP address",
    );
    crate::common::assert_bad_input(
        &["serve", "--port", "70000"],
        "--port must be at most 65535",
    );
}
