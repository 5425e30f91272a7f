"""What graded code can leave on the host, found by a token the attack carries.

The machine is shared (other graders, other tests), so "the same as before" is checked
for what one attack made: /dev/shm entries whose name holds its token, System V
objects whose key comes from its token, and processes whose command line holds it.
"""

import time
from pathlib import Path

from .hostile import processes_with


def ipc_key(token: str, n: int = 0) -> int:
    """A System V key derived from ``token`` (positive, 31 bits)."""
    return (int(token[-7:], 16) << 3 | n) & 0x7FFFFFFF


def ipc_with(token: str) -> list[str]:
    """System V segments, semaphores and queues whose key came from ``token``."""
    keys = {ipc_key(token, n) for n in range(8)}
    found = []
    for kind in ("shm", "sem", "msg"):
        try:
            header, *rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except OSError:
            continue
        for row in rows:
            if int(row.split()[0]) in keys:
                found.append(f"{kind} {row.split()[1]}")
    return found


def leftovers(token: str, wait: float = 5.0) -> dict[str, list]:
    """Everything of ``token`` still on the host (processes get ``wait`` s to die)."""
    deadline = time.monotonic() + wait
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.1)
    return {
        "processes": processes_with(token),
        "dev_shm": sorted(p.name for p in Path("/dev/shm").iterdir() if token in p.name),
        "ipc": ipc_with(token),
    }


NOTHING = {"processes": [], "dev_shm": [], "ipc": []}

# Student code that leaves everything it can: System V objects, a /dev/shm file, and a
# child that leaves the session, clears its environment and outlives its parent.
LEAVE_BEHIND = '''
import ctypes, os
def _leave(token, keys):
    libc = ctypes.CDLL(None, use_errno=True)
    made = [libc.shmget(keys[0], 1 << 20, 0o1666), libc.semget(keys[1], 1, 0o1666),
            libc.msgget(keys[2], 0o1666)]
    try:
        with open("/dev/shm/" + token, "w") as handle:
            handle.write("left behind")
        made.append("file")
    except OSError as exc:
        made.append(type(exc).__name__)
    if os.fork() == 0:  # double fork: the sleeper is nobody's child in the worker
        os.setsid()
        if os.fork() == 0:
            os.execve("/usr/bin/python3", ["/usr/bin/python3", "-c", "import time; time.sleep(120)",
                                           token], {})
        os._exit(0)
    os.wait()
    return made
'''
