"""The Schedule's Numeric Index, read back where it is unambiguous: an independent check of fee alignment.

The index at the end of the text (an April 2024 table, not parsed by the
loader) lists codes in one column and their single fee in the next, page by
page: ``CODE`` then the codes, then ``$`` then as many fees. Only pages whose
two columns have the same length are read.
"""

from __future__ import annotations

import re
from pathlib import Path

_CODE = re.compile(r"^[A-Z]\d{3}$")
_FEE = re.compile(r"^\d{1,4}\.\d{2}$")


def index_fees(path: Path) -> dict[str, set[float]]:
    lines = [line.strip() for line in path.read_text(encoding="utf-8").split("\n")]
    start = next(i for i, line in enumerate(lines) if line.startswith("Numeric Index"))
    lines = lines[start:]
    out: dict[str, set[float]] = {}
    i = 0
    while i < len(lines):
        if lines[i] != "CODE":
            i += 1
            continue
        j = i + 1
        while j < len(lines) and _CODE.match(lines[j]):
            j += 1
        codes = lines[i + 1 : j]
        dollar = next((k for k in range(j, min(len(lines), j + 8)) if lines[k] == "$"), None)
        if dollar is not None:
            k = dollar + 1
            while k < len(lines) and _FEE.match(lines[k]):
                k += 1
            fees = lines[dollar + 1 : k]
            if len(fees) == len(codes):
                for code, fee in zip(codes, fees, strict=True):
                    out.setdefault(code, set()).add(float(fee))
        i = j
    return out
