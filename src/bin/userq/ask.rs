//! `userq ask`: one question (or a batch, or a plan review) asked as a live agent.
//! The answer goes to stdout as compact JSON; errors to stderr as `Error: <message>`.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tokio::signal::unix::{signal, SignalKind};
use tokio_util::sync::CancellationToken;
use user_questions::channel::asker::{AgentSpec, Asker};
use user_questions::model::{AskRequest, Pick, Question};
use user_questions::tool;

#[derive(Args)]
pub struct AskArgs {
    /// The question to ask.
    #[arg(required_unless_present_any = ["plan", "json"])]
    question: Option<String>,
    /// A short title shown above the question.
    #[arg(long)]
    header: Option<String>,
    /// An option, as LABEL or LABEL:DESCRIPTION; repeat for more.
    #[arg(long = "option", value_name = "LABEL[:DESCRIPTION]")]
    options: Vec<String>,
    /// Let the person pick several options.
    #[arg(long)]
    multi: bool,
    /// Supporting text (markdown) shown with the question.
    #[arg(long, conflicts_with = "detail_file")]
    detail: Option<String>,
    /// Read the detail from a file (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    detail_file: Option<PathBuf>,
    /// The question's id in the answer.
    #[arg(long, default_value = "q")]
    id: String,
    /// Ask for a review of the plan in FILE (`-` for stdin): Approve or Revise. A
    /// question given with it titles the review.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "options", "multi"])]
    plan: Option<PathBuf>,
    /// Ask the person to pick files or folders under --root; the answer's `selected`
    /// holds the paths picked, relative to the root (with --multi, several).
    #[arg(long, value_enum, requires = "root", conflicts_with_all = ["plan", "json", "options"])]
    pick: Option<PickOf>,
    /// The folder a pick is under.
    #[arg(long, value_name = "DIR", requires = "pick")]
    root: Option<PathBuf>,
    /// Offer only paths that fit PATTERN (`*.toml` by name; with a `/`, the whole
    /// path); repeat for more.
    #[arg(long = "glob", value_name = "PATTERN", requires = "pick")]
    globs: Vec<String>,
    /// Read a whole request `{"questions": [...]}` from stdin.
    #[arg(long, conflicts_with_all = ["question", "options", "multi", "detail", "detail_file"])]
    json: bool,
    /// The agent to ask as (default: a fresh id naming the calling program).
    #[arg(long, conflicts_with = "no_agent")]
    agent_id: Option<String>,
    /// The agent's durable delegation depth (shown, never used to refuse).
    #[arg(long, default_value_t = 0)]
    delegation_depth: u32,
    /// Ask without an agent (only answerers of scope `any` see it).
    #[arg(long)]
    no_agent: bool,
}

/// What `--pick` asks for.
#[derive(Clone, Copy, clap::ValueEnum)]
enum PickOf {
    Files,
    Folders,
}

fn read_text(path: &PathBuf) -> std::io::Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
    }
}

impl AskArgs {
    fn request(&self) -> Result<AskRequest, String> {
        if let Some(plan) = &self.plan {
            let text = read_text(plan).map_err(|e| format!("cannot read {}: {e}", plan.display()))?;
            let mut review = tool::plan_review(&text);
            if let Some(question) = &self.question {
                review.question = question.clone();
            }
            return Ok(AskRequest::new(vec![review]));
        }
        if self.json {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| format!("cannot read stdin: {e}"))?;
            let value = serde_json::from_str(&s).map_err(|e| format!("stdin is not JSON: {e}"))?;
            return AskRequest::from_value(&value).map_err(|e| e.message().to_owned());
        }
        let mut q = Question::new(self.id.clone(), self.question.clone().unwrap_or_default());
        for o in &self.options {
            q = match o.split_once(':') {
                Some((label, description)) => q.option(label, Some(description)),
                None => q.option(o.as_str(), None),
            };
        }
        q.multi_select = self.multi;
        q.header = self.header.clone();
        if let (Some(of), Some(root)) = (self.pick, &self.root) {
            let root = std::path::absolute(root).map_err(|e| format!("--root {}: {e}", root.display()))?;
            let of = match of {
                PickOf::Files => "files",
                PickOf::Folders => "folders",
            };
            let pick = serde_json::json!({"of": of, "root": root, "globs": self.globs});
            let pick = Pick::from_value(&pick, "--pick").and_then(|p| p.check("--pick", false).map(|()| p));
            q.pick = Some(pick.map_err(|e| e.message().to_owned())?);
        }
        q.detail = match &self.detail_file {
            Some(f) => Some(read_text(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?),
            None => self.detail.clone(),
        };
        let request = AskRequest::new(vec![q]);
        request.check_shape().map_err(|e| e.message().to_owned())?;
        Ok(request)
    }

    fn agent(&self) -> Option<AgentSpec> {
        if self.no_agent {
            return None;
        }
        let id = self.agent_id.clone().unwrap_or_else(default_agent_id);
        Some(AgentSpec { id, delegation_depth: self.delegation_depth })
    }
}

/// `<calling program>-<pid>-<random>`: names who asked, and never collides.
pub fn default_agent_id() -> String {
    let parent = std::fs::read_to_string(format!("/proc/{}/comm", std::os::unix::process::parent_id()))
        .map(|s| s.trim().to_owned())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "userq".into());
    format!("{parent}-{}-{:06x}", std::process::id(), rand::random::<u32>() & 0xff_ffff)
}

pub async fn run(socket: PathBuf, args: AskArgs) -> ExitCode {
    let request = match args.request() {
        Ok(r) => r,
        Err(e) => return crate::fail(2, &format!("userq ask: {e}")),
    };
    let asker = Asker::new(socket, "userq ask", args.agent());
    if let Err(e) = asker.connect().await {
        return crate::client_failure(&e);
    }
    let cancel = CancellationToken::new();
    // Listening from here on, before the question is asked: a Ctrl-C at once withdraws
    // it too (a listener made in the task would start only when the task first runs).
    let mut interrupt = signal(SignalKind::interrupt()).expect("a SIGINT handler");
    tokio::spawn({
        let cancel = cancel.clone();
        async move {
            if interrupt.recv().await.is_some() {
                cancel.cancel();
            }
        }
    });
    match asker.ask(&request.questions, &cancel).await {
        Ok(answer) => {
            println!("{}", answer.to_compact_json());
            ExitCode::SUCCESS
        }
        Err(_) if cancel.is_cancelled() => {
            crate::fail(130, "Error: ask_user_question was aborted before the user answered")
        }
        Err(e) => crate::client_failure(&e),
    }
}
