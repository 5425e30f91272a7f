"""The drop level's walls: one user per running worker, and clean-up by that user.

Without namespaces (a Docker container, Gradescope) nothing separates two workers
but the kernel's checks on users. So every worker that runs at the same time gets a
user of its own from a pool (``FIRST_UID`` upwards, skipping any user the system
knows): it cannot signal, trace or read the memory of another worker, and its
working directory (mode 0700, its own) is closed to every other worker. The pool is
shared by every grader on the machine through lock files (``flock``): a user is
leased while its worker runs, and the kernel frees the lease if the grader dies.

Nothing of a leased user may outlive its worker: ``clean`` kills every process it
owns (from inside, with ``kill(-1)``, which no fork can outrun; children that
cleared their environment or left the session are found too), removes its System V
objects and its files in the shared writable folders. A user whose last lease did
not end with a clean-up (its grader died) is cleaned before it is leased again;
``sweep`` cleans every free user of the pool that has anything left at the end of
a batch.

What this module leaves to others: the system-call filter (``worker._filter``) keeps
workers off sockets and IPC; ``shared_writable`` lists the world-writable folders
that would still let two workers exchange file names (Gradescope's ``setup.sh``
closes them; elsewhere the CLI warns).
"""

import contextlib
import ctypes
import fcntl
import os
import pwd
import random
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from functools import cache
from pathlib import Path

FIRST_UID = 61000
POOL_SIZE = 512
# World-writable folders a worker could leave files in (checked, cleaned by owner).
SHARED_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock")
KILL = shutil.which("kill") or "/bin/kill"
CLEAN = b"clean\n"  # what a lock file says when its user was left with nothing


def private_folder(folder: Path) -> Path:
    """``folder``, made if missing, as a folder of this user that no one else can use:
    ``PermissionError`` if it is a link, someone else's, or writable by others (what
    they may have put in it cannot be trusted); one that others could only read or
    enter is closed (``chmod 700``)."""
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    info = folder.lstat()
    if (not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid()
            or info.st_mode & 0o022):
        raise PermissionError(f"{folder} is not a private folder of this user")
    if info.st_mode & 0o077:
        folder.chmod(0o700)
    return folder


def _lock_dir() -> Path:
    """The machine-wide folder of lease locks: this user's own, closed to everyone else."""
    return private_folder(Path(tempfile.gettempdir()) / f"autograder-uids-{os.geteuid()}")


def _known_uids() -> set[int]:
    with contextlib.suppress(OSError):
        return {entry.pw_uid for entry in pwd.getpwall()}
    return set()


@cache
def pool() -> list[int]:
    """The users workers may run as: none that the system has an account for."""
    known = _known_uids()
    return [uid for uid in range(FIRST_UID, FIRST_UID + POOL_SIZE) if uid not in known]


class Lease:
    """One pool user, held (by an ``flock``) until ``release``."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid, self._fd = uid, fd

    def release(self) -> None:
        """Clean up after the user and give it back; idempotent."""
        if self._fd is None:
            return
        try:
            clean(self.uid)
            os.pwrite(self._fd, CLEAN, 0)  # the next lease need not clean again
        finally:
            os.close(self._fd)
            self._fd = None


def acquire() -> Lease:
    """Lease a free pool user, cleaned before use; ``OSError`` if all are taken."""
    folder = _lock_dir()
    uids = pool()
    start = random.randrange(len(uids))  # graders started together rarely collide
    for uid in uids[start:] + uids[:start]:
        fd = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            if os.pread(fd, len(CLEAN), 0) != CLEAN:  # its last worker's grader died
                clean(uid)
            os.ftruncate(fd, 0)  # in use: cleaned again unless released properly
        except BaseException:
            os.close(fd)
            raise
        return Lease(uid, fd)
    raise OSError(f"all {len(uids)} worker users are in use")


def processes_of(uids: set[int]) -> dict[int, int]:
    """Live (not zombie) processes whose real, effective or saved user is in ``uids``."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as handle:
                status = handle.read(2048)
            start = status.index(b"\nUid:") + 5
            owners = {int(u) for u in status[start:status.index(b"\n", start)].split()[:3]}
        except (OSError, ValueError):
            continue
        if owners & uids and b"\nState:\tZ" not in status:
            found[int(name)] = min(owners & uids)
    return found


def _kill_all(uid: int) -> None:
    """Kill every process of ``uid``: ``kill(-1)`` sent as that user reaches them all.

    ``kill -KILL -1`` run as ``uid`` signals every process of that user but itself
    in one system call (no fork outruns it) and fails (exit 1) only when there was
    none, so the usual case, nothing left, costs one short process and no search.
    """
    for attempt in range(10):
        try:
            done = subprocess.run([KILL, "-KILL", "-1"], user=uid, group=uid, extra_groups=[],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=10, close_fds=True)
        except (OSError, subprocess.SubprocessError):
            break  # no kill program that works here: search and kill one by one
        if done.returncode == 1:
            return  # nobody was left to signal
        time.sleep(0.005 * attempt)  # the killed may still be exiting (or zombies)
    for _ in range(100):
        left = processes_of({uid})
        if not left:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)
    raise OSError(f"the processes of user {uid} could not be stopped")


# /proc/sysvipc tables: file, the identifier column, and the owner columns.
_IPC = (("shm", "shmid", 0), ("sem", "semid", 1), ("msg", "msqid", 2))


def ipc_objects() -> list[tuple[str, int, int, int]]:
    """Every System V object this IPC namespace holds: (kind, id, uid, creator uid)."""
    objects = []
    for kind, id_column, _ in _IPC:
        with contextlib.suppress(OSError):
            header, *rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
            names = header.split()
            for row in rows:
                cells = dict(zip(names, row.split()))
                objects.append((kind, int(cells[id_column]), int(cells["uid"]),
                                int(cells["cuid"])))
    return objects


@cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _remove_ipc(uid: int) -> None:
    """Remove the System V objects ``uid`` owns or created (the filter forbids making them;
    this holds even where the filter could not be installed)."""
    libc = _libc()
    remove = {"shm": lambda i: libc.shmctl(i, 0, None),  # IPC_RMID
              "sem": lambda i: libc.semctl(i, 0, 0),
              "msg": lambda i: libc.msgctl(i, 0, None)}
    for kind, ident, owner, creator in ipc_objects():
        if uid in (owner, creator):
            remove[kind](ident)


def _remove_files(uid: int) -> None:
    """Remove what ``uid`` owns at the top of the shared writable folders."""
    for folder in SHARED_DIRS:
        with contextlib.suppress(OSError):
            if not os.stat(folder).st_mode & stat.S_IWOTH:
                continue  # closed (as on Gradescope): nothing of a worker can be in it
            for entry in os.scandir(folder):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        os.unlink(entry.path)


def clean(uid: int) -> None:
    """Leave nothing of ``uid`` running or stored: processes, IPC objects, shared files."""
    _kill_all(uid)
    _remove_ipc(uid)
    _remove_files(uid)


def sweep() -> list[int]:
    """Clean every pool user nobody leases now; the users that had anything left."""
    uids = set(pool())
    dirty = set(processes_of(uids).values())
    dirty |= {u for _, _, owner, creator in ipc_objects() for u in (owner, creator)} & uids
    for folder in SHARED_DIRS:
        with contextlib.suppress(OSError):
            dirty |= {e.stat(follow_symlinks=False).st_uid for e in os.scandir(folder)} & uids
    folder = _lock_dir()
    for uid in sorted(dirty):
        fd = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            clean(uid)
        except BlockingIOError:
            pass  # a worker of another grader runs as this user right now
        finally:
            os.close(fd)
    return sorted(dirty)


def unleased_processes() -> list[int]:
    """Processes of pool users that no grader leases: what a worker left behind."""
    folder = _lock_dir()
    left = []
    for pid, uid in processes_of(set(pool())).items():
        fd = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            left.append(pid)
        except BlockingIOError:
            pass  # leased: a worker runs as this user right now
        finally:
            os.close(fd)
    return left


def shared_writable() -> list[str]:
    """World-writable folders of this machine where any worker may create a file.

    Such a folder lets two workers that run at once exchange file names (the contents
    stay private: a worker's umask is 077 and it cannot change modes). Looks at the
    usual places and at every folder two levels below ``/``.
    """
    candidates = set(SHARED_DIRS)
    for top in os.scandir("/"):
        if top.name in ("proc", "sys") or not top.is_dir(follow_symlinks=False):
            continue
        candidates.add(top.path)
        with contextlib.suppress(OSError):
            candidates |= {e.path for e in os.scandir(top.path)
                           if e.is_dir(follow_symlinks=False)}
    found = []
    for path in sorted(candidates):
        with contextlib.suppress(OSError):
            if os.lstat(path).st_mode & stat.S_IWOTH and stat.S_ISDIR(os.lstat(path).st_mode):
                found.append(path)
    return found


def open_to_others(path: Path) -> bool:
    """True if a user who is neither the owner nor in the group can read ``path``."""
    path = Path(path).resolve()
    try:
        if not os.stat(path).st_mode & stat.S_IROTH:
            return False
        return all(os.stat(p).st_mode & stat.S_IXOTH for p in [path, *path.parents]
                   if p != path or path.is_dir())
    except OSError:
        return False
