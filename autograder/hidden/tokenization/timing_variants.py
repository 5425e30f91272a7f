"""Slow variants of the reference for ``make timing-stability`` (tokenization).

Each is a small override appended to the flattened reference (the grader keeps the last
definition, so ``class BPETokenizer(BPETokenizer)`` replaces one method): quadratic
``CharTokenizer.encode`` (string slicing per character), quadratic
``CharTokenizer.decode`` and ``BPETokenizer.encode`` (list concatenation per token), and
a BPE trainer that counts pairs over every word occurrence instead of distinct words.
``VARIANTS`` pairs each with the timing tests meant to catch it (None: an honest
variant, which must fail no timing test).

Two variants break Part 4 (``build_vocab`` keeps the old vocabulary), so Part 3 is graded
with the grader's Part 4 (``merge_pair`` a stand-in, one round trip to the scorer per
call): the reference must still pass the timing tests, and the every-occurrence trainer
must still be caught. Before timed runs stopped remembering stand-in calls, the trainer's
ratio fell from about 8 to about 3 there, and it passed one run in CI.
"""

import re

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
# Another part wrong: Part 3 then calls the grader's Part 4 through stand-ins.
PART4_WRONG = '''
class CharTokenizer(CharTokenizer):
    def build_vocab(self, corpus):
        new = sorted({ch for text in corpus for ch in text} - set(self.vocab))
        self._set_vocab(self.vocab[1:] + new)
'''
# name -> (override appended to the reference, the timing tests meant to catch it)
VARIANTS: dict[str, tuple[str, re.Pattern | None]] = {
    "reference": ("", None),
    "quadratic CharTokenizer.encode": (QUADRATIC_CHAR_ENCODE, re.compile(r"part2::.*encode")),
    "quadratic CharTokenizer.decode": (QUADRATIC_CHAR_DECODE, re.compile(r"part2::.*decode")),
    "quadratic BPETokenizer.encode": (QUADRATIC_BPE_ENCODE, re.compile(r"part3::.*encode")),
    "trainer over every occurrence": (EVERY_OCCURRENCE_TRAINER, re.compile(r"duplicat")),
    "reference, Part 4 wrong": (PART4_WRONG, None),
    "trainer over every occurrence, Part 4 wrong": (EVERY_OCCURRENCE_TRAINER + PART4_WRONG,
                                                    re.compile(r"duplicat")),
}
