//! `userq history` and `userq rules`: read and keep the history file directly, so they
//! work with no server running. `history` lists what was asked and how it ended
//! (a table, `--json` lines, `--format csv|markdown`, an audit's `--export jsonl|csv`), finds (`--search`, `--agent`,
//! `--since`, `--limit`) and clears (`--clear [--before DATE]`); `rules` adds, lists
//! and removes remembered answers, which a running server applies from its next ask.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

use clap::{Args, ValueEnum};
use user_questions::history::decider::Decider;
use user_questions::history::{self, audit, store};

use crate::tr;

#[derive(Args)]
pub struct HistoryArgs {
    /// Only asks whose question, header, detail or answer contains TEXT.
    #[arg(long, value_name = "TEXT")]
    search: Option<String>,
    /// Only asks of this agent id.
    #[arg(long, value_name = "ID")]
    agent: Option<String>,
    /// Only asks of the last while: 2h, 30m, 7days.
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    since: Option<std::time::Duration>,
    /// At most N asks (newest first).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// One JSON object per line, newest first.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Export as CSV or a Markdown table.
    #[arg(long, value_enum, conflicts_with = "export")]
    format: Option<Format>,
    /// For an audit: one record per ask with the question, the answer, who decided,
    /// where, when it was asked and how long the decision took (stable English keys).
    #[arg(long, value_enum, conflicts_with = "json")]
    export: Option<Export>,
    /// Delete the history (with --before, only what was asked before DATE).
    #[arg(long)]
    clear: bool,
    /// With --clear: a date (2026-11-30) or time (2026-11-30T12:00:00Z).
    #[arg(long, requires = "clear", value_name = "DATE", value_parser = parse_date)]
    before: Option<SystemTime>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Export {
    Jsonl,
    Csv,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Csv,
    Markdown,
}

/// What `userq rules` does with the remembered answers, kept in the history.
pub enum Remembered {
    Add {
        question: String,
        answer: String,
        client: Option<String>,
    },
    /// `quiet_when_empty`: other rules were listed, so no "none" line.
    List {
        json: bool,
        quiet_when_empty: bool,
    },
    Rm {
        id: i64,
    },
}

fn parse_date(s: &str) -> Result<SystemTime, String> {
    let full = if s.len() == 10 { format!("{s}T00:00:00Z") } else { s.to_owned() };
    humantime::parse_rfc3339_weak(&full)
        .map_err(|e| format!("{e}: give a date like 2026-11-30 or 2026-11-30T12:00:00Z"))
}

fn file() -> Result<PathBuf, ExitCode> {
    match user_questions::paths::data_dir() {
        Some(dir) => Ok(dir.join(history::FILE)),
        None => Err(crate::fail(1, &tr().tr("history-no-folder"))),
    }
}

fn failed(path: &std::path::Path, e: &dyn std::fmt::Display) -> ExitCode {
    crate::fail(
        1,
        &tr().tr_args(
            "history-cannot-open",
            &[("path", (&path.display().to_string()).into()), ("error", (&e.to_string()).into())],
        ),
    )
}

pub fn run(args: HistoryArgs) -> ExitCode {
    let path = match file() {
        Ok(p) => p,
        Err(code) => return code,
    };
    if args.clear {
        let conn = match user_questions::history::open_for_writing(&path) {
            Ok(c) => c,
            Err(e) => return failed(&path, &e),
        };
        return match store::clear(&conn, args.before) {
            Ok(n) => {
                println!("{}", tr().tr_args("history-cleared", &[("count", n.into())]));
                ExitCode::SUCCESS
            }
            Err(e) => failed(&path, &e),
        };
    }
    if !history::kept(&path) {
        if !args.json && args.format.is_none() && args.export.is_none() {
            println!("{}", tr().tr("history-empty"));
        } else if let Some(Export::Csv) = args.export {
            print!("{}", csv_line(&audit::HEAD.map(str::to_owned)));
        }
        return ExitCode::SUCCESS;
    }
    let conn = match user_questions::history::open_for_reading(&path) {
        Ok(c) => c,
        Err(e) => return failed(&path, &e),
    };
    let query = store::Query {
        search: args.search,
        agent: args.agent,
        since: args.since.map(|d| SystemTime::now() - d),
        limit: args.limit,
        before_ask: None,
    };
    let entries = match store::list(&conn, &query) {
        Ok(e) => e,
        Err(e) => return failed(&path, &e),
    };
    if let Some(export) = args.export {
        let here = user_questions::paths::host_name();
        let records = entries.iter().map(|e| audit::Record::of(e, &here, tr()));
        match export {
            Export::Jsonl => {
                for r in records {
                    println!("{}", serde_json::to_string(&r).expect("records serialise"));
                }
            }
            Export::Csv => {
                let mut out = csv_line(&audit::HEAD.map(str::to_owned));
                for r in records {
                    out.push_str(&csv_line(&r.cells()));
                }
                print!("{out}");
            }
        }
        return ExitCode::SUCCESS;
    }
    if args.json {
        for e in &entries {
            println!("{}", serde_json::to_string(e).expect("entries serialise"));
        }
        return ExitCode::SUCCESS;
    }
    let rows: Vec<[String; 6]> = entries.iter().map(row).collect();
    let head = [
        "history-col-asked",
        "history-col-waited",
        "history-col-agent",
        "history-col-question",
        "history-col-outcome",
        "history-col-by",
    ]
    .map(|id| tr().tr(id));
    match args.format {
        Some(Format::Csv) => {
            let mut out = csv_line(&head);
            for r in &rows {
                out.push_str(&csv_line(r));
            }
            print!("{out}");
        }
        Some(Format::Markdown) => {
            let cell = |s: &String| s.replace('|', "\\|").replace('\n', " ");
            println!("| {} |", head.iter().map(cell).collect::<Vec<_>>().join(" | "));
            println!("|{}", "---|".repeat(head.len()));
            for r in &rows {
                println!("| {} |", r.iter().map(cell).collect::<Vec<_>>().join(" | "));
            }
        }
        None if rows.is_empty() => println!("{}", tr().tr("history-empty")),
        None => {
            println!("{}", head.join("\t"));
            for r in &rows {
                println!("{}", r.iter().map(|c| c.replace(['\n', '\t'], " ")).collect::<Vec<_>>().join("\t"));
            }
        }
    }
    ExitCode::SUCCESS
}

/// One CSV line, every cell quoted. A cell an agent wrote that a spreadsheet would
/// read as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) is opened
/// with `'`, so it is shown as the text it is (OWASP's guard against CSV injection).
fn csv_line(cells: &[String]) -> String {
    let quoted: Vec<String> = cells
        .iter()
        .map(|c| {
            let guarded = if c.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{c}") } else { c.clone() };
            format!("\"{}\"", guarded.replace('"', "\"\""))
        })
        .collect();
    format!("{}\n", quoted.join(","))
}

/// One ask as a table row: asked, waited, agent, question, outcome, by.
fn row(e: &store::Entry) -> [String; 6] {
    let waited = match e.waited() {
        Some(d) => humantime::format_duration(d).to_string(),
        None => tr().tr("history-pending"),
    };
    let agent = e.agent.as_ref().and_then(|a| a["id"].as_str()).unwrap_or("-").to_owned();
    let questions: Vec<&str> =
        e.request["questions"].as_array().into_iter().flatten().filter_map(|q| q["question"].as_str()).collect();
    let outcome = e
        .answer_words(&tr().tr("history-skipped"), " | ")
        .or_else(|| e.error_code().map(|code| user_questions::wording::ended(code, tr())))
        .unwrap_or_else(|| tr().tr("history-pending"));
    let by = e.answered_by.as_deref().map(|b| Decider::parse(b).words(tr())).unwrap_or_default();
    // A permission names what it was about beside its question: "Run this command? `cargo test`".
    let question = match audit::action(e) {
        Some(action) => format!("{} `{action}`", questions.join(" | ")),
        None => questions.join(" | "),
    };
    [e.asked_at.clone(), waited, agent, question, outcome, by]
}

pub fn remembered(command: Remembered) -> ExitCode {
    let path = match file() {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(dir) = path.parent() {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return failed(&path, &e);
        }
    }
    let conn = match user_questions::history::open_for_writing(&path) {
        Ok(c) => c,
        Err(e) => return failed(&path, &e),
    };
    match command {
        Remembered::Add { question, answer, client } => {
            if question.trim().is_empty() {
                return crate::fail(2, &tr().tr("rules-empty-question"));
            }
            if answer.trim().is_empty() {
                return crate::fail(2, &tr().tr("rules-empty-answer"));
            }
            let client = client.filter(|c| !c.is_empty());
            match store::add_rule(&conn, &question, &answer, client.as_deref(), None) {
                Ok(id) => {
                    println!("{id}");
                    ExitCode::SUCCESS
                }
                Err(e) => failed(&path, &e),
            }
        }
        Remembered::List { json, quiet_when_empty } => match store::rules(&conn) {
            Ok(rules) if json => {
                for r in rules {
                    println!("{}", serde_json::to_string(&r).expect("rules serialise"));
                }
                ExitCode::SUCCESS
            }
            Ok(rules) if rules.is_empty() => {
                if !quiet_when_empty {
                    println!("{}", tr().tr("rules-none"));
                }
                ExitCode::SUCCESS
            }
            Ok(rules) => {
                for r in rules {
                    let client = r.client.clone().unwrap_or_else(|| tr().tr("rules-every-client"));
                    println!(
                        "{}\t{}\t→ {}\t{client}\t{}",
                        r.id,
                        r.question,
                        r.answer,
                        tr().tr_args("rules-uses", &[("count", (r.uses as u64).into())])
                    );
                }
                ExitCode::SUCCESS
            }
            Err(e) => failed(&path, &e),
        },
        Remembered::Rm { id } => match store::remove_rule(&conn, id) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => crate::fail(1, &tr().tr_args("rules-no-such", &[("id", (&id.to_string()).into())])),
            Err(e) => failed(&path, &e),
        },
    }
}
