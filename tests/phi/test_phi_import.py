"""What loading the PHI package costs: nothing heavy until the detector is wanted, and then no
transformers or torch (2-3 s of every cold start, for nothing)."""

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

# Presidio's own patterns skip their compile-to-check while it is imported; every pattern made after is checked.
PATTERN_PROBE = """
import sys
from curbside.phi._presidio_import import import_presidio
finders = list(sys.meta_path)
import_presidio()
assert sys.meta_path == finders
from presidio_analyzer import Pattern
from presidio_analyzer.predefined_recognizers import UrlRecognizer, UsSsnRecognizer
try:
    Pattern("unclosed", "(abc", 0.5)
except ValueError as exc:
    print("checked")
found = UrlRecognizer().analyze("see https://example.com/a today", ["URL"])
print([(r.start, r.end) for r in found], [(r.start, r.end) for r in UsSsnRecognizer().analyze("SSN 536-22-8726", ["US_SSN"])])
"""


def test_the_detector_loads_without_transformers_or_torch() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["[]", "torch"]


def test_presidio_patterns_still_compile_and_match_and_later_ones_are_checked() -> None:
    done = subprocess.run([sys.executable, "-c", PATTERN_PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == ["checked", "[(4, 25)] [(4, 15)]"]


CHEAP_PROBE = """
import sys
import curbside.phi
from curbside.phi import PHI_TYPES, PhiSpan, remembered_detections
with remembered_detections():
    pass
print(sorted(m for m in ("presidio_analyzer", "spacy", "wordfreq") if m in sys.modules))
from curbside.phi import PhiDetector, get_detector  # loaded on first use
print(curbside.phi.get_detector is get_detector, "presidio_analyzer" in sys.modules)
"""


def test_the_package_imports_without_presidio_until_the_detector_is_wanted() -> None:
    done = subprocess.run([sys.executable, "-c", CHEAP_PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["[]", "True", "True"]


# spaCy's command line is a stand-in while Presidio first imports spaCy; afterwards the real one imports.
SPACY_CLI_PROBE = """
import sys
from curbside.phi._presidio_import import import_presidio
import_presidio()
import spacy
print("spacy.cli" in sys.modules, "spacy.cli.info" in sys.modules, "weasel" in sys.modules)
import spacy.cli
print(callable(spacy.cli.download), spacy.cli.__file__.endswith("spacy/cli/__init__.py"))
print(sorted(spacy.info(markdown=False)) == sorted(spacy.cli.info(markdown=False)))
"""


def test_spacy_imports_without_its_command_line_which_still_imports_later() -> None:
    done = subprocess.run([sys.executable, "-c", SPACY_CLI_PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == ["False False False", "True True", "True"]
