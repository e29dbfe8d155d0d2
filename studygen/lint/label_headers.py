"""Which table headers name a label column rather than a quantity
(:mod:`studygen.lint.columns` types a table's columns with them).

- :func:`is_label_header`: the header opens with a label word, the name of
  what tells rows apart (GPU, TensorRT version, shape, recipe, batch …), as
  a word of its own: "TensorRT", "Batch size", "group-size". A label word
  that only opens a hyphenated name ("TensorRT-LLM", "Model-B") names a
  variant, whose column of figures is measured like any other.
- :func:`names_a_quantity`: a header that opens with a label word but goes
  on to name a quantity ("Model load time").
- :func:`is_text_header`: a column of notes or commands, neither labels nor
  figures.
- :data:`LONG_LABEL_HEADER_RE`: a header of machines or runs, whose labels
  may run longer.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..patterns import lazy_compile

# A header that names a label column (GPU, TensorRT version, shape, recipe …).
LABEL_HEADER_RE = lazy_compile(
    r"^\W*(?:gpus?|device|tensorrt|trt|version|software|shape|shapes|resolution|input|batch|model|models|"
    r"variant|variants|precision|dtype|recipe|config|configuration|part|parts|group|groups|kernel|kernels|"
    r"name|job|jobs|engine|backend|framework|layer|layers|component|setting|settings|dataset|run|stage|mode|"
    r"method|item|case|step|family|checkpoint|revision|commit|date|notes?|comment|source|what|where|"
    r"statistic|stat|metric|quantity)\b",
    re.IGNORECASE,
)
# A header of machines or runs, whose full names run long: labels of up to eight words (columns._short_cells). Not every
# label header: a kernel's six-word description read as labels made clauses naming "every other" kernel name rows.
LONG_LABEL_HEADER_RE = lazy_compile(
    r"^\W*(?:gpus?|devices?|hardware|accelerators?|machines?|systems?|platforms?|hosts?|nodes?|models?|jobs?)\b",
    re.IGNORECASE,
)
_TEXT_HEADER_RE = lazy_compile(
    r"^\W*(?:notes?|comments?|remarks?|source|sources|details?|description|why|explanation|reason|command|link|links|see|evidence)\b",
    re.IGNORECASE,
)
# A label word joined by a hyphen to the next word: "group-size" keeps the label, "TensorRT-LLM" names something else
_HYPHEN_TAIL_RE = lazy_compile(r"-([A-Za-z]+)")
# Words after a label word that keep a header a label ("Batch size", "Model name", "TensorRT version").
_LABEL_TAIL_WORDS = frozenset({"size", "sizes", "name", "names", "id", "ids", "version", "versions", "type", "types", "no", "number", "count"})


@lru_cache(maxsize=4096)
def names_a_quantity(header: str) -> bool:
    """True when a header that starts with a label word goes on to name a
    quantity ("Kernel interval union", "Model load time"): two words or
    more after the label word, not "size", "name", "version" …"""
    words = re.findall(r"[A-Za-z]+", header)[1:]
    return len([w for w in words if w.lower() not in _LABEL_TAIL_WORDS]) >= 2


@lru_cache(maxsize=4096)
def is_label_header(header: str) -> bool:
    """True when the header opens with a label word as a word of its own
    (module docstring): "TensorRT", "group-size", not "TensorRT-LLM"."""
    label = LABEL_HEADER_RE.match(header)
    if label is None:
        return False
    joined = _HYPHEN_TAIL_RE.match(header, label.end())
    return joined is None or joined.group(1).lower() in _LABEL_TAIL_WORDS


@lru_cache(maxsize=4096)
def is_text_header(header: str) -> bool:
    return _TEXT_HEADER_RE.match(header) is not None
