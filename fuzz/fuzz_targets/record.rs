//! Records for `verify`: any JSON is read or refused, and any record is verified or refused,
//! without a panic.
#![no_main]

use bluffchess_rules::{verify, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(record) = serde_json::from_slice::<Record>(data) {
        let _ = verify(&record);
    }
});
