//! A machine's keys, and what passes the broker sealed with them. Everything a relay
//! publishes is signed by its machine (ed25519) and then encrypted to every machine of
//! the circle (age, X25519): the broker, and anyone else on it, reads nothing, and
//! cannot forge or alter a message, since only a paired machine's signature is taken.
//! A machine removed from the circle is sealed to no more and its signature no longer
//! taken. Each message carries a random id and its time; a message seen before is
//! dropped, and every message names the ask it is about, so a replayed one can only
//! repeat what its machine already said of that ask. No cryptography is written here:
//! `age` and `ed25519-dalek` do it.

use std::io::{Read as _, Write as _};
use std::str::FromStr as _;

use age::secrecy::ExposeSecret as _;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

/// A machine's secret keys (and, from them, its public ones).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Keys {
    /// `AGE-SECRET-KEY-1…`: opens what is sealed to this machine.
    pub age: String,
    /// The ed25519 signing key, base64.
    pub sign: String,
}

/// What others need of a machine: to seal to it, and to check its signature.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PublicKeys {
    /// `age1…`
    pub recipient: String,
    /// The ed25519 verifying key, base64.
    pub verify: String,
}

/// Why a message was not taken.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SealError {
    #[error("not sealed to this machine")]
    NotForUs,
    #[error("not signed by a machine of this circle")]
    Unsigned,
    #[error("malformed: {0}")]
    Malformed(String),
}

impl Keys {
    pub fn generate() -> Self {
        let age = age::x25519::Identity::generate().to_string().expose_secret().to_owned();
        let seed: [u8; 32] = rand::random();
        Self { age, sign: B64.encode(seed) }
    }

    fn identity(&self) -> age::x25519::Identity {
        age::x25519::Identity::from_str(&self.age).expect("a relay file's own age key")
    }

    fn signing(&self) -> SigningKey {
        let seed: [u8; 32] =
            B64.decode(&self.sign).ok().and_then(|b| b.try_into().ok()).expect("a relay file's own signing key");
        SigningKey::from_bytes(&seed)
    }

    pub fn public(&self) -> PublicKeys {
        PublicKeys {
            recipient: self.identity().to_public().to_string(),
            verify: B64.encode(self.signing().verifying_key().to_bytes()),
        }
    }

    /// `body` signed by this machine (`from`) and sealed to `to`.
    pub fn seal(&self, from: &str, body: &[u8], to: &[&PublicKeys]) -> Vec<u8> {
        let signed = SignedWire {
            from: from.to_owned(),
            signature: B64.encode(self.signing().sign(body).to_bytes()),
            body: B64.encode(body),
        };
        let plain = serde_json::to_vec(&signed).expect("a signed message serializes");
        let recipients: Vec<age::x25519::Recipient> =
            to.iter().filter_map(|k| age::x25519::Recipient::from_str(&k.recipient).ok()).collect();
        let encryptor = age::Encryptor::with_recipients(recipients.iter().map(|r| r as &dyn age::Recipient))
            .expect("at least this machine to seal to");
        let mut out = Vec::with_capacity(plain.len() + 200 * recipients.len());
        let mut writer = encryptor.wrap_output(&mut out).expect("writing to memory");
        writer.write_all(&plain).and_then(|_| writer.finish().map(drop)).expect("writing to memory");
        out
    }

    /// Opens a sealed message: who sent it (one of `peers`, by name) and its body.
    pub fn open<'p>(
        &self,
        sealed: &[u8],
        peers: impl IntoIterator<Item = (&'p str, &'p PublicKeys)>,
    ) -> Result<(String, Vec<u8>), SealError> {
        let signed = unseal(&self.identity(), sealed)?;
        let (name, _) = peers
            .into_iter()
            .find(|(name, keys)| *name == signed.from && signed.is_by(keys))
            .ok_or(SealError::Unsigned)?;
        Ok((name.to_owned(), signed.body))
    }
}

/// An invite's key: a joining machine seals its request to it; the code carries its
/// secret half.
pub struct InviteKey(age::x25519::Identity);

impl InviteKey {
    pub fn generate() -> Self {
        Self(age::x25519::Identity::generate())
    }

    pub fn parse(secret: &str) -> Option<Self> {
        age::x25519::Identity::from_str(secret).ok().map(Self)
    }

    pub fn secret(&self) -> String {
        self.0.to_string().expose_secret().to_owned()
    }

    pub fn public(&self) -> PublicKeys {
        // Only sealed to, never a signer.
        PublicKeys { recipient: self.0.to_public().to_string(), verify: String::new() }
    }

    /// Opens a request sealed to this invite: its signer's claimed name, its body, and
    /// whether it is signed by `keys` (read from the body).
    pub fn open(&self, sealed: &[u8]) -> Result<Unsealed, SealError> {
        unseal(&self.0, sealed).map(Unsealed)
    }
}

/// A message opened but whose signer is not yet known to be anyone.
pub struct Unsealed(Signed);

impl Unsealed {
    pub fn body(&self) -> &[u8] {
        &self.0.body
    }

    /// Whether `name` with `keys` signed it.
    pub fn is_by(&self, name: &str, keys: &PublicKeys) -> bool {
        self.0.from == name && self.0.is_by(keys)
    }
}

fn unseal(identity: &age::x25519::Identity, sealed: &[u8]) -> Result<Signed, SealError> {
    let decryptor = age::Decryptor::new(sealed).map_err(|e| SealError::Malformed(e.to_string()))?;
    let mut reader =
        decryptor.decrypt(std::iter::once(identity as &dyn age::Identity)).map_err(|_| SealError::NotForUs)?;
    let mut plain = Vec::new();
    reader.read_to_end(&mut plain).map_err(|e| SealError::Malformed(e.to_string()))?;
    let wire: SignedWire = serde_json::from_slice(&plain).map_err(|e| SealError::Malformed(e.to_string()))?;
    let body = B64.decode(&wire.body).map_err(|e| SealError::Malformed(e.to_string()))?;
    let signature = B64
        .decode(&wire.signature)
        .ok()
        .and_then(|b| ed25519_dalek::Signature::from_slice(&b).ok())
        .ok_or(SealError::Unsigned)?;
    Ok(Signed { from: wire.from, signature, body })
}

struct Signed {
    from: String,
    signature: ed25519_dalek::Signature,
    body: Vec<u8>,
}

impl Signed {
    fn is_by(&self, keys: &PublicKeys) -> bool {
        keys.verifier().is_some_and(|v| v.verify_strict(&self.body, &self.signature).is_ok())
    }
}

impl PublicKeys {
    fn verifier(&self) -> Option<VerifyingKey> {
        let bytes: [u8; 32] = B64.decode(&self.verify).ok()?.try_into().ok()?;
        VerifyingKey::from_bytes(&bytes).ok()
    }

    /// Whether both keys read as keys.
    pub fn is_valid(&self) -> bool {
        self.verifier().is_some() && age::x25519::Recipient::from_str(&self.recipient).is_ok()
    }
}

/// A signed message as it is sealed.
#[derive(Serialize, Deserialize)]
struct SignedWire {
    from: String,
    signature: String,
    body: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_message_opens_for_its_recipients_only_and_only_under_its_signers_name() {
        let (a, b, c) = (Keys::generate(), Keys::generate(), Keys::generate());
        let (pa, pb, pc) = (a.public(), b.public(), c.public());
        assert!(pa.is_valid());
        let sealed = a.seal("a", b"which region?", &[&pa, &pb]);
        assert!(!String::from_utf8_lossy(&sealed).contains("region"), "nothing readable passes");
        let peers = [("a", &pa), ("b", &pb), ("c", &pc)];
        assert_eq!(b.open(&sealed, peers).unwrap(), ("a".to_owned(), b"which region?".to_vec()));
        assert_eq!(a.open(&sealed, peers).unwrap().1, b"which region?");
        assert_eq!(c.open(&sealed, peers), Err(SealError::NotForUs), "not sealed to c");
        // Signed by a, but a is not (or no longer) among the peers: not taken.
        assert_eq!(b.open(&sealed, [("b", &pb), ("c", &pc)]), Err(SealError::Unsigned));
        // c claims to be a: its signature is not a's.
        let forged = c.seal("a", b"answer: yes", &[&pb]);
        assert_eq!(b.open(&forged, peers), Err(SealError::Unsigned));
        // A byte changed anywhere: not opened.
        let mut broken = sealed.clone();
        let last = broken.len() - 1;
        broken[last] ^= 1;
        assert!(b.open(&broken, peers).is_err());
        assert!(matches!(b.open(b"garbage", peers), Err(SealError::Malformed(_))));
    }
}
