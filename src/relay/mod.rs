//! Questions from every machine of a circle: machines paired through a NATS broker
//! (`userq relay init/invite/join`) show each other's questions, and the first answer
//! on any of them wins. Everything that passes the broker is sealed for the circle's
//! machines ([`keys`]): the broker sees a circle's random id in its subjects, sizes and
//! times, nothing else. [`node`] is the relay inside a server; [`pairing`] what the
//! command line does; [`config`] the file that holds a machine's place in its circle.

pub mod config;
pub mod keys;
pub mod node;
pub mod pairing;
pub mod qr;
pub mod seen;
pub mod wire;

pub use config::{Config, ConfigError, Peer};
pub use node::{start, Node};

/// What went wrong with the relay.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("that is not an invite code: {0}")]
    BadCode(String),
    #[error("this invite expired; ask for a new one (`userq relay invite`)")]
    Expired,
    #[error("the broker at {broker}: {error}")]
    Broker { broker: String, error: String },
    #[error(
        "no machine of the circle answered the invite: is `userq serve` or the desktop app running on the machine that made it?"
    )]
    NoAnswer,
    #[error("the answer to the invite is not from the machine that made it")]
    NotTheInviter,
    #[error("the circle refused: {0}")]
    Refused(String),
    #[error("no machine named {0} is in the circle")]
    NoSuchMachine(String),
    #[error("this machine is {0}: `userq relay leave` takes it out")]
    ThisMachine(String),
}

/// A client of the circle's broker. `connected` hears every (re)connection; with it,
/// the first connection is made in the background and retried until it succeeds.
pub async fn connect(
    config: &Config,
    connected: Option<tokio::sync::mpsc::UnboundedSender<()>>,
) -> Result<async_nats::Client, RelayError> {
    crate::tls::ready();
    let broker_error = |error: String| RelayError::Broker { broker: config.broker.clone(), error };
    let mut options = async_nats::ConnectOptions::new().name("userq relay").max_reconnects(None);
    if let Some(creds) = &config.creds {
        options = options
            .credentials_file(creds)
            .await
            .map_err(|e| broker_error(format!("the credentials file {}: {e}", creds.display())))?;
    }
    if let Some(tx) = connected {
        // A running relay never hears its own messages back (the command line's, on
        // a connection of their own, it does).
        options = options.no_echo().retry_on_initial_connect().event_callback(move |event| {
            let tx = tx.clone();
            async move {
                if let async_nats::Event::Connected = event {
                    let _ = tx.send(());
                }
            }
        });
    }
    options.connect(&config.broker).await.map_err(|e| broker_error(e.to_string()))
}
