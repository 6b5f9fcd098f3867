"""Curbside's Presidio recognizers for clinical text."""

from curbside.phi._presidio_import import import_presidio

import_presidio()  # before any module below imports it: without transformers and torch (2-3 s of a cold start)

from curbside.phi.recognizers._dates import ClinicalDateRecognizer  # noqa: E402
from curbside.phi.recognizers._names import ClinicalNameRecognizer  # noqa: E402
from curbside.phi.recognizers._ner import FilteredSpacyRecognizer  # noqa: E402
from curbside.phi.recognizers._numbers import ClinicalNumberRecognizer  # noqa: E402
from curbside.phi.recognizers._places import ClinicalPlaceRecognizer  # noqa: E402

__all__ = [
    "ClinicalDateRecognizer",
    "ClinicalNameRecognizer",
    "ClinicalNumberRecognizer",
    "ClinicalPlaceRecognizer",
    "FilteredSpacyRecognizer",
]
