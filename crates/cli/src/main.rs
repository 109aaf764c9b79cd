//! The `bluffchess` command line.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod arbiter;
mod arena;
mod catalog;
mod engine;
mod options;
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

/// A `--cluster` or `--node` the node cannot start with.
#[derive(Debug, thiserror::Error)]
enum ClusterError {
    /// A cluster on a database its nodes cannot share.
    #[error(
        "--cluster needs --database postgres://...: the nodes of a cluster share one Postgres \
         database (a node's SQLite file cannot be shared)"
    )]
    NotPostgres,
    /// Not a NATS URL.
    #[error("--cluster takes a NATS URL: nats://HOST:PORT")]
    NotNats,
    /// A node name of other characters or length.
    #[error("--node is 1 to 64 letters, digits, '-' or '_'")]
    NodeName,
}

/// The cluster a node joins, checked before anything starts: a cluster shares a Postgres
/// database, never a node's own SQLite file.
fn serve_cluster(
    database: Option<&str>,
    nats: Option<String>,
    node: Option<String>,
) -> Result<Option<bluffchess_server::ClusterArgs>, ClusterError> {
    let Some(nats) = nats else { return Ok(None) };
    let postgres =
        database.is_some_and(|d| d.starts_with("postgres://") || d.starts_with("postgresql://"));
    if !postgres {
        return Err(ClusterError::NotPostgres);
    }
    if !nats.starts_with("nats://") {
        return Err(ClusterError::NotNats);
    }
    let node = match node {
        Some(node) if valid_node(&node) => node,
        Some(_) => return Err(ClusterError::NodeName),
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

/// A command's failure, and the exit code it gives.
type Failure = (Box<dyn std::error::Error>, u8);

/// A failure that exits with code 2 (the input or the setting is at fault).
fn fail(error: impl std::error::Error + 'static) -> Failure {
    (Box::new(error), 2)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), Failure> = match cli.command {
        Command::Perft(args) => perft::run(&args).map_err(fail),
        Command::Engine(args) => engine::run(&args).map_err(fail),
        Command::Arena(args) => arena::run(&args).map_err(fail),
        Command::Arbiter => arbiter::run().map_err(fail),
        Command::Play(args) => play::run(&args).map_err(fail),
        Command::Variants => {
            println!("{}", catalog::variants_json());
            Ok(())
        }
        Command::Rules { variant } => catalog::rules(&variant)
            .map(|text| print!("{text}"))
            .map_err(fail),
        Command::Verify { record } => verify::run(&record)
            .map(|report| println!("{report}"))
            .map_err(|e| {
                let code = e.code();
                (Box::new(e) as Box<dyn std::error::Error>, code)
            }),
        Command::Sample(args) => sample::run(&args).map_err(fail),
        Command::Serve {
            addr,
            database,
            trust_proxy,
            cluster,
            node,
        } => match serve_cluster(database.as_deref(), cluster, node) {
            Ok(cluster) => {
                bluffchess_server::main(&addr, database.as_deref(), &trust_proxy, cluster)
                    .map_err(fail)
            }
            Err(e) => Err(fail(e)),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((message, code)) => {
            eprintln!("error: {message}");
            ExitCode::from(code)
        }
    }
}
