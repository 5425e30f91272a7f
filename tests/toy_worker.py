"""A real toy worker driven by a script in a child process, at a chosen isolation level.

The limits of a request (``Student.time_limit``, the CPU budget, the watch for sleep) are
proved on a worker whose function ``spin(n)`` burns CPU in proportion to ``n``
(``helped(seconds)`` burns ``seconds`` of CPU in a thread that it waits for,
``nap(seconds)`` sleeps), and which the script may
freeze (``SIGSTOP``) to play a machine that stalls it. A test writes what happens
after ``PRELUDE`` and runs it with ``run_script``; the script's last printed line is a
JSON object, which ``run_script`` returns.

``PRELUDE`` defines: ``case`` (the script's third argument), ``State`` (a part that has
timed out ``State.timeouts`` times, in ``State.hung``; ``timed_out`` counts), ``worker``
(loaded, warmed by one small call) and ``freeze(seconds)`` (stop the worker's processes,
and resume them after ``seconds`` unless None).
"""

import json
import subprocess
import sys
from pathlib import Path

from tests.course import TOY, isolation_env

ROOT = Path(__file__).resolve().parents[1]

PRELUDE = """
import json, os, signal, sys, threading, time
from pathlib import Path
from autograder.assignment import load
from autograder.extract import extract
from autograder.sandbox import Worker, WorkerFailure, cleanup
from autograder.suite.student import CALL_TIMEOUT, Student


class State:
    part, seconds, broken = 1, 0.0, None

    def __init__(self):
        self.timeouts, self.hung = 0, set()

    def timed_out(self):
        self.timeouts += 1


toy, path, case = load(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
path.write_text("def spin(n):\\n    total = 0\\n    for i in range(n):\\n"
                "        total += i\\n    return n\\n\\n\\n"
                "def nap(seconds):\\n    __import__('time').sleep(seconds)\\n    return seconds\\n"
                "\\n\\ndef helped(seconds):\\n    import threading, time\\n\\n"
                "    def work():\\n        while time.thread_time() < seconds:\\n"
                "            pass\\n\\n"
                "    helper = threading.Thread(target=work)\\n"
                "    helper.start()\\n    helper.join()\\n    return seconds\\n")
worker = Worker(toy, extract(path), 1, timeout=CALL_TIMEOUT)
worker.call("spin", 1000)


def freeze(seconds):
    time.sleep(0.02)  # the request is on its way
    pids = cleanup.tree(worker.process.pid)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    if seconds is not None:
        time.sleep(seconds)
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
"""


def run_script(body: str, level: str, case: str, tmp_path: Path) -> dict:
    """Run ``PRELUDE + body`` at isolation ``level``; its last line, read as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + body, str(TOY.folder), str(tmp_path / "spin.py"), case],
        cwd=ROOT, env=isolation_env(level), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
