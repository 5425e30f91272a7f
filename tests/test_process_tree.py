"""``cleanup.tree``: a worker's process tree read from each process's list of children.

The timing tests read a worker's tree at every request (``student.worker_cpu``) and the
sleep watch at every look, so the tree is walked down from the worker rather than found
in the whole process table. Both ways must name the same processes, those started from
any thread included, and the table must still decide where a list cannot be read.
"""

import subprocess
import sys
import time

from autograder.sandbox import cleanup

# A parent that starts a child from its main thread and one from another thread, which
# stays alive (so its own list of children is read); the first child starts a
# grandchild. Each prints a line once it runs.
FAMILY = r"""
import subprocess, sys, threading, time
SLEEP = [sys.executable, "-c", "import time; print(flush=True); time.sleep(60)"]
CHILD = [sys.executable, "-c",
         "import subprocess, sys, time; "
         f"g = subprocess.Popen({SLEEP!r}, stdout=subprocess.PIPE); g.stdout.readline(); "
         "print(flush=True); time.sleep(60)"]
started, done = [], threading.Event()
def start(command, stay=False):
    p = subprocess.Popen(command, stdout=subprocess.PIPE)
    p.stdout.readline()
    started.append(p)
    if stay:
        done.wait()
start(CHILD)
helper = threading.Thread(target=start, args=(SLEEP, True))
helper.start()
while len(started) < 2:
    time.sleep(0.01)
print(flush=True)
time.sleep(60)
"""


def family() -> subprocess.Popen:
    parent = subprocess.Popen([sys.executable, "-c", FAMILY], stdout=subprocess.PIPE)
    parent.stdout.readline()  # both children and the grandchild are running
    return parent


def test_the_tree_walked_down_is_the_tree_found_in_the_process_table():
    parent = family()
    try:
        walked = cleanup.tree(parent.pid)
        assert walked[0] == parent.pid
        assert len(walked) == 4  # the parent, two children, one grandchild
        assert sorted(walked) == sorted(cleanup.tree(parent.pid, cleanup.parents()))
    finally:
        cleanup.kill_tree(parent.pid)
        parent.wait()


def test_where_a_list_cannot_be_read_the_process_table_decides(monkeypatch):
    parent = family()
    try:
        walks = []
        real = cleanup.parents

        def counted() -> dict[int, int]:
            walks.append(1)
            return real()

        monkeypatch.setattr(cleanup, "parents", counted)
        assert len(cleanup.tree(parent.pid)) == 4 and not walks  # the lists sufficed
        monkeypatch.setattr(cleanup, "listed_children", lambda pid: None)
        assert sorted(cleanup.tree(parent.pid)) == sorted(cleanup.tree(parent.pid, real()))
        assert walks == [1]
    finally:
        cleanup.kill_tree(parent.pid)
        parent.wait()


def test_a_process_that_is_gone_is_a_tree_of_itself():
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    time.sleep(0.01)
    assert cleanup.listed_children(ended.pid) == []
    assert cleanup.tree(ended.pid) == [ended.pid]


def test_a_thread_that_ends_while_the_lists_are_read_leaves_the_table_to_decide(monkeypatch):
    """A thread's children move to another thread when it ends, maybe one already read:
    a thread list that changed during the reading is no answer."""
    parent = family()
    try:
        real = cleanup.os.listdir
        calls = []

        def fewer_threads_the_second_time(path):
            names = real(path)
            if path == f"/proc/{parent.pid}/task":
                calls.append(path)
                if len(calls) % 2 == 0:
                    return names[:-1]
            return names

        monkeypatch.setattr(cleanup.os, "listdir", fewer_threads_the_second_time)
        assert cleanup.listed_children(parent.pid) is None
        monkeypatch.undo()
        walks = []
        table = cleanup.parents
        monkeypatch.setattr(cleanup, "parents", lambda: walks.append(1) or table())
        monkeypatch.setattr(cleanup.os, "listdir", fewer_threads_the_second_time)
        assert len(cleanup.tree(parent.pid)) == 4 and walks == [1]
    finally:
        monkeypatch.undo()
        cleanup.kill_tree(parent.pid)
        parent.wait()


def test_an_orphan_that_moved_up_during_the_walk_leaves_the_table_to_decide(monkeypatch):
    """A process that ends while its children are being listed hands them to the worker
    (its tree's reaper), whose list was already read: the second reading finds them."""
    parent = family()
    try:
        real = cleanup.listed_children
        readings = []

        def with_an_orphan_later(pid):
            found = real(pid)
            if pid == parent.pid:
                readings.append(pid)
                if len(readings) > 1:
                    return [*found, 999_999_999]
            return found

        walks = []
        table = cleanup.parents
        monkeypatch.setattr(cleanup, "listed_children", with_an_orphan_later)
        monkeypatch.setattr(cleanup, "parents", lambda: walks.append(1) or table())
        assert len(cleanup.tree(parent.pid)) == 4 and walks == [1]
    finally:
        monkeypatch.undo()
        cleanup.kill_tree(parent.pid)
        parent.wait()
