"""Slow variants of the reference for ``make timing-stability`` (tokenization).

Each is a small override appended to the flattened reference (the grader keeps the last
definition, so ``class BPETokenizer(BPETokenizer)`` replaces one method): quadratic
``CharTokenizer.encode`` (string slicing per character), quadratic
``CharTokenizer.decode`` and ``BPETokenizer.encode`` (list concatenation per token), and
a BPE trainer that counts pairs over every word occurrence instead of distinct words.
``VARIANTS`` pairs each with the timing tests meant to catch it (None: an honest
variant, which must fail no timing test). One honest variant deviates from the
reference where Part 3's tie tests charge it (another tie-break): its timing tests must
not charge that again.

Three variants get another part wrong, so Part 3 is graded while it is. With Part 4's
``build_vocab`` wrong, Part 4's functions are still trusted (their own tests passed), so
Part 3 runs the student's ``merge_pair``: the reference must pass the timing tests and the
every-occurrence trainer must be caught. (Before ``build_vocab``'s tests named only that
method, the trainer ran on the grader's ``merge_pair``, one round trip per new call and a
lookup per repeated one, and measured 3.3x against the fail line of 3: it passed once in
CI.) With ``merge_pair`` itself wrong (it changes its input), Part 3 calls the grader's:
the reference must still pass every timing test.
"""

import inspect
import re
import textwrap

import solutions.tokenization as ref

QUADRATIC_CHAR_ENCODE = '''
class CharTokenizer(CharTokenizer):
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        ids = []
        while text:
            ids.append(self.char_to_id.get(text[0], self.unk_id))
            text = text[1:]
        return ids
'''
QUADRATIC_CHAR_DECODE = '''
class CharTokenizer(CharTokenizer):
    def decode(self, tokens):
        chars = []
        for t in tokens:
            chars = chars + [self.id_to_char[check_token_id(t, self.vocab_size)]]
        return "".join(chars)
'''
QUADRATIC_BPE_ENCODE = '''
class BPETokenizer(BPETokenizer):
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        ids = []
        for word in text.split():
            tokens = self._apply_merges(self._get_word_tokens(word))
            ids = ids + [self.token_to_id.get(t, 0) for t in tokens]
        return ids
'''
EVERY_OCCURRENCE_TRAINER = '''
class BPETokenizer(BPETokenizer):
    def train(self, corpus, vocab_size=None):
        if vocab_size is not None:
            self.target_vocab_size = check_vocab_size(vocab_size)
        words = [word for text in corpus for word in text.split()]
        tokens = [self._get_word_tokens(word) for word in words]
        self.vocab = [UNK, EOW] + sorted({ch for word in words for ch in word})
        self.merges = []
        while len(self.vocab) < self.target_vocab_size:
            counts = Counter()
            for word in tokens:
                for pair in zip(word, word[1:]):
                    counts[pair] += 1
            if not counts:
                break
            best = min(counts, key=lambda pair: (-counts[pair], pair))
            tokens = [merge_pair(word, best) for word in tokens]
            self.merges.append(best)
            if best[0] + best[1] not in self.vocab:
                self.vocab.append(best[0] + best[1])
        self._build_mappings()
'''
def _reference_train_with(old: str, new: str) -> str:
    """An override of ``BPETokenizer.train``: the reference's, with ``old`` made ``new``."""
    source = textwrap.dedent(inspect.getsource(ref.BPETokenizer.train))
    if old not in source:
        raise ValueError(f"the reference's train has no {old!r}")
    method = textwrap.indent(source.replace(old, new), "    ")
    return "\nclass BPETokenizer(BPETokenizer):\n" + method


# Honest, with another tie-break (the pair smallest read right to left): the tie tests
# charge it, so its timing tests compare its timed merges with its own (``remote.Own``)
# and must pass: a timing test judges time, never a deviation a correctness test charges.
ANOTHER_TIE_BREAK = _reference_train_with("(-counts[pair], pair)", "(-counts[pair], pair[::-1])")
# Another part wrong. Part 4's build_vocab: Part 4's functions stay trusted.
BUILD_VOCAB_WRONG = '''
class CharTokenizer(CharTokenizer):
    def build_vocab(self, corpus):
        new = sorted({ch for text in corpus for ch in text} - set(self.vocab))
        self._set_vocab(self.vocab[1:] + new)
'''
# merge_pair that merges in place: Part 3 then calls the grader's merge_pair.
MERGE_PAIR_IN_PLACE = '''
def merge_pair(tokens, pair):
    merged, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            merged.append(pair[0] + pair[1])
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    tokens[:] = merged
    return tokens
'''
# name -> (override appended to the reference, the timing tests meant to catch it)
VARIANTS: dict[str, tuple[str, re.Pattern | None]] = {
    "reference": ("", None),
    "quadratic CharTokenizer.encode": (QUADRATIC_CHAR_ENCODE, re.compile(r"part2::.*encode")),
    "quadratic CharTokenizer.decode": (QUADRATIC_CHAR_DECODE, re.compile(r"part2::.*decode")),
    "quadratic BPETokenizer.encode": (QUADRATIC_BPE_ENCODE, re.compile(r"part3::.*encode")),
    "trainer over every occurrence": (EVERY_OCCURRENCE_TRAINER, re.compile(r"duplicat")),
    "reference, build_vocab wrong": (BUILD_VOCAB_WRONG, None),
    "reference, merge_pair wrong": (MERGE_PAIR_IN_PLACE, None),
    "reference, another tie-break": (ANOTHER_TIE_BREAK, None),
    "trainer over every occurrence, build_vocab wrong": (
        EVERY_OCCURRENCE_TRAINER + BUILD_VOCAB_WRONG, re.compile(r"duplicat")),
}
