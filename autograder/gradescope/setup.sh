#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# The zip is unpacked in /autograder/source. The grader runs from there (nothing is
# installed as a package); its few dependencies go into a venv of their own.
set -euo pipefail
apt-get update -qq
apt-get install -y -qq python3 python3-venv util-linux >/dev/null
# The pinned packages need Python 3.11+ (with venv and ensurepip, which Debian and Ubuntu
# package apart); older images (Ubuntu 22.04: 3.10) get 3.11 from apt.
PYTHON=""
for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null &&
        "$candidate" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' \
            2>/dev/null; then
        PYTHON="$candidate"
        break
    fi
done
if [ -z "$PYTHON" ]; then
    apt-get install -y -qq python3.11 python3.11-venv >/dev/null
    PYTHON=python3.11
fi
"$PYTHON" -m venv /autograder/venv
/autograder/venv/bin/pip install --quiet -r /autograder/source/autograder/gradescope/requirements.txt
# Without namespaces (Docker) student code runs as users of its own (61000 and up, one per
# worker): it must not be able to read the reference or the hidden tests, and file modes
# are the only wall, so close them.
chmod -R go-rwx /autograder/source
# This container is thrown away after one submission: close its world-writable folders, so
# that two workers running at once cannot meet there (run_autograder does it again for the
# folders Docker mounts afresh when the container starts, such as /dev/shm).
for folder in /tmp /var/tmp /dev/shm /run/lock /var/lock /dev/mqueue; do
    if [ -d "$folder" ] && [ ! -L "$folder" ]; then chmod 1755 "$folder" || true; fi
done
