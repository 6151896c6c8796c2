"""`userq relay`: machines paired through a real NATS broker (Debian's nats-server, on
a loopback port, run by the test). Each "machine" is a home of its own (config, data,
socket) with its own `userq serve`; a protocol answerer on a machine's socket plays
the person at that desk. Questions asked on one machine are answered on another, and
nothing readable passes the broker."""

import json
import os
import shutil
import signal
import subprocess
import threading
import time

import pytest

from conftest import USERQ, Answerer, free_port, wait_until
from nats_accounts import Accounts

NATS = shutil.which("nats-server") or "/usr/sbin/nats-server"


class Broker:
    def __init__(self, port, tls=None, config=None):
        self.port = port
        self.tls = tls
        self.config = config
        self.url = f"{'tls' if tls else 'nats'}://127.0.0.1:{port}"
        self.start()

    def start(self):
        args = ["--tls", "--tlscert", str(self.tls / "server.pem"), "--tlskey", str(self.tls / "server.key")] \
            if self.tls else []
        if self.config:
            args += ["-c", str(self.config)]
        self.p = subprocess.Popen([NATS, "-a", "127.0.0.1", "-p", str(self.port), *args], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        wait_until(self.listening, "nats-server listening")

    def listening(self):
        import socket
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def stop(self):
        self.p.terminate()
        self.p.wait(5)


@pytest.fixture
def broker():
    b = Broker(free_port())
    yield b
    b.stop()


# A join right after the inviting server started waits for it as long as a busy machine
# may need, within the command's own timeout; it ends as soon as the server answers.
JOIN_WAIT = "25s"


class Machine:
    """A machine: its own home, config, data and socket, and its own server."""

    def __init__(self, root, name):
        self.name = name
        self.home = root / name
        self.home.mkdir()
        (self.home / "run").mkdir(mode=0o700)
        self.socket = self.home / "run" / "userq.sock"
        self.env = dict(os.environ, HOME=str(self.home), USERQ_CONFIG_DIR=str(self.home / "config"),
                        USERQ_DATA_DIR=str(self.home / "data"), USERQ_SOCKET=str(self.socket))
        self.server = None

    def relay(self, *args, check=True):
        out = subprocess.run([USERQ, "relay", *args], env=self.env, capture_output=True, text=True, timeout=30)
        if check:
            assert out.returncode == 0, out.stderr
        return out

    def serve(self):
        self.server = subprocess.Popen([USERQ, "serve"], env=self.env, stderr=subprocess.PIPE, text=True)
        wait_until(self.socket.exists, f"{self.name}'s server")
        return self

    def stop(self):
        if self.server and self.server.poll() is None:
            self.server.send_signal(signal.SIGTERM)
            self.server.wait(10)

    def ask(self, question, *args):
        return subprocess.Popen([USERQ, "ask", question, *args], env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def history(self):
        return subprocess.run([USERQ, "history", "--json"], env=self.env, capture_output=True, text=True,
                              check=True).stdout

    def heard_from(self, name):
        status = json.loads(self.relay("status", "--json").stdout)
        return any(m["name"] == name and m.get("lastSeen") for m in status["machines"])

    def person(self):
        return Answerer(self.socket, scope="agents", name=f"person at {self.name}")


@pytest.fixture
def machines(tmp_path):
    made = []

    def make(name):
        m = Machine(tmp_path, name)
        made.append(m)
        return m

    yield make
    for m in made:
        m.stop()


def pair(broker, make, *names):
    """Machines of one circle, each serving: the first starts it and invites the rest."""
    first = make(names[0])
    first.relay("init", broker.url, "--name", first.name)
    first.serve()
    rest = []
    for name in names[1:]:
        code = first.relay("invite").stdout.strip()
        m = make(name)
        out = m.relay("join", code, "--name", name, "--wait", JOIN_WAIT)
        assert f"Joined as {name}" in out.stdout, out.stdout
        rest.append(m.serve())
    # Each relay hears the others (a Hello on connecting) before the test asks.
    time.sleep(0.5)
    return [first, *rest]


def offer_of(person, timeout=10):
    return person.expect("questions/offer", timeout)


def test_a_question_asked_on_one_machine_is_answered_on_another_and_back(broker, machines):
    alpha, beta = pair(broker, machines, "alpha", "beta")
    at_beta = beta.person()
    asker = alpha.ask("Deploy to prod?", "--option", "Yes", "--option", "No", "--agent-id", "deployer")
    offer = offer_of(at_beta)
    request = offer["params"]["request"]
    assert request["questions"][0]["question"] == "Deploy to prod?"
    assert request["context"]["machine"] == "alpha", "the question names the machine it was asked on"
    assert request["agent"]["id"] == "deployer"
    at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
    out, err = asker.communicate(timeout=10)
    assert asker.returncode == 0, err
    assert json.loads(out) == {"answers": [{"id": "q", "selected": ["Yes"]}]}

    at_alpha = alpha.person()
    back = beta.ask("Which region?", "--option", "eu", "--option", "us")
    offer = offer_of(at_alpha)
    assert offer["params"]["request"]["context"]["machine"] == "beta"
    at_alpha.reply(offer, {"answer": {"answers": [{"id": "q", "selected": [], "custom": "ap-south"}]}})
    out, err = back.communicate(timeout=10)
    assert json.loads(out) == {"answers": [{"id": "q", "selected": [], "custom": "ap-south"}]}, err


class Recorder:
    """A subscriber to everything on the broker (NATS's text protocol over a socket),
    keeping every message's subject and bytes: what anyone on the broker could see."""

    def __init__(self, port):
        import socket
        self.s = socket.create_connection(("127.0.0.1", port))
        self.s.sendall(b'CONNECT {"verbose":false,"pedantic":false}\r\nSUB > 1\r\nPING\r\n')
        self.seen = []
        self.buf = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            data = self.s.recv(65536)
            if not data:
                return
            self.buf += data
            while b"\r\n" in self.buf:
                line, rest = self.buf.split(b"\r\n", 1)
                if line.startswith(b"MSG "):
                    parts = line.split()
                    size = int(parts[-1])
                    if len(rest) < size + 2:
                        break
                    self.seen.append((parts[1].decode(), rest[:size]))
                    self.buf = rest[size + 2:]
                elif line == b"PING":
                    self.s.sendall(b"PONG\r\n")
                    self.buf = rest
                else:
                    self.buf = rest


def test_the_broker_sees_no_question_answer_project_or_name(broker, machines):
    recorder = Recorder(broker.port)
    alpha, beta = pair(broker, machines, "alpha", "beta")
    at_beta = beta.person()
    asker = alpha.ask("Rotate the prod-db-secret credentials?", "--option", "Rotate now", "--detail",
                      "Project hyperion-billing", "--agent-id", "secret-agent")
    offer = offer_of(at_beta)
    at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": [], "custom": "wait for tuesday"}]}})
    asker.communicate(timeout=10)
    time.sleep(0.3)
    assert recorder.seen, "the recorder heard the circle's traffic"
    everything = b"".join(subject.encode() + payload for subject, payload in recorder.seen)
    for secret in [b"prod-db-secret", b"Rotate", b"hyperion", b"wait for tuesday", b"secret-agent", b"alpha",
                   b"beta", b"answers"]:
        assert secret not in everything, secret


def test_the_first_answer_wins_and_the_question_leaves_every_machine(broker, machines):
    alpha, beta, gamma = pair(broker, machines, "alpha", "beta", "gamma")
    at_alpha, at_beta, at_gamma = alpha.person(), beta.person(), gamma.person()
    asker = alpha.ask("Merge it?", "--option", "Yes", "--option", "No")
    offers = [offer_of(p) for p in (at_alpha, at_beta, at_gamma)]
    assert {o["params"]["request"]["questions"][0]["question"] for o in offers} == {"Merge it?"}
    # Beta and gamma hold it; gamma answers first, beta's answer comes too late.
    at_beta.reply(offers[1], {"claim": True})
    at_gamma.reply(offers[2], {"answer": {"answers": [{"id": "q", "selected": ["No"]}]}})
    out, err = asker.communicate(timeout=10)
    assert json.loads(out) == {"answers": [{"id": "q", "selected": ["No"]}]}, err
    for person in (at_alpha, at_beta):
        assert person.expect("questions/withdraw")["params"]["ask"] in {o["params"]["ask"] for o in offers}


def test_an_asker_that_leaves_withdraws_its_question_everywhere(broker, machines):
    alpha, beta = pair(broker, machines, "alpha", "beta")
    at_beta = beta.person()
    asker = alpha.ask("Still there?", "--option", "Yes")
    offer = offer_of(at_beta)
    at_beta.reply(offer, {"claim": True})
    asker.send_signal(signal.SIGINT)
    asker.wait(10)
    assert at_beta.expect("questions/withdraw")["params"]["ask"] == offer["params"]["ask"]


def test_a_removed_machine_and_another_circle_receive_nothing(broker, machines):
    alpha, beta, gamma = pair(broker, machines, "alpha", "beta", "gamma")
    other = machines("other")
    other.relay("init", broker.url, "--name", "other")
    other.serve()
    at_gamma, at_other = gamma.person(), other.person()
    out = alpha.relay("remove", "gamma")
    assert "Removed gamma" in out.stdout
    time.sleep(0.5)
    assert [p["name"] for p in json.loads(beta.relay("status", "--json").stdout)["machines"]] == ["alpha", "beta"], \
        "the roster reached beta"
    at_beta = beta.person()
    asker = alpha.ask("Only for us?", "--option", "Yes")
    offer = offer_of(at_beta)
    at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
    asker.communicate(timeout=10)
    time.sleep(0.5)
    assert at_gamma.messages.empty() and at_other.messages.empty()


def test_the_broker_restarted_mid_question_delivers_it_when_back(broker, machines):
    alpha, beta = pair(broker, machines, "alpha", "beta")
    at_beta = beta.person()
    broker.stop()
    asker = alpha.ask("Asked while the broker was down?", "--option", "Yes")
    time.sleep(1)
    started = time.time()
    broker.start()
    offer = offer_of(at_beta, timeout=30)
    print(f"broker back -> waiting question offered on the other machine: {time.time() - started:.2f} s")
    at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
    out, err = asker.communicate(timeout=30)
    assert json.loads(out) == {"answers": [{"id": "q", "selected": ["Yes"]}]}, err


def test_pairing_says_what_is_wrong(broker, machines):
    alpha = machines("alpha")
    out = alpha.relay("status", check=False)
    assert out.returncode == 1 and "not paired" in out.stderr
    alpha.relay("init", broker.url, "--name", "alpha")
    out = alpha.relay("init", broker.url, check=False)
    assert out.returncode == 1 and "already paired" in out.stderr
    beta = machines("beta")
    out = beta.relay("join", "userq-invite-garbage", check=False)
    assert out.returncode == 1 and "cut or changed" in out.stderr, out.stderr
    code = alpha.relay("invite").stdout.strip()
    out = beta.relay("join", code, "--wait", "1s", check=False)
    assert out.returncode == 1 and "no machine of the circle answered" in out.stderr, "alpha is not serving"
    alpha.serve()
    beta.relay("join", code, "--name", "beta", "--wait", JOIN_WAIT)
    gamma = machines("gamma")
    out = gamma.relay("join", code, "--name", "gamma", check=False)
    assert out.returncode == 1 and "this invite was used already" in out.stderr, out.stderr
    status = json.loads(alpha.relay("status", "--json").stdout)
    assert status["connected"] is True
    assert [m["name"] for m in status["machines"]] == ["alpha", "beta"]
    out = alpha.relay("remove", "alpha", check=False)
    assert out.returncode == 1 and "relay leave" in out.stderr
    mode = (alpha.home / "config" / "relay.json").stat().st_mode & 0o777
    assert mode == 0o600, oct(mode)


def test_an_answer_given_while_the_broker_is_down_arrives_when_it_is_back(broker, machines):
    alpha, beta = pair(broker, machines, "alpha", "beta")
    at_beta = beta.person()
    asker = alpha.ask("Answered in the dark?", "--option", "Yes")
    offer = offer_of(at_beta)
    broker.stop()
    at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
    time.sleep(1)
    assert asker.poll() is None, "nothing reached the asker while the broker was away"
    broker.start()
    out, err = asker.communicate(timeout=30)
    assert json.loads(out) == {"answers": [{"id": "q", "selected": ["Yes"]}]}, err


def test_an_answer_given_while_the_asking_machine_restarts_reaches_its_asker(broker, machines):
    alpha, beta = pair(broker, machines, "alpha", "beta")
    at_beta = beta.person()
    asker = alpha.ask("Answered while the asking desk restarts?", "--option", "Yes", "--option", "No",
                      "--agent-id", "builder")
    offer = offer_of(at_beta)
    alpha.stop()
    at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["No"]}]}})
    wait_until(lambda: "person at beta" in beta.history(), "the answer taken at beta")
    assert asker.poll() is None, "the asker waits for its server to come back"
    alpha.serve()
    # The asker asks again on the new server; beta says again what was said there, and
    # its person is not asked twice (this answerer would never answer a second offer).
    out, err = asker.communicate(timeout=60)
    assert asker.returncode == 0, err
    assert json.loads(out) == {"answers": [{"id": "q", "selected": ["No"]}]}
    assert "machine:beta" in alpha.history(), "the asking machine knows who answered"


def test_the_answering_machine_restarted_finds_the_question_still_waiting(broker, machines):
    alpha, beta = pair(broker, machines, "alpha", "beta")
    at_beta = beta.person()
    asker = alpha.ask("Survives a restart of the other desk?", "--option", "Yes")
    offer_of(at_beta)
    beta.stop()
    beta.serve()
    at_beta = beta.person()
    offer = offer_of(at_beta, timeout=15)
    assert offer["params"]["request"]["questions"][0]["question"] == "Survives a restart of the other desk?"
    at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
    out, err = asker.communicate(timeout=10)
    assert json.loads(out) == {"answers": [{"id": "q", "selected": ["Yes"]}]}, err


def certificates(folder):
    """A certificate authority of the test's own and a certificate for 127.0.0.1 it signed."""
    folder.mkdir()
    run = lambda *a: subprocess.run(["openssl", *a], cwd=folder, check=True, capture_output=True)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=userq test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
        "server.pem", "-days", "2", "-extfile", "san.ext")
    return folder


def test_a_broker_behind_tls_carries_the_circle(machines, tmp_path, monkeypatch):
    tls = certificates(tmp_path / "tls")
    broker = Broker(free_port(), tls=tls)
    try:
        # The machines trust the test's authority as they would a system one.
        monkeypatch.setenv("SSL_CERT_FILE", str(tls / "ca.pem"))
        alpha, beta = pair(broker, machines, "alpha", "beta")
        assert json.loads(alpha.relay("status", "--json").stdout)["connected"] is True
        at_beta = beta.person()
        asker = alpha.ask("Over TLS?", "--option", "Yes")
        offer = offer_of(at_beta)
        at_beta.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
        out, err = asker.communicate(timeout=10)
        assert json.loads(out) == {"answers": [{"id": "q", "selected": ["Yes"]}]}, err
        # Without the authority, the broker's certificate is refused, and status says so.
        monkeypatch.delenv("SSL_CERT_FILE")
        stranger = machines("stranger")
        stranger.env.pop("SSL_CERT_FILE", None)
        stranger.relay("init", broker.url, "--name", "stranger")
        out = stranger.relay("status", check=False)
        assert out.returncode == 1 and "not reached" in out.stdout, out.stdout
    finally:
        broker.stop()


def test_a_credentials_file_that_cannot_be_read_is_named(broker, machines, tmp_path):
    alpha = machines("alpha")
    alpha.relay("init", broker.url, "--name", "alpha", "--creds", str(tmp_path / "missing.creds"))
    out = alpha.relay("status", check=False)
    assert out.returncode == 1 and "missing.creds" in out.stderr + out.stdout, out.stderr + out.stdout


def test_a_broker_that_takes_only_credentials_carries_the_circle(machines, tmp_path):
    accounts = Accounts(tmp_path)
    port = free_port()
    broker = Broker(port, config=accounts.server_config(port))
    try:
        alpha, beta = machines("alpha"), machines("beta")
        stranger = machines("stranger")
        alpha.relay("init", broker.url, "--name", "alpha", "--creds", str(accounts.user("alpha")))
        alpha.serve()
        code = alpha.relay("invite").stdout.strip()
        out = stranger.relay("join", code, "--name", "stranger", check=False)
        assert out.returncode == 1 and "authorization" in out.stderr.lower(), out.stderr
        beta.relay("join", code, "--name", "beta", "--creds", str(accounts.user("beta")), "--wait", JOIN_WAIT)
        beta.serve()
        status = json.loads(alpha.relay("status", "--json").stdout)
        assert status["connected"] is True, status
        at_beta = beta.person()
        asker = alpha.ask("Through an account of our own?", "--option", "Yes")
        at_beta.reply(offer_of(at_beta), {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
        out, err = asker.communicate(timeout=10)
        assert json.loads(out) == {"answers": [{"id": "q", "selected": ["Yes"]}]}, err
    finally:
        broker.stop()


def scanned(drawing):
    """What a camera reads in a QR code drawn with half blocks, light on dark."""
    import numpy
    import zxingcpp
    # Each character is two modules, top and bottom; a drawn (light) half is a light module.
    light = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}
    rows = drawing.splitlines()
    modules = numpy.array([[light[c][half] for c in row] for row in rows for half in (0, 1)], dtype=numpy.uint8)
    image = numpy.kron(modules * 255, numpy.ones((6, 6), dtype=numpy.uint8))
    return [b.text for b in zxingcpp.read_barcodes(image)]


def test_an_invite_in_a_terminal_is_a_qr_code_a_camera_reads(broker, machines):
    import pexpect
    alpha = machines("alpha")
    alpha.relay("init", broker.url, "--name", "alpha")
    term = pexpect.spawn(str(USERQ), ["relay", "invite"], env=alpha.env, encoding="utf-8", timeout=10,
                         dimensions=(80, 200))
    term.expect(pexpect.EOF)
    lines = term.before.replace("\r", "").splitlines()
    code = next(line for line in lines if line.startswith("userq-invite-"))
    drawing = "\n".join(lines[:lines.index(code)])
    assert scanned(drawing) == [code]
    piped = alpha.relay("invite").stdout
    assert piped.startswith("userq-invite-") and len(piped.splitlines()) == 1, "piped, the code alone"


def test_a_server_takes_up_a_circle_made_while_it_serves_and_drops_it_on_leave(broker, machines):
    alpha, beta = machines("alpha").serve(), machines("beta").serve()
    alpha.relay("init", broker.url, "--name", "alpha")
    code = alpha.relay("invite").stdout.strip()
    # alpha's running server answers the invite: it took up the circle.
    beta.relay("join", code, "--name", "beta", "--wait", JOIN_WAIT)
    at_beta = beta.person()
    wait_until(lambda: alpha.heard_from("beta"), "alpha hearing from beta's server")
    asker = alpha.ask("Paired without a restart?", "--option", "Yes")
    at_beta.reply(offer_of(at_beta, timeout=15), {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
    out, err = asker.communicate(timeout=10)
    assert json.loads(out) == {"answers": [{"id": "q", "selected": ["Yes"]}]}, err

    alpha.relay("leave")

    def unrelayed():
        # While the relay runs, the ask waits for beta; once it stopped, no one here answers.
        alone = alpha.ask("Still relayed?", "--option", "Yes")
        try:
            _, err = alone.communicate(timeout=2)
        except subprocess.TimeoutExpired:
            alone.kill()
            alone.communicate()
            return False
        return alone.returncode == 1 and "no user-questions answerer accepted" in err
    wait_until(unrelayed, "alpha's server dropping the circle it left", timeout=15)
