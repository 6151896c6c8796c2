//! `userq mcp`: an MCP server on stdio that any MCP client can load. It offers the
//! model-facing `ask_user_question` (exactly as [`crate::tool`] shapes it) and
//! `review_plan`, and asks through the socket as one live agent for the whole MCP
//! session, so agent-scoped answerers (the desktop window) receive its questions.
//! It connects lazily: initializing and listing tools never wait for the server.
//! While a person has not answered, a call that carries a progress token gets
//! `notifications/progress` every [`PROGRESS_EVERY`], so clients that move long calls
//! to the background or give up on silent ones know it is still waiting. Loaded by
//! Claude Code as a channel, it also leaves questions that do not block and answers
//! approval prompts ([`channel`]).

mod channel;

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomNotification, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion, ServerCapabilities,
    ServerConfig, ServerNotification, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};
use serde_json::{json, Value};
use tokio::sync::OnceCell;
use tokio_util::sync::CancellationToken;

use crate::agents::Agent;
use crate::channel::asker::{AgentSpec, Asker};
use crate::channel::client::ClientError;
use crate::model::{Answer, AskRequest, Context, Question, UserQuestionError};
use crate::tool;

/// How often a waiting call reports that it is still waiting for the person.
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

pub struct McpServer {
    socket: PathBuf,
    agent_id: Option<String>,
    asker: OnceCell<Arc<Asker>>,
    /// Ends with the MCP session: questions still waiting in the background
    /// (left by the channel) are withdrawn with it.
    session: CancellationToken,
}

impl McpServer {
    /// `agent_id` names the session's agent; `None` takes the MCP client's name.
    pub fn new(socket: PathBuf, agent_id: Option<String>) -> Self {
        Self { socket, agent_id, asker: OnceCell::new(), session: CancellationToken::new() }
    }

    async fn asker(&self, peer: &Peer<RoleServer>) -> Arc<Asker> {
        self.asker
            .get_or_init(|| async {
                let client = peer.peer_info().map(|i| i.client_info.name.clone());
                let client = client.filter(|n| !n.is_empty()).unwrap_or_else(|| "mcp-client".into());
                let id = self.agent_id.clone().unwrap_or_else(|| format!("{client}-{:08x}", rand::random::<u32>()));
                let context = here(&client);
                let spec = AgentSpec { id, delegation_depth: 0 };
                Arc::new(
                    Asker::new(self.socket.clone(), &format!("userq-mcp ({client})"), Some(spec)).with_context(context),
                )
            })
            .await
            .clone()
    }

    /// Asks in the background, until the session ends; `then` makes what is sent
    /// to the client from the outcome (nothing: nothing is sent).
    async fn ask_in_background(
        &self,
        peer: Peer<RoleServer>,
        questions: Vec<Question>,
        description: String,
        then: impl FnOnce(&[Question], &Result<Answer, UserQuestionError>) -> Option<CustomNotification> + Send + 'static,
    ) {
        let asker = self.asker(&peer).await;
        let session = self.session.clone();
        tokio::spawn(async move {
            let outcome = asked(asker.ask_saying(&questions, &description, &session).await);
            if session.is_cancelled() {
                return;
            }
            if let Some(message) = then(&questions, &outcome) {
                let _ = peer.send_notification(ServerNotification::CustomNotification(message)).await;
            }
        });
    }
}

/// Where the questions of an MCP session come from: the folder the client started the
/// server in (an agent starts it in its project), that project's root and branch, and
/// the agent the client's name says it is.
fn here(client: &str) -> Context {
    let folder = std::env::current_dir().ok().map(|d| d.to_string_lossy().into_owned());
    let source = Agent::from_command_name(client).map_or(client, |a| a.display_name);
    let mut context = Context { project: folder, source: Some(source.to_owned()), ..Context::default() };
    crate::place::locate(&mut context);
    context
}

impl Drop for McpServer {
    fn drop(&mut self) {
        self.session.cancel();
    }
}

/// The asker's outcome in the words a model reads.
fn asked(outcome: Result<Answer, ClientError>) -> Result<Answer, UserQuestionError> {
    match outcome {
        Ok(answer) => Ok(answer),
        Err(ClientError::Service(e)) => Err(e),
        Err(other) => Err(UserQuestionError::no_server(other.to_string())),
    }
}

fn tools() -> Vec<Tool> {
    let object = |v: Value| match v {
        Value::Object(o) => Arc::new(o),
        _ => unreachable!("schemas are objects"),
    };
    let review_schema = json!({
        "type": "object",
        "properties": {"plan": {"type": "string", "description": "The plan, in markdown."}},
        "required": ["plan"]
    });
    let changes_schema = json!({
        "type": "object",
        "properties": {
            "diff": {"type": "string", "description": "A unified diff to review; absent: the working tree's changes."},
            "staged": {"type": "boolean", "description": "Review only what is staged."},
            "base": {"type": "string", "description": "Review the working tree against this commit instead of HEAD."}
        }
    });
    vec![
        Tool::new(tool::NAME, tool::DESCRIPTION, object(tool::input_schema())),
        channel::later_tool(object(tool::input_schema())),
        Tool::new(
            "review_changes",
            "Ask the user to review code changes (by default the working tree's, untracked files included) and              wait: the answer's selected label is Approve, or custom holds the review, each comment under its file              and lines; act on every comment.",
            object(changes_schema),
        ),
        Tool::new(
            "review_plan",
            "Show the user a plan (markdown) for review and wait: the answer's selected label is \
             Approve, or it is Revise with the user's feedback in custom.",
            object(review_schema),
        ),
    ]
}

fn request_for(name: &str, input: &Value) -> Result<AskRequest, UserQuestionError> {
    match name {
        "review_plan" => match input.get("plan").and_then(Value::as_str) {
            Some(plan) if !plan.trim().is_empty() => Ok(AskRequest::new(vec![tool::plan_review(plan)])),
            Some(_) => Err(UserQuestionError::bad_request("plan is empty")),
            None => Err(UserQuestionError::bad_request("plan is missing or not a string")),
        },
        "review_changes" => {
            let diff = match input.get("diff").and_then(Value::as_str) {
                Some(diff) => diff.to_owned(),
                None => {
                    let cwd = std::env::current_dir().unwrap_or_default();
                    let staged = input.get("staged").and_then(Value::as_bool).unwrap_or(false);
                    crate::review::git::changes(&cwd, staged, input.get("base").and_then(Value::as_str))
                        .map_err(UserQuestionError::bad_request)?
                }
            };
            if diff.trim().is_empty() {
                return Err(UserQuestionError::bad_request("there are no changes to review"));
            }
            Ok(AskRequest::new(vec![crate::review::question(&diff)]))
        }
        _ => tool::request_from_input(input),
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        capabilities.experimental = Some(
            [channel::CAPABILITY, channel::PERMISSION_CAPABILITY]
                .into_iter()
                .map(|c| (c.into(), Default::default()))
                .collect(),
        );
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("user-questions", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Use ask_user_question when you need a decision from the user; use review_plan to have a plan approved; \
                 use review_changes to have your code changes reviewed before you finish. In a session that loaded \
                 user-questions as a channel, ask_user_question_later leaves questions without waiting, and the \
                 user's answer arrives as a <channel source=\"user-questions\" questions=\"ids\"> message: act on it \
                 when it comes.",
            )
    }

    /// Up to 2025-11-25: the later, stateless revision has no path for a message the
    /// server starts, and Claude Code loads no channel over it ("this connection's
    /// protocol version has no channel delivery path").
    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn on_custom_notification(&self, notification: CustomNotification, context: NotificationContext<RoleServer>) {
        if notification.method == channel::PERMISSION_REQUEST {
            self.relayed(notification, context.peer).await;
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.as_ref();
        if name == channel::LATER {
            let input = Value::Object(request.arguments.unwrap_or_default());
            let text = match tool::request_from_input(&input) {
                Err(e) => return Ok(CallToolResult::error(vec![ContentBlock::text(tool::render(&Err(e)))]).into()),
                Ok(req) => {
                    let said = channel::left(&req);
                    self.ask_in_background(context.peer.clone(), req.questions, String::new(), |questions, outcome| {
                        Some(channel::answered(questions, outcome))
                    })
                    .await;
                    said
                }
            };
            return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
        }
        if ![tool::NAME, "review_plan", "review_changes"].contains(&name) {
            return Err(McpError::invalid_params(format!("unknown tool {name}"), None));
        }
        let input = Value::Object(request.arguments.unwrap_or_default());
        let _progress = context.meta.get_progress_token().map(|token| {
            let peer = context.peer.clone();
            crate::channel::asker::AbortOnDrop(tokio::spawn(async move {
                let mut ticks = tokio::time::interval(PROGRESS_EVERY);
                ticks.tick().await;
                for n in 1u32.. {
                    ticks.tick().await;
                    let mut p = ProgressNotificationParam::new(token.clone(), f64::from(n));
                    p.message = Some("waiting for the user to answer".into());
                    if peer.notify_progress(p).await.is_err() {
                        return;
                    }
                }
            }))
        });
        let outcome = match request_for(name, &input) {
            Err(e) => Err(e),
            Ok(req) => asked(self.asker(&context.peer).await.ask(&req.questions, &context.ct).await),
        };
        let text = vec![ContentBlock::text(tool::render(&outcome))];
        Ok(match outcome {
            Ok(_) => CallToolResult::success(text),
            Err(_) => CallToolResult::error(text),
        }
        .into())
    }
}

impl McpServer {
    /// An approval prompt Claude Code relays: asked here while its own dialog is open.
    async fn relayed(&self, notification: CustomNotification, peer: Peer<RoleServer>) {
        let request = match notification.params_as::<channel::PermissionRequest>() {
            Ok(Some(request)) => request,
            _ => {
                tracing::warn!(params = ?notification.params, "an approval prompt this server cannot read");
                return;
            }
        };
        // Worded when a prompt comes, not at start-up: most sessions never relay one.
        let question = request.question(&user_questions_i18n::Text::from_env());
        let description = request.description.clone();
        self.ask_in_background(peer, vec![question], description, move |_, outcome| {
            outcome.as_ref().ok().and_then(|a| request.verdict(a))
        })
        .await;
    }
}

/// Serves MCP on stdin/stdout until the client goes away.
pub async fn serve_stdio(server: McpServer) -> Result<(), Box<dyn std::error::Error>> {
    use rmcp::ServiceExt;
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
