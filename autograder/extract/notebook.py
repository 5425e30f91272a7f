"""A notebook's cells, read as a stream: outputs are stepped over, never held.

A notebook is JSON, and its saved outputs (what a cell printed, its plots) can be far larger
than its code: a student who printed a corpus hands in 100 MB of output beside 50 KB of
code. Outputs are never graded, so ``read_cells`` reads the file a piece at a time
(``CHUNK`` bytes) and keeps only what grading needs: each cell's ``cell_type``, ``source``
and ``metadata``. Every other value (a cell's ``outputs`` and ``attachments``, the
notebook's own ``metadata``) is scanned for where it ends and dropped, so the reader holds
about two pieces of the file at a time, however large the outputs are.

Two limits bound what a file can cost, and each refusal says which one it hit:

- ``MAX_SOURCE_BYTES`` (50 MB) of kept values, counted in the file's bytes: a notebook whose
  cells hold more than that outside their outputs is refused as soon as the count passes
  it, before the rest is read;
- ``MAX_NOTEBOOK_BYTES`` (500 MB) of file, outputs included: stepping over outputs costs CPU
  (under 1 s per 100 MB), so a bigger file is refused unread (``read.py`` checks its size
  first) or once that many bytes have been read (a file that grows).

How a value's end is found: first by ``json`` itself, from the next ``WINDOWS`` bytes
decoded as Latin-1 (one character per byte, so the end is a byte offset, and every byte
that is not ASCII is a character inside a string, where JSON's syntax never looks); most
values end within a few kilobytes. A longer value is walked in segments: escaped quotes and
backslashes are blanked first, after which every quote starts or ends a string, so a
segment holding no bracket only needs its quotes counted. A kept value is then decoded from
its bytes by ``json``, as strictly as a whole file was; a skipped one is never decoded, so a
damaged output costs nothing.

This module imports the standard library only: the students' ``preflight.py`` is built from
it (``autograder/extract/ship.py`` inlines it), so the preflight reads a notebook exactly as
the grader does and warns about a notebook the grader would refuse.
"""

import json
import re

# The most source the grader reads: a ``.py`` file's size, or a notebook's kept bytes
# (everything but the values ``read_cells`` skips). Extraction is linear, about 0.1 s per MB.
MAX_SOURCE_BYTES = 50 * 1000**2
# The largest notebook file, outputs included.
MAX_NOTEBOOK_BYTES = 500 * 1000**2
# Bytes read from the file at a time.
CHUNK = 1 << 20
# The keys of a cell that grading reads; every other key's value is skipped.
KEPT_KEYS = frozenset({"cell_type", "source", "metadata"})
# A value's end is first looked for by ``json`` in the next kilobyte, then the next 64.
WINDOWS = (1 << 10, 1 << 16)
# A longer value is walked this many bytes at a time, after a first segment of
# ``FIRST_SEGMENT`` bytes, doubled at each step: a value that is not JSON ends where it
# ends, and a walk that began with a whole ``SEGMENT`` cost 64 KB for each such value.
SEGMENT = 1 << 16
FIRST_SEGMENT = 1 << 6
# A file up to this size is first decoded whole (``read_cells``).
WHOLE_BYTES = 4 * 1000**2

_BOM = b"\xef\xbb\xbf"
_DECODER = json.JSONDecoder()
_SPACE = re.compile(rb"[ \t\n\r]*")
_SCALAR = re.compile(rb'[^\s,:\[\]{}"]*')  # a number, true, false or null
_BRACKET = re.compile(rb"[\[\]{}]")
_QUOTE, _COLON, _COMMA = ord('"'), ord(":"), ord(",")
_OPEN = frozenset(b"[{")


class UnreadableNotebook(ValueError):
    """The file cannot be read as a notebook, or is over a limit; the message names the
    file and says what a student can do about it."""


def read_cells(file, name: str, max_source: int = MAX_SOURCE_BYTES,
               max_file: int = MAX_NOTEBOOK_BYTES, whole: int = WHOLE_BYTES) -> list:
    """The ``cells`` of the notebook open in ``file`` (binary, at its start): each cell an
    object holding only its ``cell_type``, ``source`` and ``metadata`` (those it has); a
    cell that is not an object is returned as it is, for the caller to name.

    ``name`` is the file's name in messages. Raises ``UnreadableNotebook`` when the file is
    not JSON, is not an object with a list of ``cells`` (an nbformat 3 notebook is named
    as such), is not UTF-8 where it is kept, or passes ``max_source`` kept bytes or
    ``max_file`` bytes in all.

    A file of at most ``whole`` bytes that is valid UTF-8 and JSON throughout is decoded in
    one call to ``json`` (a notebook of 100 KB: about 2 ms, against 15 ms as a stream);
    the stream reads any other, and would give the same cells.
    """
    whole = min(whole, max_source)  # a file read whole holds no more than the limit
    head = file.read(whole + 1)
    if len(head) <= whole:
        try:
            notebook = json.loads(head.decode("utf-8-sig"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            pass
        else:
            return _cells_of(notebook, name)
    reader = _Reader(file, name, max_source, max_file, head)
    if reader.peek() != ord("{"):
        return _cells_of(reader.value(), name)
    notebook: dict = {}
    for key in reader.members():
        if key == "cells" and reader.peek() == ord("["):
            notebook[key] = [reader.cell() for _ in reader.elements()]
        elif key == "nbformat":
            notebook[key] = reader.value()
        else:
            notebook[key] = None
            reader.skip()
    if reader.peek() is not None:
        raise reader.broken("more follows the notebook's end")
    return _cells_of(notebook, name)


def too_big(name: str, limit: int = MAX_NOTEBOOK_BYTES) -> str:
    """What a notebook file over ``limit`` bytes is told."""
    return (f"{name} is over {limit // 1000**2:,} MB; the grader reads notebooks of at most "
            f"{limit // 1000**2:,} MB, outputs included (clear its outputs)")


def _cells_of(notebook: object, name: str) -> list:
    """The cells of a decoded notebook, each cut to ``KEPT_KEYS``; raises when its shape
    is not nbformat 4's."""
    unreadable = f"{name} is not a readable notebook"
    if not isinstance(notebook, dict):
        raise UnreadableNotebook(f"{unreadable}: it holds a JSON {type(notebook).__name__}, "
                                 "not an object with 'cells'")
    if "cells" not in notebook and ("worksheets" in notebook or notebook.get("nbformat") == 3):
        raise UnreadableNotebook(f"{name} is an nbformat 3 notebook; open it in Jupyter and "
                                 "save it again (nbformat 4)")
    cells = notebook.get("cells")
    if not isinstance(cells, list):
        raise UnreadableNotebook(f"{unreadable}: it has no list of 'cells'")
    return [{key: value for key, value in cell.items() if key in KEPT_KEYS}
            if isinstance(cell, dict) else cell for cell in cells]


class _Reader:
    """A JSON text read a piece at a time. ``value`` decodes the next value (kept, and
    counted against the source limit); ``skip`` steps over it without decoding it."""

    def __init__(self, file, name: str, max_source: int, max_file: int,
                 head: bytes = b"") -> None:
        self.file, self.name = file, name
        self.max_source, self.max_file = max_source, max_file
        self.buffer = head  # what was read of the file before
        self.pos = 0  # the next byte to look at, in ``buffer``
        self.base = 0  # the file offset of ``buffer[0]``
        self.read = len(head)  # bytes read from the file so far
        self.kept = 0  # bytes of kept values so far
        self.sink: list[bytes] | None = None  # the pieces of the value being kept
        self.mark = 0  # where the part of ``buffer`` not yet in ``sink`` starts
        self.ended = False
        self._check_size()
        if not head:
            self.more()
        if self.buffer.startswith(_BOM):
            self.pos = self.mark = len(_BOM)

    def more(self) -> bool:
        """Read the next piece, keeping the bytes from ``pos`` on; False at the file's end."""
        if self.sink is not None:
            self._keep(self.buffer[self.mark:self.pos])
        self.mark = self.pos
        if self.ended:
            return False
        data = self.file.read(CHUNK)
        self.read += len(data)
        self._check_size()
        if not data:
            self.ended = True
            return False
        self.base += self.pos
        self.buffer = self.buffer[self.pos:] + data
        self.pos = self.mark = 0
        return True

    def _check_size(self) -> None:
        if self.read > self.max_file:
            raise UnreadableNotebook(too_big(self.name, self.max_file))

    def _keep(self, piece: bytes) -> None:
        """Hold ``piece`` of the value being kept, counting it against ``max_source``."""
        self.kept += len(piece)
        if self.kept > self.max_source:
            megabytes = self.max_source // 1000**2
            raise UnreadableNotebook(
                f"{self.name} holds over {megabytes} MB outside its outputs; the grader "
                f"reads at most {megabytes} MB of a notebook's cells (is data pasted into "
                "a cell? read it from a file instead)")
        assert self.sink is not None
        self.sink.append(piece)

    def broken(self, what: str) -> UnreadableNotebook:
        return UnreadableNotebook(f"{self.name} is not a readable notebook: {what} "
                                  f"(byte {self.base + self.pos})")

    def peek(self) -> int | None:
        """The next byte after white space (``pos`` is left on it), or None at the end."""
        while True:
            self.pos = _SPACE.match(self.buffer, self.pos).end()
            if self.pos < len(self.buffer):
                return self.buffer[self.pos]
            if not self.more():
                return None

    def value(self) -> object:
        """The next value, decoded."""
        self.peek()
        start = self.base + self.pos
        self.sink, self.mark = [], self.pos
        try:
            self._scan()
            self._keep(self.buffer[self.mark:self.pos])
            raw = b"".join(self.sink)
        finally:
            self.sink = None
            self.mark = self.pos
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnreadableNotebook(f"{self.name} is not UTF-8 text ({exc.reason} at byte "
                                     f"{start + exc.start})") from None
        try:
            return json.loads(text)
        except RecursionError:
            raise UnreadableNotebook(f"{self.name} is not a readable notebook: its JSON is "
                                     "nested too deeply") from None
        except ValueError as exc:
            raise UnreadableNotebook(f"{self.name} is not a readable notebook: {exc.msg} "
                                     f"(near byte {start + exc.pos})") from None

    def skip(self) -> None:
        """Step over the next value without decoding it."""
        self._scan()
        self.mark = self.pos

    def _scan(self) -> None:
        """Move ``pos`` past the next value."""
        first = self.peek()
        if first is None:
            raise self.broken("the file ends where a value should be")
        if self._quick():
            return
        if first == _QUOTE:
            self._string()
        elif first in _OPEN:
            self._container()
        elif _SCALAR.match(self.buffer, self.pos).end() == self.pos:
            raise self.broken(f"unexpected {chr(first)!r}")
        else:
            while True:
                self.pos = _SCALAR.match(self.buffer, self.pos).end()
                if self.pos < len(self.buffer) or not self.more():
                    return

    def _quick(self) -> bool:
        """Move ``pos`` past the next value if ``json`` finds its end within a window (the
        module's docstring says why Latin-1); False when it does not."""
        for size in WINDOWS:
            while len(self.buffer) - self.pos < size and self.more():
                pass
            window = self.buffer[self.pos:self.pos + size]
            try:
                end = _DECODER.raw_decode(window.decode("latin-1"))[1]
            except (ValueError, RecursionError):
                continue
            whole = self.ended and self.pos + len(window) == len(self.buffer)
            if end < len(window) or whole:  # a number at a window's end may go on after it
                self.pos += end
                return True
        return False

    def _segment(self, size: int, unended: str) -> tuple[bytes, int]:
        """The next ``size`` bytes at most from ``pos``, each escaped backslash or quote
        made ``__`` (every quote left starts or ends a string), and the offset in
        ``buffer`` where they end. A backslash whose escaped byte is not read yet is left
        for the next segment. At the file's end, raises saying ``unended``."""
        while True:
            end = min(len(self.buffer), self.pos + max(size, 2))
            plain = self.buffer[self.pos:end].replace(b"\\\\", b"__").replace(b'\\"', b"__")
            if plain.endswith(b"\\"):
                plain, end = plain[:-1], end - 1
            if plain:
                return plain, end
            if not self.more():
                raise self.broken(unended)

    def _string(self) -> None:
        self.pos += 1
        size = FIRST_SEGMENT
        while True:
            plain, end = self._segment(size, "a string does not end")
            closing = plain.find(b'"')
            if closing >= 0:
                self.pos += closing + 1
                return
            self.pos, size = end, min(2 * size, SEGMENT)

    def _container(self) -> None:
        """Step over a list or an object: count its brackets outside strings until they
        balance. Between two brackets only the number of quotes matters: an odd number
        opens or closes a string."""
        depth, inside, size = 0, False, FIRST_SEGMENT
        while True:
            plain, end = self._segment(size, "a list or an object does not end")
            size = min(2 * size, SEGMENT)
            at = 0
            if b"[" in plain or b"]" in plain or b"{" in plain or b"}" in plain:
                for found in _BRACKET.finditer(plain):
                    bracket = found.start()
                    inside ^= plain.count(b'"', at, bracket) % 2 == 1
                    at = bracket
                    if inside:
                        continue
                    depth += 1 if plain[bracket] in _OPEN else -1
                    if depth == 0:
                        self.pos += bracket + 1
                        return
            inside ^= plain.count(b'"', at) % 2 == 1
            self.pos = end

    def members(self):
        """The keys of the object that starts here, in order; after each, the caller
        reads or skips its value."""
        self.pos += 1  # the "{" the caller saw
        if self.peek() == ord("}"):
            self.pos += 1
            return
        while True:
            if self.peek() != _QUOTE:
                raise self.broken("a key should be here")
            key = self.value()
            if self.peek() != _COLON:
                raise self.broken("a ':' should follow a key")
            self.pos += 1
            yield key
            after = self.peek()
            if after == ord("}"):
                self.pos += 1
                return
            if after != _COMMA:
                raise self.broken("a ',' or '}' should be here")
            self.pos += 1

    def elements(self):
        """Once per element of the list that starts here; the caller reads or skips it."""
        self.pos += 1  # the "[" the caller saw
        if self.peek() == ord("]"):
            self.pos += 1
            return
        while True:
            yield
            after = self.peek()
            if after == ord("]"):
                self.pos += 1
                return
            if after != _COMMA:
                raise self.broken("a ',' or ']' should be here")
            self.pos += 1

    def cell(self) -> object:
        """The next cell: an object of its kept keys, or any other value as it is."""
        if self.peek() != ord("{"):
            return self.value()
        cell = {}
        for key in self.members():
            if key in KEPT_KEYS:
                cell[key] = self.value()
            else:
                self.skip()
        return cell
