"""Part 1: GPT-2's table from bytes to printable characters.

Follows OpenAI's GPT-2 encoder (``bytes_to_unicode`` in ``encoder.py``): byte-level BPE
works on bytes, but GPT-2 stores its vocabulary and merges as text, so every byte needs a
visible character that is not whitespace or a control code. Printable Latin-1 bytes keep
their own character; the 68 others (controls, space, DEL, the C1 block, NBSP and the soft
hyphen) are moved, in increasing order, to ``chr(256)``, ``chr(257)``, and so on. That is why
a leading space shows up as ``Ġ`` (``chr(256 + 32)``) in ``vocab.json``.

Left out: nothing; this is the whole table. Its inverse is ``{c: b for b, c in ...items()}``.
"""

# Bytes that already print as themselves: '!'..'~', '¡'..'¬', '®'..'ÿ'.
PRINTABLE_BYTES: tuple[range, ...] = (range(33, 127), range(161, 173), range(174, 256))


def bytes_to_unicode() -> dict[int, str]:
    """Map each of the 256 byte values to one printable character, as GPT-2 does.

    >>> table = bytes_to_unicode()
    >>> table[ord("A")], table[ord(" ")], table[0], len(set(table.values()))
    ('A', 'Ġ', 'Ā', 256)
    """
    kept = {b for block in PRINTABLE_BYTES for b in block}
    table: dict[int, str] = {}
    moved = 0
    for byte in range(256):
        if byte in kept:
            table[byte] = chr(byte)
        else:
            # The n-th byte that does not print (counting from 0) becomes chr(256 + n).
            table[byte] = chr(256 + moved)
            moved += 1
    return table
