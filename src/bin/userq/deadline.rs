//! `userq deadline`: shows or sets the person's deadline for unanswered questions (the
//! settings file the window's picker writes too). A running server holds a change
//! from its next question.

use std::process::ExitCode;

use user_questions::settings::{self, parse_deadline, Settings};

use crate::tr;

pub fn run(choice: Option<String>) -> ExitCode {
    let Some(path) = settings::path() else { return crate::fail(1, &tr().tr("deadline-no-folder")) };
    let deadline = match choice {
        None => Settings::load(&path).deadline,
        Some(choice) => {
            let deadline = match parse_deadline(&choice) {
                Ok(d) => d,
                Err(why) => return crate::fail(2, &format!("userq deadline: {}", why.words(tr()))),
            };
            if let Err(e) = Settings::update(&path, |s| s.deadline = deadline) {
                let (shown, error) = (path.display().to_string(), e.to_string());
                let words = [("path", (&shown).into()), ("error", (&error).into())];
                return crate::fail(1, &tr().tr_args("deadline-cannot-keep", &words));
            }
            deadline
        }
    };
    match deadline {
        None => println!("{}", tr().tr("deadline-off")),
        Some(d) => {
            let after = humantime::format_duration(d).to_string();
            println!("{}", tr().tr_args("deadline-on", &[("after", (&after).into())]));
        }
    }
    ExitCode::SUCCESS
}
