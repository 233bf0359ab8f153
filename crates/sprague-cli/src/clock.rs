//! Clocks and load for `sprague bench`: CPU time from /proc (ticks of 10 ms), where it exists.

/// Fields 14–17 of a /proc stat line (utime, stime, cutime, cstime), in ticks of 10 ms.
fn stat_ticks(path: &str) -> Option<[u64; 4]> {
    let stat = std::fs::read_to_string(path).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let field = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some([field(11)?, field(12)?, field(13)?, field(14)?])
}

/// This thread's CPU time (user + system) in ns; `None` off Linux.
pub fn thread_cpu_ns() -> Option<u64> {
    stat_ticks("/proc/thread-self/stat").map(|t| (t[0] + t[1]) * 10_000_000)
}

/// This process's CPU time (user + system, every thread) in ns; `None` off Linux.
pub fn process_cpu_ns() -> Option<u64> {
    stat_ticks("/proc/self/stat").map(|t| (t[0] + t[1]) * 10_000_000)
}

/// The CPU time of this process's children that have been waited for, in ns.
pub fn children_cpu_ns() -> Option<u64> {
    stat_ticks("/proc/self/stat").map(|t| (t[2] + t[3]) * 10_000_000)
}

/// The CPU time so far of a running process, in ns.
pub fn pid_cpu_ns(pid: u32) -> Option<u64> {
    stat_ticks(&format!("/proc/{pid}/stat")).map(|t| (t[0] + t[1]) * 10_000_000)
}

/// The load averages over 1, 5 and 15 minutes, from /proc; `None` off Linux.
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    )
}
