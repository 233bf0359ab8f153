//! `sprague serve`: answers the same JSON as the command line, logs requests, stops on Ctrl-C.

use crate::common::sprague_json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, Command, Stdio};
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

/// A server process, killed if the test fails before it stops it.
struct Server(Option<Child>);

impl Server {
    fn id(&self) -> u32 {
        self.0.as_ref().map_or(0, Child::id)
    }

    fn take(&mut self) -> Child {
        self.0.take().expect("the server is running")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `sprague serve --port 0 ARGS...`: the process, its stderr after the first line, and the
/// address it listens on.
fn start(args: &[&str]) -> (Server, BufReader<ChildStderr>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprague"))
        .env("SPRAGUE_DB_DIR", "")
        .args(["serve", "--port", "0"])
        .args(args)
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
    (Server(Some(child)), stderr, address)
}

/// Stops the server with Ctrl-C (SIGINT) and checks that it exits cleanly.
fn interrupt(mut child: Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
}

#[test]
fn serve_answers_the_cli_json_and_stops_on_ctrl_c() {
    let (mut child, mut stderr, address) = start(&[]);

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
    let (code, body) = get(&address, "/api/value?game=nosuch&position=");
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("unknown game"), "{body}");

    interrupt(child.take());
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

/// The peak resident memory of process `pid`, in KiB (`VmHWM`).
fn peak_memory_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sprague-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Issue 21: runaway requests stop at the deadline and free their workers, a script that
/// builds a value nested 30,000 deep does not bring the server down, and no request reads a
/// file outside the script directory or quotes one.
#[test]
fn hostile_requests_neither_stop_the_server_nor_read_its_files() {
    let root = temp_dir("hostile");
    let scripts = root.join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::write(
        scripts.join("nested.rhai"),
        "fn options(n) { let a = [n]; for i in 0..30000 { a = [a]; } [a] }\n",
    )
    .unwrap();
    std::fs::write(
        scripts.join("ok.rhai"),
        "fn options(n) { let o = []; for i in 0..n { o.push(i); } o }\n",
    )
    .unwrap();
    let secret = "TOP-SECRET-4711";
    std::fs::write(root.join("secret.rhai"), format!("{secret} {secret}\n")).unwrap();
    std::fs::write(root.join("secret.txt"), secret).unwrap();
    let (mut child, _stderr, address) =
        start(&["--time-limit", "2", "--scripts", scripts.to_str().unwrap()]);

    // A script of the directory works.
    let (code, body) = get(&address, "/api/value?game=script:ok.rhai&position=5");
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("\"nim_value\":5"), "{body}");

    // Files outside the directory are refused unread, existing or not, with one message.
    let outside = [
        format!("script:{}", root.join("secret.rhai").display()),
        format!("script:{}", root.join("secret.txt").display()),
        "script:../secret.rhai".to_string(),
        "script:/etc/hostname".to_string(),
        "script:/no/such/file.rhai".to_string(),
        "script:ok.txt".to_string(),
    ];
    for game in &outside {
        let (code, body) = get(&address, &format!("/api/value?game={game}&position=1"));
        assert!(code == 400 || code == 422, "{game}: {code} {body}");
        assert!(!body.contains(secret), "{game}: {body}");
        assert!(
            body.contains("is not a script of this server"),
            "{game}: {body}"
        );
    }
    if let Ok(host) = std::fs::read_to_string("/etc/hostname") {
        let (_, body) = get(&address, "/api/value?game=script:/etc/hostname&position=1");
        assert!(
            host.trim().is_empty() || !body.contains(host.trim()),
            "{body}"
        );
    }

    // Runaway requests, all at once: more than the two workers.
    let runaways = [
        "/api/value?game=script:nested.rhai&position=1",
        "/api/value?game=grundy&position=150+145+2+138+174+43&misere=1",
        "/api/period?game=officers",
        "/api/value?game=script:nested.rhai&position=2",
    ];
    let threads: Vec<_> = runaways
        .iter()
        .map(|path| {
            let address = address.clone();
            let path = path.to_string();
            std::thread::spawn(move || (path.clone(), get(&address, &path)))
        })
        .collect();
    for thread in threads {
        let (path, (code, body)) = thread.join().unwrap();
        assert!(code == 422 || code == 400, "{path}: {code} {body}");
    }
    // Their computations stopped with them: a small request gets a worker within its own
    // two-second limit (it would answer 422 if the runaways still held both).
    let (code, body) = get(&address, "/api/value?game=nim&position=3");
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("\"nim_value\":3"), "{body}");
    let peak = peak_memory_kib(child.id());
    assert!(peak < 1 << 20, "the server peaked at {peak} KiB");
    interrupt(child.take());
    let _ = std::fs::remove_dir_all(&root);
}
