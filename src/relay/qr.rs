//! An invite as a QR code, for a camera rather than a clipboard: drawn with half
//! blocks in a terminal (`userq relay invite`), as SVG in the window. The code is
//! ours (no text of anyone else's), and the drawing is the `qrcode` crate's.

use qrcode::render::{svg, unicode};
use qrcode::{EcLevel, QrCode};

fn code(text: &str) -> QrCode {
    // Low error correction keeps a long invite at a size a terminal can show.
    QrCode::with_error_correction_level(text, EcLevel::L).expect("an invite code fits in a QR code")
}

/// Two rows of modules a line, light on dark: a terminal's text is light, so the
/// dark modules are drawn as the terminal's background, with a quiet zone around.
pub fn terminal(text: &str) -> String {
    code(text)
        .render::<unicode::Dense1x2>()
        .dark_color(unicode::Dense1x2::Light)
        .light_color(unicode::Dense1x2::Dark)
        .quiet_zone(true)
        .build()
}

/// An SVG drawing, black on white, as a `data:` URL for an `<img>` (where a drawing
/// can run nothing).
pub fn image(text: &str) -> String {
    use base64::Engine as _;
    let svg = code(text).render::<svg::Color<'_>>().min_dimensions(240, 240).quiet_zone(true).build();
    format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(svg))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_invite_fits_a_terminal() {
        let invite = format!("userq-invite-{}", "A".repeat(400));
        let drawn = super::terminal(&invite);
        assert!(drawn.lines().count() < 50, "{} lines", drawn.lines().count());
        assert!(super::image(&invite).starts_with("data:image/svg+xml;base64,PD94bWwg"), "an SVG document");
    }
}
