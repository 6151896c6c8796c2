"""NATS's decentralized accounts for a test broker, as `nsc` would make them: an
operator, an account signed by it, and users signed by the account, each user's JWT
and key seed in a credentials file (`--creds`). The keys are nkeys (ed25519, from the
`nkeys` package); a JWT is signed with its issuer's key, `ed25519-nkey`."""

import base64
import hashlib
import json
import os
import time

import nkeys


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Key:
    def __init__(self, prefix):
        self.seed = nkeys.encode_seed(os.urandom(32), prefix)
        self.pair = nkeys.from_seed(bytearray(self.seed))
        self.public = self.pair.public_key.decode()


def _jwt(subject, issuer, name, nats):
    claims = {"iat": int(time.time()), "iss": issuer.public, "name": name, "sub": subject.public, "nats": nats}
    claims["jti"] = base64.b32encode(hashlib.sha256(json.dumps(claims, sort_keys=True).encode()).digest()) \
        .rstrip(b"=").decode()
    signed = _b64(json.dumps({"typ": "JWT", "alg": "ed25519-nkey"}).encode()) + "." + _b64(json.dumps(claims).encode())
    return signed + "." + _b64(issuer.pair.sign(signed.encode()))


UNLIMITED = {"subs": -1, "data": -1, "payload": -1}


class Accounts:
    """One operator and one account; `user(name)` writes a user's credentials file."""

    def __init__(self, folder):
        self.folder = folder
        self.operator = Key(nkeys.PREFIX_BYTE_OPERATOR)
        self.account = Key(nkeys.PREFIX_BYTE_ACCOUNT)
        self.operator_jwt = _jwt(self.operator, self.operator, "operator", {"type": "operator", "version": 2})
        limits = dict(UNLIMITED, conn=-1, leaf=-1, imports=-1, exports=-1, wildcards=True)
        self.account_jwt = _jwt(self.account, self.operator, "circle",
                                {"type": "account", "version": 2, "limits": limits})

    def server_config(self, port):
        path = self.folder / "nats.conf"
        path.write_text(f"host: 127.0.0.1\nport: {port}\noperator: {self.operator_jwt}\nresolver: MEMORY\n"
                        f"resolver_preload: {{\n  {self.account.public}: {self.account_jwt}\n}}\n")
        return path

    def user(self, name):
        user = Key(nkeys.PREFIX_BYTE_USER)
        token = _jwt(user, self.account, name, dict(UNLIMITED, type="user", version=2, pub={}, sub={}))
        path = self.folder / f"{name}.creds"
        path.write_text(f"-----BEGIN NATS USER JWT-----\n{token}\n------END NATS USER JWT------\n\n"
                        f"-----BEGIN USER NKEY SEED-----\n{user.seed.decode()}\n------END USER NKEY SEED------\n")
        path.chmod(0o600)
        return path
