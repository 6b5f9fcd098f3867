"""PHI detection for clinical text (issue #4).

``get_detector()`` returns the process-wide ``PhiDetector``; ``detect(text)`` gives ``PhiSpan``s
typed as one of ``PHI_TYPES``, ``contains_phi`` says whether there are any, ``redact`` replaces
them with ``[TYPE]``. A detector that cannot work raises ``PhiDetectorError``: treat the text as PHI.

Importing this package is cheap: ``PhiDetector`` and ``get_detector`` (which bring Presidio and
spaCy, a second or more) are imported on first use, so ``remembered_detections`` can open its
scope, and a caller can start the detector's build on another thread, before any of that loads.
"""

import os
import sys
from typing import TYPE_CHECKING, Any

# Presidio's email recognizer calls tldextract, whose module-level extractor fetches the public
# suffix list over the network unless this is set before it is first imported (offline: use the
# snapshot tldextract ships).
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from curbside.phi._memo import remembered_detections  # noqa: E402
from curbside.phi._span_detector import SpanDetector  # noqa: E402
from curbside.phi._spans import PHI_TYPES, PhiSpan  # noqa: E402

if TYPE_CHECKING:
    from curbside.phi._detector import PhiDetector, get_detector

__all__ = [
    "PHI_TYPES",
    "PhiDetector",
    "PhiSpan",
    "SpanDetector",
    "detector_loaded",
    "get_detector",
    "remembered_detections",
]

_LOADED_ON_FIRST_USE = ("PhiDetector", "get_detector")


def detector_loaded() -> bool:
    """Whether this process has built a detector already (asked without importing Presidio)."""
    module = sys.modules.get("curbside.phi._detector")
    return module is not None and bool(module.detector_loaded())


def __getattr__(name: str) -> Any:
    if name in _LOADED_ON_FIRST_USE:
        from curbside.phi import _detector

        return getattr(_detector, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
