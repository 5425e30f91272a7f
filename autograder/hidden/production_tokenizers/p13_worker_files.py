"""Standard-library help in the student's worker: files to read, and big data built there.

The worker cannot read the grader's folders, so a test that needs a file (``from_files``)
has the worker write it: a fresh folder from ``tempfile.mkdtemp`` in the worker (private
to its user, under the worker's own ``/tmp`` at every isolation level), then
``pathlib.Path(folder, name).write_text(text, encoding="utf-8")``.

GPT-2's encoder and merges (100,000 values) are sent as two JSON texts and parsed by the
worker's ``json`` (``gpt2_in_worker``): a third of the cost of sending them as values,
whose every element the pipe's encoding visits in Python. The texts are written once per
batch, in the zygote (``p13_inputs.gpt2_texts``). The merges text is one JSON
object with repeated keys, read with ``object_pairs_hook=list``: a list of
``(left, right)`` tuples in rank order.

The modules are imported with the ``__import__`` of the builtins of a stand-in (the
worker's own function for another part's name; the student's own function once that
part is trusted, and ``ByteLevelBPE.from_files`` as the last resort). Student code could
have replaced those builtins, but that gains nothing: the tests then check what the
student's own code makes of the data.
"""

from autograder.sandbox import Remote, StudentError
from autograder.suite.checks import check, expect_remote
from autograder.suite.remote import handle

# Functions of other parts: stand-ins in the Part 1 worker.
STAND_INS = ("normalize", "clean_text", "train_bpe_fast", "fertility")


def _some_function(student) -> Remote:
    for name in STAND_INS:
        if name in student.names:
            found = student.get(None, name)
            if isinstance(found, Remote):
                return found
    method = student.get(handle(student, "ByteLevelBPE"), "from_files")
    check(isinstance(method, Remote), "ByteLevelBPE.from_files should be a classmethod")
    try:
        return student.get(method, "__func__")  # type: ignore[return-value]
    except StudentError:
        return method  # type: ignore[return-value]


def worker_import(student, module: str) -> Remote:
    """``module`` imported in the worker (looked up once per worker)."""
    key = ("p13", "module", module)
    if key not in student.cache:
        builtins = student.get(_some_function(student), "__builtins__")
        if isinstance(builtins, dict):  # a function's builtins: a dict, its values handles
            importer = builtins.get("__import__")
        else:
            check(isinstance(builtins, Remote), "the grader could not reach the builtins")
            importer = student.get(builtins, "__import__")  # the builtins module
        check(isinstance(importer, Remote), "the grader could not reach __import__")
        student.cache[key] = student.method(importer, "__call__", module)
    return student.cache[key]


def write_files(student, files: dict[str, str]) -> dict[str, str]:
    """Write ``files`` (name -> text) in a fresh folder of the worker; name -> path."""
    folder = student.method(worker_import(student, "tempfile"), "mkdtemp")
    check(type(folder) is str, "the grader could not make a folder in the worker")
    pathlib = worker_import(student, "pathlib")
    paths = {}
    for name, text in files.items():
        path = student.method(pathlib, "Path", folder, name)
        student.method(path, "write_text", text, encoding="utf-8")
        paths[name] = f"{folder}/{name}"
    return paths


def gpt2_in_worker(student, texts: tuple[str, str], specials: dict, what: str) -> Remote:
    """The student's ``ByteLevelBPE(encoder, merges, specials)``, the encoder and the merges
    given as their JSON ``texts`` and parsed by the worker's ``json`` (see the module
    docstring)."""
    encoder_text, merges_text = texts
    json_module = worker_import(student, "json")
    pair_list = student.get(student.put([]), "__class__")  # the worker's own list type
    decoder = student.method(json_module, "JSONDecoder", object_pairs_hook=pair_list)
    kept_encoder = student.map(student.get(json_module, "loads"), [encoder_text], keep=True)
    kept_merges = student.map(student.get(decoder, "decode"), [merges_text], keep=True)
    made = student.map(handle(student, "ByteLevelBPE"), kept_encoder, kept_merges, [specials])
    check(type(made) is list and len(made) == 1, f"the grader could not call {what}")
    return expect_remote(made[0], what, "ByteLevelBPE")
