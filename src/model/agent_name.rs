//! Which agent asks, by name: the short name rules and the command line use
//! (`agent = "codex"`, `userq hook codex`) and the name people know, which an ask's
//! `context.source` carries. Plain data, so that every layer (the policy's rules, the
//! history's remembered answers) reads an ask's agent without the agents' hooks.

/// The two names of one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentName {
    /// The name on the command line and in rules: `claude-code`.
    pub name: &'static str,
    /// The agent's own name, as people know it: `Claude Code`.
    pub display_name: &'static str,
}

impl AgentName {
    pub const CLAUDE_CODE: AgentName = AgentName { name: "claude-code", display_name: "Claude Code" };
    pub const CODEX: AgentName = AgentName { name: "codex", display_name: "Codex" };
    pub const GEMINI: AgentName = AgentName { name: "gemini", display_name: "Gemini CLI" };
    pub const COPILOT: AgentName = AgentName { name: "copilot", display_name: "GitHub Copilot CLI" };
    pub const QWEN: AgentName = AgentName { name: "qwen", display_name: "Qwen Code" };
    pub const DROID: AgentName = AgentName { name: "droid", display_name: "Factory Droid" };
    pub const CURSOR: AgentName = AgentName { name: "cursor", display_name: "Cursor" };
    pub const OPENCODE: AgentName = AgentName { name: "opencode", display_name: "OpenCode" };
    pub const ANTIGRAVITY: AgentName = AgentName { name: "antigravity", display_name: "Antigravity CLI" };
    pub const KIMI: AgentName = AgentName { name: "kimi", display_name: "Kimi Code" };
    pub const KIRO: AgentName = AgentName { name: "kiro", display_name: "Kiro CLI" };

    /// Every agent User Questions answers, in the order `userq` lists them.
    pub const ALL: [AgentName; 11] = [
        Self::CLAUDE_CODE,
        Self::CODEX,
        Self::GEMINI,
        Self::COPILOT,
        Self::QWEN,
        Self::DROID,
        Self::CURSOR,
        Self::OPENCODE,
        Self::ANTIGRAVITY,
        Self::KIMI,
        Self::KIRO,
    ];

    /// The agent a context's `source` names (its display name).
    pub fn shown_as(display_name: &str) -> Option<AgentName> {
        Self::ALL.into_iter().find(|a| a.display_name == display_name)
    }
}
