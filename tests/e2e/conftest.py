"""Fixtures of the end-to-end tests: tauri-driver launching the real app with a socket
of its own, a WebDriver session on its window, and helpers to ask as an agent."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "target" / "debug" / "user-questions"
USERQ = ROOT / "target" / "debug" / "userq"
OUT = Path(os.environ.get("E2E_OUT", ROOT / "target" / "e2e"))
DRIVER = ROOT / ".tools" / "bin" / "tauri-driver"


@pytest.fixture
def sock(tmp_path):
    return tmp_path / "userq.sock"


@pytest.fixture
def app(sock, tmp_path, request):
    """The real app under tauri-driver; yields the WebDriver session. It starts in
    English with settings of its own (a language picked in one test never reaches the
    next); `@pytest.mark.env(LANG=...)` starts it in another locale (`{tmp}` in a value
    is the test's temporary folder)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "USERQ_LANG")}
    env.update(USERQ_SOCKET=str(sock), USERQ_WINDOW_IDLE_SECS="600", RUST_LOG="warn", LANG="C.UTF-8",
               XDG_CONFIG_HOME=str(tmp_path / "config"), USERQ_DATA_DIR=str(tmp_path / "data"))
    marker = request.node.get_closest_marker("env")
    if marker:
        env.update({k: v.format(tmp=tmp_path) for k, v in marker.kwargs.items()})
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    application = APP
    if request.node.get_closest_marker("small_disk"):
        # The app's data folder on a small filesystem of its own: a tmpfs mounted in
        # a mount namespace of its own. The test reaches it through the app's
        # /proc/<pid>/root.
        # Root needs no user namespace (and may not make one in a chroot). The
        # mounts stay as they are and the folder's own is made private in the new
        # namespace alone, so the tmpfs never shows outside it.
        namespaces = "--mount" if os.geteuid() == 0 else "--user --map-root-user --mount"
        application = tmp_path / "on-a-small-disk"
        application.write_text(
            f"#!/bin/sh\nexec unshare {namespaces} --propagation unchanged sh -c "
            "'mount --make-rprivate \"$(findmnt -T \"$0\" -n -o TARGET)\" && "
            "mount -t tmpfs -o size=1m tmpfs \"$0\" && exec \"$@\"' "
            f"\"$USERQ_DATA_DIR\" {APP} \"$@\"\n")
        application.chmod(0o755)
        (tmp_path / "data").mkdir()
    options.set_capability("tauri:options", {"application": str(application)})
    driver_proc, driver = launch(env, tmp_path, options)
    try:
        wait_for(lambda: listening(sock), "the app's socket")
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "count"))
        yield driver
        driver.quit()
    finally:
        driver_proc.terminate()
        driver_proc.wait(5)
        gone()


SESSION_TIMEOUT = 60


def launch(env, tmp_path, options):
    """tauri-driver, and a WebDriver session on the app it launches. A session that
    has not begun after SESSION_TIMEOUT seconds is given up:
    the driver is ended, whatever it left is cleared away, and it is tried once more,
    rather than holding up the whole run."""
    from selenium.webdriver.remote.client_config import ClientConfig
    from urllib3.exceptions import ReadTimeoutError
    for attempt in (1, 2):
        port, native_port = free_ports(2)
        driver_proc = subprocess.Popen(
            [DRIVER, "--port", str(port), "--native-port", str(native_port), "--native-driver", "/usr/bin/WebKitWebDriver"],
            env=env, stdout=open(tmp_path / f"driver-{attempt}.log", "w"), stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        config = ClientConfig(remote_server_addr=url, timeout=SESSION_TIMEOUT)
        try:
            for _ in range(100):
                try:
                    return driver_proc, webdriver.Remote(command_executor=url, options=options, client_config=config)
                except ReadTimeoutError:
                    raise
                except Exception:
                    time.sleep(0.1)
            print(f"e2e: tauri-driver did not start on port {port} (WebKitWebDriver on {native_port});"
                  f" read {tmp_path / f'driver-{attempt}.log'}; trying again", file=sys.stderr)
        except ReadTimeoutError:
            print(f"e2e: no WebDriver session after {SESSION_TIMEOUT} s (read {tmp_path / f'driver-{attempt}.log'});"
                  " trying again", file=sys.stderr)
        except BaseException:
            driver_proc.terminate()
            driver_proc.wait(5)
            raise
        driver_proc.kill()
        driver_proc.wait(5)
        subprocess.run(["pkill", "-9", "-f", "WebKitWebDriver --port=" + str(native_port)], check=False)
        gone()
    raise RuntimeError(f"no WebDriver session after two tries; read {tmp_path / 'driver-2.log'}")


def listening(path):
    """True once the app accepts connections on its socket."""
    import socket as _socket
    probe = _socket.socket(_socket.AF_UNIX)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def free_port():
    """A TCP port nobody listens on now, so that test runs side by side never meet."""
    return free_ports(1)[0]


def free_ports(count):
    """`count` different TCP ports nobody listens on now. Each is held while the next is
    picked: two picked one after the other can be the same port, and then tauri-driver and
    WebKitWebDriver fight over it."""
    import contextlib
    import socket as _socket
    with contextlib.ExitStack() as held:
        ports = []
        for _ in range(count):
            s = held.enter_context(_socket.socket())
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
        return ports


def gone():
    """Waits until no app of an earlier test is left: its window would be found in
    the next one's place, and its work slows the next one's."""
    def running():
        return subprocess.run(["pgrep", "-f", str(APP)], capture_output=True, text=True).stdout.split()
    deadline = time.time() + 10
    while running() and time.time() < deadline:
        time.sleep(0.1)
    for pid in running():
        os.kill(int(pid), 9)
    # Killed is not yet gone: until the process has exited, it holds the name.
    while running():
        time.sleep(0.05)


def wait_for(check, what, timeout=10):
    """Polls `check` until it returns something true. An element that leaves the
    page while WebDriver is fetching it (stale), or is not on it yet, is the page
    still changing: the check is simply asked again."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = check()
        except (StaleElementReferenceException, NoSuchElementException):
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Asker:
    """`userq ask` as an agent, in the background."""

    def __init__(self, sock, *args):
        env = dict(os.environ, USERQ_SOCKET=str(sock))
        self.p = subprocess.Popen([USERQ, "ask", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def result(self, timeout=10):
        out, err = self.p.communicate(timeout=timeout)
        return self.p.returncode, (json.loads(out) if out.strip() else None), err


@pytest.fixture
def ask(sock):
    started = []

    def start(*args):
        a = Asker(sock, *args)
        started.append(a)
        return a

    yield start
    for a in started:
        if a.p.poll() is None:
            a.p.kill()


def pytest_configure(config):
    config.addinivalue_line("markers", "small_disk: the app's data folder on a 1 MiB filesystem of its own")
    config.addinivalue_line("markers", "env(**vars): environment variables the app starts with")


def notification_log():
    path = OUT / "notifications.log"
    return path.read_text(errors="replace") if path.exists() else ""


def displayed_notifications():
    return int(subprocess.run(["dunstctl", "count", "displayed"], capture_output=True, text=True).stdout)


def page_processes(pid):
    """The WebKit page processes of the app running as `pid`, by pid."""
    found = subprocess.run(["pgrep", "-P", str(pid), "WebKitWebProces"], capture_output=True, text=True)
    return set(found.stdout.split())


def window_visible(pid=None):
    """A visible window of the app; with `pid`, of that process alone."""
    by_pid = ["--pid", str(pid)] if pid else []
    found = subprocess.run(["xdotool", "search", "--onlyvisible", *by_pid, "--name", "^User Questions"],
                           capture_output=True, text=True)
    return found.stdout.strip() != ""


def forms(driver):
    return driver.find_elements(By.CSS_SELECTOR, "form.ask")


def form_of(driver, agent, timeout=10):
    """Waits for the question of `agent`, picks it in the side list, and returns its form."""
    selector = f"form.ask[data-agent='{agent}']"
    form = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, selector), f"the question of {agent}", timeout)[0]
    return picked(driver, form)


def picked(driver, form):
    """Shows `form` on the right, as a person does: by its line in the side list."""
    if not form.is_displayed():
        ask = form.get_attribute("data-ask")
        driver.find_element(By.CSS_SELECTOR, f"#waiting button.item[data-ask='{ask}']").click()
        wait_for(form.is_displayed, "the question shown")
    return form


def answer_all(driver):
    """Answers every waiting question (each asks `q`, with a Yes) through the window's
    own commands, as its Submit does, in one go."""
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const { invoke } = window.__TAURI__.core;
        invoke('list_questions').then(list => Promise.all(list.asks.map(v =>
          invoke('answer_question', { ask: v.ask, answer: { answers: [{ id: 'q', selected: ['Yes'] }] } }))))
          .then(() => done(true), e => done(String(e)));""")
    assert result is True, result


def drafts(driver):
    """What Rust keeps of each waiting question's draft, by ask: the window saves a
    draft once typing pauses."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        window.__TAURI__.core.invoke('list_questions')
          .then(list => done(Object.fromEntries(list.asks.map(v => [v.ask, v.draft]))), e => done(String(e)));""")


def shot(driver, name):
    """A screenshot of the whole X display (WebKitWebDriver's own screenshot hangs
    under Xvfb), after the page has painted."""
    OUT.mkdir(parents=True, exist_ok=True)
    driver.execute_script("return 1")
    time.sleep(0.3)
    subprocess.run(["import", "-window", "root", str(OUT / f"{name}.png")], check=True, timeout=20)


class Agent:
    """An agent speaking docs/protocol.md on its own connection: it enters once and may
    keep many asks in flight."""

    def __init__(self, sock, agent_id, client="e2e", depth=0):
        import socket as _socket
        self.s = _socket.socket(_socket.AF_UNIX)
        self.s.connect(str(sock))
        self.f = self.s.makefile("rwb")
        self.n = 0
        self.call("initialize", {"protocolVersion": 1, "client": {"name": client, "version": "1"}})
        self.ref = self.call("agents/enter", {"id": agent_id, "delegationDepth": depth})["result"]

    def send(self, method, params):
        self.n += 1
        self.f.write(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}).encode() + b"\n")
        self.f.flush()
        return self.n

    def call(self, method, params):
        self.send(method, params)
        return json.loads(self.f.readline())

    def ask(self, question):
        return self.send("ask", {"agent": self.ref, "questions": [question]})

    def reply(self):
        return json.loads(self.f.readline())

    def close(self):
        self.f.close()
        self.s.close()


class Tray:
    """The app's tray item as a panel sees it: found through the session's tray host
    (tests/e2e/tray_host.py), read and clicked over D-Bus (StatusNotifierItem and
    com.canonical.dbusmenu), the way a desktop panel drives it."""

    def __init__(self, pid, timeout=10):
        self.service, self.path = wait_for(lambda: self._find(pid), "the app's tray item", timeout)

    @staticmethod
    def _call(destination, path, interface, member, signature="", body=()):
        import asyncio
        from dbus_fast import Message, MessageType
        from dbus_fast.aio import MessageBus

        async def go():
            bus = await MessageBus().connect()
            try:
                reply = await bus.call(Message(destination=destination, path=path, interface=interface,
                                               member=member, signature=signature, body=list(body)))
            finally:
                bus.disconnect()
            if reply.message_type == MessageType.ERROR:
                raise RuntimeError(f"{member}: {reply.error_name} {reply.body}")
            return reply.body
        return asyncio.run(go())

    @classmethod
    def _find(cls, pid):
        log = OUT / "tray-items.jsonl"
        for line in reversed(log.read_text().splitlines() if log.exists() else []):
            item = json.loads(line)
            if "service" not in item:
                continue
            try:
                owner = cls._call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                  "GetConnectionUnixProcessID", "s", [item["service"]])[0]
            except RuntimeError:
                continue  # an item of an app that is gone
            if owner == pid:
                return item["service"], item["path"]
        return None

    def prop(self, name):
        return self._call(self.service, self.path, "org.freedesktop.DBus.Properties", "Get", "ss",
                          ["org.kde.StatusNotifierItem", name])[0].value

    def menu(self):
        """The menu's items, in order: [(id, label, toggle state or None)]."""
        menu = self.prop("Menu")
        self._call(self.service, menu, "com.canonical.dbusmenu", "AboutToShow", "i", [0])
        _, layout = self._call(self.service, menu, "com.canonical.dbusmenu", "GetLayout", "iias", [0, -1, []])
        items = []
        for child in layout[2]:
            item_id, props, _ = child.value
            if props.get("type") and props["type"].value == "separator":
                continue
            label = props["label"].value.replace("__", "\0").replace("_", "").replace("\0", "_")
            toggle = props["toggle-state"].value if "toggle-state" in props else None
            items.append((item_id, label, toggle))
        return items

    def labels(self):
        return [label for _, label, _ in self.menu()]

    def click(self, label):
        """Clicks the first item whose label starts with `label`."""
        from dbus_fast import Variant
        item_id = next(i for i, text, _ in self.menu() if text.startswith(label))
        self._call(self.service, self.prop("Menu"), "com.canonical.dbusmenu", "Event", "isvu",
                   [item_id, "clicked", Variant("s", ""), int(time.time())])


def app_pid():
    return int(subprocess.run(["pgrep", "-n", "-f", str(APP)], capture_output=True, text=True).stdout)


class Hook:
    """`userq hook AGENT` as the agent runs it: `hook_input` on stdin, then stdin
    closed; `env`, the environment it runs in."""

    def __init__(self, agent, hook_input, env):
        self.p = subprocess.Popen([str(USERQ), "hook", agent], env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.p.stdin.write(json.dumps(hook_input))
        self.p.stdin.close()

    def decision(self, timeout=20):
        """What the hook printed, read as JSON; `None` when it printed nothing."""
        self.p.wait(timeout)
        out, err = self.p.stdout.read(), self.p.stderr.read()
        assert self.p.returncode == 0, err
        return json.loads(out) if out.strip() else None

    def behavior(self):
        """What the hook told Claude Code of its PermissionRequest."""
        return self.decision()["hookSpecificOutput"]["decision"]["behavior"]
