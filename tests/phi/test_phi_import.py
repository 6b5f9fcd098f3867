"""Loading the detector does not load transformers or torch (2-3 s of every cold start, for nothing)."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from curbside.phi import get_detector
detector = get_detector()
assert detector.redact("pt John Smith seen 3/14") == "pt [PERSON] seen [DATE]"
print(sorted(m for m in ("transformers", "torch") if m in sys.modules))
import torch  # still there for whoever needs it
print(torch.__name__)
"""


def test_the_detector_loads_without_transformers_or_torch() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["[]", "torch"]
