//! Everything that reads outside input, tried with generated input (proptest) rather
//! than only with examples: the socket's frames and requests, each agent's hook input
//! (in the library and through `userq hook`), `userq setup`'s edits of JSON and TOML
//! settings, and the answer-fit rule as an asker meets it. The numbers of cases are
//! set per property; `PROPTEST_CASES` raises them all for a longer run.

mod common;
#[path = "judge/compose.rs"]
mod compose;

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use async_trait::async_trait;
use common::process::{finish, temp_socket, userq};
use common::{Peer, TestServer};
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use tokio::io::AsyncWriteExt;
use user_questions::agents::setup::{self, Setup};
use user_questions::agents::Agent;
use user_questions::model::UserQuestionError;
use user_questions::{Answer, AnswerItem, Answerer, Ask, AskRequest, Next, Question, Scope, UserQuestions};
use user_questions_i18n::Text;

fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// Any JSON value, nested a few levels.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((".{0,8}", inner), 0..5).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// JSON-RPC-shaped messages with any method of the protocol (or none) and any params.
fn rpc_like() -> impl Strategy<Value = Value> {
    let method = prop_oneof![
        Just(json!("initialize")),
        Just(json!("agents/enter")),
        Just(json!("agents/leave")),
        Just(json!("ask")),
        Just(json!("answerers/register")),
        Just(json!("answerers/unregister")),
        Just(json!("questions/answer")),
        Just(json!("questions/reject")),
        Just(json!("questions/pending")),
        Just(json!("$/cancelRequest")),
        any_json(),
    ];
    (prop::option::of(any_json()), prop::option::of(method), prop::option::of(any_json()), any::<bool>()).prop_map(
        |(id, method, params, rpc)| {
            let mut m = Map::new();
            if rpc {
                m.insert("jsonrpc".into(), json!("2.0"));
            }
            if let Some(id) = id {
                m.insert("id".into(), id);
            }
            if let Some(method) = method {
                m.insert("method".into(), method);
            }
            if let Some(params) = params {
                m.insert("params".into(), params);
            }
            Value::Object(m)
        },
    )
}

/// One line's bytes: raw bytes, any JSON, or a JSON-RPC-shaped message.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..256),
        any_json().prop_map(|v| v.to_string().into_bytes()),
        rpc_like().prop_map(|v| v.to_string().into_bytes()),
    ]
}

/// Any bytes on a connection, initialized or not, get an error or a reply and never
/// a panic or a stalled connection: a request after them is answered.
#[test]
fn any_line_on_the_socket_is_answered_and_the_connection_goes_on() {
    let rt = runtime();
    let server = rt.block_on(TestServer::start());
    proptest!(config(256), |(lines in prop::collection::vec(line(), 1..4), initialize in any::<bool>())| {
        rt.block_on(async {
            let mut p = Peer::connect(&server.path).await;
            if initialize {
                p.call("initialize", json!({"protocolVersion": 1, "client": {"name": "prop"}})).await;
            }
            for line in &lines {
                let mut bytes = line.clone();
                bytes.push(b'\n');
                p.send_raw(&bytes).await;
            }
            p.send(json!({"jsonrpc": "2.0", "id": "probe", "method": "questions/pending"})).await;
            loop {
                let m = p.recv().await;
                if m["id"] == "probe" {
                    assert!(m["result"].is_object() || m["error"]["code"] == -32002, "{m}");
                    break;
                }
                // Every reply to what was sent is a response or something the server asks.
                assert!(m.get("result").is_some() || m.get("error").is_some() || m.get("method").is_some(), "{m}");
            }
        });
    });
}

/// A hook input as an agent might send it: documented event names with any fields.
fn hook_like() -> impl Strategy<Value = Value> {
    let event = prop_oneof![
        Just("PermissionRequest".to_owned()),
        Just("PreToolUse".to_owned()),
        Just("BeforeTool".to_owned()),
        Just("Stop".to_owned()),
        Just("Notification".to_owned()),
        "[A-Za-z]{0,12}",
    ];
    let tool = prop_oneof![
        Just(json!("Bash")),
        Just(json!("AskUserQuestion")),
        Just(json!("ExitPlanMode")),
        Just(json!("Edit")),
        Just(json!("Write")),
        Just(json!("run_shell_command")),
        any_json(),
    ];
    (event, tool, any_json(), prop::collection::vec((".{0,10}", any_json()), 0..3)).prop_map(
        |(event, tool, input, extra)| {
            let mut m: Map<String, Value> = extra.into_iter().collect();
            m.insert("hook_event_name".into(), json!(event));
            m.insert("tool_name".into(), tool);
            m.insert("toolCall".into(), json!({"name": m["tool_name"], "args": input}));
            m.insert("tool_input".into(), input);
            Value::Object(m)
        },
    )
}

proptest! {
    #![proptest_config(config(2048))]

    /// Garbage is never a question: it is refused or taken no part in.
    #[test]
    fn a_hook_makes_no_question_of_garbage(input in prop_oneof![".{0,200}", any_json().prop_map(|v| v.to_string())]) {
        let text = Text::for_tag("en");
        // Antigravity's input names no event: its tool call is its shape.
        let is_hook = serde_json::from_str::<Value>(&input)
            .is_ok_and(|v| v.get("hook_event_name").is_some() || v.get("toolCall").is_some());
        for agent in Agent::ALL {
            let ask = agent.ask_from(&input, &text);
            prop_assert!(is_hook || !matches!(ask, Ok(Some(_))), "{agent:?} made a question of {input}");
        }
    }

    /// Hook-shaped input of any content never panics, and a question it makes has
    /// something to ask.
    #[test]
    fn a_hook_reads_any_hook_shaped_input(input in hook_like()) {
        let text = Text::for_tag("en");
        for agent in Agent::ALL {
            if let Ok(Some(ask)) = agent.ask_from(&input.to_string(), &text) {
                prop_assert!(!ask.questions.is_empty());
                prop_assert!(ask.questions.iter().all(|q| !q.id.is_empty()));
            }
        }
    }
}

/// Through the door the agents use: whatever comes on stdin, `userq hook` with no
/// server exits 0 or 1 (never 2, which blocks the agent's tool) and prints no decision:
/// nothing, or the agent's own "no decision" where silence would mean something else
/// (and for an agent that fails closed, always that, with exit 0).
#[test]
fn userq_hook_never_blocks_and_never_decides_on_its_own() {
    let rt = runtime();
    let (_dir, socket) = temp_socket();
    let input =
        prop_oneof![prop::collection::vec(any::<u8>(), 0..512), hook_like().prop_map(|v| v.to_string().into_bytes()),];
    proptest!(config(48), |(input in input, agent in prop::sample::select(Agent::ALL.to_vec()))| {
        let out = rt.block_on(async {
            let mut hook = userq(&socket)
                .args(["hook", agent.name])
                .stdin(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = hook.stdin.take().unwrap();
            let _ = stdin.write_all(&input).await;
            drop(stdin);
            finish(hook).await
        });
        prop_assert!(matches!(out.code, Some(0 | 1)), "exit {:?}: {}", out.code, out.stderr);
        let silent = out.stdout.is_empty();
        let no_decision = agent.no_decision("").is_some_and(|nd| {
            serde_json::from_str::<Value>(&out.stdout).is_ok_and(|printed| printed["decision"] == nd["decision"])
        });
        prop_assert!(silent || no_decision, "a decision {} from {}", out.stdout, String::from_utf8_lossy(&input));
        // An agent that denies on a failing hook, or runs the tool on silence, always
        // hears its own "ask".
        if agent.fails_closed() {
            prop_assert!(out.code == Some(0) && no_decision, "exit {:?}, printed {:?}", out.code, out.stdout);
        }
    });
}

/// Settings a person may have: any JSON object, sometimes with hooks of their own.
fn json_settings() -> impl Strategy<Value = String> {
    let handler = ("[a-z ./-]{1,20}", any::<bool>()).prop_map(|(command, timeout)| {
        let mut h = json!({"type": "command", "command": command});
        if timeout {
            h["timeout"] = json!(30);
        }
        h
    });
    let group =
        (prop::option::of("[A-Za-z|]{1,12}"), prop::collection::vec(handler, 0..3)).prop_map(|(matcher, hooks)| {
            let mut g = json!({"hooks": hooks});
            if let Some(m) = matcher {
                g["matcher"] = json!(m);
            }
            g
        });
    let event = prop_oneof![Just("PermissionRequest"), Just("PreToolUse"), Just("BeforeTool"), Just("Stop")];
    let hooks = prop::collection::vec((event, prop::collection::vec(group, 0..3)), 0..3)
        .prop_map(|groups| Value::Object(groups.into_iter().map(|(e, g)| (e.to_owned(), json!(g))).collect()));
    (
        prop::collection::vec(("[a-zA-Z]{1,10}", any_json()), 0..5),
        prop::option::of(hooks),
        prop::option::of(any::<bool>()),
        0..3usize,
    )
        .prop_map(|(fields, hooks, mcp, indent)| {
            let mut m: Map<String, Value> = fields.into_iter().filter(|(k, _)| k != "hooks").collect();
            if let Some(h) = hooks {
                m.insert("hooks".into(), h);
            }
            if let Some(other) = mcp {
                m.insert("mcpServers".into(), json!({"other": {"command": "x", "trust": other}}));
            }
            let v = Value::Object(m);
            match indent {
                0 => v.to_string(),
                1 => serde_json::to_string_pretty(&v).unwrap(),
                _ => format!("{}\n", serde_json::to_string_pretty(&v).unwrap()),
            }
        })
}

/// A TOML file a person may have: comments, keys and tables in any order.
fn toml_settings() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "# [ -~]{0,30}".prop_map(|c| c),
        ("[a-z_]{1,10}", "[a-zA-Z0-9 ._-]{0,16}").prop_map(|(k, v)| format!("{k} = \"{v}\"")),
        ("[a-z_]{1,10}", any::<i32>()).prop_map(|(k, v)| format!("{k} = {v}")),
        Just(String::new()),
    ];
    let table = ("[a-z_]{1,10}", prop::collection::vec(line.clone(), 0..4))
        .prop_map(|(name, lines)| format!("[{name}]\n{}", lines.join("\n")));
    (prop::collection::vec(line, 0..5), prop::collection::vec(table, 0..3))
        .prop_map(|(top, tables)| format!("{}\n{}\n", top.join("\n"), tables.join("\n")))
        .prop_filter("valid TOML with unique keys", |t| t.parse::<toml_edit::DocumentMut>().is_ok())
}

fn setup(agent: Agent, home: &std::path::Path, remove: bool) -> Vec<setup::FileChange> {
    let s = Setup {
        agent,
        home: home.to_owned(),
        project: None,
        userq: PathBuf::from("/usr/bin/userq"),
        remove,
        review_changes: false,
        installed: None,
    };
    let changes = s.plan().unwrap();
    setup::apply(&changes).unwrap();
    changes
}

/// The settings files setup edits for `agent` (not the files wholly its own), learnt
/// from its plan in an empty home.
fn settings_files(agent: Agent, home: &std::path::Path) -> Vec<PathBuf> {
    let s = Setup {
        agent,
        home: home.to_owned(),
        project: None,
        userq: PathBuf::from("/usr/bin/userq"),
        remove: false,
        review_changes: false,
        installed: None,
    };
    s.plan().unwrap().into_iter().filter(|c| !c.what.contains(&setup::Step::WroteFile)).map(|c| c.path).collect()
}

proptest! {
    #![proptest_config(config(256))]

    /// Any valid settings file: setup twice changes nothing the second time, and
    /// setup then remove gives back the same bytes.
    #[test]
    fn setup_then_remove_gives_back_the_same_bytes(
        settings in json_settings(),
        toml in toml_settings(),
        agent in prop::sample::select(Agent::ALL.to_vec()),
    ) {
        prop_assume!(std::env::var_os("CODEX_HOME").is_none());
        let home = tempfile::tempdir().unwrap();
        let files: Vec<(PathBuf, &String)> = settings_files(agent, home.path())
            .into_iter()
            .map(|f| {
                let text = if f.extension().is_some_and(|e| e == "toml") { &toml } else { &settings };
                (f, text)
            })
            .collect();
        for (file, text) in &files {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        prop_assert!(!setup(agent, home.path(), false).is_empty(), "setup changes something");
        let again = setup(agent, home.path(), false);
        prop_assert!(again.is_empty(), "setup twice changed {:?}", again.iter().map(|c| &c.path).collect::<Vec<_>>());
        setup(agent, home.path(), true);
        for (file, text) in &files {
            let now = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()));
            prop_assert_eq!(now.as_ref(), Ok(*text), "{}", file.display());
        }
    }
}

/// Answers every ask with the answer it was made with.
struct Giving(Answer);

#[async_trait]
impl Answerer for Giving {
    async fn answer(&self, _ask: &Ask, _next: Next<'_>) -> Result<Answer, UserQuestionError> {
        Ok(self.0.clone())
    }
}

/// Questions with distinct ids, some with options, some multi-select.
fn questions() -> impl Strategy<Value = Vec<Question>> {
    prop::collection::vec((prop::collection::vec("[a-c]{1,2}", 0..4), any::<bool>()), 1..5).prop_map(|qs| {
        qs.into_iter()
            .enumerate()
            .map(|(i, (labels, multi))| {
                let mut q = Question::new(format!("q{i}"), format!("Question {i}?"));
                let mut seen = std::collections::HashSet::new();
                for l in labels.into_iter().filter(|l| seen.insert(l.clone())) {
                    q = q.option(l, None);
                }
                q.multi_select = multi && !q.options.is_empty();
                q
            })
            .collect()
    })
}

/// An answer to `questions`, in any order, with labels that may or may not fit.
fn answer_to(questions: Vec<Question>) -> impl Strategy<Value = (Vec<Question>, Answer)> {
    let n = questions.len();
    let items = prop::collection::vec(
        (prop::collection::vec("[a-d]{1,2}", 0..3), prop::option::of("[ a-z]{0,6}"), any::<bool>()),
        n,
    );
    (Just(questions), items, Just((0..n).collect::<Vec<_>>()).prop_shuffle(), 0..n + 1).prop_map(
        move |(questions, items, order, keep)| {
            let answers = order
                .into_iter()
                .take(keep.max(1).min(n))
                .map(|i| {
                    let (labels, custom, stray) = &items[i];
                    let id = if *stray { format!("q{}", (i + 1) % (n + 1)) } else { format!("q{i}") };
                    AnswerItem { id, selected: labels.clone(), custom: custom.clone() }
                })
                .collect();
            (questions, Answer::new(answers))
        },
    )
}

proptest! {
    #![proptest_config(config(1024))]

    /// An answer the rule accepts reaches the asker with one item per question, in the
    /// request's order, each label an option of its question; one it refuses never
    /// reaches the asker.
    #[test]
    fn an_accepted_answer_reaches_the_asker_in_the_requests_order(
        (questions, answer) in questions().prop_flat_map(answer_to),
    ) {
        let fits = answer.clone().fit(&questions);
        let got = runtime().block_on(async {
            let service = UserQuestions::new();
            let _r = service.register("giving", Scope::Any, 0, Arc::new(Giving(answer)));
            service.ask(AskRequest::new(questions.clone()), &Default::default()).await
        });
        match (fits, got) {
            (Ok(fitted), Ok(got)) => {
                prop_assert_eq!(&fitted, &got);
                let ids: Vec<&str> = got.answers.iter().map(|a| a.id.as_str()).collect();
                let asked: Vec<&str> = questions.iter().map(|q| q.id.as_str()).collect();
                prop_assert_eq!(ids, asked);
                for (q, a) in questions.iter().zip(&got.answers) {
                    prop_assert!(a.selected.iter().all(|l| q.has_option(l)));
                    prop_assert!(q.multi_select || a.selected.len() <= 1);
                }
            }
            (Err(_), Err(e)) => prop_assert_eq!(e.code(), "BAD_ANSWER"),
            (fits, got) => prop_assert!(false, "the rule says {fits:?}, the asker got {got:?}"),
        }
    }
}

fn shell_join() -> impl Strategy<Value = &'static str> {
    prop::sample::select(compose::JOINS.to_vec())
}

proptest! {
    #![proptest_config(config(400))]

    /// A command with any part that no rule allows is never allowed, wherever the part
    /// stands; one made only of allowed parts is allowed.
    #[test]
    fn a_part_no_rule_allows_is_never_allowed(
        parts in prop::collection::vec((any::<bool>(), 0usize..compose::ALLOWED.len(), 0usize..compose::NOT_ALLOWED.len(), 0usize..compose::PLACES, shell_join()), 1..6),
    ) {
        use user_questions::policy::{rules, Action, Kind, Origin, Policy, Verdict};
        let toml = "[[allow]]\ncommand = \"cargo test\"\n[[allow]]\ncommand = \"git status\"\n[[allow]]\nread-only = true\n\
                    [[allow]]\ncommand = \"timeout\"\n[[allow]]\ncommand = \"true\"\n";
        let policy = Policy { rules: rules::parse(toml, std::path::Path::new("r.toml"), &Origin::Yours).unwrap(), untrusted: None };
        let command = compose::command(&parts);
        let any_not_allowed = parts.iter().any(|p| p.0);
        let action = Action { kind: Kind::Command(command.clone()), cwd: Some("/p".into()), agent: None, session: None };
        let verdict = policy.decide(&action).decision;
        if any_not_allowed {
            prop_assert_ne!(verdict, Verdict::Allow, "{}", command);
        } else {
            prop_assert_eq!(verdict, Verdict::Allow, "{}", command);
        }
    }

    /// The reader takes any text, printable or not, and never panics.
    #[test]
    fn the_reader_takes_any_text(text in "\\PC{0,200}") {
        let _ = user_questions_shell::read(&text);
    }
}
