//! Asking through the socket so that an agent keeps its answer across a server
//! restart: a lost connection or `SHUTTING_DOWN` while a question is pending means
//! wait for a server to listen again (with backoff, up to a limit), enter the agent
//! again as a new runtime, and ask again; for a while after a restart, `NO_PROVIDER`
//! means the answerers are not back yet and is retried too. `userq ask` and
//! `userq mcp` both use this.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

use super::backoff::Backoff;
use super::client::{Client, ClientError};
use super::protocol::{Ask, Cancel, CancelParams, Enter, EnterParams};
use crate::model::{AgentRef, Answer, AskRequest, Context, ErrorCode, Question, UserQuestionError};

/// How long to wait for a server to come back before giving up.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The agent an asker enters as.
#[derive(Debug, Clone)]
pub struct AgentSpec {
    pub id: String,
    pub delegation_depth: u32,
}

pub struct Asker {
    path: PathBuf,
    client_name: String,
    agent: Option<AgentSpec>,
    context: Option<Context>,
    session: Mutex<Option<(Client, Option<AgentRef>)>>,
}

impl Asker {
    pub fn new(path: PathBuf, client_name: &str, agent: Option<AgentSpec>) -> Self {
        Self { path, client_name: client_name.to_owned(), agent, context: None, session: Mutex::new(None) }
    }

    /// Says where this asker's questions come from (project, session, kind of agent).
    pub fn with_context(mut self, context: Context) -> Self {
        self.context = Some(context);
        self
    }

    /// Connects (once) and enters the agent, so an asker is live before it asks.
    pub async fn connect(&self) -> Result<(Client, Option<AgentRef>), ClientError> {
        let mut session = self.session.lock().await;
        if let Some(s) = session.as_ref() {
            return Ok(s.clone());
        }
        let (client, _incoming) = Client::connect(&self.path, &self.client_name).await?;
        let agent = match &self.agent {
            None => None,
            Some(spec) => {
                let params = EnterParams { id: spec.id.clone(), owner: None, delegation_depth: spec.delegation_depth };
                Some(client.call::<Enter>(&params).await?)
            }
        };
        *session = Some((client.clone(), agent.clone()));
        Ok((client, agent))
    }

    async fn forget(&self) {
        *self.session.lock().await = None;
    }

    /// Asks, riding out server restarts. Cancelling `cancel` withdraws the question.
    pub async fn ask(&self, questions: &[Question], cancel: &CancellationToken) -> Result<Answer, ClientError> {
        self.ask_in(questions, self.context.clone(), cancel).await
    }

    /// Asks as [`ask`](Self::ask) does, with the request's own words (what the agent
    /// says the call is for) beside where the asker's questions come from.
    pub async fn ask_saying(
        &self,
        questions: &[Question],
        description: &str,
        cancel: &CancellationToken,
    ) -> Result<Answer, ClientError> {
        let description = Some(description.trim()).filter(|d| !d.is_empty()).map(str::to_owned);
        let context = Context { description, ..self.context.clone().unwrap_or_default() };
        self.ask_in(questions, Some(context), cancel).await
    }

    async fn ask_in(
        &self,
        questions: &[Question],
        context: Option<Context>,
        cancel: &CancellationToken,
    ) -> Result<Answer, ClientError> {
        let mut lost_since: Option<Instant> = None;
        let mut backoff = Backoff::new(Duration::from_secs(1));
        loop {
            let connected = match self.connect().await {
                Err(ClientError::NotRunning(_) | ClientError::Closed) if lost_since.is_some() => None,
                Err(ClientError::Service(e)) if lost_since.is_some() && e.is(ErrorCode::AgentLive) => None,
                other => Some(other?),
            };
            if let Some((client, agent)) = connected {
                let request = AskRequest { questions: questions.to_vec(), agent, context: context.clone() };
                let (id, reply) = client.start::<Ask>(&request);
                tokio::pin!(reply);
                let reply = tokio::select! {
                    reply = &mut reply => reply,
                    () = cancel.cancelled() => {
                        // Wait (briefly) for the server to confirm, so the question is
                        // withdrawn everywhere before this process goes.
                        client.notify::<Cancel>(&CancelParams { id: id.into() });
                        let _ = tokio::time::timeout(Duration::from_secs(2), reply).await;
                        return Err(UserQuestionError::aborted().into());
                    }
                };
                tracing::debug!(?reply, ?lost_since, "ask reply");
                match reply {
                    Ok(answer) => return Ok(answer),
                    Err(ClientError::Closed) => {}
                    Err(ClientError::Service(e)) if e.is(ErrorCode::ShuttingDown) => {}
                    // Just after a restart, answerers may not be back yet.
                    Err(ClientError::Service(e))
                        if e.is(ErrorCode::NoProvider)
                            && lost_since.is_some_and(|since| since.elapsed() < PATIENCE) => {}
                    Err(e) => return Err(e),
                }
                self.forget().await;
            }
            let since = *lost_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= PATIENCE {
                return Err(UserQuestionError::server_gone(PATIENCE.as_secs()).into());
            }
            tokio::select! {
                () = backoff.wait() => {}
                () = cancel.cancelled() => return Err(UserQuestionError::aborted().into()),
            }
        }
    }
}

/// A spawned task that ends when its handle is dropped.
pub struct AbortOnDrop<T>(pub tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}
