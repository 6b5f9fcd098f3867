"""PHI detection for clinical text (issue #4).

``get_detector()`` returns the process-wide ``PhiDetector``; ``detect(text)`` gives ``PhiSpan``s
typed as one of ``PHI_TYPES``, ``contains_phi`` says whether there are any, ``redact`` replaces
them with ``[TYPE]``. A detector that cannot work raises ``PhiDetectorError``: treat the text as PHI.
"""

import os

# Presidio's email recognizer calls tldextract, whose module-level extractor fetches the public
# suffix list over the network unless this is set before it is first imported (offline: use the
# snapshot tldextract ships).
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from curbside.phi._presidio_import import import_presidio  # noqa: E402

import_presidio()  # before any module below imports it: without transformers and torch (2-3 s of a cold start)

from curbside.phi._detector import PhiDetector, get_detector, remembered_detections  # noqa: E402
from curbside.phi._spans import PHI_TYPES, PhiSpan  # noqa: E402

__all__ = ["PHI_TYPES", "PhiDetector", "PhiSpan", "get_detector", "remembered_detections"]
