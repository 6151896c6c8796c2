//! Which requests an answerer is offered, parsed here and nowhere else: from the wire
//! (`"any"`, `"agents"`, `{"agent": "<id>"}`, serde's own shape of the enum) and from a
//! command line (`any`, `agents`, `agent:<id>`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{AgentInfo, UserQuestionError};

/// Which requests an answerer is offered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Scope {
    /// Every request.
    Any,
    /// Only requests that carry an agent.
    Agents,
    /// Only the requests of one agent id.
    Agent(String),
}

impl Scope {
    pub fn admits(&self, agent: Option<&AgentInfo>) -> bool {
        match self {
            Self::Any => true,
            Self::Agents => agent.is_some(),
            Self::Agent(id) => agent.is_some_and(|a| &a.id == id),
        }
    }

    /// The wire form; a missing or wrong one is `BAD_REQUEST` naming the field.
    pub fn from_value(v: Option<&Value>) -> Result<Self, UserQuestionError> {
        let v = v.filter(|v| !v.is_null()).ok_or_else(|| UserQuestionError::bad_request("scope is missing"))?;
        serde_json::from_value(v.clone()).map_err(|_| {
            UserQuestionError::bad_request("scope must be \"any\", \"agents\" or {\"agent\": \"<agent id>\"}")
        })
    }
}

impl std::str::FromStr for Scope {
    type Err = String;

    /// The command-line form: `any`, `agents` or `agent:<id>`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "any" => Ok(Self::Any),
            "agents" => Ok(Self::Agents),
            _ => match s.strip_prefix("agent:") {
                Some(id) if !id.is_empty() => Ok(Self::Agent(id.to_owned())),
                _ => Err(format!("the scope must be any, agents or agent:<id>, not {s:?}")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_forms_parse_to_the_same_scope() {
        for (wire, cli, scope) in [
            (json!("any"), "any", Scope::Any),
            (json!("agents"), "agents", Scope::Agents),
            (json!({"agent": "bob"}), "agent:bob", Scope::Agent("bob".into())),
        ] {
            assert_eq!(Scope::from_value(Some(&wire)).unwrap(), scope);
            assert_eq!(cli.parse::<Scope>().unwrap(), scope);
            assert_eq!(serde_json::to_value(&scope).unwrap(), wire);
        }
        for bad in [json!("all"), json!({"agent": 1}), json!({"agent": "a", "x": 1}), json!(3)] {
            assert!(Scope::from_value(Some(&bad)).unwrap_err().message().starts_with("scope must be"), "{bad}");
        }
        assert_eq!(Scope::from_value(None).unwrap_err().message(), "scope is missing");
        assert!("agent:".parse::<Scope>().is_err());
    }
}
