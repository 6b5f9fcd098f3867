"""Hospitals, clinics and other places: "CALVERT HOSPITAL", "St. Mary", "to GH", "lives in Rockville"."""

from __future__ import annotations

import re

from presidio_analyzer.nlp_engine import NlpArtifacts

from curbside.phi._lexicon import Lexicon
from curbside.phi._tokens import Token, tokenize
from curbside.phi.recognizers._base import Found, RuleRecognizer, next_index, prev_index
from curbside.phi.recognizers._destinations import Destinations
from curbside.phi.recognizers._names import same_line as _same_line
from curbside.phi.recognizers._words import STOPWORDS, WordClasses

__all__ = ["ClinicalPlaceRecognizer"]

# words that end a facility's name
FACILITY_HEADS = frozenset(
    "hospital hospitals hosp clinic clinics rehab rehabilitation center centre ctr memorial adventist "
    "infirmary hospice manor institute sanatorium pavilion campus regional".split()
)
# well-known hospital names that are made of common words
KNOWN_FACILITIES = (
    ("holy", "cross"), ("sacred", "heart"), ("good", "samaritan"), ("mount", "sinai"), ("mt", "sinai"),
    ("beth", "israel"), ("mass", "general"), ("johns", "hopkins"), ("mayo", "clinic"), ("cleveland", "clinic"),
    ("kaiser", "permanente"), ("shriners",), ("sunnybrook",), ("sickkids",), ("deaconess",),
)  # fmt: skip
_KNOWN_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _name in KNOWN_FACILITIES:
    _KNOWN_BY_FIRST.setdefault(_name[0], []).append(_name)
# words naming a unit or ward after a place or person ("Lally MICU", "transfer to Quartermain 2")
UNIT_WORDS = frozenset("micu sicu ccu icu csru ctic nsicu picu nicu cvicu tsicu ccu's stepdown step-down".split())
# kinds of place a patient goes to, whose name may follow in brackets: "to rehab (Hebrew Rehab)"
FACILITY_KINDS = frozenset(
    "rehab rehabilitation hospital hosp hospice snf nh ltac ltach facility facilities nursing home shelter "
    "program placement clinic".split()
)
_ASIDE_WORDS = 4
RESIDENCE_WORDS = frozenset("lives live living resides reside residing resident moved home".split())
# where someone lives, works or goes, before "in": "a job in Bel Air", "the church in Sanks"
PLACE_NOUNS = frozenset(
    "house apartment apt condo farm shelter church school college job work works worked working employed "
    "family relatives friends hometown town village city suburb hospital hosp rehab clinic snf nh hospice "
    "facility".split()
)
_RESIDENCE_REACH = 6
# verbs of going and coming from: "flew to LEPPEN", "grew up in Sund", "originally from Egkomi"
TRAVEL_WORDS = frozenset(
    "flew fly flying travel travelled traveled travelling traveling trip vacation vacationing visit visited "
    "visiting moved move moving born grew raised lives live living resides reside based located originally "
    "relocated returned".split()
)
# common words that often name a hospital ("Holy Cross", "Sacred Heart", "Good Samaritan")
FACILITY_NAME_WORDS = frozenset(
    "holy sacred heart cross mercy good samaritan union memorial university county city regional st saint mount "
    "mt providence grace hope faith trinity christ baptist methodist presbyterian lutheran jewish adventist "
    "episcopal deaconess bayview harbor valley lake river north south east west central children's childrens "
    "women's womens shriners kaiser mayo general".split()
)
# words before a facility head that describe it rather than name it ("outside hospital", "acute rehab")
GENERIC_MODIFIERS = frozenset(
    "outside other local acute subacute sub-acute chronic another previous prior home pulmonary cardiac "
    "rehab general community psychiatric psych state private teaching university dialysis cancer medical "
    "care mental health long-term term long day adult skilled inpatient outpatient transplant pain wound "
    "anticoag anticoagulation diabetes diabetic heart lung kidney liver eye veterans va nursing the a an "
    "this that same our their his her new old nearby closest nearest referring receiving sending "
    "cardiology oncology neurology surgical surgery trauma burn stroke sleep memory vascular vein "
    "cath lab fertility family primary urgent emergency walk-in walk in physical occupational speech "
    "respiratory substance detox methadone coumadin chf hf pacemaker device arrhythmia infusion".split()
)
PLACE_PREPOSITIONS = frozenset("in on from to near at of lives live living resides reside moved visiting".split())
MOVE_WORDS = frozenset("to from at in into back transferred transfered admitted tx'd tx'ed ->".split())
# lab and hormone acronyms that end in H and follow "to"/"from" in notes ("increase to TSH" never, but safe)
H_ACRONYMS = frozenset("pth tsh acth fsh lh ldh bph adh hgh hh nh dh th sh ah oh uh eh ph ch bh gh2".split())


class ClinicalPlaceRecognizer(RuleRecognizer):
    ENTITIES = ("LOCATION",)

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__()
        self.lex = lexicon
        self.words = WordClasses(lexicon)
        self.destinations = Destinations(lexicon, self.words)

    def find(self, text: str, nlp_artifacts: NlpArtifacts | None) -> list[Found]:
        tokens = tokenize(text)
        clinical = self.words.clinical_positions(tokens)
        found: list[Found] = []
        for i, token in enumerate(tokens):
            if not token.is_word:
                if token.text == "@":  # "a bed @ Avon"
                    found += self.destinations.find(text, tokens, i, clinical)
                continue
            if token.key in FACILITY_HEADS:
                found += self._facility(text, tokens, i, clinical)
            elif token.key in {"st", "saint", "ste", "mt", "mount"}:
                found += self._saint(text, tokens, i)
            if token.key in FACILITY_KINDS:
                found += self._facility_aside(text, tokens, i, clinical)
            found += self._known_facility(tokens, i)
            found += self._ward(text, tokens, i, clinical)
            found += self._residence(text, tokens, i, clinical)
            found += self._named_destination(text, tokens, i)
            found += self._travel_place(text, tokens, i, clinical)
            found += self.destinations.find(text, tokens, i, clinical)
            found += self._hospital_acronym(text, tokens, i, clinical)
            found += self._place_name(text, tokens, i, clinical)
        return found

    def _facility(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """One to three naming words before a facility word: 'Holy Cross Hospital', 'Baltimore Rehab'."""
        start = None
        named = False
        k = i
        for _ in range(3):
            p = prev_index(tokens, k, ".'-")
            if p is None or not tokens[p].is_word or not _same_line(text, tokens[p], tokens[i]):
                break
            word = tokens[p]
            key = word.key
            strong = key in self.lex.places or key in FACILITY_NAME_WORDS  # "from baltimore rehab"
            if (
                key in STOPWORDS
                or not (word.capitalized or strong)
                or (key in FACILITY_HEADS and key not in FACILITY_NAME_WORDS)
            ):
                break
            if p in clinical or key in self.lex.clinical:
                break
            if key in GENERIC_MODIFIERS and key not in FACILITY_NAME_WORDS:
                break
            proper = (
                key in FACILITY_NAME_WORDS or key in self.lex.places or key in self.lex.regions or self.lex.is_name(key)
            )  # ("ONTARIO HOSPITAL": a state's or province's name names a hospital too)
            misspelled = len(key) >= 5 and not self.words.is_word(key) and self.lex.zipf(key) < 2.0
            if (word.caseless or word.is_upper) and not (proper or misspelled):
                break  # capitals say nothing here: "AWAITING REHAB" is not a place, "CALVERT HOSPITAL" is
            if "'" in key or (not proper and self.words.is_word(key) and word.sentence_start):
                break
            start = word.start
            named = named or key not in GENERIC_MODIFIERS
            k = p
        if start is not None and not named and self._the_general(tokens, k, i):
            return [(start, tokens[i].end, "LOCATION", 0.7)]
        if start is None or not named:
            return []
        return [(start, tokens[i].end, "LOCATION", 0.85)]

    @staticmethod
    def _the_general(tokens: tuple[Token, ...], k: int, i: int) -> bool:
        """'I'm at the general hospital', 'sent to the General Hospital.': the town's own hospital, named
        by its kind (not 'a general hospital', nor 'the general hospital population')."""
        if k != i - 1 or tokens[k].key != "general" or k == 0 or tokens[k - 1].key != "the":
            return False
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        return after is None or not after.is_word or after.key in STOPWORDS

    def _facility_aside(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """A facility's name in brackets after the kind of facility: 'to rehab (Xiong Alhambra)',
        'nh (sunrise of quincy)'. Every word is a rarer one and at least one can be a name."""
        j = next_index(tokens, i, "")
        if j is None or tokens[j].text != "(" or not _same_line(text, tokens[i], tokens[j]):
            return []
        words: list[Token] = []
        k = j + 1
        while k < len(tokens) and tokens[k].text != ")" and k - j <= 2 * _ASIDE_WORDS:  # (a bounded look)
            word = tokens[k]
            if word.kind == "num" or (word.kind == "punct" and word.text not in ".-&'"):
                return []
            if word.is_word:
                words.append(word)
            k += 1
        if not words or k >= len(tokens) or tokens[k].text != ")" or len(words) > _ASIDE_WORDS:
            return []
        named = False
        for word in words:
            key = word.key
            if key in self.lex.clinical or word.index in clinical or self.words.calendar(word):
                return []
            if key in self.lex.regions or (key in STOPWORDS and key not in {"of", "at", "the"}):
                if word is words[0] or word is words[-1]:
                    return []  # "(see below)", "(or the VA)": a remark, not a name
                continue
            listed = self.lex.is_name(key) or key in self.lex.places or key in FACILITY_NAME_WORDS
            if self.lex.zipf(key) >= 4.5 and not listed and key not in FACILITY_HEADS:
                return []  # "(per family)", "(acute)": plain words
            named = named or self.destinations.name_like(word, word.index, clinical) or word.title_signal
        if not named:
            return []
        return [(words[0].start, words[-1].end, "LOCATION", 0.75)]

    def _known_facility(self, tokens: tuple[Token, ...], i: int) -> list[Found]:
        """'Holy Cross', 'Sacred Heart' — in any case ("presented to holy cross hospital")."""
        for name in _KNOWN_BY_FIRST.get(tokens[i].key, ()):
            if all(i + n < len(tokens) and tokens[i + n].key == part for n, part in enumerate(name)):
                return [(tokens[i].start, tokens[i + len(name) - 1].end, "LOCATION", 0.8)]
        return []

    def _ward(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """A ward named after a place or person: 'Lally MICU', 'transfer to Quartermain 2', 'QUARTERMAIN7'."""
        token = tokens[i]
        key = token.key
        if len(key) < 4 or key in self.lex.clinical or i in clinical:
            return []
        if self.words.is_word(key) and not self.destinations.name_like(token, i, clinical):
            return []  # a word, unless a rarer one that is a town's or a person's ("Chester 2")
        p = prev_index(tokens, i, ":")
        moved = p is not None and tokens[p].key in {
            "to",
            "from",
            "transfer",
            "transferred",
            "transfered",
            "tx",
            "on",
            "plan",
        }
        transfer = p is not None and p > 0 and tokens[p].key == "to" and tokens[p - 1].key.startswith("transf")
        if key in STOPWORDS or self.words.calendar(token):
            return []
        if self.words.misspelt(key) and key not in self.lex.places:
            return []  # "stabel 2" is a typo; "chester 2" a ward named after a town
        if not (token.caseless or (token.text[0].isupper() and token.text[1:].islower()) or transfer):
            return []  # "Quartermain 2", "QUARTERMAIN 2"; lower case only after "transfer to"
        n = i + 1 if i + 1 < len(tokens) else None
        if n is None or not _same_line(text, token, tokens[n]):
            return []
        follower = tokens[n]
        if follower.key in UNIT_WORDS:
            return [(token.start, follower.end, "LOCATION", 0.7)]
        after = text[follower.end : follower.end + 1]
        ward_number = re.fullmatch(r"\d{1,2}(?:/\d{1,2})?", follower.text)
        if follower.kind == "num" and ward_number and moved and not after.isalpha() and after != "%":
            return [(token.start, follower.end, "LOCATION", 0.7)]
        return []

    def _travel_place(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """An unknown capitalised word after a verb of travel and a preposition: 'flew to LEPPEN'."""
        token = tokens[i]
        if not token.is_word or token.shouted or len(token.key) < 3 or token.sentence_start:
            return []
        if not (token.title_signal or token.is_upper) or token.key in STOPWORDS or token.key in self.lex.clinical:
            return []
        if i in clinical or self.words.misspelt(token.key) or token.key in self.lex.regions:
            return []
        if self.words.is_word(token.key) and token.key not in self.lex.places:
            return []
        p = prev_index(tokens, i, "")
        if p is None or tokens[p].key not in {"to", "in", "from", "at", "near"}:
            return []
        q = prev_index(tokens, p, "")
        if q is not None and tokens[q].key == "up":  # "grew up in"
            q = prev_index(tokens, q, "")
        is_from = tokens[p].key == "from" and q is not None and tokens[q].key in {"is", "was", "are", "comes"}
        if q is None or not (tokens[q].key in TRAVEL_WORDS or is_from) or not _same_line(text, tokens[q], token):
            return []  # ("pt is from Dorchester": where someone is from)
        return [(token.start, token.end, "LOCATION", 0.7)]

    def _named_destination(self, text: str, tokens: tuple[Token, ...], i: int) -> list[Found]:
        """A capitalised hospital-name word or town after 'to', 'from', 'at': 'went to Harbor'."""
        token = tokens[i]
        if token.sentence_start or not token.text[:1].isupper() or token.is_upper:
            return []  # (a capital in a lower-case line counts: "Surgeon from Harbor")
        if token.key not in FACILITY_NAME_WORDS and token.key not in self.lex.near_places:
            return []
        if token.key in GENERIC_MODIFIERS and token.key not in {"harbor", "union", "mercy", "providence"}:
            return []
        p = prev_index(tokens, i, "")
        if p is None or tokens[p].key not in {"to", "from", "at"} or not _same_line(text, tokens[p], token):
            return []
        return [(token.start, token.end, "LOCATION", 0.6)]

    def _residence(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """'lives in Rockport', 'lives nearby in DC', 'lives with son and family in Layel', 'lives at
        Delta House', 'shelter in Edgemere area' (a verb of living earlier in the same clause)."""
        token = tokens[i]
        if token.key not in {"in", "near", "at"}:
            return []
        lives = self._lives_before(text, tokens, i)
        j = next_index(tokens, i, "")
        if j is None or not tokens[j].is_word or not _same_line(text, token, tokens[j]):
            return []
        place = tokens[j]
        after = tokens[j + 1].key if j + 1 < len(tokens) else ""
        if not (lives or (token.key != "at" and after in {"area", "county", "city", "township", "region"})):
            return []
        if len(place.key) == 2 and place.is_upper and lives and place.key not in STOPWORDS:  # "lives in DC"
            return [(place.start, place.end, "LOCATION", 0.7)]
        if place.key in STOPWORDS or place.key in self.lex.clinical or j in clinical or not place.capitalized:
            return []
        if place.key in self.lex.regions or self.words.calendar(place):
            return []
        if lives and place.title_signal:
            # a capital where case means something names the place, dictionary word or not: "a job in
            # Bel Air", "the church in Sanks"; the name runs on over further such words
            named, k = [place], j
            for _ in range(2):
                n = next_index(tokens, k, "-")
                if n is None or not tokens[n].title_signal or tokens[n].start - tokens[k].end > 1:
                    break
                if tokens[n].key in STOPWORDS or tokens[n].key in self.lex.clinical:
                    break
                named.append(tokens[n])
                k = n
            # (not "in Assisted Living", "in Senior Housing": a kind of home is all common words)
            if any(w.key in self.lex.places or self.lex.zipf(w.key) < 4.0 for w in named):
                return [(place.start, named[-1].end, "LOCATION", 0.7)]
            return []
        if self.words.misspelt(place.key):
            return []
        if self.words.is_word(place.key) and place.key not in self.lex.places:
            return []
        return [(place.start, place.end, "LOCATION", 0.7)]

    def _lives_before(self, text: str, tokens: tuple[Token, ...], i: int) -> bool:
        """A word of living somewhere earlier in the clause: 'lives', 'lives nearby', 'resides with
        her son and his family' (up to six words back, not past a stop or a comma)."""
        p = prev_index(tokens, i, "")
        for _ in range(_RESIDENCE_REACH):
            if p is None or tokens[p].text in ".,;:!?()" or not _same_line(text, tokens[p], tokens[i]):
                return False
            if tokens[p].key in RESIDENCE_WORDS or (tokens[i].key == "in" and tokens[p].key in PLACE_NOUNS):
                return True
            p = prev_index(tokens, p, "")
        return False

    def _saint(self, text: str, tokens: tuple[Token, ...], i: int) -> list[Found]:
        """'St. Mary', 'Saint Elizabeth's', 'Mt. Sinai' — not 'ST elevation', 'ST 110' or '1st step'."""
        if i > 0 and (tokens[i - 1].kind == "num" or tokens[i - 1].text == "/"):
            return []  # "1st", "SR/ST"
        j = next_index(tokens, i, ".")
        if j is None or not tokens[j].is_word or not _same_line(text, tokens[i], tokens[j]):
            return []
        word = tokens[j]
        saintly = word.key in self.lex.given_names or word.key in self.lex.places
        if not saintly and i > 0 and tokens[i - 1].key in {"sr", "nsr", "sinus", "to", "with", "and"}:
            return []  # "NSR TO ST": sinus tachycardia
        if not word.capitalized or word.key in STOPWORDS or word.key in self.lex.clinical:
            return []
        if self.words.is_word(word.key) and not self.lex.is_name(word.key) and word.key not in self.lex.places:
            return []
        return [(tokens[i].start, word.end, "LOCATION", 0.8)]

    def _hospital_acronym(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """A short acronym ending in H after a word of movement: 'transferred to GH', 'from MGH'."""
        token = tokens[i]
        key = token.key
        hospital_like = key.endswith("h") or (key.endswith("mc") and len(key) >= 3)  # GH, MGH, GBMC
        if not (2 <= len(key) <= 5 and hospital_like and key.isalpha()) or key in H_ACRONYMS:
            return []
        if key in self.lex.clinical or self.words.is_word(key) or self.lex.near_clinical(key) or i in clinical:
            return []
        p = prev_index(tokens, i, "-")
        if p is not None and tokens[p].key == "the":  # "to the GH"
            p = prev_index(tokens, p, "")
        if p is not None and tokens[p].text == ">":  # "->"
            return [(token.start, token.end, "LOCATION", 0.7)]
        if p is None or (tokens[p].key not in MOVE_WORDS and not (key.endswith("mc") and tokens[p].key == "by")):
            return []
        return [(token.start, token.end, "LOCATION", 0.75)]

    def _place_name(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> list[Found]:
        """Cities, states, provinces and countries from GeoNames."""
        token = tokens[i]
        if not token.capitalized or token.key in STOPWORDS or token.key in self.lex.clinical or i in clinical:
            return []
        # multi-word names first, the longest that fits: "New York", "Eastern Shore" (a set lookup
        # per length, not a scan of every name that starts with "San")
        words = [token]
        k = i
        while len(words) < self.lex.longest_place_phrase:
            n = next_index(tokens, k, "-")  # ("Wilkes-Barre", "Security-Widefield": the hyphen is no word)
            if n is None or not tokens[n].is_word:
                break
            if n > k + 1 and text[tokens[k].end : tokens[n].start] != "-":
                break  # (a hyphen only between the words, not a dash in a sentence)
            words.append(tokens[n])
            k = n
        for length in range(len(words), 1, -1):
            name = words[:length]
            if tuple(w.key for w in name) not in self.lex.place_phrases:
                continue
            p = prev_index(tokens, i, "")
            if p is not None and tokens[p].key == "the":
                p = prev_index(tokens, p, "")
            placed = p is not None and tokens[p].key in PLACE_PREPOSITIONS
            common = all(self.words.is_word(w.key) for w in name)
            if all(w.capitalized for w in name) and (placed or not common):
                return [(token.start, name[-1].end, "LOCATION", 0.7)]
        if token.key not in self.lex.places or len(token.key) < 3:
            return []
        p = prev_index(tokens, i, ",")
        after_preposition = p is not None and tokens[p].key in PLACE_PREPOSITIONS
        if self.words.is_word(token.key) or self.lex.zipf(token.key) >= 5.0:
            # a common word that is also a town ("Bath", "Mobile"): only with a capital and a preposition
            if token.caseless or not after_preposition or token.sentence_start or token.is_upper:
                return []
        elif token.caseless and not token.title_signal:
            if self.lex.is_name(token.key) and not after_preposition:
                return []  # "CALVERT" alone is as likely a person; the name rules decide
            if token.key not in self.lex.near_places:
                return []  # in capitals, only places a note here is likely to name (not "ALOT", India)
        elif token.is_upper and (len(token.key) < 4 or self.lex.is_name(token.key)) and not after_preposition:
            return []  # an acronym in a mixed-case line
        return [(token.start, token.end, "LOCATION", 0.65 if after_preposition else 0.55)]
