"""``vq_tokenize`` is graded by whether it fits: the margins of its memory test, measured.

The hidden test (``test_part5.test_vq_tokenize_fits_in_memory``) calls ``vq_tokenize`` on
4,000 vectors and 512 codes of 64 dimensions in a worker whose address space is capped
(``limits.LIMITS["address_space"]``, 256 MiB). Both margins must hold on this machine:

- the reference (``(N, K)`` arrays of distances) peaks well under the cap: the peak
  address space of the worker that ran it (``VmPeak``), read in that worker. Measured:
  168 MiB, of which about 130 are the worker with numpy loaded. At the contract's example
  of 10,000 vectors it peaked at 226 MiB, too close to the cap for a correct formula that
  keeps one more ``(N, K)`` temporary, hence 4,000;
- the ``(N, K, D)`` broadcast needs one array of 1,000 MiB, about four times the cap.

Then the guarantee itself, in real workers at every isolation level the CLI may choose,
and through the Gradescope entry point: the broadcast raises ``MemoryError`` and loses that
one test, the reference answers.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autograder.gradescope.bundle import build
from autograder.sandbox import limits
from autograder.sandbox.reference import reference_without
from tests.course import LEVELS, isolation_env, load
from tests.test_gradescope import run_autograder

ROOT = Path(__file__).resolve().parents[2]
TTV = load("tokens_to_vectors")
CAP = limits.LIMITS["address_space"]
N, K, D = 4_000, 512, 64
BROADCAST = '''
def vq_tokenize(vectors, codebook):
    vectors = np.asarray(vectors, dtype=np.float64)
    codebook = np.asarray(codebook, dtype=np.float64)
    if vectors.ndim != 2 or codebook.ndim != 2 or vectors.shape[1] != codebook.shape[1]:
        raise ValueError("vectors (N, D) and codebook (K, D) must share D")
    return np.argmin(((vectors[:, None, :] - codebook[None, :, :]) ** 2).sum(axis=-1), axis=1)
'''
# Appended to the reference: the worker's own peak address space, read after the call.
VM_PEAK = '''
def vm_peak():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmPeak"))
'''
IN_WORKER = """
import json, sys
from pathlib import Path
import numpy as np
from autograder.assignment import load
from autograder.extract import extract
from autograder.sandbox import StudentError, Worker
a = load("tokens_to_vectors")
r = np.random.default_rng(1)
n, k, d = map(int, sys.argv[1:4])
vectors, codebook = r.normal(size=(n, d)), r.normal(size=(k, d))
seen = {}
for name in sys.argv[4:]:
    with Worker(a, extract(Path(name)), 5, timeout=60) as worker:
        try:
            seen[name] = len(worker.call("vq_tokenize", vectors, codebook))
        except StudentError as exc:
            seen[name] = exc.type_name
        seen[name + " peak"] = worker.call("vm_peak")
print(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def submissions(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("vq")
    reference = reference_without(TTV, 0)[0]
    made = {"reference": reference + VM_PEAK, "broadcast": reference + VM_PEAK + BROADCAST}
    for name, source in made.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    return {name: folder / f"{name}.py" for name in made}


@pytest.mark.parametrize("level", LEVELS)
def test_the_broadcast_runs_out_of_memory_in_a_worker_and_the_reference_does_not(
        level, submissions):
    paths = [str(submissions["reference"]), str(submissions["broadcast"])]
    done = subprocess.run([sys.executable, "-c", IN_WORKER, str(N), str(K), str(D), *paths],
                          cwd=ROOT,
                          env=isolation_env(level), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    seen = json.loads(done.stdout)
    assert (seen[paths[0]], seen[paths[1]]) == (N, "MemoryError")
    peak = seen[paths[0] + " peak"]
    print(f"{level}: the reference's worker peaked at {peak / 2**20:.0f} MiB of address space "
          f"(cap {CAP / 2**20:.0f} MiB); the broadcast's one array is "
          f"{N * K * D * 8 / 2**20:,.0f} MiB")
    assert peak < 0.75 * CAP  # the margin of a correct submission
    assert N * K * D * 8 > 3 * CAP  # and of the wrong one


@pytest.mark.slow
def test_on_gradescope_the_broadcast_loses_only_its_memory_test(submissions, tmp_path):
    bundle = build(tmp_path / "autograder.zip", TTV)
    root = tmp_path / "gradescope"
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "tokens_to_vectors.py").write_text(
        submissions["broadcast"].read_text(encoding="utf-8"), encoding="utf-8")
    results = run_autograder(bundle, root)
    lost = {t["name"] for t in results["tests"] if t["score"] < t["max_score"]}
    assert len(lost) == 1 and "fits in a worker's memory" in lost.pop(), lost
    assert results["score"] == TTV.total - 2
    assert np.isfinite(results["score"])
