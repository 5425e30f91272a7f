"""Leave nothing behind: what one worker holds while it runs, and the hunt for survivors.

A worker's ``Lease`` is taken before its process starts and given back once it is
dead (``client.Worker.close``). What giving it back removes depends on the level:

- ``drop``: the worker's own user from the pool (``users``): every process, System V
  object and shared-folder file of that user.
- ``basic``: the worker runs as the grader's user, so nothing tells its files and
  processes from the grader's but time and ancestry: the entries of ``/dev/shm`` and
  ``/dev/mqueue`` that appeared while it ran and belong to this user, and the orphans
  this process adopted (``adopt_orphans``: a child that left its session and cleared
  its environment still has the scoring process as its reaper). Files it leaves in
  ``/tmp`` are not told apart from the grader's and stay (its ``TMPDIR`` is its own
  work folder, removed with it).
- ``root``/``userns``: nothing here; the kernel ends the worker's namespaces with it.

``descendants``/``kill_descendants`` serve the CLI, which checks that no process of
graded code is alive when the reports are written; ``become_reaper``/``kill_tree`` serve
the scoring zygote, which must take down a finished run's workers (they left the run's
session, so its process group does not hold them).
"""

import contextlib
import ctypes
import os
import shutil
import signal
import threading
import time

from . import users

# Held while a worker process is started and registered, so that an orphan hunt in another
# thread never mistakes a worker being born for an orphan.
SPAWNING = threading.Lock()
_LIVE: set[int] = set()
_ADOPTING = {"on": False}


def become_reaper() -> bool:
    """Make this process the reaper of its descendants' orphans: a process whose parent
    dies becomes this process's child instead of init's, so it can still be found (as a
    child) and killed. False where the kernel refuses (not Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    return False


def adopt_orphans() -> None:
    """Become the reaper of descendants' orphans (the scoring process at the basic level):
    a child that left its session and cleared its environment is then still this
    process's child, found and killed when a worker closes."""
    if become_reaper():
        _ADOPTING["on"] = True


class Lease:
    """What one worker holds while it runs, and gives back (clean) when it is closed.

    At the drop level: its own user (``uid``), from the machine-wide pool. At the basic
    level: the files it may leave in the shared writable folders (those that appear
    while it runs and belong to the grader's user) and its orphans.
    """

    def __init__(self, level: str) -> None:
        self.level = level
        self.pid: int | None = None
        self._user = users.acquire() if self.level == "drop" else None
        self.uid = self._user.uid if self._user else None
        self._started = time.time()
        self._before = _shared_entries() if self.level == "basic" else set()

    def attach(self, pid: int) -> None:
        """The worker's process (call while holding ``SPAWNING``)."""
        self.pid = pid
        _LIVE.add(pid)

    def release(self) -> None:
        """Once the worker is dead: remove everything it left; idempotent."""
        _LIVE.discard(self.pid)
        if self._user is not None:
            self._user.release()
            self._user = None
        if self.level == "basic":
            _kill_orphans()
            for path in _shared_entries() - self._before:
                with contextlib.suppress(OSError):
                    info = os.lstat(path)
                    if info.st_uid == os.geteuid() and info.st_ctime >= self._started - 1:
                        if os.path.isdir(path) and not os.path.islink(path):
                            shutil.rmtree(path, ignore_errors=True)
                        else:
                            os.unlink(path)
            self._before = set()


# Where a basic-level worker's leftovers are told apart by time and owner alone. Not /tmp:
# the grader's own folders (the workers' work folders among them) appear there meanwhile.
SHM_DIRS = ("/dev/shm", "/dev/mqueue")


def _shared_entries() -> set[str]:
    entries = set()
    for folder in SHM_DIRS:
        with contextlib.suppress(OSError):
            entries |= {e.path for e in os.scandir(folder)}
    return entries


def parents() -> dict[int, int]:
    """Every process's parent, ``{pid: parent pid}``, read from ``/proc`` (empty without
    one). The engine's one walk of the process table: the CLI's check that no student
    code outlives a batch, ``kill_tree``, and ``tree`` where a worker's own lists of
    children cannot be trusted."""
    found: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with (contextlib.suppress(OSError, ValueError, IndexError),
                      open(f"/proc/{entry.name}/stat", "rb") as handle):
                    found[int(entry.name)] = int(handle.read().rsplit(b")", 1)[1].split()[1])
    return found


def thread_schedstat(pid: int, task: str) -> tuple[int, int]:
    """Nanoseconds thread ``task`` of ``pid`` has run, and has waited in a run queue for a
    core (``/proc/PID/task/TID/schedstat``; the wait is added when the thread gets one)."""
    with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as handle:
        fields = handle.read().split()
    return int(fields[0]), int(fields[1])


def listed_children(pid: int) -> list[int] | None:
    """The children of ``pid``, each of its threads' (``/proc/PID/task/TID/children``);
    an empty list for a process that is gone before it is read. None when the answer
    cannot be trusted: the kernel keeps no such lists, or a thread ended or began while
    they were read (a thread's children move to another thread when it ends, possibly
    one already read)."""
    try:
        tasks = sorted(os.listdir(f"/proc/{pid}/task"))
    except FileNotFoundError:
        return []
    except OSError:
        return None
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as listing:
                found += (int(child) for child in listing.read().split())
        except (OSError, ValueError):
            return None  # no list, or a thread that ended: its children moved
    try:
        return found if sorted(os.listdir(f"/proc/{pid}/task")) == tasks else None
    except OSError:
        return None


def _walked(pid: int) -> list[int] | None:
    """``pid`` and every process below it from their own lists of children, or None when
    the walk cannot be trusted: a list is untrustworthy (``listed_children``), a process
    ended between being listed and being read, or a second reading of every list read
    names a process the walk did not find (an orphan moved up to an ancestor, the
    worker being its tree's reaper, after that ancestor was read)."""
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        below = listed_children(current)
        if below is None or (current != pid and not os.path.isdir(f"/proc/{current}/task")):
            return None
        found.append(current)
        frontier += below
    seen = set(found)
    for current in found:
        again = listed_children(current)
        if again is None or not seen.issuperset(again):
            return None
    return found


def tree(pid: int, parent_of: dict[int, int] | None = None) -> list[int]:
    """``pid`` and every process below it, ``pid`` first (``parent_of``: a walk of the
    process table already made, ``parents()``).

    Without ``parent_of``, each process's own list of children is read, from ``pid`` down,
    twice (``_walked``): a worker's tree is a few processes, and the timing tests read it
    at every request, so the walk costs what the tree holds rather than what the machine
    runs (the whole process table was 1 ms of a scoring process's CPU per reading, and
    more in a batch). Whenever the lists cannot be trusted, the process table decides, as
    it always did: graded code that ends threads or processes on purpose to move a busy
    child out of sight pays for a whole-table walk, and is seen."""
    if parent_of is None:
        walked = _walked(pid)
        return walked if walked is not None else tree(pid, parents())
    children: dict[int, list[int]] = {}
    for child, parent in (parents() if parent_of is None else parent_of).items():
        children.setdefault(parent, []).append(child)
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        found.append(current)
        frontier += children.get(current, [])
    return found


def children(pid: int) -> list[int]:
    """Direct children of ``pid``."""
    return [child for child, parent in parents().items() if parent == pid]


# Rounds in a row that must find nothing alive before ``kill_tree`` trusts that nothing is.
QUIET_ROUNDS = 3


def kill_tree(*pids: int, adopted: bool = False) -> None:
    """Kill each of ``pids`` and every process below them, even one that forks to escape.

    Each round walks the process table once, stops every process found and kills them
    after, and kills their process groups whole (the kernel signals a group at once, forks
    in flight included, so a process that forks and exits faster than a walk goes round
    dies with its group unless it leaves it). A process that escapes a round leaves a
    live child: below the trees, or, when this process is a reaper (``become_reaper``),
    as a new child of its own. With ``adopted``, every child this process gains while it
    kills counts as part of the trees: only for a caller that starts no process meanwhile
    (the zygote between runs, a scoring process holding ``SPAWNING``). It is done after
    ``QUIET_ROUNDS`` rounds in a row find nothing alive.
    """
    me, group = os.getpid(), os.getpgrp()
    before = set(children(me)) if adopted else None
    quiet = 0
    for _ in range(100):
        parent_of = parents()
        roots = set(pids) | ({c for c, p in parent_of.items() if p == me and c not in before}
                             if before is not None else set())
        found = {p for root in roots for p in tree(root, parent_of)} - {me}
        groups = _groups(found) - {group}
        for signum in (signal.SIGSTOP, signal.SIGKILL):
            for pid in found:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signum)
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
        # One that died since the walk gave its children to this process first: they are
        # in its list of children now.
        late = set(_own_children()) - before if before is not None else set()
        live = {p for p in found | late if _alive(p)}
        quiet = 0 if live else quiet + 1
        if quiet == QUIET_ROUNDS:
            return


def _groups(pids: set[int]) -> set[int]:
    """The process groups of ``pids`` (those that still exist, zombies included)."""
    found = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            found.add(os.getpgid(pid))
    return found


def _own_children() -> list[int]:
    """This process's children, from the kernel's short lists (``/proc/self/task/*/
    children``: microseconds, not a walk of the table); empty where there are none."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.scandir("/proc/self/task"):
            with contextlib.suppress(OSError, ValueError), \
                    open(f"{task.path}/children") as handle:
                found += map(int, handle.read().split())
    return found


def _alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie (a dead child its parent has not reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


def _kill_orphans() -> None:
    """Kill and reap this process's adopted children: every child that is no live worker."""
    if not _ADOPTING["on"]:
        return
    with SPAWNING:
        for _ in range(100):
            orphans = [pid for pid in children(os.getpid()) if pid not in _LIVE]
            if not orphans:
                return
            kill_tree(*orphans, adopted=True)
            _reap(orphans)


# The grader's own long-lived processes below this one (the scoring zygotes,
# ``suite/zygote.py``): never graded code, so never a survivor (``limits.survivors``);
# ``kill_descendants`` takes them down like everything else.
HELPERS: set[int] = set()


def descendants() -> list[int]:
    """Every process below this one (for the CLI: none may be left when reports are written)."""
    return tree(os.getpid(), parents())[1:]  # once per batch: the whole table, at leisure


def kill_descendants() -> None:
    """Kill every process below this one, and reap the dead that are its children (those
    it started, and the orphans it adopted while they died)."""
    kill_tree(os.getpid())
    for _ in range(100):
        dead = children(os.getpid())
        if not dead:
            return
        _reap(dead)


def _reap(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
