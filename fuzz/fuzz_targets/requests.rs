//! The server's request bodies and socket messages, read and checked as the handlers do
//! (`bluffchess_server::request`), without a network: each is accepted or refused with a 4xx
//! and a message, without a panic; a game accepted is made or refused by the rules.
//!
//! Input: byte 0 picks what is read (creation, action, socket hello, socket message, join); the
//! rest is the body.
#![no_main]

use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::AnyGame;
use bluffchess_server::error::ApiError;
use bluffchess_server::request;
use libfuzzer_sys::fuzz_target;

fn refused_well(error: &ApiError) {
    assert!(error.status().is_client_error(), "{error:?}");
    assert!(!error.to_string().is_empty());
    assert!(!error.kind().is_empty());
}

fn check<T>(read: Result<T, ApiError>) -> Option<T> {
    read.map_err(|e| refused_well(&e)).ok()
}

fuzz_target!(|data: &[u8]| {
    let [kind, body @ ..] = data else {
        return;
    };
    let text = std::str::from_utf8(body);
    match kind % 5 {
        0 => {
            if let Some(creation) = check(request::creation(body)) {
                let _ = AnyGame::new(
                    &creation.variant,
                    &creation.options,
                    0,
                    SaltSource::Seeded(0),
                );
            }
        }
        1 => drop(check(request::action(body))),
        2 => drop(text.map(|t| check(request::ws_hello(t)))),
        3 => drop(text.map(|t| check(request::ws_command(t)))),
        _ => drop(check(request::join(body, true))),
    }
});
