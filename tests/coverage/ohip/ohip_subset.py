"""A copy of the real Schedule text keeping whole pages only (see conftest.py for why)."""

from __future__ import annotations

from pathlib import Path

from curbside.coverage.ohip.layout import is_furniture, page_markers

# the front matter and General Preamble page 1; hospital visits, the MRP codes C122-C124, C142/C143 and their
# premiums E082-E084 (GP40-GP48); Family Practice (00) consultations and hospital visits (A1-A2, A10-A11);
# Anaesthesia (01) (A72-A74); Cardiology (60) (A75-A76); Paediatrics (26) hospital visits (A159);
# Diagnostic Radiology head and neck, H and P columns (D5); skin surgery, surgeon/assistant/anaesthetist (M1-M2)
KEPT_PAGES = (
    ["GP1"]
    + [f"GP{n}" for n in range(40, 49)]
    + ["A1", "A2", "A10", "A11", "A72", "A73", "A74", "A75", "A76", "A159", "D5", "M1", "M2"]
)
_TRAILING = 20  # lines after a kept page's marker that may hold its furniture (and sometimes its last fees)


def write_subset(source: Path, target: Path, keep: tuple[str, ...] | list[str] = tuple(KEPT_PAGES)) -> Path:
    raw = source.read_text(encoding="utf-8").split("\n")
    markers = page_markers(raw)
    index = {label: n for n, (_, label) in enumerate(markers)}
    missing = [label for label in keep if label not in index]
    assert not missing, f"pages not found in {source.name}: {missing}"
    out: list[str] = []
    kept = set(keep)
    for label in keep:
        n = index[label]
        start = markers[n - 1][0] + 1 if n else 0
        end = markers[n][0]
        out.extend(raw[start : end + 1])
        next_kept = n + 1 < len(markers) and markers[n + 1][1] in kept
        if not next_kept:  # up to the page's last furniture line: the extractor may put fees after its marker
            after = [i for i in range(end + 1, min(len(raw), end + 1 + _TRAILING)) if is_furniture(raw[i].strip())]
            out.extend(raw[end + 1 : after[-1] + 1] if after else [])
    numeric_index = next(i for i, line in enumerate(raw) if line.strip().startswith("Numeric Index"))
    out.extend(raw[numeric_index : numeric_index + 3])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(out) + "\n", encoding="utf-8")
    return target
