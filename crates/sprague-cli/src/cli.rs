//! The command-line grammar.

use clap::{Args, Parser, Subcommand, ValueEnum};

const AFTER_HELP: &str = "\
Games are written as specs: NAME or NAME:PARAMS, then the position. Sums of different games are
joined by a lone '+'. Run 'sprague catalog' for every game and its position syntax.

Examples:
  sprague value nim 3 4 5                 outcome, nim value and the winning moves
  sprague value kayles 10 + nim 3         a sum of two games
  sprague moves sub:1,3,4 9               every option with its value
  sprague table 0.137 --to 100            nim values of single heaps
  sprague period kayles                   a certified period
  sprague value domineering:2x2           a partizan game: canonical form (±1), both players' moves
  sprague compare cg '^' -- cg '*'        how two games compare (||: confused)
  sprague genus kayles --to 12            misère genus symbols of single heaps
  sprague quotient 0.75                   the misère quotient of a heap game

Exit codes: 0 success, 2 bad input, 1 anything else. Results go to stdout, diagnostics to stderr.";

const GENUS_HELP: &str = "\
The genus g^{γ0γ1…} of a position (Winning Ways, chapter 13): g is its normal-play nim value
and γk the misère Grundy value of the position plus k nim-heaps of size 2, written until the
sequence settles into alternation. A heap is tame when it and every heap it reaches have the
genus of a Nim position (0^{120}, 1^{031}, or g^{g,g⊕2}); sums of tame heaps then play misère
like Nim. The others are wild.

Examples:
  sprague genus kayles --to 12              heap 5 is 4^{146}, the first wild heap
  sprague genus 0.75 --to 20 --json";

const QUOTIENT_HELP: &str = "\
The misère quotient of the sums of heaps 0..N (Plambeck and Siegel): the commutative monoid
whose elements are the classes of sums that behave alike in every misère sum, with its
P-portion (the elements of losing sums). Every misère sum of heaps is valued from it without
search: `sprague value GAME H1 H2 ... --misere` uses it. A quotient that outgrows --max-order
is reported as infinite (exit 0), with the heap where it stopped.

Examples:
  sprague quotient 0.75                     order 8, proven for every heap at heap 22
  sprague quotient kayles --json            order 40, proven at heap 168
  sprague quotient dawson --max-heap 20     the quotient of heaps 0..20 only
  sprague quotient 4.7 --max-order 200      stops (infinite) when it passes 200 elements";

/// Exact solver for two-player combinatorial games: nim values, outcomes, winning moves.
#[derive(Parser, Debug)]
#[command(name = "sprague", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// What one computation may spend.
    #[command(flatten)]
    pub budget: BudgetFlags,
    /// The caps of `script:PATH` games.
    #[command(flatten)]
    pub script: ScriptCaps,
    /// How the searches of Cram, Node Kayles and Chomp run.
    #[command(flatten)]
    pub search: SearchFlags,
}

/// The nim-value search of games that split into components (Cram, Node Kayles, Chomp).
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Search (cram, node-kayles, chomp)")]
pub struct SearchFlags {
    /// The most memory the search's tables may hold, in MiB; they grow as needed up to it
    /// and then replace their oldest entries [default: half of --max-memory, at most 8192].
    #[arg(long, global = true, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=(1u64 << 30)))]
    pub search_memory: Option<u64>,
    /// Threads that share the top component's options: 1 or 2 [default: 2 where the machine
    /// has them].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=2))]
    pub search_threads: Option<u64>,
    /// Keep the values of the components that took long in FILE, and start from it when it
    /// exists (a killed run resumes where it was).
    #[arg(long, global = true, value_name = "FILE")]
    pub search_checkpoint: Option<std::path::PathBuf>,
    /// Seconds between two saves of the checkpoint.
    #[arg(long, global = true, value_name = "S", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
    pub search_checkpoint_interval: u64,
}

/// Time and memory for the computation of one command (the server has its own, per request).
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Budget")]
pub struct BudgetFlags {
    /// Stop when the process holds more than MIB mebibytes [default: 80% of this machine's
    /// memory; 0: no cap].
    #[arg(long, global = true, value_name = "MIB", value_parser = clap::value_parser!(u64).range(0..=(1u64 << 40)))]
    pub max_memory: Option<u64>,
    /// Stop after S seconds [default: no limit].
    #[arg(long, global = true, value_name = "S", value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
    pub max_seconds: Option<u64>,
}

/// The heading of the script caps in `sprague --help`, the one place they are shown.
pub const SCRIPT_CAPS_HEADING: &str = "Script caps (for script:PATH games only)";

/// Caps on untrusted `script:PATH` games; each may be raised. The flags are accepted after any
/// subcommand, but shown once, in `sprague --help` ([`command`] hides them elsewhere).
#[derive(clap::Args, Debug)]
pub struct ScriptCaps {
    /// Script games: most Rhai operations in one call of a script function.
    #[arg(long, global = true, hide = true, value_name = "N", default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub script_max_operations: u64,
    /// Script games: deepest nesting of function calls.
    #[arg(long, global = true, hide = true, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub script_max_call_depth: u64,
    /// Script games: longest string, in characters.
    #[arg(long, global = true, hide = true, value_name = "N", default_value_t = 1 << 16, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
    pub script_max_string: u64,
    /// Script games: most elements in one array or map, nested ones counted.
    #[arg(long, global = true, hide = true, value_name = "N", default_value_t = 1 << 16, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
    pub script_max_array: u64,
    /// Script games: most positions (or heaps) one game explores.
    #[arg(long, global = true, hide = true, value_name = "N", default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
    pub script_max_positions: u64,
    /// Script games: most memory the positions one game explores may hold, in MiB.
    #[arg(long, global = true, hide = true, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 30)))]
    pub script_max_memory: u64,
    /// Script games: most seconds one call of a script function may run.
    #[arg(long, global = true, hide = true, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
    pub script_max_seconds: u64,
}

/// The command line's grammar. The script caps are global (accepted after every subcommand)
/// but hidden, so that they do not repeat in each subcommand's help: `sprague --help` lists
/// them once, under their own heading, and the help of each command that takes games points
/// there.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let caps = ScriptCaps::augment_args(clap::Command::new("caps"));
    let rows: Vec<(String, String)> = caps
        .get_arguments()
        .map(|a| {
            let name = format!(
                "--{} <{}>",
                a.get_long().unwrap_or_default(),
                a.get_value_names()
                    .and_then(|v| v.first())
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            );
            let default = a
                .get_default_values()
                .first()
                .map(|d| format!(" [default: {}]", d.to_string_lossy()))
                .unwrap_or_default();
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            (name, format!("{help}{default}"))
        })
        .collect();
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut section = format!("{SCRIPT_CAPS_HEADING}:");
    for (name, help) in &rows {
        section.push_str(&format!("\n      {name:width$}  {help}"));
    }
    let mut command = Cli::command().after_help(format!("{section}\n\n{AFTER_HELP}"));
    let note =
        "Script games (script:PATH) take the --script-max-* caps listed in 'sprague --help'.";
    let takes_games = [
        "value",
        "moves",
        "table",
        "period",
        "solve",
        "play",
        "genus",
        "quotient",
        "compare",
        "thermograph",
    ];
    for name in takes_games {
        command = command.mut_subcommand(name, |sub| {
            let after = sub
                .get_after_help()
                .map(|h| format!("{h}\n\n{note}"))
                .unwrap_or_else(|| note.to_string());
            sub.after_help(after)
        });
    }
    command
}

/// What `bench` times.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchTarget {
    /// Nim products: latency, throughput and slices, every path beside the peers.
    Nimber,
    /// Octal games: tables and period searches beside ogsolve (its fastest method), in the
    /// same run, with checksums compared.
    Octal,
    /// Nim values of Cram boards and Chomp bars by search, beside igsolve (time, memory).
    Search,
}

const BENCH_HELP: &str = "\
Examples:
  sprague bench nimber
  sprague bench octal                             0.6, 0.007, 0.106, 0.16, 0.137, 4.7 (minutes)
  sprague bench octal --games 0.6,0.007 --size 65536 --peer-methods rc2
  sprague bench octal --sweep --size 65536        every code 0.1 to 0.777 and 4.1 to 4.777
  sprague bench octal --sweep --resume s.bnch     the same at 2^18 (hours): run again after a kill
  sprague bench octal --json --peer /work/tools/bin/ogsolve
  sprague bench search --peer /work/tools/bin/igsolve
  sprague bench search --boards cram:4x9,chomp:10x12 --time-limit 60";

/// The options of `bench octal`.
#[derive(Args, Debug)]
#[command(next_help_heading = "bench octal")]
pub struct OctalBench {
    /// Every octal code of up to three digits (0.x and 4.x) at --size (default 262144); prints
    /// the worst ratios and the median.
    #[arg(long)]
    pub sweep: bool,
    /// The heap size of every game [default: the default set's sizes, 2^20 and 2^22].
    #[arg(long, value_name = "N")]
    pub size: Option<String>,
    /// Only these codes, comma-separated.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub games: Option<Vec<String>>,
    /// The peer's binary: beling's ogsolve for octal, igsolve for search [default: the one on
    /// the PATH].
    #[arg(long, value_name = "PATH")]
    pub peer: Option<std::path::PathBuf>,
    /// The peer's methods to try; the fastest is the reference.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "rc2,rc,naive"
    )]
    pub peer_methods: Vec<String>,
    /// Stop a peer run past this many CPU seconds (its time is then a lower bound).
    #[arg(long, value_name = "S", default_value = "600")]
    pub peer_max_seconds: String,
    /// Stop a peer run once it has taken R times sprague's CPU time (at least 0.1 s): the
    /// ratio is then reported as "≥R". Makes long sweeps cheaper where sprague leads by far.
    #[arg(long, value_name = "R")]
    pub peer_stop_ratio: Option<String>,
    /// sprague's worker threads, comma-separated counts each run in turn [default: 1,2 on
    /// two cores or more; the sweep: 1].
    #[arg(long, value_name = "N", value_delimiter = ',')]
    pub threads: Option<Vec<String>>,
    /// Print one JSON object instead of the table (octal: the rows and ratios; nimber: the CPU,
    /// the paths, what each command runs, and every row's figures with its ratio to the peer).
    #[arg(long)]
    pub json: bool,
    /// Keep the finished rows in FILE (checksummed), and take the rows it holds instead of
    /// measuring them again: a killed sweep resumes where it was. The file is refused for
    /// other settings (size, peer, methods, threads, path).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<std::path::PathBuf>,
}

/// The counting problems of `count`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountProblem {
    /// GZOI 2017 (seed 003): pairs (a subset of the heaps, a designated heap in it) where the
    /// first player, forced to move first on the designated heap, loses Nim.
    Gzoi2017,
}

/// Output formats of `table`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// Rows of ten, like the printed tables in the literature.
    Text,
    /// A header `n,value`, then one row a heap.
    Csv,
    /// `{"game", "values", "period"}`.
    Json,
    /// The checksummed binary file of `--output FILE`: each value in the fewest whole bytes the
    /// largest needs, read back by Python's `sprague.load_table` (layout in
    /// `sprague::heap::table_file`).
    Bin,
}

/// Nim-field operations.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NimberOp {
    /// The nim sum (XOR) of all operands.
    Add,
    /// The nim product of all operands.
    Mul,
    /// A / B.
    Div,
    /// The multiplicative inverse.
    Inv,
    /// The square root (every nimber has exactly one).
    Sqrt,
    /// A to the power E (E an ordinary integer).
    Pow,
    /// A root x of x^2 + x = A, if one exists (the other root is x + 1).
    Solve,
}

/// A position to analyse, as `value` and `moves` take it.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// GAME POSITION... [+ GAME POSITION...]
    #[arg(required_unless_present = "batch", num_args = 1.., allow_negative_numbers = true, value_name = "GAME POSITION")]
    pub words: Vec<String>,
    /// Read positions from stdin, one a line (`nim 3 4 5`, `kayles 2 + nim 2`; quote a word
    /// with spaces as a shell would), and print one JSON line each; a bad line prints
    /// {"error", "line"} and the exit code is 2. Words given before are put in front of every
    /// line (`sprague value nim --batch` reads heap sizes).
    #[arg(long, conflicts_with = "position_file")]
    pub batch: bool,
    /// Read more of the position from FILE (`-` for stdin), words separated by white
    /// space, appended after the ones on the command line: for positions too long for a
    /// command line, such as 10^5 heads of `corners`.
    #[arg(long, value_name = "FILE")]
    pub position_file: Option<std::path::PathBuf>,
    /// Misère play: the player unable to move wins.
    #[arg(long)]
    pub misere: bool,
    /// With `value`: Anti-SG play under the SJ ending rule (seed 004): the game ends as soon
    /// as every summand's nim value is 0, and the player who moved last loses; decided by the
    /// SJ theorem in general form, for any impartial summands (each part as written is one).
    #[arg(long, conflicts_with = "misere")]
    pub anti_sg: bool,
    /// With `value`: say why: each part's nim value, their XOR in binary and which part to
    /// change to what; the closed form that decides, with its numbers (JSON: "explanation").
    #[arg(long)]
    pub explain: bool,
    /// Print one JSON object instead of the table (octal: the rows and ratios; nimber: the CPU,
    /// the paths, what each command runs, and every row's figures with its ratio to the peer).
    #[arg(long)]
    pub json: bool,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Outcome, nim value and every winning move of a position; for partizan games, the
    /// canonical form, outcome class, mean, temperature and each player's winning moves.
    #[command(
        after_help = "Partizan games (kind 'partizan' in 'sprague catalog') print their canonical form in CGSuite's\nnotation, the outcome class (L: Left wins whoever starts, R: Right does, N: the player to move\nwins, P: the player to move loses), mean and temperature (exact; a number's temperature is\nnegative, as in CGSuite), and the moves that win for Left moving first and for Right moving\nfirst. Impartial games may join a partizan sum: they count as their nimbers.\n\nExamples:\n  sprague value nim 3 4 5 --json\n  sprague value sub:1,3,4 2\n  sprague value kayles 5 + nim 3\n  sprague value nim 1 1 1 --misere\n  sprague value corners --position-file heads.txt\n  sprague value domineering:2x2\n  sprague value hackenbush BBR RG --json\n  sprague value cg '{0|{0|0}}'                prints ^, the canonical form\n  sprague value toads-frogs TT..FF + cg '*'\n  printf 'nim 3 4 5\\nkayles 2 + nim 2\\n' | sprague value --batch"
    )]
    Value(PositionArgs),
    /// Every option of a position with its outcome and value.
    #[command(after_help = "Example:\n  sprague moves kayles 7 --json")]
    Moves(PositionArgs),
    /// Nim values of single heaps 0..=N of a heap game.
    #[command(
        after_help = "Examples:\n  sprague table kayles --to 100\n  sprague table sub:1-3,7 --to 1000 --format csv\n  sprague table 0.6 --to 16777216 --format bin --output officers.nimv"
    )]
    Table {
        /// The heap game, e.g. kayles, 0.137, sub:1,3,4.
        game: String,
        /// The largest heap.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        to: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
        /// With `--format csv`: leave out the header line `n,value`.
        #[arg(long)]
        no_header: bool,
        /// With `--format bin`: the file to write.
        #[arg(long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Keep a checkpoint in FILE and resume from it (take-and-break codes with splits).
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<std::path::PathBuf>,
        /// Seconds between checkpoints (default 60; longer when writing them would take more
        /// than a twentieth of the run, as for tables of billions of values).
        #[arg(long, value_name = "SECONDS", requires = "checkpoint")]
        checkpoint_interval: Option<f64>,
        /// Worker threads for the sparse-space engine: 1 or 2 (default: 2 when available).
        #[arg(long, value_name = "N")]
        threads: Option<String>,
        /// Force one instruction-set path of the sparse-space engine (auto, portable, avx2,
        /// avx512), to compare paths on one machine.
        #[arg(long, value_name = "PATH", hide = true)]
        simd: Option<String>,
    },
    /// Compute until the nim sequence's period is certified by a proven bound, or N is reached.
    #[command(
        after_help = "Examples:\n  sprague period kayles --json\n  sprague period 0.16 --checkpoint 016.ckpt"
    )]
    Period {
        /// The heap game.
        game: String,
        /// Give up after heap N.
        #[arg(
            long,
            value_name = "N",
            default_value = "1000000",
            allow_negative_numbers = true
        )]
        max: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Worker threads for the sparse-space engine (take-and-break codes with splits): 1 or
        /// 2 (default: 2 when available).
        #[arg(long, value_name = "N")]
        threads: Option<String>,
        /// Keep a checkpoint in FILE and resume from it (take-and-break codes with splits).
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<std::path::PathBuf>,
        /// Seconds between checkpoints (default 60; longer when writing them would take more
        /// than a twentieth of the run, as for tables of billions of values).
        #[arg(long, value_name = "SECONDS", requires = "checkpoint")]
        checkpoint_interval: Option<f64>,
        /// Force one instruction-set path of the sparse-space engine (auto, portable, avx2,
        /// avx512), to compare paths on one machine.
        #[arg(long, value_name = "PATH", hide = true)]
        simd: Option<String>,
    },
    /// Conway's genus g^{γ0γ1…} of single heaps 0..=N of a heap game, each tame or wild.
    #[command(after_help = GENUS_HELP)]
    Genus {
        /// The heap game, e.g. kayles, dawson, 0.75, 4.7.
        game: String,
        /// The largest heap.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        to: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The misère quotient of a heap game (Plambeck and Siegel): its order, presentation,
    /// P-portion, the element of each heap and the multiplication table.
    #[command(after_help = QUOTIENT_HELP)]
    Quotient {
        /// The heap game, e.g. kayles, dawson, 0.75, 4.7.
        game: String,
        /// The quotient of heaps 0..=N. Without it, heaps are added until the periodicity
        /// theorem proves the quotient for every heap, at most 300 of them.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        max_heap: Option<String>,
        /// Stop when the quotient has more than N elements (2 to 16384); it is then reported as
        /// infinite.
        #[arg(
            long,
            value_name = "N",
            default_value = "4096",
            allow_negative_numbers = true
        )]
        max_order: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Solve a game graph file (outcome, remoteness and loopy nim value of every vertex), or
    /// strongly solve a game from a start position.
    #[command(
        after_help = "FILE: a first line 'n m', then m lines 'u v' (a move from u to v; vertices 0..n-1).\n\nStrong solutions that take a second or more are saved in $XDG_CACHE_HOME/sprague (else\n~/.cache/sprague) and reopened by later runs; SPRAGUE_DB_DIR=DIR saves every one in DIR,\nSPRAGUE_DB_DIR= (empty) keeps them in memory.\n\nExamples:\n  sprague solve graph.txt --json\n  sprague solve cards:2,10\n  sprague solve quixo:4 --threads 2\n  mpirun -np 4 sprague solve quixo:4 --distributed"
    )]
    Solve {
        /// A graph file, or GAME [POSITION...].
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "FILE | GAME POSITION")]
        words: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Worker threads for solving a board game (default: every core; with --distributed,
        /// the node's cores shared among its ranks).
        #[arg(long, value_name = "N")]
        threads: Option<String>,
        /// Spread the strong solve of a tiered game (mnk, connect, quixo, teeko) over the ranks
        /// of an MPI job: run under mpirun or srun, with a build made with --features mpi.
        /// Rank 0 prints and writes the database; see docs/distributed.md.
        #[arg(long)]
        distributed: bool,
    },
    /// Nim-field arithmetic on unsigned 64-bit values (nimbers): `+` is XOR, `*` the nim product.
    #[command(
        after_help = "Numbers are decimal, 0x hexadecimal, or *N.\n\nExamples:\n  sprague nimber mul 2 3          # 1\n  sprague nimber mul 16 16        # 24\n  sprague nimber inv 2            # 3\n  sprague nimber sqrt 8\n  sprague nimber solve 2          # a root of x^2 + x = 2, if any\n  printf '2\\n2 3\\n5 5\\n' | sprague nimber mul --batch"
    )]
    Nimber {
        /// The operation.
        #[arg(value_enum)]
        op: NimberOp,
        /// Its operands (add and mul take any number).
        #[arg(allow_negative_numbers = true)]
        args: Vec<String>,
        /// With `mul`: read T, then T lines `A B` from stdin; print T products, one a line.
        #[arg(long)]
        batch: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The Josephus problem: people 1..N in a circle, counting from person 1, every K-th is
    /// eliminated. Without a flag, prints the survivor.
    #[command(
        after_help = "Examples:\n  sprague josephus 7 3              # 4, the survivor\n  sprague josephus 7 3 --kth 1      # 3, eliminated first\n  sprague josephus 7 3 --when 7     # 4: person 7 goes at step 4\n  sprague josephus 7 3 --order      # 3 6 2 7 5 1 4\n  sprague josephus 1000000000000000000 2"
    )]
    Josephus {
        /// The number of people (up to 2^64-1 for small K).
        #[arg(allow_negative_numbers = true)]
        n: String,
        /// Every K-th person is eliminated.
        #[arg(allow_negative_numbers = true)]
        k: String,
        /// Who is eliminated I-th (1-based).
        #[arg(
            long,
            value_name = "I",
            group = "question",
            allow_negative_numbers = true
        )]
        kth: Option<String>,
        /// At which step person J is eliminated.
        #[arg(
            long,
            value_name = "J",
            group = "question",
            allow_negative_numbers = true
        )]
        when: Option<String>,
        /// The whole elimination order (N up to 10^7).
        #[arg(long, group = "question")]
        order: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play against a perfect opponent in the terminal, with hints on request.
    #[command(
        after_help = "In the game, type a move as 'moves' lists it (a cell such as b2 for boards, a column\nnumber for connect, '7 -> 2+3' style for heaps), or: hint, moves, engine, undo, help, quit.\n\nStrong solutions that take a second or more are saved in $XDG_CACHE_HOME/sprague (else\n~/.cache/sprague) and reopened by later runs; SPRAGUE_DB_DIR=DIR saves every one in DIR,\nSPRAGUE_DB_DIR= (empty) keeps them in memory.\n\nExamples:\n  sprague play mnk:3,3,3\n  sprague play kayles 7 5 --seed 1\n  sprague play nim 3 4 5 --misere"
    )]
    Play {
        /// GAME [POSITION...]
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "GAME POSITION")]
        words: Vec<String>,
        /// Misère play: the player unable to move wins.
        #[arg(long)]
        misere: bool,
        /// Seed for the engine's random choice among equally good moves.
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
    },
    /// Time the engine's kernels on this CPU beside their peers.
    #[command(after_help = BENCH_HELP)]
    Bench {
        /// What to time.
        #[arg(value_enum)]
        target: BenchTarget,
        /// Force one instruction-set path (auto, portable, avx2, avx2-vpclmul, avx512).
        #[arg(long, value_name = "PATH")]
        simd: Option<String>,
        #[command(flatten)]
        octal: OctalBench,
        /// With `search`: these boards, any cram:RxC or chomp:RxC, e.g. cram:4x9,chomp:11x13
        /// (default: Cram 4×9, 5×8, 4×11, 5×9, 6×7 and Chomp 8×10, 10×12, 12×13).
        #[arg(long, value_name = "LIST", value_delimiter = ',')]
        boards: Vec<String>,
        /// With `search`: stop a run after S seconds.
        #[arg(long, value_name = "S", default_value_t = 900, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
        time_limit: u64,
        /// With `search`: value one spec's start in this process (what each timed run does).
        #[arg(long, hide = true, value_name = "SPEC")]
        run: Option<String>,
    },
    /// How two partizan (or impartial) positions compare: <, >, = or || (confused).
    #[command(
        after_help = "G > H when Left wins G - H whoever starts, G < H when Right does, G = H when the player to\nmove in G - H loses, and G || H (confused) when the player to move wins. Each side is\nGAME POSITION... and may be a sum with '+'.\n\nExamples:\n  sprague compare cg '^' -- cg 0                     >\n  sprague compare cg '^' -- cg '*'                   ||\n  sprague compare --json domineering:2x2 -- cg '{1|-1}'\n  sprague compare hackenbush BR -- cg 1/2"
    )]
    Compare {
        /// G... -- H...: two positions, each GAME POSITION... [+ GAME POSITION...].
        #[arg(
            required = true,
            num_args = 1..,
            allow_hyphen_values = true,
            trailing_var_arg = true,
            value_name = "G -- H"
        )]
        words: Vec<String>,
        /// Print JSON: {"relation": "<" | ">" | "=" | "||"}.
        #[arg(long)]
        json: bool,
    },
    /// The thermograph of a partizan position: its walls, mean and temperature.
    #[command(
        after_help = "The walls are given by their breakpoints (temperature, value) from t = -1 up to the\ntemperature, where they meet and the mast rises at the mean; as in Winning Ways, the SVG draws\nLeft's (positive) values to the left and the temperature upward.\n\nExamples:\n  sprague thermograph cg '{2|-1}'\n  sprague thermograph domineering:3x3 --json\n  sprague thermograph toads-frogs TT..FF --svg tf.svg"
    )]
    Thermograph {
        /// GAME POSITION... [+ GAME POSITION...]
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "GAME POSITION")]
        words: Vec<String>,
        /// Print JSON.
        #[arg(long, conflicts_with = "svg")]
        json: bool,
        /// Write the thermograph as an SVG image to FILE (`-` for stdout).
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
    /// Counting problems about Nim positions, answered modulo 10^9+7 as a judge expects.
    #[command(
        after_help = "The count is the last word printed, modulo 1000000007.\n\nExamples:\n  sprague count gzoi2017 1 2            # 1\n  sprague count gzoi2017 3 5 6 --json"
    )]
    Count {
        /// The problem.
        #[arg(value_enum)]
        problem: CountProblem,
        /// The heap sizes A1 A2 ... (unsigned 64-bit).
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "A")]
        heaps: Vec<String>,
        /// Print JSON: {"problem", "heaps", "modulus", "count"}.
        #[arg(long)]
        json: bool,
    },
    /// Every game spec with its parameters, position syntax and a summary.
    Catalog {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve the web page (explore, play, plot sequences) and its JSON API until Ctrl-C.
    Serve {
        /// The address to listen on; the default is reachable from this machine only.
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// The port (0 picks a free one; the address is printed on stderr).
        #[arg(long, default_value = "8080")]
        port: String,
        /// Let clients use the .rhai files of this directory as `script:NAME` games, and its
        /// .txt and .graph files as `graph:NAME` games (NAME relative to it); without it, both
        /// are refused. No other file is read.
        #[arg(long, value_name = "DIR")]
        scripts: Option<std::path::PathBuf>,
        /// The longest one request may compute, in seconds; past it the request answers 422
        /// and its computation stops.
        #[arg(long, value_name = "S", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=3600))]
        time_limit: u64,
        /// The most memory one request's computation may hold, in MiB; past it the request
        /// answers 422 and its computation stops.
        #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(16..=(1u64 << 30)))]
        request_memory: u64,
        /// The most memory the strong solutions of boards may hold between requests, in MiB;
        /// past it the oldest are dropped (and reopened from the cache when asked again).
        #[arg(long, value_name = "MIB", default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=(1u64 << 30)))]
        store_memory: u64,
    },
}
