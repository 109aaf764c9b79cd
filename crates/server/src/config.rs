//! The server's limits and timings.

use ipnet::IpNet;
use std::time::Duration;

/// The server's limits and timings.
#[derive(Clone, Debug)]
pub struct Config {
    /// An empty line (stream) or a ping (socket) after this long without a message.
    pub keepalive: Duration,
    /// How long a seat must stay disconnected before its opponent may claim the win.
    pub grace: Duration,
    /// A server bot's time for one action.
    pub bot_time: Duration,
    /// Live games one client (an account, a guest's session, else an address) may have at
    /// once.
    pub max_live_per_client: usize,
    /// Streams and sockets one client may hold open at once.
    pub max_streams_per_client: usize,
    /// Games one client may create in a burst, and then one per this period.
    pub create_burst: u32,
    pub create_period: Duration,
    /// Actions (and other seat requests) one client may send in a burst, then one per period.
    pub action_burst: u32,
    pub action_period: Duration,
    /// The largest request body, in bytes.
    pub body_limit: usize,
    /// How long shutdown waits for open requests.
    pub drain: Duration,
    /// A finished game leaves memory after this long without a request (it is loaded again
    /// from the database when asked for).
    pub evict_after: Duration,
    /// A seek waits this long before it expires.
    pub seek_ttl: Duration,
    /// A challenge waits this long for its answer before it expires.
    pub challenge_ttl: Duration,
    /// Proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (`--trust-proxy`).
    pub trusted_proxies: Vec<IpNet>,
    /// The longest a request waits for its answer (its headers, for a stream) before it is
    /// refused with 503: a hung database never holds a client.
    pub answer_within: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            keepalive: Duration::from_secs(7),
            grace: Duration::from_secs(60),
            bot_time: Duration::from_secs(2),
            max_live_per_client: 20,
            max_streams_per_client: 100,
            create_burst: 10,
            create_period: Duration::from_secs(2),
            action_burst: 60,
            action_period: Duration::from_millis(20),
            body_limit: 4096,
            drain: Duration::from_secs(3),
            evict_after: Duration::from_secs(600),
            seek_ttl: Duration::from_secs(30 * 60),
            challenge_ttl: Duration::from_secs(5 * 60),
            trusted_proxies: Vec::new(),
            answer_within: Duration::from_secs(15),
        }
    }
}
