"""Curbside's Presidio recognizers for clinical text."""

from curbside.phi.recognizers._dates import ClinicalDateRecognizer
from curbside.phi.recognizers._names import ClinicalNameRecognizer
from curbside.phi.recognizers._ner import FilteredSpacyRecognizer
from curbside.phi.recognizers._numbers import ClinicalNumberRecognizer
from curbside.phi.recognizers._places import ClinicalPlaceRecognizer

__all__ = [
    "ClinicalDateRecognizer",
    "ClinicalNameRecognizer",
    "ClinicalNumberRecognizer",
    "ClinicalPlaceRecognizer",
    "FilteredSpacyRecognizer",
]
