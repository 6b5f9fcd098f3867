"""Where a patient was moved to or from: 'TRANSFERRED TO CONCORD', 'came into Orewiler on 1/9',
'brought to Kreitler ER', "d/c'd to Plainfield Sunrise Peveler", 'admitted to the ED from the
Newark House', 'CABG that she had at piscataway'.

A hospital's name is a town's, a founder's or an invented word, and no list holds them all, so
the context decides: a verb of moving a patient earlier in the same clause (or, before 'at', a
word for something done or kept somewhere: 'had', 'cath', 'meeting', 'bed'), then 'to', 'into',
'from', 'at' or '@', then a word that can be a name (a listed place or name, or a word in no
dictionary) and is no clinical or common word ('transferred to floor', 'brought to attention').
The name runs on over further such words and a closing 'ER', 'ED' or facility word ('Kreitler
ER', 'Johnstown Kabus', 'Delta House'). Where case means something, the words need their
capitals, unless they are listed names or places that are no English word ('had at paragould'),
or the closing word ('presented to woodlawn rask hospital'); with the closing word no verb is
needed ('via ambulance from Pluck EW').
"""

from __future__ import annotations

from curbside.phi._lexicon import Lexicon
from curbside.phi._tokens import Token
from curbside.phi.recognizers._base import Found, next_index, prev_index
from curbside.phi.recognizers._names import CONTEXT_WORDS, same_line
from curbside.phi.recognizers._words import STOPWORDS, WordClasses

__all__ = ["AT_WORDS", "MOVE_VERBS", "Destinations", "compound_key"]

MOVE_VERBS = frozenset(
    "transferred transfered transfer transferring tx'd tx'ed txd xfer xferred xfered admitted admit readmitted "
    "came come comes coming brought bring taken take sent send went go going goes arrived arrive arrives "
    "returned return returning discharged discharge d/c'd dc'd d/ced dced referred presented presents "
    "transported flown flew medflighted evacuated followed seen treated arrival admission readmission "
    "medflight medflights lifeflight lifeflighted helicoptered ambulanced accepted transfers admits "
    "adm adm'd admit'd tx".split()
)
# before 'at' (not 'to'): something done, had or kept at a place ("cath at X", "a bed @ X")
AT_WORDS = frozenset(
    "had done performed placed surgery cath catheterization transplant transplanted operation procedure "
    "meeting meet appointment appt appts visit stay stayed staying hospitalized hospitalization "
    "worked works work working job employed volunteers bed beds accepted".split()
)
_PREPOSITIONS = frozenset("to into from at @".split())
_CLAUSE_WORDS = 7  # how far back a verb of moving is looked for ("admitted to the ED from the X")
_CLAUSE_END = frozenset(".,;:!?()[]")
_CLOSERS = frozenset("er ed ew hospital hosp clinic center centre medical rehab house manor hospice".split())
# a word this common is a word first, even if it is a surname or a town ("chair", "home", "bed")
_COMMON_ZIPF = 4.5
_NAME_WORDS = 3


class Destinations:
    def __init__(self, lexicon: Lexicon, words: WordClasses) -> None:
        self.lex = lexicon
        self.words = words

    def find(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """A place named after the preposition at ``i`` when a verb of moving comes before it."""
        if tokens[i].key not in _PREPOSITIONS:
            return []
        moved = self._moved(text, tokens, i)
        j = next_index(tokens, i, "")
        if j is not None and tokens[j].key == "the":
            j = next_index(tokens, j, "")
        if j is None or not same_line(text, tokens[i], tokens[j]) or not self.name_like(tokens[j], j, clinical):
            return []
        end = tokens[j].end
        k = j
        closed = False
        for _ in range(_NAME_WORDS - 1):
            n = next_index(tokens, k, "")
            if n is None or not same_line(text, tokens[k], tokens[n]) or tokens[n].start - tokens[k].end > 2:
                break
            if tokens[n].key in _CLOSERS:
                end, closed = tokens[n].end, True  # "KREITLER ER", "Mercy Hospital"
                break
            if tokens[n].sentence_start or not (self.name_like(tokens[n], n, clinical) or self._titled(tokens[n])):
                break  # ("Marion Independence": a capital mid-sentence makes a common word part of a name)
            end = tokens[n].end
            k = n
        named = [t for t in tokens[j : k + 1] if t.is_word]
        if not closed and not (moved and all(t.capitalized or self._listed_name(t) for t in named)):
            return []  # without a verb of moving, or in lower case where case means something: only "X ER"
        return [(tokens[j].start, end, "LOCATION", 0.7)]

    def _listed_name(self, token: Token) -> bool:
        """A listed place or name that is no English word: a name in any case ('paragould')."""
        key = token.key
        return (self.lex.is_name(key) or key in self.lex.places) and not self.words.is_word(key)

    def _moved(self, text: str, tokens: tuple[Token, ...], i: int) -> bool:
        """A verb of moving earlier in the clause ("transferred to X", "admitted to the ED from X"),
        or, before 'at', a word of something done or kept there ("cath at X", "had a bed @ X")."""
        at = tokens[i].key in {"at", "@"}
        p = prev_index(tokens, i, "")
        for n in range(_CLAUSE_WORDS):
            if p is None or tokens[p].text in _CLAUSE_END or not same_line(text, tokens[p], tokens[i]):
                return False
            key = compound_key(text, tokens, p)
            if key in MOVE_VERBS or (at and n < 3 and key in AT_WORDS):
                return True
            if at and n == 0 and tokens[p].kind == "num" and "/" in tokens[p].text:
                return True  # "7/23 AT CALVERT": where it happened that day
            p = prev_index(tokens, p, "")
        return False

    def _titled(self, token: Token) -> bool:
        key = token.key
        return token.title_signal and key.isalpha() and key not in STOPWORDS and key not in self.lex.clinical

    def name_like(self, token: Token, index: int, clinical: frozenset[int]) -> bool:
        """A word that can name a hospital or town here."""
        key = token.key
        if not token.is_word or len(key) < 3 or not key.isalpha():
            return False
        if key in STOPWORDS or key in CONTEXT_WORDS or key in self.lex.clinical or index in clinical:
            return False
        if key in self.lex.regions or self.words.calendar(token) or key in _CLOSERS:
            return False
        zipf = self.lex.zipf(key)
        if key in self.lex.places and not self.words.is_word(key):
            return True  # "Baltimore", "Toledo": however common
        if self.lex.is_name(key) or key in self.lex.places:
            return zipf < _COMMON_ZIPF  # "Concord", "Canton", "Kreitler"; not "chair", "lab"
        if self.words.is_word(key) or len(key) < 5:
            return False  # a plain word, or an unknown short one: an abbreviation ("vicu", "pcu")
        return zipf < 3.5 and not self.words.misspelt(key) and not self.lex.drug_like(key)


def compound_key(text: str, tokens: tuple[Token, ...], i: int) -> str:
    """The lower-case word ending at token ``i`` with the parts glued to it by '/' or "'":
    "d/c'd" (three tokens), "tx'd"; just the token's key otherwise."""
    k = i
    while (
        k > 0
        and tokens[k - 1].end == tokens[k].start
        and i - k < 4
        and (tokens[k - 1].text in "/'’" or tokens[k].text in "/'’")
    ):
        k -= 1
    if k == i:
        return tokens[i].key
    return text[tokens[k].start : tokens[i].end].lower()
