"""spaCy's named entities, kept only where the word lists agree they can be PHI.

On ICU notes en_core_web_sm tags many clinical words as PERSON or ORG ("Levo", "Foley", "PRBC"),
so an entity counts only over the tokens that are name-like (PERSON) or place-like (GPE, LOC, FAC).
"""

from __future__ import annotations

from presidio_analyzer.nlp_engine import NlpArtifacts

from curbside.phi._lexicon import Lexicon
from curbside.phi._tokens import Token, tokenize
from curbside.phi.recognizers._base import Found, RuleRecognizer
from curbside.phi.recognizers._places import FACILITY_HEADS
from curbside.phi.recognizers._words import STOPWORDS, WordClasses

__all__ = ["FilteredSpacyRecognizer"]

_PERSON = frozenset({"PERSON", "PER"})
_PLACE = frozenset({"GPE", "LOC", "FAC", "LOCATION"})


class FilteredSpacyRecognizer(RuleRecognizer):
    ENTITIES = ("PERSON", "LOCATION")

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__()
        self.lex = lexicon
        self.words = WordClasses(lexicon)

    def find(self, text: str, nlp_artifacts: NlpArtifacts | None) -> list[Found]:
        if nlp_artifacts is None or not nlp_artifacts.entities:
            return []
        tokens = tokenize(text)
        clinical = self.words.clinical_positions(tokens)
        starts = [t.start for t in tokens]
        found: list[Found] = []
        for entity in nlp_artifacts.entities:
            label = entity.label_
            inside = _tokens_within(tokens, starts, entity.start_char, entity.end_char)
            if label in _PERSON:
                keep = [t for t in inside if self._person_word(t, clinical)]
                kind, score = "PERSON", 0.6
            elif label in _PLACE:
                keep = [t for t in inside if self._place_word(t, clinical)]
                kind, score = "LOCATION", 0.55
            elif label == "ORG" and any(t.key in FACILITY_HEADS for t in inside):
                keep = [t for t in inside if self._place_word(t, clinical) or t.key in FACILITY_HEADS]
                if all(t.key in FACILITY_HEADS for t in keep):
                    continue
                kind, score = "LOCATION", 0.55
            else:
                continue
            if keep:
                found.append((keep[0].start, keep[-1].end, kind, score))
        return found

    def _person_word(self, token: Token, clinical: frozenset[int]) -> bool:
        level = self.words.strength(token, clinical)
        return level == 3 or (level == 2 and (not token.caseless or token.title_signal))

    def _place_word(self, token: Token, clinical: frozenset[int]) -> bool:
        if not token.is_word or not token.capitalized or token.key in STOPWORDS:
            return False
        if self.words.clinical(token, clinical) or len(token.key) < 3:
            return False
        if self.words.calendar(token) or self.words.misspelt(token.key) or self.lex.drug_like(token.key):
            return False
        if token.key in self.lex.places:
            return True
        if token.shouted or (token.caseless and not token.title_signal):  # capitals say nothing here
            return self.lex.is_name(token.key) and not self.words.is_word(token.key)
        return not self.words.is_word(token.key) and len(token.key) >= 4


def _tokens_within(tokens: tuple[Token, ...], starts: list[int], start: int, end: int) -> list[Token]:
    import bisect

    i = bisect.bisect_left(starts, start)
    out = []
    while i < len(tokens) and tokens[i].end <= end:
        if tokens[i].is_word:
            out.append(tokens[i])
        i += 1
    return out
