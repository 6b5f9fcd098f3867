"""Drug names from an offline lexicon: is 'Ubrelvy' or 'phentermine' a drug, and which ingredient is 'Lexapro'?

``odb.get`` asks it about names the formulary lacks (``coverage.odb.unlisted``); ``ask`` about brand names the
knowledge base does not use ('lexapro' where the guideline writes 'Escitalopram (Cipralex®)', ``ask.generic_names``).

The lexicon is the one the ``drug-named-entity-recognition`` package ships (MIT; its names come from
DrugBank's open data, CC0, with MeSH, MedlinePlus and Wikipedia synonyms): about 107,000 brand and
generic spellings, each with its ingredient ('ubrelvy' -> 'ubrogepant'). Only its data file is read, never
its module (which keeps a cache in the home folder and can reach the network). Without the package, no
word is known and the callers fall back to rarity alone (``unlisted``).
"""

from __future__ import annotations

import bz2
import importlib.util
import logging
import pickle
import re
from functools import cache
from pathlib import Path

__all__ = ["ingredient_of", "is_available", "is_loaded", "warm_up"]

log = logging.getLogger("curbside.drug_lexicon")

PACKAGE = "drug_named_entity_recognition"
DATA_FILE = "drug_ner_dictionary.pkl.bz2"
_WORD = re.compile(r"[a-z][a-z-]+")  # one word: the question's names are looked up a word at a time


@cache
def _variants() -> dict[str, str]:
    """Lower-case one-word spelling -> its ingredient; empty when the package is not installed."""
    spec = importlib.util.find_spec(PACKAGE)  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        log.info("%s is not installed: drug names are judged by rarity alone", PACKAGE)
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / DATA_FILE
    try:
        with bz2.open(path, "rb") as f:
            data = pickle.load(f)  # noqa: S301 - the installed package's own data file
    except (OSError, pickle.UnpicklingError, EOFError) as exc:
        log.warning("the drug lexicon %s could not be read: %s", path, exc)
        return {}
    variants = data.get("drug_variant_to_canonical", {}) if isinstance(data, dict) else {}
    return {
        name: str(canonical[0])
        for name, canonical in variants.items()
        if isinstance(name, str) and _WORD.fullmatch(name) and canonical
    }


def warm_up() -> None:
    """Read the lexicon now (about a second): not inside the first question's time budget."""
    _variants()


def is_loaded() -> bool:
    """Whether the lexicon was read (or found missing) already: a later look-up costs nothing."""
    return _variants.cache_info().currsize > 0


def is_available() -> bool:
    return bool(_variants())


def ingredient_of(word: str) -> str | None:
    """The ingredient ``word`` names as a drug ('Qulipta' -> 'atogepant'), or None when the lexicon does not
    know it (or is not installed)."""
    return _variants().get(word.lower())
