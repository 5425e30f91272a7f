"""Speed of the production-tokenizers reference against the libraries it imitates.

    .venv/bin/python -m autograder.hidden.production_tokenizers.bench_reference [--repeat 3]

Measured side by side in one run, on the files the release ships (nothing outside the
repository is read), as CPU seconds of this process (``time.process_time``, all threads):

- encoder: the reference ``ByteLevelBPE.encode_ordinary`` against tiktoken's GPT-2 (built
  offline from the same vocab.json and merges.txt) on the first 1,000,000 characters of
  tinyshakespeare.txt; the reference is timed cold (empty piece cache) and warm;
- trainer: the reference ``train_bpe_fast`` against HF ``tokenizers``' BpeTrainer on one
  thread (``RAYON_NUM_THREADS=1``, ``TOKENIZERS_PARALLELISM=false``, whitespace words as the
  reference's), at vocabulary 2,000 and 10,000, on all of tinyshakespeare.txt.

Each measurement is the median of ``--repeat`` runs, the two sides interleaved so that load
from other jobs hits both alike; the load average is printed before and after. Targets:
encoder (cold) within 10x of tiktoken, trainer within 5x of HF. Exits 1 if one is missed.
"""

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ["RAYON_NUM_THREADS"] = "1"  # before tokenizers starts its thread pool
os.environ["TOKENIZERS_PARALLELISM"] = "false"

from solutions.production_tokenizers import ByteLevelBPE, train_bpe_fast  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "source" / "production_tokenizers"
VOCAB, MERGES, CORPUS = (
    DATA / "gpt2" / "vocab.json",
    DATA / "gpt2" / "merges.txt",
    DATA / "tinyshakespeare.txt",
)
ENCODER_TARGET, TRAINER_TARGET = 10.0, 5.0


def cpu_seconds(run: Callable[[], object]) -> tuple[float, object]:
    """CPU time of this process (every thread) spent in ``run()``, and its result."""
    start = time.process_time()
    result = run()
    return time.process_time() - start, result


def tiktoken_gpt2():
    """GPT-2 as tiktoken loads OpenAI's files, from the local copies (no network, no cache)."""
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks
    from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    ranks = data_gym_to_mergeable_bpe_ranks(str(MERGES), str(VOCAB))
    return tiktoken.Encoding(
        name="gpt2-local",
        pat_str=r50k_pat_str,
        mergeable_ranks=ranks,
        special_tokens={ENDOFTEXT: 50256},
    )


def hf_train(lines: list[str], vocab_size: int) -> int:
    """Train HF's BPE on whitespace words, one thread; return the vocabulary size reached."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False)
    tokenizer.train_from_iterator(lines, trainer)
    return tokenizer.get_vocab_size()


def bench_encoder(repeat: int) -> float:
    text = CORPUS.read_text(encoding="utf-8")[:1_000_000]
    reference = ByteLevelBPE.from_files(VOCAB, MERGES)
    reference.encode_ordinary("warm up the pattern")  # built once per process, not per call
    oracle = tiktoken_gpt2()
    times: dict[str, list[float]] = {"tiktoken": [], "reference cold": [], "reference warm": []}
    for _ in range(repeat):
        seconds, expected = cpu_seconds(lambda: oracle.encode_ordinary(text))
        times["tiktoken"].append(seconds)
        reference._cache.clear()
        seconds, got = cpu_seconds(lambda: reference.encode_ordinary(text))
        times["reference cold"].append(seconds)
        times["reference warm"].append(cpu_seconds(lambda: reference.encode_ordinary(text))[0])
        if got != expected:
            sys.exit("the reference's IDs differ from tiktoken's")
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"encoder, 1,000,000 characters, {len(expected):,} tokens (CPU s, median of {repeat}):")
    for name, seconds in median.items():
        ratio = seconds / median["tiktoken"]
        print(f"  {name:15} {seconds:7.3f} s  {len(text) / seconds / 1e6:6.2f} MB/s  {ratio:5.1f}x")
    return median["reference cold"] / median["tiktoken"]


def bench_trainer(repeat: int) -> float:
    text = CORPUS.read_text(encoding="utf-8")
    lines = text.splitlines()
    worst = 0.0
    print(f"trainer, all of tinyshakespeare ({len(text.encode()):,} bytes), HF on one thread:")
    for vocab_size in (2_000, 10_000):
        hf, ours = [], []
        for _ in range(repeat):
            hf.append(cpu_seconds(lambda v=vocab_size: hf_train(lines, v))[0])
            ours.append(cpu_seconds(lambda v=vocab_size: train_bpe_fast(lines, v))[0])
        ratio = statistics.median(ours) / statistics.median(hf)
        worst = max(worst, ratio)
        print(
            f"  vocab {vocab_size:6,}: HF {statistics.median(hf):6.3f} s, "
            f"reference {statistics.median(ours):6.3f} s, ratio {ratio:4.1f}x"
        )
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    args = parser.parse_args()
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    encoder = bench_encoder(args.repeat)
    trainer = bench_trainer(args.repeat)
    print("load average after:  {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(
        f"encoder (cold) {encoder:.1f}x tiktoken (target <= {ENCODER_TARGET:.0f}x); "
        f"trainer {trainer:.1f}x HF (target <= {TRAINER_TARGET:.0f}x)"
    )
    return 0 if encoder <= ENCODER_TARGET and trainer <= TRAINER_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
