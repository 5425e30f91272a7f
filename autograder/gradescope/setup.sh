#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# The zip is unpacked in /autograder/source; we install it into its own venv.
set -euo pipefail
apt-get update -qq
apt-get install -y -qq python3 python3-pip python3-venv util-linux >/dev/null
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install --quiet --upgrade pip
/autograder/venv/bin/pip install --quiet -e /autograder/source
# Student code runs as "nobody": it must not be able to read the reference or the hidden
# tests. Without namespaces (Docker) file modes are the only wall, so close them.
chmod -R go-rwx /autograder/source
