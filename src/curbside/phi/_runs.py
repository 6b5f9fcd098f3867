"""A name runs on: words right beside a found name or place that can only be more of it.

The rules find a name by its context, and the context usually reaches one word of it: "NP
GRAZIER", "at Williamsport", "PFISTERER RRT". The neighbours written with it ("Williamsport
Boga", "CODLING PFISTERER RRT", "sherlin parrotta dushane from speech") are PHI as well, and a
neighbour counts when it can be nothing but a name here:

* a listed name or place that is no English word, in any case ('parrotta', 'maitland');
* a listed name or place that is a rare English word ('CODLING', 'SALTERN': Zipf under 3), or a
  less rare one written with a capital mid-sentence where case means something ('Buffalo' after
  'Farmingville', 'Boga');
* a word in no list, rare, with such a capital, and no typo of a common word ('Vredeveld');
* an initial with its full stop ('SPANNER P. GEORGE', 'Kim T.'; after a place only forwards:
  'a bed @ Avon C.').

The other name of 'A and B', when one of them is a found name, counts too if it is a listed
name that is not a common word, or a rare word in no list ('chess and arguijo', 'suzette and ank').

A person's surname that is also a clinical word ('Anna Foley', 'Robert Parkinson', 'Jane Doe': a catheter,
an eponym, an abbreviation) counts after the name when it is a listed surname written in title case where
case means something and no eponym's head word follows it ('Parkinson disease', 'Foley catheter').

Otherwise never a stop word, a clinical term, a word that triggers the rules ('RN', 'aware', 'son'), a
month or weekday, a state or a nationality. At most two words on each side; apart from the
other name of a pair a span only grows, and nothing found here spreads to other mentions. Linear: each span
looks at the few tokens beside it, found by bisection.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from curbside.phi._lexicon import Lexicon
from curbside.phi._tokens import Token, tokenize
from curbside.phi.recognizers._names import CONTEXT_WORDS
from curbside.phi.recognizers._words import MONTHS, STOPWORDS, WEEKDAYS

__all__ = ["run_on"]

Found = tuple[int, int, str, float]

_REACH = 2  # words added on each side at most
_COMMON_ZIPF = 4.5  # a capitalised word this common is a word first ('Will', 'Home')
_RARE_WORD_ZIPF = 3.0  # a listed name that is an English word this rare is a name first ('codling')
_LISTED_ZIPF = 3.5  # a listed name that is no word, but common on the web, is as often something else


def run_on(text: str, found: list[Found], lexicon: Lexicon) -> list[Found]:
    """``found`` with every PERSON / LOCATION span grown over the name words beside it."""
    if not any(kind in {"PERSON", "LOCATION"} for _, _, kind, _ in found):
        return found
    tokens = tokenize(text)
    starts = [t.start for t in tokens]
    ends = [t.end for t in tokens]
    out: list[Found] = []
    for start, end, kind, score in found:
        if kind in {"PERSON", "LOCATION"}:
            start = _grow_back(text, tokens, bisect_left(starts, start) - 1, start, kind, lexicon)
            end = _grow_forward(text, tokens, bisect_right(ends, end), end, kind, lexicon)
        out.append((start, end, kind, score))
        if kind == "PERSON":
            out += _coordinated(text, tokens, bisect_left(starts, start) - 1, bisect_right(ends, end), lexicon)
    return out


def _coordinated(text: str, tokens: tuple[Token, ...], before: int, after: int, lex: Lexicon) -> list[Found]:
    """The other name of 'A and B' when one is a found name: 'suzette and ank', 'chess and arguijo'."""
    out: list[Found] = []
    for joint, other in ((after, after + 1), (before, before - 1)):
        if not (0 <= other < len(tokens) and 0 <= joint < len(tokens)) or tokens[joint].key not in {"and", "&"}:
            continue
        word = tokens[other]
        if "\n" in text[min(word.start, tokens[joint].start) : max(word.end, tokens[joint].end)]:
            continue
        if _coordinate_name(word, lex):
            out.append((word.start, word.end, "PERSON", 0.6))
    return out


def _coordinate_name(token: Token, lex: Lexicon) -> bool:
    """A listed name that is no common word (a word only where case says nothing, or with a capital
    where it does), or a rare word in no list, however short ('ank')."""
    key = token.key
    if not _could_be_name(token, lex):
        return False
    zipf = lex.zipf(key)
    if lex.is_word(key):  # "chess" in a line without case, "Dollar"; never "and starring"
        return lex.is_name(key) and (
            zipf < _RARE_WORD_ZIPF or ((token.title_signal or token.caseless) and zipf < _COMMON_ZIPF)
        )
    if lex.is_name(key):
        return zipf < _COMMON_ZIPF
    return zipf < _RARE_WORD_ZIPF and not lex.near_common(key) and not lex.near_clinical(key)


def _could_be_name(token: Token, lex: Lexicon) -> bool:
    """A word of three letters or more that is no stopword, context word, month, day, clinical term,
    region, nationality or drug-like word: the words a name or a place is made of."""
    key = token.key
    if not token.is_word or len(key) < 3 or not key.isalpha():
        return False
    if key in STOPWORDS or key in CONTEXT_WORDS or key in MONTHS or key in WEEKDAYS:
        return False
    return not (key in lex.clinical or key in lex.regions or key in lex.nationalities or lex.drug_like(key))


def _grow_forward(text: str, tokens: tuple[Token, ...], i: int, end: int, kind: str, lex: Lexicon) -> int:
    for _ in range(_REACH):
        if i >= len(tokens) or text[end : tokens[i].start] != " ":
            break
        token = tokens[i]
        if _initial(tokens, i) and (
            kind == "PERSON" or i + 2 >= len(tokens) or tokens[i + 2].start > tokens[i + 1].end
        ):
            end, i = tokens[i + 1].end, i + 2  # "Kim T.", and a place's "Avon C." (not "Boston C.diff")
            continue
        if not (_name_word(token, lex) or (kind == "PERSON" and _clinical_surname(tokens, i, lex))):
            break
        end, i = token.end, i + 1
    return end


# what follows an eponym or a device named after a person: 'Parkinson disease', 'Foley catheter', 'Graves' disease'
_EPONYM_HEADS = frozenset(
    "disease diseases syndrome syndromes sign signs palsy catheter catheters criteria score scale test tests reflex "
    "phenomenon procedure operation maneuver manoeuvre tube tubes fracture lymphoma ulcer ulcers".split()
)


def _clinical_surname(tokens: tuple[Token, ...], i: int, lex: Lexicon) -> bool:
    """A listed surname kept out by the clinical list, written 'Foley' where case means something, with no
    eponym's head word after it ('Foley catheter') nor a possessive ('Graves' disease', 'Parkinson's')."""
    token = tokens[i]
    key = token.key
    if not (key in lex.clinical and key in lex.surnames and token.title_signal and token.text[1:].islower()):
        return False
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    return following is None or (following.text not in {"'s", "’s", "'", "’"} and following.key not in _EPONYM_HEADS)


def _grow_back(text: str, tokens: tuple[Token, ...], i: int, start: int, kind: str, lex: Lexicon) -> int:
    for _ in range(_REACH):
        if i < 0:
            break
        if kind == "PERSON" and tokens[i].text == "." and i > 0 and _initial(tokens, i - 1):
            if text[tokens[i].end : start] != " ":
                break
            start, i = tokens[i - 1].start, i - 2
            continue
        if text[tokens[i].end : start] != " " or not _name_word(tokens[i], lex):
            break
        start, i = tokens[i].start, i - 1
    return start


def _initial(tokens: tuple[Token, ...], i: int) -> bool:
    """'P.' as in 'SPANNER P. GEORGE': one capital letter and a full stop right after it."""
    token = tokens[i]
    return (
        token.is_initial
        and token.text.isupper()
        and i + 1 < len(tokens)
        and tokens[i + 1].text == "."
        and tokens[i + 1].start == token.end
        and (i == 0 or tokens[i - 1].end < token.start)
    )


def _name_word(token: Token, lex: Lexicon) -> bool:
    key = token.key
    if not _could_be_name(token, lex):
        return False
    zipf = lex.zipf(key)
    listed = lex.is_name(key) or key in lex.places
    titled = token.title_signal and token.text[1:].islower()
    if lex.is_word(key):  # a word counts only if it is also a name or a town, and a rare word or titled
        return listed and (zipf < _RARE_WORD_ZIPF or (titled and zipf < _COMMON_ZIPF))
    if listed:
        return zipf < _LISTED_ZIPF and not lex.near_clinical(key)
    # in no list at all: a capital where case means something, and no typo of a common word
    return (
        titled and len(key) >= 4 and zipf < _RARE_WORD_ZIPF and not lex.near_common(key) and not lex.near_clinical(key)
    )
