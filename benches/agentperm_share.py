"""agentperm's share on the same real commands as the policy's own figure
(`tests/judge/real-read-only.txt` and `real-writes.txt`): with its default templates
(safety-baseline, file-inspection, git-read-only), the read-only set's peer, how many
read-only commands it allows, and how many commands that write or run it allows.

    python3.12 -m venv /tmp/ap && /tmp/ap/bin/pip install agentperm==0.4.0
    python3 benches/agentperm_share.py /tmp/ap/bin/agentperm

(agentperm needs Python 3.12 or later.) It runs `agentperm why` once per command, in a
home of its own; "allow" on every segment is an allow."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "tests" / "judge"


def commands(name):
    return [l for l in (HERE / name).read_text().splitlines() if l.strip() and not l.startswith("#")]


def main(agentperm):
    home = tempfile.mkdtemp()
    env = dict(os.environ, HOME=home)
    subprocess.run([agentperm, "init", "--global"], env=env, check=True, capture_output=True)

    def allowed(command):
        out = subprocess.run([agentperm, "why", command], env=env, capture_output=True, text=True, cwd=home)
        first = out.stdout.strip().splitlines()[:1]
        return bool(first) and first[0].split()[0] == "allow"

    read_only, writes = commands("real-read-only.txt"), commands("real-writes.txt")
    unasked = sum(allowed(c) for c in read_only)
    wrong = [c for c in writes if allowed(c)]
    print(f"agentperm: real read-only commands run unasked: {unasked} of {len(read_only)} "
          f"({100 * unasked / len(read_only):.1f}%); of {len(writes)} that write or run, allowed: {len(wrong)}")
    for c in wrong:
        print("  allowed:", c)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "agentperm")
