//! The `bluffchess` command line.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod arbiter;
mod arena;
mod catalog;
mod engine;
mod perft;
mod play;
mod render;
mod sample;
mod verify;

/// bluffchess: chess variants with hidden information.
#[derive(Parser)]
#[command(name = "bluffchess", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the action sequences of a given depth (a move generator test).
    #[command(after_help = catalog::variants_help())]
    Perft(perft::PerftArgs),
    /// Referee games over standard input and output, one JSON command a line (docs/arbiter.md).
    #[command(after_help = catalog::variants_help())]
    Arbiter,
    /// Decide for one seat at a time over standard input and output (the engine protocol:
    /// one JSON object a line, DESIGN.md).
    Engine(engine::EngineArgs),
    /// Games between two bots (built-in or outside programs), with a results table.
    #[command(after_help = catalog::variants_help())]
    Arena(arena::ArenaArgs),
    /// Play a game in the terminal against a bot, seeing only your side's view.
    #[command(after_help = catalog::variants_help())]
    Play(play::PlayArgs),
    /// Print the variants as JSON: each one's id, names, facts and options, with every
    /// combination of its options (`option_sets`).
    Variants,
    /// Print a variant's rules.
    #[command(after_help = catalog::variants_help())]
    Rules {
        /// The variant's id.
        variant: String,
    },
    /// Replay a game record and check every commitment, every roll and the seed.
    #[command(after_help = verify::EXIT_CODES)]
    Verify {
        /// The record file (JSON: a record, or the arbiter's whole `record` answer); `-` reads
        /// standard input.
        record: String,
    },
    /// Draw whole games consistent with one seat's view (JSON on standard input), printed one
    /// JSON history a line (docs/arbiter.md).
    Sample(sample::SampleArgs),
    /// Serve games over HTTP: the API of docs/api.md.
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// The database: sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/NAME (default:
        /// sqlite:bluffchess.db in the current folder).
        #[arg(long)]
        database: Option<String>,
        /// A reverse proxy whose X-Forwarded-For (the client's address) and X-Forwarded-Proto
        /// are believed: an address or a CIDR block (repeatable). Without it, both are ignored.
        #[arg(long = "trust-proxy", value_name = "CIDR")]
        trust_proxy: Vec<String>,
        /// Run as one node of a cluster: the NATS server the nodes share
        /// (nats://[USER:PASSWORD@]HOST:PORT). Needs a Postgres --database, shared too.
        #[arg(long, value_name = "NATS_URL")]
        cluster: Option<String>,
        /// This node's name in the cluster, unique among its nodes (default: the host's name
        /// and a random suffix).
        #[arg(long, requires = "cluster")]
        node: Option<String>,
    },
}

/// The cluster a node joins, checked before anything starts: a cluster shares a Postgres
/// database, never a node's own SQLite file.
fn serve_cluster(
    database: Option<&str>,
    nats: Option<String>,
    node: Option<String>,
) -> Result<Option<bluffchess_server::ClusterArgs>, String> {
    let Some(nats) = nats else { return Ok(None) };
    let postgres =
        database.is_some_and(|d| d.starts_with("postgres://") || d.starts_with("postgresql://"));
    if !postgres {
        return Err(
            "--cluster needs --database postgres://...: the nodes of a cluster share one Postgres \
             database (a node's SQLite file cannot be shared)"
                .into(),
        );
    }
    if !nats.starts_with("nats://") {
        return Err("--cluster takes a NATS URL: nats://HOST:PORT".into());
    }
    let node = match node {
        Some(node) if valid_node(&node) => node,
        Some(_) => {
            return Err("--node is 1 to 64 letters, digits, '-' or '_'".into());
        }
        None => {
            let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
            let host: String = host
                .trim()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect();
            let host = if host.is_empty() { "node".into() } else { host };
            format!(
                "{}-{:08x}",
                &host[..host.len().min(40)],
                rand::random::<u32>()
            )
        }
    };
    Ok(Some(bluffchess_server::ClusterArgs { nats, node }))
}

fn valid_node(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Reads `name=value`.
fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("{text:?} is not name=value")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args).map_err(|e| (e, 2)),
        Command::Engine(args) => engine::run(&args).map_err(|e| (e, 2)),
        Command::Arena(args) => arena::run(&args).map_err(|e| (e, 2)),
        Command::Arbiter => arbiter::run().map_err(|e| (e, 2)),
        Command::Play(args) => play::run(&args).map_err(|e| (e, 2)),
        Command::Variants => {
            println!("{}", catalog::variants_json());
            Ok(())
        }
        Command::Rules { variant } => catalog::rules(&variant)
            .map(|text| print!("{text}"))
            .map_err(|e| (e, 2)),
        Command::Verify { record } => verify::run(&record).map(|report| println!("{report}")),
        Command::Sample(args) => sample::run(&args).map_err(|e| (e, 2)),
        Command::Serve {
            addr,
            database,
            trust_proxy,
            cluster,
            node,
        } => serve_cluster(database.as_deref(), cluster, node)
            .and_then(|cluster| {
                bluffchess_server::main(&addr, database.as_deref(), &trust_proxy, cluster)
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| (e, 2)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((message, code)) => {
            eprintln!("error: {message}");
            ExitCode::from(code)
        }
    }
}
