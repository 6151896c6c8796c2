//! JSON-RPC 2.0 messages: classifying what arrives and writing what leaves.
//!
//! What arrives is read in one of two ways. A well-formed message (the common case) is
//! read by [`read`] without building a tree of values: its parts stay JSON text
//! borrowed from the line, and each method's params are then parsed straight into
//! their types. Anything else is parsed into a tree and [`classify`]d, which names
//! exactly what is wrong. The fast reading takes what the slow one takes, and also
//! valid JSON a tree cannot hold (a number such as `1e400`) in members nothing reads.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

pub use crate::model::jsonrpc::*;

/// One message as it arrived.
#[derive(Debug)]
pub enum Message<'a> {
    Request { id: Value, method: Method<'a>, params: Json<'a> },
    Notification { method: Method<'a>, params: Json<'a> },
    Response { id: Value, outcome: Result<Json<'a>, Value> },
}

/// A method's name: borrowed from the line when it could be.
pub type Method<'a> = std::borrow::Cow<'a, str>;

/// A message's params or a response's result: JSON text still to parse into its own
/// type, or a tree of values already parsed (a message read the slow way, or no
/// params: `{}`).
#[derive(Debug)]
pub enum Json<'a> {
    Text(&'a RawValue),
    Tree(Value),
}

impl Json<'_> {
    /// As a tree of values. Valid JSON a tree cannot hold (a number no float holds,
    /// such as `1e400`) is an error, as it is for a line read the slow way.
    pub fn into_value(self) -> Result<Value, serde_json::Error> {
        match self {
            Json::Text(raw) => serde_json::from_str(raw.get()),
            Json::Tree(v) => Ok(v),
        }
    }

    /// Parsed straight into `T` when it is text and fits it; `None` when it does not
    /// fit (the caller then reads the tree and says what is wrong).
    pub fn parse<'de, T: Deserialize<'de>>(&'de self) -> Option<T> {
        match self {
            Json::Text(raw) => serde_json::from_str(raw.get()).ok(),
            Json::Tree(_) => None,
        }
    }
}

/// The members of a message as JSON text; a member given as `null` is `Some("null")`,
/// apart from an absent one.
#[derive(Deserialize)]
struct Members<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

/// For `deserialize_with`: a member that is there, `null` included, as JSON text.
pub(crate) fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// Reads a well-formed message without a tree of values; `None` for anything else
/// (not JSON, not an object, a repeated member, a member of the wrong type, params
/// that are not an object), which the caller parses and [`classify`]s instead.
pub fn read(line: &[u8]) -> Option<Message<'_>> {
    let m: Members = serde_json::from_slice(line).ok()?;
    if m.jsonrpc?.get() != "\"2.0\"" {
        return None;
    }
    let id = match m.id {
        None => None,
        Some(raw) if raw.get().starts_with(['"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) => {
            Some(serde_json::from_str::<Value>(raw.get()).ok()?)
        }
        Some(_) => return None,
    };
    if let Some(method) = m.method {
        let method: Method = serde_json::from_str(method.get()).ok()?;
        let params = match m.params {
            None => Json::Tree(Value::Object(Map::new())),
            Some(raw) if raw.get().starts_with('{') => Json::Text(raw),
            Some(_) => return None,
        };
        return Some(match id {
            None => Message::Notification { method, params },
            Some(id) => Message::Request { id, method, params },
        });
    }
    let outcome = match (m.result, m.error) {
        (Some(result), None) => Ok(Json::Text(result)),
        (None, Some(error)) => Err(serde_json::from_str(error.get()).ok()?),
        _ => return None,
    };
    Some(Message::Response { id: id?, outcome })
}

/// Classifies a parsed line. `Err` is the error response to send (id null unless the
/// message carried a usable id).
pub fn classify(value: Value) -> Result<Message<'static>, Value> {
    let Value::Object(mut obj) = value else {
        let why = if value.is_array() { "batches are not supported" } else { "a message must be a JSON object" };
        return Err(error(Value::Null, INVALID_REQUEST, why, None));
    };
    let id = obj.remove("id");
    let usable_id = id.clone().filter(|i| i.is_string() || i.is_number());
    let error_id = usable_id.clone().unwrap_or(Value::Null);
    let invalid = |why: &str| error(error_id.clone(), INVALID_REQUEST, why, None);
    if obj.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return Err(invalid("jsonrpc must be \"2.0\""));
    }
    let params = match obj.remove("params") {
        None | Some(Value::Null) => Json::Tree(Value::Object(Map::new())),
        Some(p @ (Value::Object(_) | Value::Array(_))) => Json::Tree(p),
        Some(_) => return Err(invalid("params must be an object or an array")),
    };
    if let Some(method) = obj.remove("method") {
        let Value::String(method) = method else { return Err(invalid("method must be a string")) };
        let method = Method::Owned(method);
        return match (id, usable_id) {
            (None, _) => Ok(Message::Notification { method, params }),
            (Some(_), Some(id)) => Ok(Message::Request { id, method, params }),
            (Some(_), None) => Err(invalid("id must be a string or a number")),
        };
    }
    let Some(id) = usable_id else { return Err(invalid("a message needs a method, or an id with a result or error")) };
    match (obj.remove("result"), obj.remove("error")) {
        (Some(result), None) => Ok(Message::Response { id, outcome: Ok(Json::Tree(result)) }),
        (None, Some(error)) => Ok(Message::Response { id, outcome: Err(error) }),
        _ => Err(invalid("a response has exactly one of result and error")),
    }
}

/// A request (with an id) or a notification (without) as it leaves, serialized
/// straight from its params: no tree of values is built first, and a request's JSON
/// kept as text is copied as it is.
#[derive(Serialize)]
struct Call<'a, P> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a Value>,
    method: &'a str,
    params: P,
}

/// A response as it leaves: exactly one of `result` and `error`.
#[derive(Serialize)]
struct Reply<'a, R> {
    jsonrpc: &'static str,
    id: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<R>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

fn line(message: impl Serialize) -> String {
    serde_json::to_string(&message).expect("a message always serializes")
}

pub fn request(id: &Value, method: &str, params: impl Serialize) -> String {
    line(Call { jsonrpc: "2.0", id: Some(id), method, params })
}

pub fn notification(method: &str, params: impl Serialize) -> String {
    line(Call { jsonrpc: "2.0", id: None, method, params })
}

pub fn response(id: &Value, outcome: Result<impl Serialize, Value>) -> String {
    let (result, error) = match outcome {
        Ok(result) => (Some(result), None),
        Err(error) => (None, Some(error)),
    };
    line(Reply { jsonrpc: "2.0", id, result, error })
}

/// A whole error response line.
pub fn error(id: Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut e = json!({"code": code, "message": message});
    if let Some(d) = data {
        e["data"] = d;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": e})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(v: Value) -> i64 {
        classify(v).unwrap_err()["error"]["code"].as_i64().unwrap()
    }

    #[test]
    fn classifies() {
        assert!(matches!(classify(json!({"jsonrpc": "2.0", "id": 1, "method": "m"})), Ok(Message::Request { .. })));
        assert!(matches!(classify(json!({"jsonrpc": "2.0", "method": "m"})), Ok(Message::Notification { .. })));
        assert!(matches!(
            classify(json!({"jsonrpc": "2.0", "id": "x", "result": {}})),
            Ok(Message::Response { outcome: Ok(_), .. })
        ));
        assert_eq!(code(json!([1])), INVALID_REQUEST);
        assert_eq!(code(json!(3)), INVALID_REQUEST);
        assert_eq!(code(json!({"id": 1, "method": "m"})), INVALID_REQUEST);
        assert_eq!(code(json!({"jsonrpc": "2.0", "id": 1})), INVALID_REQUEST);
        let e = classify(json!({"jsonrpc": "2.0", "id": 7, "method": 5})).unwrap_err();
        assert_eq!(e["id"], 7);
    }

    #[test]
    fn writes_each_message_with_its_fields_in_order() {
        // JSON kept as text is copied as it is (its space shows it was not written again).
        let raw = serde_json::value::RawValue::from_string(r#"{"questions": []}"#.into()).unwrap();
        assert_eq!(
            request(&json!(3), "questions/offer", &raw),
            r#"{"jsonrpc":"2.0","id":3,"method":"questions/offer","params":{"questions": []}}"#
        );
        assert_eq!(notification("m", json!({})), r#"{"jsonrpc":"2.0","method":"m","params":{}}"#);
        assert_eq!(response(&json!("x"), Ok(Value::Null)), r#"{"jsonrpc":"2.0","id":"x","result":null}"#);
        assert_eq!(
            response(&json!(1), Err::<(), _>(json!({"code": -1, "message": "no"}))),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#
        );
    }
}
