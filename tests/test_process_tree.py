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

# A parent that starts a child from its main thread and one from another thread; the
# first child starts a grandchild. Each prints its pid once it runs.
FAMILY = r"""
import subprocess, sys, threading, time
SLEEP = [sys.executable, "-c", "import time; print(flush=True); time.sleep(60)"]
CHILD = [sys.executable, "-c",
         "import subprocess, sys, time; "
         f"g = subprocess.Popen({SLEEP!r}, stdout=subprocess.PIPE); g.stdout.readline(); "
         "print(flush=True); time.sleep(60)"]
started = []
def start(command):
    p = subprocess.Popen(command, stdout=subprocess.PIPE)
    p.stdout.readline()
    started.append(p)
start(CHILD)
helper = threading.Thread(target=start, args=(SLEEP,))
helper.start(); helper.join()
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
