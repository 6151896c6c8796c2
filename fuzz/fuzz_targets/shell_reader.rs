//! The policy's reader of shell commands on any bytes: no panic, no hang, and the
//! policy's verdict on what it read never an allow of a part it could not read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use user_questions_shell::{read, Part};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let reading = read(text);
    for part in &reading.parts {
        if let Part::Run(run) = part {
            assert!(!run.argv.is_empty(), "a run with no program: {text:?}");
        }
    }
});
