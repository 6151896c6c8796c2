//! docs/protocol.md over a real socket, byte for byte: session, framing, agents, asking,
//! the answerer waterfall, cancelling, observing, stopping, and hostile clients.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

#[tokio::test]
async fn session_rules() {
    let s = TestServer::start().await;
    let mut p = s.peer().await;
    p.notify("$/cancelRequest", json!({"id": 1})).await;
    let r = p.call("questions/pending", json!({})).await;
    assert_eq!(r["error"], json!({"code": -32002, "message": "not initialized"}));
    let r = p.call("initialize", json!({"protocolVersion": 2, "client": {"name": "x", "version": "1"}})).await;
    assert_eq!(r["error"]["code"], -32602);
    assert_eq!(r["error"]["data"], json!({"code": "BAD_REQUEST", "supported": [1]}));
    let r = p.call("initialize", json!({"protocolVersion": 1, "client": {"name": "x", "version": "1"}})).await;
    assert_eq!(r["result"]["protocolVersion"], 1);
    assert_eq!(r["result"]["server"]["name"], "user-questions");
    let r = p.call("initialize", json!({"protocolVersion": 1})).await;
    assert_eq!(r["error"]["code"], -32600);
    let r = p.call("no/such", json!({})).await;
    assert_eq!(r["error"]["code"], -32601);
}

/// A connection's messages are handled in the order they arrive, a reply to an offer
/// included: the request after a claim already sees the ask held.
#[tokio::test]
async fn a_claim_is_seen_by_the_next_message_on_its_connection() {
    let s = TestServer::start().await;
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("any")).await;
    asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    answerer.reply(&offer["id"], json!({"claim": true})).await;
    let r = answerer.call("questions/pending", json!({})).await;
    assert_eq!(r["result"]["pending"][0]["ask"], offer["params"]["ask"]);
    assert_eq!(r["result"]["pending"][0]["answerer"], "t", "{r}");
    // An answer given with the claim: held by the answerer until its ending has gone
    // back up the waterfall, never listed as nobody's.
    let ask2 = asker.start("ask", json!({"questions": [question("again")]})).await;
    let offer = answerer.expect("questions/offer").await;
    answerer.reply(&offer["id"], json!({"answer": yes("again")})).await;
    let r = answerer.call("questions/pending", json!({})).await;
    let second = r["result"]["pending"].as_array().unwrap().iter().find(|p| p["ask"] == offer["params"]["ask"]);
    assert!(second.is_none_or(|p| p["answerer"] == "t"), "{r}");
    let reply = asker.recv().await;
    assert_eq!((reply["id"].as_u64(), &reply["result"]), (Some(ask2), &yes("again")));
}

#[tokio::test]
async fn framing_errors_keep_the_connection() {
    let s = TestServer::start().await;
    let mut p = s.client("f").await;
    p.send_raw(b"\n   \n{not json\n").await;
    let r = p.recv().await;
    assert_eq!((r["error"]["code"].as_i64(), &r["id"]), (Some(-32700), &Value::Null));
    p.send_raw(b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"questions/pending\"}]\n").await;
    assert_eq!(p.recv().await["error"]["code"], -32600);
    p.send_raw(b"42\n").await;
    assert_eq!(p.recv().await["error"]["code"], -32600);
    let mut big = vec![b' '; 1_048_577];
    big.push(b'\n');
    p.send_raw(&big).await;
    let r = p.recv().await;
    assert_eq!(r["error"], json!({"code": -32600, "message": "frame too large"}));
    assert_eq!(r["id"], Value::Null);
    // Exactly the limit is accepted (a JSON request padded with spaces).
    let mut exact = br#"{"jsonrpc":"2.0","id":5,"method":"questions/pending","params":{}}"#.to_vec();
    exact.resize(1_048_576, b' ');
    exact.push(b'\n');
    p.send_raw(&exact).await;
    assert_eq!(p.recv().await["result"], json!({"pending": []}));
}

#[tokio::test]
async fn the_whole_path_of_the_example() {
    let s = TestServer::start().await;
    let mut asker = s.client("asker").await;
    let mut answerer = s.client("answerer").await;
    let agent = asker.enter("build-bot").await;
    assert_eq!(agent["id"], "build-bot");
    assert!(agent["runtime"].as_str().unwrap().len() >= 32);
    answerer.register("term", json!("agents")).await;
    let ask_id = asker.start("ask", json!({"agent": agent, "questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    let ask = offer["params"]["ask"].clone();
    assert_eq!(
        offer["params"]["request"],
        json!({"questions": [question("go")], "agent": {"id": "build-bot", "delegationDepth": 0, "client": "asker"}}),
        "no runtime token is sent to answerers"
    );
    answerer.reply(&offer["id"], json!({"claim": true})).await;
    let r = answerer.call("questions/answer", json!({"ask": ask, "answer": yes("go")})).await;
    assert_eq!(r["result"], json!({}));
    let reply = asker.recv().await;
    assert_eq!(reply, json!({"jsonrpc": "2.0", "id": ask_id, "result": yes("go")}));
    let r = answerer.call("questions/answer", json!({"ask": ask, "answer": yes("go")})).await;
    assert_eq!(r["error"]["data"]["code"], "NOT_PENDING");
}

#[tokio::test]
async fn answer_at_once_and_bad_answers() {
    let s = TestServer::start().await;
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("any")).await;
    let id = asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    let ask = offer["params"]["ask"].clone();
    answerer.reply(&offer["id"], json!({"answer": {"answers": [{"id": "go", "selected": ["Maybe"]}]}})).await;
    let bad = answerer.expect("questions/badAnswer").await;
    assert_eq!(bad["params"]["ask"], ask);
    assert!(bad["params"]["message"].as_str().unwrap().contains("Maybe"), "{bad}");
    let r = answerer.call("questions/answer", json!({"ask": ask, "answer": {"answers": []}})).await;
    assert_eq!(r["error"]["code"], -32000);
    assert_eq!(r["error"]["data"]["code"], "BAD_ANSWER");
    let pending = answerer.call("questions/pending", json!({})).await;
    assert_eq!(pending["result"]["pending"][0]["answerer"], "t", "still held by its answerer");
    let r = answerer
        .call(
            "questions/answer",
            json!({"ask": ask, "answer": {"answers": [{"id": "go", "selected": ["No"], "custom": "later"}]}}),
        )
        .await;
    assert_eq!(r["result"], json!({}));
    let reply = asker.recv().await;
    assert_eq!(reply["id"], id);
    assert_eq!(reply["result"], json!({"answers": [{"id": "go", "selected": [], "custom": "later"}]}));

    let id = asker.start("ask", json!({"questions": [question("q2")]})).await;
    let offer = answerer.expect("questions/offer").await;
    answerer.reply(&offer["id"], json!({"answer": yes("q2")})).await;
    assert_eq!(asker.recv().await, json!({"jsonrpc": "2.0", "id": id, "result": yes("q2")}));
}

#[tokio::test]
async fn rejects_and_error_replies_reach_the_asker_unchanged() {
    let s = TestServer::start().await;
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("any")).await;
    asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    answerer.reply(&offer["id"], json!({"claim": true})).await;
    let r = answerer
        .call(
            "questions/reject",
            json!({"ask": offer["params"]["ask"], "code": "ASK_CANCELLED", "message": "the user cancelled ask_user_question"}),
        )
        .await;
    assert_eq!(r["result"], json!({}));
    assert_eq!(
        asker.recv().await["error"],
        json!({"code": -32000, "message": "the user cancelled ask_user_question", "data": {"code": "ASK_CANCELLED"}})
    );
    asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    let foreign = json!({"code": -32042, "message": "policy says no", "data": {"code": "POLICY", "rule": 7}});
    answerer.send(json!({"jsonrpc": "2.0", "id": offer["id"], "error": foreign})).await;
    assert_eq!(asker.recv().await["error"], foreign);
}

#[tokio::test]
async fn an_answer_before_the_reply_is_a_claim_and_the_reply_is_ignored() {
    let s = TestServer::start().await;
    let mut asker = s.client("asker").await;
    let mut first = s.client("first").await;
    let mut second = s.client("second").await;
    first.register("first", json!("any")).await;
    second.register("second", json!("any")).await;
    asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = first.expect("questions/offer").await;
    let r = first.call("questions/answer", json!({"ask": offer["params"]["ask"], "answer": {"answers": []}})).await;
    assert_eq!(r["error"]["data"]["code"], "BAD_ANSWER");
    first.reply(&offer["id"], json!({"claim": false})).await;
    assert!(second.try_recv(Duration::from_millis(300)).await.is_none(), "the pass after a claim is ignored");
    let r = first.call("questions/answer", json!({"ask": offer["params"]["ask"], "answer": yes("go")})).await;
    assert_eq!(r["result"], json!({}));
    assert_eq!(asker.recv().await["result"], yes("go"));
}

#[tokio::test]
async fn passes_scopes_priorities_and_unknown_replies() {
    let s = TestServer::start().await;
    let mut asker = s.client("asker").await;
    let mut low = s.client("low").await;
    let mut high = s.client("high").await;
    let mut other = s.client("other").await;
    low.register("low", json!("any")).await;
    let r = high.call("answerers/register", json!({"name": "high", "scope": "any", "priority": 5})).await;
    assert!(r["result"]["answerer"].is_string());
    other.register("bob-only", json!({"agent": "bob"})).await;
    let id = asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = high.expect("questions/offer").await;
    high.reply(&offer["id"], json!({"maybe": 1})).await;
    let offer = low.expect("questions/offer").await;
    low.reply(&offer["id"], json!({"claim": false})).await;
    assert_eq!(asker.recv().await["error"]["data"]["code"], "NO_PROVIDER");
    assert!(asker.try_recv(Duration::from_millis(200)).await.is_none(), "nothing else arrives for ask {id}");
    assert!(other.try_recv(Duration::from_millis(10)).await.is_none(), "an agent-scoped answerer never saw it");
}

#[tokio::test]
async fn an_answerer_that_disconnects_passes_its_asks_on() {
    let s = TestServer::start().await;
    let mut asker = s.client("asker").await;
    let mut fallback = s.client("fallback").await;
    fallback.register("fallback", json!("any")).await;
    {
        let mut holder = s.client("holder").await;
        let r = holder.call("answerers/register", json!({"name": "holder", "scope": "any", "priority": 9})).await;
        assert!(r["result"].is_object());
        asker.start("ask", json!({"questions": [question("go")]})).await;
        let offer = holder.expect("questions/offer").await;
        holder.reply(&offer["id"], json!({"claim": true})).await;
        holder.wait_held(&offer["params"]["ask"]).await;
        let pending = asker.call("questions/pending", json!({})).await;
        assert_eq!(pending["result"]["pending"][0]["answerer"], "holder");
    }
    let offer = fallback.expect("questions/offer").await;
    fallback.reply(&offer["id"], json!({"answer": yes("go")})).await;
    let reply = asker.recv().await;
    assert_eq!(reply["result"], yes("go"), "{reply}");
}

#[tokio::test]
async fn an_answer_at_once_followed_by_a_hang_up_is_the_answer() {
    let s = TestServer::start().await;
    let mut asker = s.client("asker").await;
    for round in 0..20 {
        let mut once = s.client("once").await;
        once.register("once", json!("any")).await;
        let id = asker.start("ask", json!({"questions": [question("go")]})).await;
        let offer = once.expect("questions/offer").await;
        once.reply(&offer["id"], json!({"answer": yes("go")})).await;
        drop(once);
        let reply = asker.recv().await;
        assert_eq!(reply, json!({"jsonrpc": "2.0", "id": id, "result": yes("go")}), "round {round}");
    }
}

#[tokio::test]
async fn unregistering_while_holding_passes_on_and_none_left_is_no_provider() {
    let s = TestServer::start().await;
    let mut asker = s.client("asker").await;
    let mut a = s.client("a").await;
    let id = a.register("a", json!("any")).await;
    asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"claim": true})).await;
    a.wait_held(&offer["params"]["ask"]).await;
    let r = a.call("answerers/unregister", json!({"answerer": id})).await;
    assert_eq!(r["result"], json!({}));
    assert_eq!(asker.recv().await["error"]["data"]["code"], "NO_PROVIDER");
    let r = a.call("answerers/unregister", json!({"answerer": id})).await;
    assert_eq!(r["error"]["code"], -32602);
}

#[tokio::test]
async fn cancel_request_aborts_and_withdraws() {
    let s = TestServer::start().await;
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("any")).await;
    let id = asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    answerer.reply(&offer["id"], json!({"claim": true})).await;
    asker.notify("$/cancelRequest", json!({"id": 9999})).await;
    asker.notify("$/cancelRequest", json!({"id": id})).await;
    let reply = asker.recv().await;
    assert_eq!(reply["id"], id);
    assert_eq!(
        reply["error"],
        json!({"code": -32000, "message": "ask_user_question was aborted before the user answered", "data": {"code": "ASK_ABORTED"}})
    );
    let withdraw = answerer.expect("questions/withdraw").await;
    assert_eq!(withdraw["params"], json!({"ask": offer["params"]["ask"], "reason": "aborted"}));
    assert!(withdraw.get("id").is_none());
}

#[tokio::test]
async fn an_asker_that_disconnects_cancels_its_asks_and_leaves_its_agents() {
    let s = TestServer::start().await;
    let mut answerer = s.client("answerer").await;
    answerer.register("t", json!("any")).await;
    let agent;
    {
        let mut asker = s.client("asker").await;
        agent = asker.enter("bot").await;
        asker.start("ask", json!({"agent": agent, "questions": [question("go")]})).await;
        let offer = answerer.expect("questions/offer").await;
        answerer.reply(&offer["id"], json!({"claim": true})).await;
    }
    let withdraw = answerer.expect("questions/withdraw").await;
    assert_eq!(withdraw["params"]["reason"], "aborted");
    // The id is free again once the server has seen the connection go.
    let mut again = s.client("again").await;
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let r = again.call("agents/enter", json!({"id": "bot"})).await;
        if r["result"]["id"] == "bot" {
            break;
        }
        assert_eq!(r["error"]["data"]["code"], "AGENT_LIVE", "{r}");
        assert!(tokio::time::Instant::now() < deadline, "the agent never left");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let r = again.call("ask", json!({"agent": agent, "questions": [question("go")]})).await;
    assert_eq!(r["error"]["data"]["code"], "CALLER_NOT_LIVE", "the old runtime is not live");
}

#[tokio::test]
async fn agents_over_the_socket() {
    let s = TestServer::start().await;
    let mut p = s.client("p").await;
    let root = p.enter("root").await;
    let r = p.call("agents/enter", json!({"id": "root"})).await;
    assert_eq!(r["error"]["data"]["code"], "AGENT_LIVE");
    let r = p.call("agents/enter", json!({"id": "kid", "owner": {"id": "root", "runtime": "forged"}})).await;
    assert_eq!(r["error"]["data"]["code"], "CALLER_NOT_LIVE");
    let r = p.call("agents/enter", json!({"id": "kid", "owner": root, "delegationDepth": 0})).await;
    let kid = r["result"].clone();
    let r = p.call("ask", json!({"agent": kid, "questions": [question("go")]})).await;
    assert_eq!(r["error"]["data"]["code"], "DELEGATED_CALLER");
    assert_eq!(r["error"]["code"], -32000);
    let r = p.call("agents/leave", root.clone()).await;
    assert_eq!(r["result"], json!({}));
    let r = p.call("agents/leave", kid).await;
    assert_eq!(r["error"]["data"]["code"], "CALLER_NOT_LIVE", "left with its owner");
    let resumed = p.call("agents/enter", json!({"id": "root", "delegationDepth": 3})).await["result"].clone();
    assert_ne!(resumed["runtime"], root["runtime"]);
    let r = p.call("ask", json!({"agent": root, "questions": [question("go")]})).await;
    assert_eq!(r["error"]["data"]["code"], "CALLER_NOT_LIVE", "the old runtime is stale");
    let r = p.call("ask", json!({"agent": resumed, "questions": [question("go")]})).await;
    assert_eq!(r["error"]["data"]["code"], "NO_PROVIDER", "a resumed root with lineage is admitted");
    let r = p.call("agents/enter", json!({"id": "x", "delegationDepth": -1})).await;
    assert_eq!(r["error"]["code"], -32602);
}

/// The client name from `initialize` reaches in-process answerers (the desktop window
/// shows it beside the agent) but never the wire, whose offer has no such field.
#[tokio::test]
async fn in_process_answerers_see_the_agents_client_name() {
    struct Records(std::sync::Mutex<Vec<Option<user_questions::model::AgentInfo>>>);
    #[async_trait::async_trait]
    impl user_questions::Answerer for Records {
        async fn answer(
            &self,
            ask: &user_questions::Ask,
            next: user_questions::Next<'_>,
        ) -> Result<user_questions::Answer, user_questions::UserQuestionError> {
            self.0.lock().unwrap().push(ask.request().agent.clone());
            next.run().await
        }
    }
    let s = TestServer::start().await;
    let records = std::sync::Arc::new(Records(Default::default()));
    let _r = s.service.register("window", user_questions::Scope::Agents, 1, records.clone());
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("agents")).await;
    let agent = asker.enter("build-bot").await;
    asker.start("ask", json!({"agent": agent, "questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    assert_eq!(
        offer["params"]["request"]["agent"],
        json!({"id": "build-bot", "delegationDepth": 0, "client": "asker"})
    );
    let seen = records.0.lock().unwrap().clone();
    let info = seen[0].as_ref().expect("an agent");
    assert_eq!((info.id.as_str(), info.client.as_deref()), ("build-bot", Some("asker")));
    let listed = asker.call("questions/pending", json!({})).await;
    assert_eq!(
        listed["result"]["pending"][0]["request"]["agent"],
        json!({"id": "build-bot", "delegationDepth": 0, "client": "asker"})
    );
}

#[tokio::test]
async fn context_reaches_answerers_and_observers_as_received() {
    let s = TestServer::start().await;
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("agents")).await;
    let mut nameless = s.peer().await;
    let r = nameless.call("initialize", json!({"protocolVersion": 1})).await;
    assert_eq!(r["result"]["protocolVersion"], 1);
    let agent = nameless.enter("anon").await;
    nameless.start("ask", json!({"agent": agent, "questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    assert_eq!(
        offer["params"]["request"]["agent"],
        json!({"id": "anon", "delegationDepth": 0}),
        "no client name given"
    );
    assert!(offer["params"]["request"].get("context").is_none(), "no context given: {offer}");
    answerer.reply(&offer["id"], json!({"answer": yes("go")})).await;
    nameless.recv().await;

    let agent = asker.enter("claude-1").await;
    let context = json!({"project": "/home/me/shop", "session": "abc123", "source": "Claude Code", "extra": 1});
    asker.start("ask", json!({"agent": agent, "questions": [question("go")], "context": context})).await;
    let offer = answerer.expect("questions/offer").await;
    let expected = json!({"project": "/home/me/shop", "session": "abc123", "source": "Claude Code"});
    assert_eq!(offer["params"]["request"]["context"], expected, "unknown fields inside it are dropped");
    let listed = answerer.call("questions/pending", json!({})).await;
    assert_eq!(listed["result"]["pending"][0]["request"]["context"], expected);
    answerer.reply(&offer["id"], json!({"answer": yes("go")})).await;
    assert_eq!(asker.recv().await["result"], yes("go"));

    for (bad, message) in
        [(json!("here"), "context must be an object"), (json!({"session": 42}), "context.session must be a string")]
    {
        let r = asker.call("ask", json!({"agent": agent, "questions": [question("go")], "context": bad})).await;
        assert_eq!(r["error"]["code"], -32602, "{r}");
        assert_eq!(
            (r["error"]["data"]["code"].as_str(), r["error"]["message"].as_str()),
            (Some("BAD_REQUEST"), Some(message))
        );
    }
}

#[tokio::test]
async fn ask_checks_and_shapes() {
    let s = TestServer::start().await;
    let mut p = s.client("p").await;
    let cases = [
        (json!({}), "questions is missing"),
        (json!({"questions": [{"id": "a"}]}), "questions[0].question is missing"),
        (json!({"questions": [{"id": "a", "question": "q", "options": [{"label": "x"}, {"label": "x"}]}]}), "label"),
        (json!({"questions": [{"id": "a", "question": "q", "header": 3}]}), "questions[0].header must be a string"),
    ];
    for (params, expected) in cases {
        let r = p.call("ask", params).await;
        assert_eq!(r["error"]["code"], -32602, "{r}");
        assert_eq!(r["error"]["data"]["code"], "BAD_REQUEST");
        assert!(r["error"]["message"].as_str().unwrap().contains(expected), "{r}");
    }
    let r = p.call("ask", json!({"questions": []})).await;
    assert_eq!(r["error"]["message"], "ask_user_question requires at least one question");
    let plan = json!({"id": "plan", "question": "ok?", "options": [{"label": "Approve"}],
                      "intent": {"kind": "plan-review", "approve": "Ship"}});
    let r = p.call("ask", json!({"questions": [plan]})).await;
    assert_eq!(
        r["error"]["message"],
        r#"question plan declares intent plan-review whose approve label "Ship" names none of its options"#
    );
}

#[tokio::test]
async fn pending_lists_asks_oldest_first() {
    let s = TestServer::start().await;
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("any")).await;
    for q in ["one", "two"] {
        asker.start("ask", json!({"questions": [question(q)]})).await;
        let offer = answerer.expect("questions/offer").await;
        if q == "one" {
            answerer.reply(&offer["id"], json!({"claim": true})).await;
            answerer.wait_held(&offer["params"]["ask"]).await;
        }
    }
    let pending = asker.call("questions/pending", json!({})).await["result"]["pending"].clone();
    assert_eq!(pending.as_array().unwrap().len(), 2);
    assert_eq!(pending[0]["request"]["questions"][0]["id"], "one");
    assert_eq!(pending[0]["answerer"], "t");
    assert_eq!(pending[1]["answerer"], Value::Null, "still being offered");
    let since = pending[0]["since"].as_str().unwrap();
    assert!(since.len() >= 20 && since.ends_with('Z') && since.contains('T'), "{since}");
}

#[tokio::test]
async fn a_clean_stop_ends_asks_withdraws_and_removes_the_socket() {
    let mut s = TestServer::start().await;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&s.path), 0o600);
    assert_eq!(mode(s.path.parent().unwrap()), 0o700);
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("any")).await;
    let id = asker.start("ask", json!({"questions": [question("go")]})).await;
    let offer = answerer.expect("questions/offer").await;
    answerer.reply(&offer["id"], json!({"claim": true})).await;
    answerer.wait_held(&offer["params"]["ask"]).await;
    s.stop().await;
    let reply = asker.recv().await;
    assert_eq!(reply["id"], id);
    assert_eq!(reply["error"]["data"]["code"], "SHUTTING_DOWN");
    assert_eq!(answerer.expect("questions/withdraw").await["params"]["ask"], offer["params"]["ask"]);
    assert!(!s.path.exists(), "the socket file is removed");
}

#[tokio::test]
async fn a_live_socket_is_refused_and_a_stale_one_replaced() {
    let s = TestServer::start().await;
    assert!(matches!(
        user_questions::channel::server::bind(&s.path),
        Err(user_questions::channel::server::BindError::AlreadyRunning(_))
    ));
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let stale = dir.path().join("stale.sock");
    drop(std::os::unix::net::UnixListener::bind(&stale).unwrap());
    assert!(stale.exists());
    let listener = user_questions::channel::server::bind(&stale).unwrap();
    drop(listener);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_and_a_client_that_never_reads_do_not_hurt_others() {
    let s = TestServer::start().await;
    let mut vandal = s.client("vandal").await;
    let flooding = tokio::spawn(async move {
        let mut chunk = b"garbage {{{\n[1,2]\n".repeat(1000);
        chunk.extend(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"questions/pending\"}\n".repeat(1000));
        let mut sent = 0usize;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
        while tokio::time::Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_millis(100), vandal.write.write_all(&chunk)).await {
                Ok(Ok(())) => sent += chunk.len(),
                _ => break,
            }
        }
        sent
    });
    let mut asker = s.client("asker").await;
    let mut answerer = s.client("answerer").await;
    answerer.register("good", json!("any")).await;
    for i in 0..50 {
        let q = format!("q{i}");
        let id = asker.start("ask", json!({"questions": [question(&q)]})).await;
        let offer = answerer.expect("questions/offer").await;
        answerer.reply(&offer["id"], json!({"answer": yes(&q)})).await;
        assert_eq!(asker.recv().await, json!({"jsonrpc": "2.0", "id": id, "result": yes(&q)}));
    }
    let sent = flooding.await.unwrap();
    assert!(sent >= 108_000, "the vandal wrote {sent} bytes: at least one chunk of 2,000 bad lines and 1,000 requests");
}

#[tokio::test]
async fn past_the_connection_limit_clients_are_told_and_closed() {
    let s = TestServer::start_with_limit(4).await;
    let mut held = Vec::new();
    for i in 0..4 {
        held.push(s.client(&format!("c{i}")).await);
    }
    let mut extra = s.peer().await;
    let refusal = extra.recv().await;
    assert_eq!(refusal["error"]["data"]["code"], "TOO_MANY_CONNECTIONS");
    assert!(extra.is_closed().await);
    drop(held.pop());
    // A slot is free once the server has seen that connection go: a new client is
    // then served, not told to try later.
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let mut again = s.peer().await;
        again.start("initialize", json!({"protocolVersion": 1})).await;
        let r = again.recv().await;
        if r["result"]["protocolVersion"] == 1 {
            assert!(again.call("questions/pending", json!({})).await["result"].is_object());
            break;
        }
        assert_eq!(r["error"]["data"]["code"], "TOO_MANY_CONNECTIONS", "{r}");
        assert!(tokio::time::Instant::now() < deadline, "no slot came free");
    }
}

#[tokio::test]
async fn a_peer_of_another_user_is_closed() {
    assert_eq!(unsafe { libc::getuid() }, 0, "this test connects as another uid, which needs root (CI runs as root)");
    let s = TestServer::start().await;
    for dir in [s.dir.path(), s.path.parent().unwrap()] {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(&s.path, std::fs::Permissions::from_mode(0o777)).unwrap();
    // A raw client, so that only the server's check is at work (userq itself would
    // refuse a server of another user first).
    let as_user = |uid: u32| {
        let mut c = tokio::process::Command::new("python3");
        let script = "import socket,sys\n\
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n\
try:\n    s.sendall(b'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"questions/pending\"}\\n'); print(s.recv(100) or 'closed')\n\
except (ConnectionResetError, BrokenPipeError): print('closed')\n";
        c.args(["-c", script, s.path.to_str().unwrap()]).uid(uid).gid(uid);
        c
    };
    let out = as_user(65534).output().await.unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "closed", "closed without a word: {out:?}");
    let out = as_user(0).output().await.unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("not initialized"),
        "the server's own user is served: {out:?}"
    );
}

/// Valid JSON with a number no float holds (`1e400`): where the server reads it as a
/// tree of values it says it cannot (a parse error, with the request's id), where it
/// has no need to (a member no type has) it goes on; never a crash, and the
/// connection goes on.
#[tokio::test]
async fn a_number_no_float_holds_never_stops_a_connection() {
    let s = TestServer::start().await;
    let mut p = s.client("huge").await;
    p.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"questions/pending\",\"params\":{\"x\":1e400}}\n").await;
    let r = p.recv().await;
    assert_eq!((r["id"].as_u64(), r["error"]["code"].as_i64()), (Some(2), Some(-32700)), "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("number out of range"), "{r}");
    // A reply to no offer, whatever it holds, is ignored.
    p.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"claim\":1e400}}\n").await;
    let ask = r#"{"jsonrpc":"2.0","id":4,"method":"ask","params":{"questions":[{"id":"q","question":"?","x":1e400}]}}"#;
    p.send_raw(format!("{ask}\n").as_bytes()).await;
    let r = p.recv().await;
    assert_eq!((r["id"].as_u64(), r["error"]["data"]["code"].as_str()), (Some(4), Some("NO_PROVIDER")), "{r}");
    assert!(p.call("questions/pending", json!({})).await["result"].is_object());
}

#[tokio::test]
async fn a_file_pick_is_answered_with_paths_under_its_root_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("config")).unwrap();
    std::fs::write(root.join("config/app.toml"), "").unwrap();
    std::fs::write(root.join("README.md"), "").unwrap();
    std::fs::write(dir.path().join("secret.toml"), "").unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.toml"), root.join("link.toml")).unwrap();
    let s = TestServer::start().await;
    let (mut asker, mut answerer) = s.asker_and_answerer(json!("any")).await;
    let pick = |root: &std::path::Path| {
        json!({"questions": [{"id": "cfg", "question": "Which config?", "multiSelect": true,
                              "pick": {"of": "files", "root": root, "globs": ["*.toml"]}}]})
    };

    // A root that is not a folder here is the request's fault, named.
    for (bad, why) in [(root.join("gone"), "does not exist"), (root.join("README.md"), "is not a folder")] {
        let r = asker.call("ask", pick(&bad)).await;
        assert_eq!(r["error"]["data"]["code"], "BAD_REQUEST", "{r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.contains("questions[0].pick.root") && message.contains(why), "{message}");
    }
    let r = asker
        .call(
            "ask",
            json!({"questions": [{"id": "q", "question": "?", "options": [{"label": "a"}],
                                                      "pick": {"of": "files", "root": root}}]}),
        )
        .await;
    assert!(r["error"]["message"].as_str().unwrap().contains("cannot have options"), "{r}");

    // Paths outside the root, missing, of the wrong kind or outside the globs do not fit.
    let id = asker.start("ask", pick(&root)).await;
    let offer = answerer.expect("questions/offer").await;
    assert_eq!(offer["params"]["request"]["questions"][0]["pick"]["of"], "files", "answerers see the pick");
    let ask = offer["params"]["ask"].clone();
    answerer.reply(&offer["id"], json!({"claim": true})).await;
    for (path, why) in [
        ("../secret.toml", "not a path relative to the root"),
        ("link.toml", "leads out of"),
        ("config/gone.toml", "does not exist"),
        ("config", "is a folder"),
        ("README.md", "fits none of *.toml"),
    ] {
        let answer = json!({"answers": [{"id": "cfg", "selected": [path]}]});
        let r = answerer.call("questions/answer", json!({"ask": ask, "answer": answer})).await;
        assert_eq!(r["error"]["data"]["code"], "BAD_ANSWER", "{path}: {r}");
        assert!(r["error"]["message"].as_str().unwrap().contains(why), "{path}: {r}");
    }
    let answer = json!({"answers": [{"id": "cfg", "selected": ["config/app.toml"]}]});
    let r = answerer.call("questions/answer", json!({"ask": ask, "answer": answer.clone()})).await;
    assert_eq!(r["result"], json!({}));
    assert_eq!(asker.recv().await, json!({"jsonrpc": "2.0", "id": id, "result": answer}));

    // A door that does not know the kind answers with typed text, as for any question.
    asker.start("ask", pick(&root)).await;
    let offer = answerer.expect("questions/offer").await;
    let typed = json!({"answers": [{"id": "cfg", "selected": [], "custom": "the one in config/"}]});
    answerer.reply(&offer["id"], json!({"answer": typed.clone()})).await;
    assert_eq!(asker.recv().await["result"], typed);
}
