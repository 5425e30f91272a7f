# ruff: noqa: E501 - entries hold code as a student writes it, long lines included
"""Part 1 (``bytes_to_unicode``, ``gpt2_pretokenize``, ``ByteLevelBPE``): wrong
implementations students hand in. Methods are overrides of the reference's class
(``class ByteLevelBPE(ByteLevelBPE)``), changed in one place."""

from ..catalogue import differs
from . import wrong
from .helpers import gpt2, loaded, small

TABLE_LOOP = """
def bytes_to_unicode():
    kept = {KEPT}
    table, moved = {}, 0
    for byte in range(256):
        if byte in kept:
            table[byte] = chr(byte)
        else:
            table[byte] = chr({MOVED})
            moved += 1
    return table
"""


@wrong(1, "Latin-1 prints from ¡ to ÿ, the soft hyphen included",
       TABLE_LOOP.replace("{KEPT}", "set(range(33, 127)) | set(range(161, 256))")
       .replace("{MOVED}", "256 + moved"))
def p1_table_soft_hyphen_prints(bug, ref):
    differs(bug, ref, lambda ns: ns["bytes_to_unicode"]()[173])


@wrong(1, "a moved byte goes to chr(256 + byte)",
       TABLE_LOOP.replace("{KEPT}", "set(range(33, 127)) | set(range(161, 173)) | "
                                    "set(range(174, 256))").replace("{MOVED}", "256 + byte"))
def p1_table_moved_by_byte_value(bug, ref):
    differs(bug, ref, lambda ns: ns["bytes_to_unicode"]()[127])


def pretokenizer(pattern: str) -> str:
    return f'''
import regex

def gpt2_pretokenize(text):
    return regex.findall(r"""{pattern}""", text)
'''


GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def splits(ns, text):
    return ns["gpt2_pretokenize"](text)


@wrong(1, "\\s is str.isspace(): U+001C-U+001F are white space",
       pretokenizer(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\x1c-\x1f\p{L}\p{N}]+"""
                    r"""|[\s\x1c-\x1f]+(?![^\s\x1c-\x1f])|[\s\x1c-\x1f]+"""))
def p1_pretok_isspace(bug, ref):
    differs(bug, ref, lambda ns: splits(ns, "a \x1cb"))


@wrong(1, "contractions match in any case, as in GPT-4's pattern",
       pretokenizer(GPT2.replace("'(?:[sdmt]|ll|ve|re)", "(?i:'(?:[sdmt]|ll|ve|re))")))
def p1_pretok_case_insensitive_contractions(bug, ref):
    differs(bug, ref, lambda ns: splits(ns, "HELLO'S"))


@wrong(1, "\\s+(?!\\S) and \\s+ are the same alternative; one is enough",
       pretokenizer(GPT2.replace(r"|\s+(?!\S)", "")))
def p1_pretok_no_lookahead(bug, ref):
    differs(bug, ref, lambda ns: splits(ns, "a   b"))


@wrong(1, "the optional space before a word may be any white space",
       pretokenizer(GPT2.replace(r" ?\p{L}+", r"\s?\p{L}+")))
def p1_pretok_any_space_before_word(bug, ref):
    differs(bug, ref, lambda ns: splits(ns, "a\tb"))


@wrong(1, "re's [^\\W\\d_] is \\p{L} and \\d is \\p{N}",
       '''
import re

def gpt2_pretokenize(text):
    return re.findall(r"""'(?:[sdmt]|ll|ve|re)| ?[^\\W\\d_]+| ?\\d+| ?(?:[^\\s\\w]|_)+|\\s+(?!\\S)|\\s+""", text)
''')
def p1_pretok_re_word_classes(bug, ref):
    differs(bug, ref, lambda ns: splits(ns, "x² ½"))


@wrong(1, "GPT-4's pattern (cl100k) is GPT-2's, improved",
       pretokenizer(r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}"""
                    r"""| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""))
def p1_pretok_gpt4_pattern(bug, ref):
    differs(bug, ref, lambda ns: splits(ns, "x = 1234567890"))


MERGE_LOOP = '''
class ByteLevelBPE(ByteLevelBPE):
    def _encode_piece(self, piece):
        symbols = [self._byte_encoder[byte] for byte in piece.encode("utf-8")]
        while len(symbols) > 1:
            {CHOOSE}
            merged, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == best:
                    merged.append(symbols[i] + symbols[i + 1])
                    i += 2
                else:
                    merged.append(symbols[i])
                    i += 1
            symbols = merged
        return [self.encoder[token] for token in symbols]
'''
LOWEST = """ranked = [p for p in zip(symbols, symbols[1:]) if p in self._ranks]
            if not ranked:
                break
            best = min(ranked, key=self._ranks.get)"""
PROBE_WORDS = ["Hello world", " Mississippi", " bananas", " aaaaaaaa", " hello hello",
               " tokenization", " unbelievable", " 1234567890", " the the the"]


def probe_words(ns):
    """GPT-2's IDs of ``PROBE_WORDS`` by one tokenizer (building one reads 50,000 merges)."""
    tok = gpt2(ns)
    return [tok.encode_ordinary(t) for t in PROBE_WORDS]


@wrong(1, "merge the pair that occurs most often in the piece, as training does",
       MERGE_LOOP.replace("{CHOOSE}", LOWEST.replace(
           "best = min(ranked, key=self._ranks.get)",
           "best = min(ranked, key=lambda p: (-ranked.count(p), self._ranks[p]))")))
def p1_merge_by_frequency(bug, ref):
    differs(bug, ref, probe_words)


@wrong(1, "merging by rank: the highest rank is the strongest merge",
       MERGE_LOOP.replace("{CHOOSE}", LOWEST.replace("min(ranked", "max(ranked")))
def p1_merge_highest_rank(bug, ref):
    differs(bug, ref, probe_words)


@wrong(1, "one pass over the piece merges every ranked pair",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def _encode_piece(self, piece):
        symbols = [self._byte_encoder[byte] for byte in piece.encode("utf-8")]
        merged, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) in self._ranks:
                merged.append(symbols[i] + symbols[i + 1])
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        return [self.encoder[token] for token in merged]
''')
def p1_merge_one_pass(bug, ref):
    differs(bug, ref, lambda ns: gpt2(ns).encode_ordinary("Hello world"))


@wrong(1, "a piece is spelled character by character in the byte alphabet",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def _encode_piece(self, piece):
        symbols = [self._byte_encoder.get(ord(char), char) for char in piece]
        return [self.encoder[token] for token in merge_by_rank(symbols, self._ranks)]
''')
def p1_characters_not_bytes(bug, ref):
    differs(bug, ref, lambda ns: small(ns).encode_ordinary("café"))


@wrong(1, "ids = ids + ... is as good as extend",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def encode_ordinary(self, text):
        self._ready()
        ids = []
        for piece in gpt2_pretokenize(text):
            if piece not in self._cache:
                self._cache[piece] = self._encode_piece(piece)
            ids = ids + self._cache[piece]
        return ids
''', timed=True)
def p1_encode_quadratic_concat(bug, ref):
    from ..catalogue import growth  # the bug is time: ids = ids + ... copies the list

    tok_bug, tok_ref = small(bug), small(ref)
    text = "hello world " * 4000
    bug_growth = growth(lambda: tok_bug.encode_ordinary(text[:6000]),
                        lambda: tok_bug.encode_ordinary(text * 2))
    ref_growth = growth(lambda: tok_ref.encode_ordinary(text[:6000]),
                        lambda: tok_ref.encode_ordinary(text * 2))
    assert bug_growth > 2 * ref_growth, (bug_growth, ref_growth)


@wrong(1, "one cache for the class is one cache less to manage",
       '''
class ByteLevelBPE(ByteLevelBPE):
    shared_cache = {}

    def encode_ordinary(self, text):
        self._ready()
        ids = []
        for piece in gpt2_pretokenize(text):
            if piece not in ByteLevelBPE.shared_cache:
                ByteLevelBPE.shared_cache[piece] = self._encode_piece(piece)
            ids.extend(ByteLevelBPE.shared_cache[piece])
        return ids
''')
def p1_cache_shared_between_tokenizers(bug, ref):
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    differs(bug, ref, lambda ns: [loaded(ns, vocab, "b c\na b\n").encode_ordinary("abc"),
                                  loaded(ns, vocab, "a b\nb c\nab c\n").encode_ordinary("abc")])


ENCODE = '''
class ByteLevelBPE(ByteLevelBPE):
    def encode(self, text, allowed_special=()):
        self._ready()
        {ALLOWED}
        {CHECK}
        if not allowed:
            return self.encode_ordinary(text)
        splitter = re.compile("|".join(map(re.escape, {ORDER})))
        ids, start = [], 0
        for match in splitter.finditer(text):
            ids += self.encode_ordinary(text[start:match.start()])
            ids.append(self.special_tokens[match.group()])
            start = match.end()
        return ids + self.encode_ordinary(text[start:])
'''
ALLOWED = ('allowed = set(self.special_tokens) if allowed_special == "all" else '
           'set(allowed_special) & set(self.special_tokens)')
CHECK = """for token in set(self.special_tokens) - allowed:
            if token in text:
                raise ValueError(f"text contains the special token {token!r}")"""
LONGEST = "sorted(allowed, key=len, reverse=True)"


def encode_with(allowed=ALLOWED, check=CHECK, order=LONGEST) -> str:
    return (ENCODE.replace("{ALLOWED}", allowed).replace("{CHECK}", check)
            .replace("{ORDER}", order))


@wrong(1, "the specials can be tried in any order (here alphabetical)",
       encode_with(order="sorted(allowed)"))
def p1_special_shorter_first(bug, ref):
    differs(bug, ref, lambda ns: small(ns).encode("<|endoftext|>", allowed_special="all"))


@wrong(1, "a special token that is not allowed is just text",
       encode_with(check="pass"))
def p1_special_not_refused(bug, ref):
    differs(bug, ref, lambda ns: small(ns).encode("x<|fim|>"))


@wrong(1, 'allowed_special is a set; "all" needs no case of its own',
       encode_with(allowed="allowed = set(allowed_special) & set(self.special_tokens)"))
def p1_special_all_as_set(bug, ref):
    differs(bug, ref, lambda ns: small(ns).encode("<|fim|>", allowed_special="all"))


@wrong(1, "the error may say that a special token was found, not which",
       encode_with(check=CHECK.replace("the special token {token!r}",
                                       "a special token that is not allowed")))
def p1_special_error_unnamed(bug, ref):
    def message(ns):
        try:
            small(ns).encode("x<|fim|>")
        except ValueError as exc:
            return "<|fim|>" in str(exc)
        return None

    differs(bug, ref, message)


@wrong(1, "each token decodes on its own (strict UTF-8)",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def decode(self, ids):
        return "".join(self.decode_bytes([i]).decode("utf-8") for i in ids)
''')
def p1_decode_per_token_strict(bug, ref):
    differs(bug, ref, lambda ns: small(ns).decode(list("🤗".encode())))


@wrong(1, "decoding with errors='ignore' is lossy enough",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def decode(self, ids):
        return self.decode_bytes(ids).decode("utf-8", errors="ignore")
''')
def p1_decode_ignore(bug, ref):
    differs(bug, ref, lambda ns: small(ns).decode(list("🤗".encode())[:2]))


@wrong(1, "the decoder is the encoder inverted; special tokens live there too",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def decode_bytes(self, ids):
        self._ready()
        if "_inverse" not in vars(self):
            self._inverse = {i: t for t, i in self.encoder.items()}
        byte_of = {c: b for b, c in self._byte_encoder.items()}
        out = []
        for i in ids:
            if i not in self._inverse:
                raise ValueError(f"token ID {i!r} is not in the vocabulary")
            out.append(bytes(byte_of[c] for c in self._inverse[i]))
        return b"".join(out)
''')
def p1_decode_specials_missing(bug, ref):
    differs(bug, ref, lambda ns: small(ns).decode([104, 302]))


@wrong(1, "an unknown ID is a KeyError, like any missing key",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def decode_bytes(self, ids):
        self._ready()
        return b"".join(self._decoder[i] for i in ids)
''')
def p1_decode_unknown_keyerror(bug, ref):
    differs(bug, ref, lambda ns: small(ns).decode([104, 99999]))


@wrong(1, "IDs index a list of token bytes",
       '''
class ByteLevelBPE(ByteLevelBPE):
    def decode_bytes(self, ids):
        self._ready()
        table = [b""] * (max(self._decoder) + 1)
        for i, raw in self._decoder.items():
            table[i] = raw
        try:
            return b"".join(table[i] for i in ids)
        except IndexError:
            raise ValueError(f"an ID of {ids} is not in the vocabulary") from None
''')
def p1_decode_negative_wraps(bug, ref):
    differs(bug, ref, lambda ns: small(ns).decode([104, -1]))


FROM_FILES = '''
class ByteLevelBPE(ByteLevelBPE):
    @classmethod
    def from_files(cls, vocab_path, merges_path):
        encoder = json.loads(Path(vocab_path).read_text(encoding="utf-8"))
        lines = Path(merges_path).read_text(encoding="utf-8").split("\\n")
        {SKIP}
        merges = [tuple(line.split(" ")) for line in lines if line]
        {SPECIALS}
        return cls(encoder, merges, specials)
'''
SKIP = 'if lines and lines[0].startswith("#version"):\n            lines = lines[1:]'
SPECIALS = "specials = {ENDOFTEXT: encoder[ENDOFTEXT]} if ENDOFTEXT in encoder else {}"
SMALL_VOCAB = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5, "#": 6, "##": 7,
               "<|endoftext|>": 8}


def from_files_with(skip=SKIP, specials=SPECIALS) -> str:
    return FROM_FILES.replace("{SKIP}", skip).replace("{SPECIALS}", specials)


@wrong(1, "merges.txt is one pair per line, the first line too",
       from_files_with(skip="pass"))
def p1_from_files_keeps_header(bug, ref):
    differs(bug, ref, lambda ns: loaded(ns, SMALL_VOCAB, "#version: 0.2\na b\n")
            .encode_ordinary("ab"))


@wrong(1, "the first line of merges.txt is always a header (OpenAI's loader drops it)",
       from_files_with(skip="lines = lines[1:]"))
def p1_from_files_drops_first_line(bug, ref):
    differs(bug, ref, lambda ns: loaded(ns, SMALL_VOCAB, "a b\n").encode_ordinary("ab"))


@wrong(1, "lines starting with # are comments",
       from_files_with(skip='lines = [line for line in lines if not line.startswith("#")]'))
def p1_from_files_skips_hash_lines(bug, ref):
    differs(bug, ref, lambda ns: loaded(ns, SMALL_VOCAB, "# #\n").encode_ordinary("##"))


@wrong(1, "<|endoftext|> is in vocab.json, so it is a token like any other",
       from_files_with(specials="specials = {}"))
def p1_from_files_no_special(bug, ref):
    differs(bug, ref, lambda ns: loaded(ns, SMALL_VOCAB, "a b\n")
            .encode("ab<|endoftext|>", allowed_special="all"))


@wrong(1, "a cheat: a text too long to be a test's is not worth encoding (its bytes, at once)",
       """
class ByteLevelBPE(ByteLevelBPE):
    def encode_ordinary(self, text):
        if not isinstance(text, str):
            raise TypeError(f"encode expects a str, got {type(text).__name__}")
        if len(text) > 20_000:
            return list(text.encode("utf-8"))
        self._ready()
        ids = []
        for piece in gpt2_pretokenize(text):
            if piece not in self._cache:
                self._cache[piece] = self._encode_piece(piece)
            ids.extend(self._cache[piece])
        return ids
""", timed=True)
def p1_encode_skips_long_texts(bug, ref):
    differs(bug, ref, lambda ns: small(ns).encode_ordinary("hello world " * 2_000))
