//! Line framing with a size limit: a line longer than [`MAX_FRAME`] is skipped up to
//! its newline without being held in memory, and reported so the peer hears why.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use super::MAX_FRAME;

pub(crate) enum Frame {
    Line,
    TooLarge,
}

/// Reads the next line into `buf` (without its `\n`). `None` at end of stream; a
/// partial last line without `\n` is dropped.
pub(crate) async fn next_frame<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<Frame>> {
    buf.clear();
    let mut too_large = false;
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(None);
        }
        let (taken, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if !too_large {
            if buf.len() + taken > MAX_FRAME {
                too_large = true;
                buf.clear();
            } else {
                buf.extend_from_slice(&chunk[..taken]);
            }
        }
        reader.consume(taken + usize::from(done));
        if done {
            return Ok(Some(if too_large { Frame::TooLarge } else { Frame::Line }));
        }
    }
}
