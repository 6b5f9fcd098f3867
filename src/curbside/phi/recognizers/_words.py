"""How name-like or place-like a token is, from the word lists and its case."""

from __future__ import annotations

from spacy.lang.en.stop_words import STOP_WORDS

from curbside.phi._lexicon import Lexicon
from curbside.phi._tokens import Token

__all__ = ["MONTHS", "STOPWORDS", "WordClasses"]

# words that follow an eponym: "Escobar syndrome", "Bell's palsy", "Cleveland Clinic criteria"
EPONYM_HEADS = frozenset(
    "syndrome syndromes disease diseases disorder sign signs test tests procedure operation score "
    "classification criteria law lymphoma sarcoma tumor tumour palsy phenomenon reflex maneuver manoeuvre triad "
    "effect equation method technique variant anomaly malformation node nodes body bodies "
    "fracture hernia ulcer aneurysm block bundle fibers fibres disc plexus ligament duct gland nerve "
    "formula index ratio curve plot analysis algorithm model staging grade type".split()
)
MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun".split()
)
# Function words and chart fillers that never start a name.
STOPWORDS = frozenset(STOP_WORDS) | frozenset(
    "pt pts pt's patient patients s/p w/ c/o yo y/o yr yrs old am pm today tonight tomorrow yesterday "
    "noc eve day days night nights shift overnight morning afternoon evening noon midnight aware ok okay yes god lord jesus "
    "christ".split()
)


_RARE_SURNAME = 10_000  # census surname rank past which the surname is rarer than most words


class WordClasses:
    """Name strength of a token, from 0 (never a name) to 3 (a name on its own).

    3: in a census name list, not an English dictionary word, not clinical;
    2: a listed given name that is also a word ("Rich", "Bill"), or an unlisted word that is
       not in the dictionary and rare (Zipf < 3) — needs a context word to count;
    1: any other listed name (a surname that is also a word: "King", "Stable") — needs a
       title or a relation before it.
    In lines where case carries meaning, a word in lower case drops a level (3 to 2, 2 to 1).
    """

    def __init__(self, lexicon: Lexicon) -> None:
        self.lex = lexicon
        self._word_cache: dict[str, bool] = {}
        self._misspelt_cache: dict[str, bool] = {}

    def stop(self, token: Token) -> bool:
        return token.key in STOPWORDS

    def clinical(self, token: Token, clinical_positions: frozenset[int]) -> bool:
        return token.key in self.lex.clinical or token.index in clinical_positions

    def calendar(self, token: Token) -> bool:
        return token.key in MONTHS or token.key in WEEKDAYS

    def strength(self, token: Token, clinical_positions: frozenset[int]) -> int:
        if not token.is_word or len(token.key) < 2:
            return 0
        key = token.key
        if key in STOPWORDS or self.clinical(token, clinical_positions) or self.calendar(token):
            return 0
        if ("'" in key or "’" in key) and not key.startswith(("o'", "d'", "o’", "d’")):
            return 0  # "con't", "sxn'd", "I'll" (but "o'brien", "d'angelo" go on)
        if key in self.lex.nationalities:
            return 1  # "Finn", "English": names only after a title or before a credential
        listed = self.lex.is_name(key) or self.lex.is_name(key.replace("'", "").replace("’", ""))
        if token.index in clinical_positions or (not listed and self.lex.drug_like(key)):
            return 0
        is_word = self.is_word(key)
        rank = self.lex.surname_rank.get(key, 1_000_000)
        given = key in self.lex.given_names
        zipf = self.lex.zipf(key)
        if listed and not is_word and self.lex.near_clinical(key):
            level = 1  # "Passey" (Passy-Muir), "Vesta": a misspelt clinical word as often as a name
        elif listed and not is_word and (given or rank <= 2000 or zipf < (3.5 if self._rare_surname(key) else 4.8)):
            # (a frequent word that is a rare surname is a word first: "began", and "startup" or
            # "online", too new for Webster's, whose use on the web dwarfs a surname's this rare)
            level = 3
        elif listed and zipf < (5.3 if given else 4.7) and (given or rank <= 3000):
            level = 2  # a common name that is also a word: "Bill", "Rich", "Murphy", "Reed"
        elif not listed and not is_word and zipf < 3.0:
            if self.misspelt(key):
                return 0  # "duaghter", "Labetelol", "Amiod"
            # an unknown word: a rare name, or a misspelling or abbreviation; in capitals, in
            # an all-caps line or at the start of a sentence it is most often the latter
            level = 2 if token.title_signal else 1
        elif listed:
            level = 1  # a surname that is also a word: "King", "Stable"
        else:
            return 0
        if level >= 2 and not token.capitalized:
            # lower case where case means something weakens a name, but a listed name that is no
            # word still counts beside a context word ("called john", "john aware"): typed
            # questions and log lines drop capitals
            return 2 if level == 3 else (1 if listed else 0)
        return level

    def _rare_surname(self, key: str) -> bool:
        """Far down the census surname list, and spelt like a plain word (not "o'brien")."""
        return self.lex.surname_rank.get(key, 1_000_000) > _RARE_SURNAME and key.isalpha()

    def misspelt(self, key: str) -> bool:
        """An unlisted word one edit from a common or clinical word (cached)."""
        cached = self._misspelt_cache.get(key)
        if cached is None:
            if len(self._misspelt_cache) > 100_000:
                self._misspelt_cache.clear()
            cached = self._misspelt_cache[key] = self.lex.near_common(key) or self.lex.near_clinical(key)
        return cached

    def is_word(self, key: str) -> bool:
        cached = self._word_cache.get(key)
        if cached is None:
            if len(self._word_cache) > 100_000:
                self._word_cache.clear()
            cached = self._word_cache[key] = self.lex.is_word(key)
        return cached

    def clinical_positions(self, tokens: tuple[Token, ...]) -> frozenset[int]:
        """Indices of tokens that are not names here: inside a listed clinical phrase ("Jackson
        Pratt", "Swan Ganz"), an eponym ("Escobar syndrome", "Parkinson's disease"), or a gene or
        protein symbol glued to a number ("Dax1", "Gadd45")."""
        words = [t for t in tokens if t.is_word]
        found: set[int] = set()
        for i, token in enumerate(tokens):
            if not token.is_word:
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if nxt is not None and nxt.kind == "num" and nxt.start == token.end and not token.caseless:
                found.add(i)  # "Dax1", "IDH1" (not "QUARTERMAIN7" in a line of capitals)
            j = i + 1
            while j < len(tokens) and tokens[j].kind == "punct" and tokens[j].text in "-'’":
                j += 1
            while j < len(tokens) and tokens[j].is_word and tokens[j].key in {"s"}:
                j += 1
            if j < len(tokens) and tokens[j].key in EPONYM_HEADS:
                found.add(i)
        for i, token in enumerate(words):
            for phrase in self.lex.clinical_phrases:
                if token.key == phrase[0] and len(phrase) <= len(words) - i:
                    if all(words[i + j].key == phrase[j] for j in range(len(phrase))):
                        found.update(words[i + j].index for j in range(len(phrase)))
        return frozenset(found)
