"""A Matrix homeserver for the tests: a real Synapse (PyPI's matrix-synapse, in
`.tools/synapse`) on a loopback port, federation off, its own SQLite database and
keys in the test's folder; accounts made with its shared-secret registration. Used by
tests/python/test_matrix.py and test_matrix_bridge.py, with a desk (`Desk`: `userq` with
folders of its own) and phones (`Phone`: tests/python/phone.mjs)."""

import hashlib
import hmac
import json
import os
import queue
import shutil
import threading
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
USERQ = Path(os.environ.get("USERQ_BIN", ROOT / "target" / "debug" / "userq"))
NODE = ROOT / ".tools" / "agents" / "node_modules" / ".bin" / "node"
PHONE = ROOT / ".tools" / "phone"
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


class Desk:
    """`userq matrix` with a data folder of its own."""

    def __init__(self, folder):
        self.data = folder / "data"
        self.env = dict(os.environ, USERQ_DATA_DIR=str(self.data), USERQ_CONFIG_DIR=str(folder / "config"),
                        USERQ_SOCKET=str(folder / "userq.sock"), USERQ_LANG="en")
        self.folder = folder

        self.socket = folder / "userq.sock"
        self.server = None

    def matrix(self, *args):
        return subprocess.run([USERQ, "matrix", *args], env=self.env, capture_output=True, text=True, timeout=60)

    def password_file(self, password):
        path = self.folder / "password"
        path.write_text(password + "\n")
        return str(path)

    def init(self, homeserver, user, password):
        return self.matrix("init", homeserver.url, "--user", f"@{user}:{homeserver.server_name}",
                           "--password-file", self.password_file(password))


    def serve(self):
        """`userq serve`, its log in `serve.log`; returns once the bridge asks in its room."""
        self.log = self.folder / "serve.log"
        started = self.log.read_text().count("matrix: asking in") if self.log.exists() else 0
        self.server = subprocess.Popen([USERQ, "serve"], env=self.env, stderr=open(self.log, "a"))
        deadline = time.time() + 60
        while self.log.read_text().count("matrix: asking in") == started:
            if self.server.poll() is not None or time.time() > deadline:
                raise AssertionError("the bridge did not start: " + self.log.read_text()[-2000:])
            time.sleep(0.1)
        return self

    def stop(self):
        if self.server and self.server.poll() is None:
            self.server.terminate()
            self.server.wait(15)

    def ask(self, *args):
        return subprocess.Popen([USERQ, "ask", *args], env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def history(self):
        out = subprocess.run([USERQ, "history", "--json"], env=self.env, capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr
        return [json.loads(line) for line in out.stdout.splitlines()]

    def record(self, question):
        """The history's record of the ask of `question`."""
        return next(r for r in self.history() if r["request"]["questions"][0]["question"] == question)


class Phone:
    """A person's phone: tests/python/phone.mjs (matrix-js-sdk, Rust crypto, strict
    mode) logged in as `user`; what it reads arrives in `heard`."""

    def __init__(self, homeserver, user, password, unsigned=False, new_identity=False):
        shutil.copy(ROOT / "tests" / "python" / "phone.mjs", PHONE / "phone.mjs")
        args = [NODE, PHONE / "phone.mjs", homeserver.url, user, password]
        args += (["--unsigned"] if unsigned else []) + (["--new-identity"] if new_identity else [])
        env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.heard = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()
        ready = self.wait(lambda m: m.get("ready"), "the phone to start", 90)["ready"]
        self.user, self.device = ready["user"], ready["device"]

    def _read(self):
        for line in self.process.stdout:
            try:
                self.heard.put(json.loads(line))
            except ValueError:  # the SDK's own log lines
                self.heard.put({"log": line.rstrip()})

    def wait(self, check, what, timeout=60):
        """The first thing heard (before or now) that `check` accepts."""
        for m in self.seen:
            if check(m):
                return m
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                m = self.heard.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(m)
            if "error" in m and "of" in m:
                raise AssertionError(f"the phone failed: {m}")
            if check(m):
                return m
        raise AssertionError(f"timed out waiting for {what}; the phone heard: {self.seen[-10:]}")

    def send(self, **command):
        command.setdefault("tag", f"c{len(self.seen)}-{time.time()}")
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self.wait(lambda m: m.get("of") == command.get("tag") and "sent" in m, f"the phone to send {command}")

    def poll(self, question):
        return self.wait(lambda m: m.get("poll", {}).get("question") == question, f"the poll {question!r}")["poll"]

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.write(json.dumps({"stop": True}) + "\n")
                self.process.stdin.flush()
                self.process.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()


def bridge_for(homeserver, desk, bridge, phones, *room_args):
    """Sets up the bridge `bridge` (a new account) at `desk`, in a new room with the
    people of `phones` (and `room_args`), and serves; the room's id once each phone
    joined it."""
    homeserver.register(bridge, "pw-" + bridge)
    made = desk.init(homeserver, bridge, "pw-" + bridge)
    assert made.returncode == 0, made.stderr
    made = desk.matrix("room", *[a for p in phones for a in ["--invite", p.user]], *room_args)
    assert made.returncode == 0, made.stderr
    room = json.loads(desk.matrix("status", "--json").stdout)["room"]["room"]
    for phone in phones:
        phone.wait(lambda m: m.get("joined") == room, f"{phone.user} to join the room")
    desk.serve()
    return room
