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
# Student code runs as "nobody": it must not be able to read the reference or the hidden
# tests. Without namespaces (Docker) file modes are the only wall, so close them.
chmod -R go-rwx /autograder/source
