"""Build ``parallel.json``: the same short texts in 30 locales, from CLDR via ``babel``.

Part 6 measures what a tokenizer costs speakers of each language, which needs *parallel*
text: item ``i`` means the same in every locale. The Unicode Consortium's CLDR translates the
same names into every locale: languages, territories, months and weekdays. ``babel`` ships
CLDR's data, so this script runs offline; its version is pinned (pyproject.toml's dev extra,
environment.yml) because another CLDR release translates differently, and a test checks that
rerunning this script reproduces the committed file byte for byte.

Items: every two-letter language code and every two-letter territory code that all 30
locales name, then the 12 months and the 7 weekdays (stand-alone, wide forms: "January",
"Monday"). CLDR data is under the Unicode License v3 (https://www.unicode.org/license.txt);
the file says so.

    python source/production_tokenizers/make_parallel.py   # rewrites parallel.json beside it
"""

import json
import re
from pathlib import Path

import babel
from babel import Locale

BABEL_VERSION = "2.18.0"  # keep equal to the pin in pyproject.toml and environment.yml
OUT = Path(__file__).with_name("parallel.json")

# English first (the premium's reference), then Europe, the Middle East, South and Southeast
# Asia, the Caucasus, Africa and East Asia: Latin, Cyrillic, Greek, Arabic, Hebrew,
# Devanagari, Bengali, Tamil, Telugu, Thai, Myanmar, Khmer, Georgian, Armenian, Ethiopic and
# Han/Kana/Hangul scripts.
LOCALES = (
    "en es fr de pt it pl ru uk el tr ar he fa hi "
    "bn ta te th my km ka hy am zh ja ko vi id sw"
).split()


def common_codes(locales: list[Locale], table: str, pattern: str) -> list[str]:
    """The codes matching ``pattern`` that every locale's ``table`` names, sorted."""
    sets = [{code for code in getattr(loc, table) if re.fullmatch(pattern, code)} for loc in locales]
    return sorted(set.intersection(*sets))


def build() -> str:
    """The JSON text of parallel.json (deterministic for one babel version)."""
    if babel.__version__ != BABEL_VERSION:
        raise RuntimeError(f"babel {BABEL_VERSION} is pinned, found {babel.__version__}")
    locales = [Locale.parse(code) for code in LOCALES]
    languages = common_codes(locales, "languages", "[a-z]{2}")
    territories = common_codes(locales, "territories", "[A-Z]{2}")
    items = (
        [f"language:{code}" for code in languages]
        + [f"territory:{code}" for code in territories]
        + [f"month:{m}" for m in range(1, 13)]
        + [f"weekday:{d}" for d in range(7)]  # CLDR numbers Monday 0 ... Sunday 6
    )
    texts = {}
    for code, loc in zip(LOCALES, locales):
        months = loc.months["stand-alone"]["wide"]
        days = loc.days["stand-alone"]["wide"]
        texts[code] = (
            [loc.languages[c] for c in languages]
            + [loc.territories[c] for c in territories]
            + [months[m] for m in range(1, 13)]
            + [days[d] for d in range(7)]
        )
    document = {
        "source": f"Unicode CLDR {babel.core.get_cldr_version()} via babel {babel.__version__}",
        "license": "Unicode License v3, https://www.unicode.org/license.txt",
        "generator": "source/production_tokenizers/make_parallel.py",
        "items": items,
        "texts": texts,
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    OUT.write_text(build(), encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
