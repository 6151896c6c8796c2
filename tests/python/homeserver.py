"""A Matrix homeserver for the tests: a real Synapse (PyPI's matrix-synapse, in
`.tools/synapse`) on a loopback port, federation off, its own SQLite database and
keys in the test's folder; accounts made with its shared-secret registration. Used by
tests/python/test_matrix.py."""

import hashlib
import hmac
import json
import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".tools" / "synapse" / "bin" / "python"
SECRET = "user-questions-tests"
# Lifted so a test's logins, rooms and messages are never throttled.
FAST = {"per_second": 1000, "burst_count": 1000}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Homeserver:
    """`url` is its client API; `server_name` is `localhost`."""

    server_name = "localhost"

    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config = self.folder / "homeserver.json"
        self.config.write_text(json.dumps({
            "server_name": self.server_name,
            "pid_file": str(self.folder / "homeserver.pid"),
            "signing_key_path": str(self.folder / "signing.key"),
            "media_store_path": str(self.folder / "media"),
            "report_stats": False,
            "listeners": [{"port": self.port, "bind_addresses": ["127.0.0.1"], "type": "http", "tls": False,
                           "resources": [{"names": ["client"], "compress": False}]}],
            "database": {"name": "sqlite3", "args": {"database": str(self.folder / "homeserver.db")}},
            "registration_shared_secret": SECRET,
            "enable_registration": False,
            "federation_domain_whitelist": [],
            "trusted_key_servers": [],
            "suppress_key_server_warning": True,
            "presence": {"enabled": False},
            "ip_range_whitelist": ["127.0.0.1"],
            "log_config": None,
            "rc_message": FAST,
            "rc_login": {"address": FAST, "account": FAST, "failed_attempts": FAST},
            "rc_registration": FAST,
            "rc_joins": {"local": FAST, "remote": FAST},
            "rc_invites": {"per_room": FAST, "per_user": FAST, "per_issuer": FAST},
            "rc_room_creation": FAST,
            "rc_key_requests": FAST,
        }))
        self.process = None
        self.start()

    def start(self):
        env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
        self.log = open(self.folder / "homeserver.log", "a")
        self.process = subprocess.Popen([PYTHON, "-m", "synapse.app.homeserver", "-c", str(self.config)],
                                        env=env, stdout=self.log, stderr=subprocess.STDOUT, cwd=self.folder)
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/_matrix/client/versions", timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None or time.time() > deadline:
                    raise RuntimeError("Synapse did not start: " + (self.folder / "homeserver.log").read_text()[-3000:])
                time.sleep(0.2)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)
        self.log.close()

    def register(self, user, password):
        """Makes the account `user` (a localpart); returns its full id."""
        return self.account(user, password)["user_id"]

    def account(self, user, password):
        """Makes the account `user`; returns its id and an access token (a client of its own)."""
        url = self.url + "/_synapse/admin/v1/register"
        with urllib.request.urlopen(url) as r:
            nonce = json.load(r)["nonce"]
        mac = hmac.new(SECRET.encode(), b"\0".join([nonce.encode(), user.encode(), password.encode(), b"notadmin"]),
                       hashlib.sha1).hexdigest()
        body = json.dumps({"nonce": nonce, "username": user, "password": password, "admin": False, "mac": mac})
        request = urllib.request.Request(url, body.encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as r:
            return json.load(r)

    def devices(self, user, password):
        """The devices of an account, as its own new login lists them (that login aside)."""
        login = self._call("POST", "/_matrix/client/v3/login", {
            "type": "m.login.password", "identifier": {"type": "m.id.user", "user": user}, "password": password})
        token = login["access_token"]
        listed = self._call("GET", "/_matrix/client/v3/devices", token=token)["devices"]
        self._call("POST", "/_matrix/client/v3/logout", {}, token=token)
        return [d["device_id"] for d in listed if d["device_id"] != login["device_id"]]

    def call(self, token, method, path, body=None):
        """A client-API request as the account whose token it is."""
        return self._call(method, path, body, token=token)

    def _call(self, method, path, body=None, token=None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        request = urllib.request.Request(self.url + path, data, headers, method=method)
        with urllib.request.urlopen(request) as r:
            return json.load(r)
