//! `bluffchess arbiter`: the arbiter protocol (docs/arbiter.md) over standard input and output,
//! one JSON command a line in, one JSON answer a line out. The rules crate answers each line
//! ([`Session::answer`]); this reads and writes them.

use bluffchess_rules::protocol::{ProtocolError, Session, MAX_LINE};
use std::io::{BufRead, Write};

/// Reads a line of at most [`MAX_LINE`] bytes; a longer one is consumed and refused.
fn read_line(input: &mut impl BufRead) -> std::io::Result<Option<Result<String, ProtocolError>>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], Some(i + 1)),
            None => (buffer, None),
        };
        if bytes.len() + chunk.len() > MAX_LINE {
            too_long = true;
        } else {
            bytes.extend_from_slice(chunk);
        }
        let consumed = done.unwrap_or(buffer.len());
        input.consume(consumed);
        if done.is_some() {
            return Ok(Some(finish(bytes, too_long)));
        }
    }
    if bytes.is_empty() && !too_long {
        return Ok(None);
    }
    Ok(Some(finish(bytes, too_long)))
}

fn finish(bytes: Vec<u8>, too_long: bool) -> Result<String, ProtocolError> {
    if too_long {
        return Err(ProtocolError::LineTooLong);
    }
    String::from_utf8(bytes).map_err(|_| ProtocolError::NotUtf8)
}

/// Runs the protocol until end of input.
pub fn run() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    let mut session = Session::default();
    while let Some(line) = read_line(&mut input)? {
        let answer = match line {
            Ok(line) if line.trim().is_empty() => ProtocolError::EmptyLine.answer(),
            Ok(line) => session.answer(&line),
            Err(error) => error.answer(),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_long_lines_are_refused_and_the_next_is_read() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("{long}\n{{\"cmd\":\"legal\"}}\n");
        let mut input = std::io::Cursor::new(text.into_bytes());
        let refused = read_line(&mut input).unwrap().unwrap().unwrap_err();
        assert_eq!(refused, ProtocolError::LineTooLong);
        assert_eq!(
            refused.to_string(),
            "input line too long: the limit is 65536 bytes"
        );
        assert_eq!(
            read_line(&mut input).unwrap().unwrap().unwrap(),
            "{\"cmd\":\"legal\"}"
        );
        assert!(read_line(&mut input).unwrap().is_none());
    }
}
