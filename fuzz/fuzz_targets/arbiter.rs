//! The arbiter's JSON lines: every line gets one answer, `{"ok": true, ...}` or `{"ok": false,
//! "error": "..."}`, without a panic, whatever came before.
#![no_main]

use bluffchess_rules::protocol::Session;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut session = Session::default();
    for line in text.lines().take(64) {
        let answer = session.answer(line);
        let ok = answer.get("ok").and_then(|ok| ok.as_bool());
        assert!(ok.is_some(), "{line:?} got {answer}");
        if ok == Some(false) {
            assert!(answer.get("error").is_some_and(|e| e.is_string()), "{answer}");
        }
    }
});
