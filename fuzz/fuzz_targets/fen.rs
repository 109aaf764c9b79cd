//! FEN: any text is read or refused without a panic, and a position read writes a FEN that reads
//! back to the same position.
#![no_main]

use bluffchess_rules::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(position) = Position::from_fen(text) {
        let fen = position.fen();
        let again = Position::from_fen(&fen).expect("a written FEN reads back");
        assert_eq!(again.fen(), fen);
    }
});
