"""``python -m autograder.extract FILE``: the limited extraction process (see the package)."""

import sys

from . import _main

sys.exit(_main(sys.argv[1:]))
