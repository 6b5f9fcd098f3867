"""Person names from context: titles, credentials, relatives, verbs of contact, and word lists.

spaCy's NER misses most names in ICU notes (capitals everywhere, no sentences), so these
rules carry them: "Dr. Marder", "NP CAROL", "Emily Parker, RN", "son bill", "Sons Smokey,
Morris and Roger", "per DAVID", "j. o'brien", "Gerry Masci arrived", "LUNA HAS PHONED", "Kim
from speech", "Name: Åsa Laine", a line that is only a name and a credential ("CODLING PFISTERER
RRT", also with a misspelt credential: "pat rixford licws"), and listed surnames. A listed name
that is a rare English word ("GRAZIER", Zipf under 3) counts after a role or a verb of contact.
"""

from __future__ import annotations

from presidio_analyzer.nlp_engine import NlpArtifacts

from curbside.phi._lexicon import Lexicon, one_edit
from curbside.phi._tokens import Token, tokenize
from curbside.phi.recognizers._base import Found, RuleRecognizer, next_index, prev_index
from curbside.phi.recognizers._signature import signature
from curbside.phi.recognizers._words import WordClasses

__all__ = ["ClinicalNameRecognizer", "same_line"]

TITLES = frozenset("dr drs doctor mr mrs ms miss mister mssrs messrs prof professor".split())
AMBIGUOUS_TITLES = frozenset("mr ms drs".split())
# words that cannot follow a title as a name ("Dr. aware" is; "Dr. Noone" is not)
AFTER_TITLE_BLOCK = frozenset(
    "a an the to of in on at is was be and or for with by from as it he she they we you i that this there his her "
    "their our my your not no yes am are were been has have had do does did would can could should may might must "
    "shall will re".split()
)
# roles written before a name: "NP Carol", "caseworker Leona ..." (pt/ot/pa are too ambiguous)
ROLES_BEFORE = frozenset(
    "np rn nurse attending resident intern fellow housestaff pcp surgeon cardiologist physician hospitalist "
    "intensivist chaplain rabbi priest pastor reverend rev therapist nutritionist dietitian dietician "
    "pharmacist neurologist nephrologist oncologist pulmonologist radiologist anesthesiologist caseworker "
    "anesthesia sw worker manager coordinator liaison interpreter translator".split()
)
# credentials written after a name: "Emily Parker, RN", "DEGIORGIO RRT"
CREDENTIALS = frozenset(
    "rn md np rrt crt phd msw licsw lcsw lsw crna pharmd rph cnm bsn lpn aprn mph sn rd ldn acnp fnp anp ccrn".split()
)
# credentials long enough to be told from a typo of them ("licws" for LICSW, "ccnr")
_SPELLED_CREDENTIALS = tuple(c for c in CREDENTIALS if len(c) >= 4)
# credentials that are also everyday chart words ("MD aware", "low MD"): need a comma or a real name
LOOSE_CREDENTIALS = frozenset("md np rn sn rd".split())
RELATIVES = frozenset(
    "son sons daughter daughters dtr dtrs dau husband hus hubby wife spouse sister sisters sis brother brothers "
    "bro mother mom mum father dad aunt uncle niece nephew cousin grandson grandsons granddaughter "
    "granddaughters grandaughter grandchild grandchildren granddtr grandmother grandfather stepson "
    "stepdaughter sibling siblings friend friends neighbor neighbour boyfriend girlfriend partner fiance "
    "fiancee proxy hcp guardian law inlaw inlaws".split()  # "law": son-in-law, dtr in law; "son-inlaw"
)
VERBS_AFTER = frozenset(
    "aware notified informed paged called updated present visited visiting came saw examined phoned spoke "
    "ordered recommended recommends agrees agreed consented requested stated states wants feels reported "
    "arrived contacted following follows discussed explained wishes asked told decided declined family".split()
)
# between a name and its verb: "LUNA HAS PHONED", "Kim was updated"
AUXILIARIES = frozenset("has have had was were is are will would been".split())
# after these even an unknown word in capitals counts ("MAROTTA AWARE")
STRONG_VERBS_AFTER = frozenset("aware notified paged informed updated".split())
WORDS_BEFORE = frozenset(
    "per by paged called notified informed contacted page told asked contacts contacting paging pages "
    "phoned emailed texted".split()
)
# "seen by smith": a participle and "by" name a person, so a listed name counts in any case, even
# one that is also a word (never "followed by", "caused by": things follow and cause as often)
SEEN_BY = frozenset(
    "seen evaluated examined assessed reviewed consulted visited paged called signed cosigned co-signed "
    "dictated written covered attended treated managed interviewed operated counseled counselled "
    "referred admitted discharged".split()
)
# hospital services a person comes "from": "Kim from speech", "Joe from case management"
SERVICES = frozenset(
    "speech swallow social sw nutrition pt ot pharmacy case cm rehab hospice pastoral chaplaincy psych "
    "psychiatry cardiology neurology nephrology renal gi surgery ortho ent id palliative pain wound ostomy "
    "ccu micu sicu transplant dialysis radiology ir ep infectious billing admitting security interpreter".split()
)
COMMON_SURNAME_RANK = 5_000
COMMON_GIVEN_RANK = 300  # "mary" 1, "john" 2; "asa" and "aline" are far down
MAX_LISTED_NAMES = 4  # "Drs. Chen, Patel, Okafor and Roe"
COMMON_WORD_ZIPF = 5.0  # 'smith' 4.9, 'miller' 4.9; 'held' 5.3, 'home' 6.1, 'young' 5.5
# "with" names someone only after a verb of talking: "spoke with", "discussed with", "met with"
TALK_BEFORE_WITH = frozenset(
    "spoke spoken speaking discussed discussion met meeting talked talking conversation consulted conferred".split()
)
MAX_NAME_WORDS = 3
RARE_NAME_ZIPF = 3.0  # a listed name that is a word this rare on the web is a name after a context word
# words that trigger the rules are never names themselves ("wife and FRIEND came")
CONTEXT_WORDS = TITLES | ROLES_BEFORE | CREDENTIALS | RELATIVES | VERBS_AFTER | WORDS_BEFORE


class ClinicalNameRecognizer(RuleRecognizer):
    ENTITIES = ("PERSON",)

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__()
        self.words = WordClasses(lexicon)
        self.lex = lexicon

    def find(self, text: str, nlp_artifacts: NlpArtifacts | None) -> list[Found]:
        tokens = tokenize(text)
        clinical = self.words.clinical_positions(tokens)
        strength = [0 if t.key in CONTEXT_WORDS else self.words.strength(t, clinical) for t in tokens]
        found: list[Found] = []
        for i, token in enumerate(tokens):
            if not token.is_word:
                continue
            key = token.key
            if key in TITLES:
                found += self._after_title(text, tokens, strength, i)
            elif key in RELATIVES:
                found += self._relatives(text, tokens, strength, i)
            if key in ROLES_BEFORE:  # "NP Carol" (and, below, "Carol NP")
                found += self._after(text, tokens, strength, i, minimum=2, score=0.75)
            if key in CREDENTIALS or self._misspelt_credential(token):
                loose = key in LOOSE_CREDENTIALS and not _comma_before(tokens, i)
                found += self._before(
                    text, tokens, strength, i, minimum=2 if loose else 1, score=0.85, allow_clinical=True
                )
                found += self._credential_line(text, tokens, strength, i, clinical, loose=loose)
            elif key in VERBS_AFTER:
                v = _before_auxiliaries(text, tokens, i)  # "LUNA HAS PHONED", "Kim was updated"
                found += self._before(text, tokens, strength, v, minimum=2, score=0.7)
                if key in STRONG_VERBS_AFTER:
                    found += self._before(text, tokens, strength, v, minimum=1, score=0.7, unknown_only=True)
            elif key == "from" and self._service_after(text, tokens, i, clinical):
                found += self._before(text, tokens, strength, i, minimum=2, score=0.7)  # "Kim from speech"
            elif key == "by" and i > 0 and tokens[i - 1].key in SEEN_BY:
                found += self._seen_by(text, tokens, strength, i)
            elif key in WORDS_BEFORE or (key == "with" and i > 0 and tokens[i - 1].key in TALK_BEFORE_WITH):
                weak = key in {"by", "per"}  # "regulated by Nodal", "per fingersticks": things too
                found += self._after(
                    text, tokens, strength, i, minimum=2, score=0.7, unknown_ok=not weak, rare_ok=not weak
                )
            elif (
                key == "named"
                or (key == "is" and i > 0 and tokens[i - 1].key == "name")
                or (key == "name" and i + 1 < len(tokens) and tokens[i + 1].text == ":")  # "Name: Åsa Laine"
            ):
                found += self._after(text, tokens, strength, i, minimum=1, score=0.8, unknown_ok=True)
            if strength[i] == 3 and self._stands_alone(token):
                found.append((token.start, token.end, "PERSON", 0.6))
            found += self._pair(text, tokens, strength, i)
            if i not in clinical:
                found += self._full_name(text, tokens, i)
            found += self._initial(text, tokens, strength, i, clinical)
        return found + self._signature(text, tokens, strength, clinical)

    def _signature(
        self, text: str, tokens: tuple[Token, ...], strength: list[int], clinical: frozenset[int]
    ) -> list[Found]:
        def can_sign(k: int) -> bool:
            token = tokens[k]
            if k in clinical or token.key in self.lex.clinical or token.key in CONTEXT_WORDS:
                return False
            rare_name = strength[k] == 1 and self.lex.is_name(token.key) and self.lex.zipf(token.key) < 3.5
            return strength[k] >= 2 or rare_name or self._unknown(token)

        return signature(text, tokens, can_sign, skip=CREDENTIALS, max_words=MAX_NAME_WORDS)

    # --- word tests ------------------------------------------------------------------------
    def _service_after(self, text: str, tokens: tuple[Token, ...], i: int, clinical: frozenset[int]) -> bool:
        """'from' followed by a hospital service: 'lago whittall from speech', 'Kim from SW'."""
        j = next_index(tokens, i, "")
        if j is None or not tokens[j].is_word or not same_line(text, tokens[i], tokens[j]):
            return False
        return tokens[j].key in SERVICES or tokens[j].key in self.lex.clinical or j in clinical

    def _misspelt_credential(self, token: Token) -> bool:
        """'licws', 'LISCW': one edit or swap from a credential of four letters or more, and no word."""
        key = token.key
        if len(key) < 4 or not key.isalpha() or key in self.lex.clinical or self.words.is_word(key):
            return False
        return any(one_edit(key, credential) for credential in _SPELLED_CREDENTIALS if credential[0] == key[0])

    def _stands_alone(self, token: Token) -> bool:
        """A listed name counts with no context when it is long enough and, in a line of capitals,
        not one of the rarest surnames (those are as often misspellings: "STAS", "WEIN")."""
        if len(token.key) < 5 or token.key in CONTEXT_WORDS:
            return False
        if token.caseless and token.key not in self.lex.given_names:
            return self.lex.surname_rank.get(token.key, 1_000_000) <= 50_000
        return True

    def _unknown(self, token: Token) -> bool:
        """A word in no list at all, long enough not to be an abbreviation: 'Masci', 'KONDOULI'."""
        return (
            token.is_word
            and token.capitalized  # "H. longicornis", "Candida glabrata": lower case in prose is no name
            and len(token.key) >= 4
            and token.key not in CONTEXT_WORDS
            and not self.words.is_word(token.key)
            and token.key not in self.lex.clinical
            and not self.words.stop(token)
            and not self.words.calendar(token)
            and "'" not in token.key[2:]
            and self.lex.zipf(token.key) < 3.0
            and (self.lex.is_name(token.key) or not self.words.misspelt(token.key))
        )

    def _rare_capitalised(self, token: Token) -> bool:
        """A capitalised, rarely used word where case means something: 'Halfpenny', 'Canvan', 'Hosty'."""
        return (
            token.is_word
            and token.title_signal
            and (token.text[1:].islower() or "'" in token.text)
            and len(token.key) >= 3
            and self.lex.zipf(token.key) < 3.5
            and token.key not in self.lex.clinical
            and token.key not in CONTEXT_WORDS
            and not self.words.stop(token)
            and not self.words.calendar(token)
        )

    def _name_word(self, token: Token) -> bool:
        """A listed name written with a capital in mixed case, even if it is also clinical ('Bernard Foley')."""
        return self.lex.is_name(token.key) and token.title_signal

    # --- rules ---------------------------------------------------------------------------
    def _after_title(self, text: str, tokens: tuple[Token, ...], strength: list[int], i: int) -> list[Found]:
        """After a title almost anything is a name, but not 'Dr aware', 'MS clears', 'MR given'."""
        j = next_index(tokens, i, ".")
        if j is None or not same_line(text, tokens[i], tokens[j]) or not tokens[j].is_word:
            return []
        first = tokens[j]
        # "mr M remained": a capital letter after a title not itself in capitals is an initial
        # (even "I" or "A"; "MR A" in a line of capitals is left alone)
        capital_initial = first.is_initial and first.text.isupper() and not tokens[i].is_upper
        if first.key in AFTER_TITLE_BLOCK and not capital_initial:
            return []
        if tokens[i].key in AMBIGUOUS_TITLES:
            # "MR" is also mitral regurgitation, "MS" mental status, "drs" dressings
            initial = capital_initial or (first.is_initial and j + 1 < len(tokens) and tokens[j + 1].text == ".")
            if not (strength[j] >= 2 or initial or self._unknown(first) or self._name_word(first)):
                return []
        # a dictionary word that is nobody's name is no name: "Dr aware", "MS clears", "MR given"
        if self.words.is_word(first.key) and not self.lex.is_name(first.key) and not first.is_initial:
            return []
        if capital_initial and (j + 1 >= len(tokens) or tokens[j + 1].text != "."):
            return [(first.start, first.end, "PERSON", 0.8)]  # "mr M remained": the initial alone
        name = self._extend(text, tokens, strength, j, 0.9)
        return [name, *self._and_more(text, tokens, strength, j, name[1])]

    def _and_more(self, text: str, tokens: tuple[Token, ...], strength: list[int], j: int, end: int) -> list[Found]:
        """More names joined to one found by its title: 'Dr. Yurchak and Farness aware', 'Drs. Chen,
        Patel & Okafor' — each a name on its own strength, a rare listed name or a word in no list."""
        found: list[Found] = []
        k = _last_within(tokens, j, end)
        for _ in range(MAX_LISTED_NAMES):
            n = k + 1
            if n < len(tokens) and tokens[n].text in {",", "&"}:
                n += 1
            if n < len(tokens) and tokens[n].key == "and":
                n += 1
            if n == k + 1 or n >= len(tokens) or not tokens[n].is_word or not same_line(text, tokens[k], tokens[n]):
                break
            word = tokens[n]
            rare_name = strength[n] == 1 and self.lex.is_name(word.key) and self.lex.zipf(word.key) < 3.5
            if not (strength[n] >= 2 or rare_name or self._unknown(word)):
                break
            name = self._extend(text, tokens, strength, n, 0.75)
            found.append(name)
            k = _last_within(tokens, n, name[1])
        return found

    def _after(
        self,
        text: str,
        tokens: tuple[Token, ...],
        strength: list[int],
        i: int,
        *,
        minimum: int,
        score: float,
        unknown_ok: bool = False,
        rare_ok: bool = True,
    ) -> list[Found]:
        """Name words right after a context word: the first must reach ``minimum``, or be a word in no
        list (``unknown_ok``) or a listed name that is a rare word (``rare_ok``: 'NP GRAZIER')."""
        j = next_index(tokens, i, ".:-,")
        if j is None or not same_line(text, tokens[i], tokens[j]) or not tokens[j].is_word:
            return []
        if (
            strength[j] < minimum
            and not (unknown_ok and self._unknown(tokens[j]))
            and not (rare_ok and self._rare_name(tokens[j]))
        ):
            return []
        return [self._extend(text, tokens, strength, j, score)]

    def _rare_name(self, token: Token) -> bool:
        """A listed name that is also an English word, but a rare one: 'GRAZIER', 'Codling'."""
        key = token.key
        return (
            self.lex.is_name(key)
            and self.lex.zipf(key) < RARE_NAME_ZIPF
            and key not in self.lex.clinical
            and key not in CONTEXT_WORDS
            and not self.words.stop(token)
            and not self.words.calendar(token)
        )

    def _extend(self, text: str, tokens: tuple[Token, ...], strength: list[int], j: int, score: float) -> Found:
        """Grow a name from token j over following name words and initials ('Art White', 'J. Smith')."""
        start, end = tokens[j].start, tokens[j].end
        words = 1
        k = j
        while words < MAX_NAME_WORDS:
            n = next_index(tokens, k, ".-")
            if n is None or not same_line(text, tokens[k], tokens[n]) or not tokens[n].is_word:
                break
            if tokens[n].start - end > 3:
                break
            nxt = tokens[n]
            after_given = tokens[k].key in self.lex.given_names and strength[k] >= 1
            if (
                strength[n] >= 2
                or (strength[n] >= 1 and (tokens[k].is_initial or after_given))
                or (nxt.is_initial and nxt.is_upper and not nxt.caseless)
                or (self._unknown(nxt) and strength[k] >= 1)
                or (after_given and self._rare_capitalised(nxt))
            ):
                end = nxt.end
                k = n
                words += 1
            else:
                break
        return (start, end, "PERSON", score)

    def _before(
        self,
        text: str,
        tokens: tuple[Token, ...],
        strength: list[int],
        i: int,
        *,
        minimum: int,
        score: float,
        allow_clinical: bool = False,
        unknown_only: bool = False,
    ) -> list[Found]:
        """Name words right before a credential or a verb ('Parker, RN', 'DAVID AWARE')."""
        j = prev_index(tokens, i, ",")
        if j is None or not same_line(text, tokens[j], tokens[i]) or not tokens[j].is_word:
            return []
        last = tokens[j]
        if unknown_only:
            if not self._unknown(last):
                return []
        elif strength[j] < minimum and not (allow_clinical and self._name_word(last)):
            if (
                not (self._unknown(last) and (minimum <= 1 or not last.caseless))
                and not self._after_given(text, tokens, strength, j)
                and not self._rare_name(last)  # "kulkarni visited", "GRAZIER RN"
            ):
                return []
        elif strength[j] == 1 and self.words.is_word(last.key) and self.lex.zipf(last.key) >= 4.0:
            return []  # "skin care, CNS", "at times MD": a common word, not a surname
        start = last.start
        k = j
        words = 1
        while words < MAX_NAME_WORDS:
            p = prev_index(tokens, k, ".-")
            if p is None or not tokens[p].is_word or not same_line(text, tokens[p], tokens[k]):
                break
            word = tokens[p]
            initial = word.is_initial and (word.text.isupper() or tokens[p + 1].text == ".")
            if (
                strength[p] >= 2
                or initial
                or (self._unknown(word) and word.title_signal)
                or (word.key in self.lex.given_names and strength[p] >= 1)
                or (self._unknown(word) and words == 1 and (strength[k] >= 2 or tokens[k].key in self.lex.given_names))
            ):
                start = word.start
                k = p
                words += 1
            else:
                break
        return [(start, last.end, "PERSON", score)]

    def _credential_line(
        self,
        text: str,
        tokens: tuple[Token, ...],
        strength: list[int],
        i: int,
        clinical: frozenset[int],
        *,
        loose: bool,
    ) -> list[Found]:
        """A line that is a name and a credential, nothing else: 'CODLING PFISTERER RRT', 'Loo Bernarda,
        RRT', 'SPANNER P. GEORGE, RRT' — every word before the credential, common words too. After
        a credential that is also a chart word ('ROLLEFSON SUN RN') one of the words must be a name."""
        n = i + 1
        while (
            n < len(tokens)
            and same_line(text, tokens[i], tokens[n])
            and (tokens[n].text in {".", ","} or tokens[n].key in CREDENTIALS)
        ):
            n += 1  # ("JANE ROE RN, BSN": more credentials may follow)
        if n < len(tokens) and same_line(text, tokens[i], tokens[n]):
            return []  # the line goes on after the credential
        words: list[Token] = []
        k = i - 1
        while k >= 0 and same_line(text, tokens[k], tokens[i]):
            if i - k > 3 * MAX_NAME_WORDS:
                return []  # (a bounded look back: a signature line is short)
            token = tokens[k]
            if token.is_word and token.key in CREDENTIALS:
                pass  # "JANE ROE RN BSN", read from "BSN"
            elif token.is_word:
                key = token.key
                if key in CONTEXT_WORDS or key in self.lex.clinical or k in clinical or self.words.stop(token):
                    return []
                if self.words.calendar(token) or len(words) >= MAX_NAME_WORDS + 1:
                    return []
                words.append(token)
            elif token.text not in {".", ",", "-"}:
                return []  # a number or a bracket: a sentence, not a signature
            k -= 1
        if not words or all(w.is_initial for w in words):
            return []
        if loose and not any(strength[w.index] >= 2 or self._unknown(w) for w in words):
            return []  # "NEEDS MD", "PLEASE PAGE RN"
        return [(words[-1].start, words[0].end, "PERSON", 0.8)]

    def _after_given(self, text: str, tokens: tuple[Token, ...], strength: list[int], j: int) -> bool:
        """A listed surname that is also a rare word, right after a given name: 'SADYE SWINGLE AWARE'."""
        word = tokens[j]
        if strength[j] != 1 or not self.lex.is_name(word.key) or self._common_word(word):
            return False
        p = prev_index(tokens, j, "")
        return (
            p is not None
            and tokens[p].key in self.lex.given_names
            and strength[p] >= 2
            and same_line(text, tokens[p], word)
        )

    def _relatives(self, text: str, tokens: tuple[Token, ...], strength: list[int], i: int) -> list[Found]:
        """'son bill', 'daughter, Maria', 'Sons Smokey, Morris and Roger', 'Hank Przybylo (son)'."""
        found: list[Found] = []
        j = next_index(tokens, i, ",:-(?)")  # ("wife(?) Lawes")
        while j is not None and same_line(text, tokens[i], tokens[j]) and self._relative_name(tokens[j], strength[j]):
            name = self._extend(text, tokens, strength, j, 0.85)
            found.append(name)
            last = j
            while last + 1 < len(tokens) and tokens[last + 1].end <= name[1]:
                last += 1
            n = last + 1  # a list of names goes on after ",", "&" or "and"
            if n < len(tokens) and tokens[n].text in {",", "&"}:
                n += 1
            if n < len(tokens) and tokens[n].key == "and":
                n += 1
            if n == last + 1 or n >= len(tokens):
                break
            j = n
        # the relation after the name: "Hank Przybylo (son)", "Irene - daughter"
        p = prev_index(tokens, i, "(-,")
        if (
            p is not None
            and (strength[p] >= 2 or self._after_given(text, tokens, strength, p))
            and same_line(text, tokens[p], tokens[i])
        ):
            found += self._before(text, tokens, strength, p + 1, minimum=2, score=0.8)
        return found

    def _relative_name(self, token: Token, strength: int) -> bool:
        if token.key in self.lex.nationalities:
            return False  # "daughter, russian speaking"
        if strength >= 2 or self._unknown(token) or (strength == 0 and self._name_word(token)):
            return True
        rare = not self.lex.is_word(token.key) or self.lex.zipf(token.key) < 3.5
        if token.is_word and len(token.key) >= 3 and rare and not self.words.stop(token):
            # after "brother" a nickname that is common on the web, or a rare dictionary word, counts: "VINNY"
            return (
                token.key not in self.lex.clinical and token.key not in CONTEXT_WORDS and not self.words.calendar(token)
            )
        if strength == 1 and (token.key in self.lex.given_names or not self.words.is_word(token.key)):
            return True
        # "Sons Smokey, ...": where case means something, a capitalised rarer word after a relation,
        # or a listed name that is a commoner word ("daughter Dollar in to visit")
        zipf = self.lex.zipf(token.key)
        return (
            token.is_word
            and token.title_signal
            and (zipf < 4.0 or (self.lex.is_name(token.key) and zipf < COMMON_WORD_ZIPF))
            and token.key not in self.lex.clinical
            and not self.words.stop(token)
            and not self.words.calendar(token)
        )

    def _pair(self, text: str, tokens: tuple[Token, ...], strength: list[int], i: int) -> list[Found]:
        """A given name followed by a surname-like word: 'Gerry Masci', 'LINDSEY CARDARELLI'."""
        token = tokens[i]
        if strength[i] < 1 or token.key not in self.lex.given_names:
            return []
        j = next_index(tokens, i, ".")
        if j is None or not tokens[j].is_word or not same_line(text, token, tokens[j]):
            return []
        if tokens[j].start - token.end > 3:
            return []
        if tokens[j].is_initial:  # "Robert V. Degiorgio"
            k = next_index(tokens, j, ".")
            if k is not None and (strength[k] >= 2 or self._unknown(tokens[k])) and same_line(text, token, tokens[k]):
                return [(token.start, tokens[k].end, "PERSON", 0.8)]
            return []
        if strength[j] >= 2 and (strength[i] >= 2 or strength[j] == 3):
            return [self._extend(text, tokens, strength, i, 0.75)]
        if strength[i] == 3 and self._unknown(tokens[j]):  # "LEONA LABOWICH", "BEA TURA"
            return [(token.start, tokens[j].end, "PERSON", 0.7)]
        return []

    def _seen_by(self, text: str, tokens: tuple[Token, ...], strength: list[int], i: int) -> list[Found]:
        """'seen by smith', 'evaluated by Dr Roe': a listed name in any case, unless it is mostly a
        common word ('seen by home care'); an unknown word only if it is long enough to be a name."""
        j = next_index(tokens, i, ".:-,")
        if j is None or not same_line(text, tokens[i], tokens[j]) or not tokens[j].is_word:
            return []
        word = tokens[j]
        named = strength[j] >= 2 or (strength[j] == 1 and self.lex.is_name(word.key) and not self._common_word(word))
        if not (named or self._unknown(word)):
            return []
        return [self._extend(text, tokens, strength, j, 0.75)]

    def _common_word(self, token: Token) -> bool:
        """A dictionary word at least as common as 'smith' is rare: 'home', 'held', 'place', 'young'."""
        return self.words.is_word(token.key) and self.lex.zipf(token.key) >= COMMON_WORD_ZIPF

    def _full_name(self, text: str, tokens: tuple[Token, ...], i: int) -> list[Found]:
        """A given name, then a common surname, in any case: 'john smith', 'mary brown', 'MARY YOUNG'
        (both lists agreeing is context enough, if neither word is mostly an English word)."""
        token = tokens[i]
        if token.key not in self.lex.given_names or len(token.key) < 3:
            return []
        common_given = self.lex.given_rank.get(token.key, 1_000_000) <= COMMON_GIVEN_RANK
        if self.words.is_word(token.key) and not (common_given and self.lex.zipf(token.key) < COMMON_WORD_ZIPF):
            return []  # "Mary", "Carol" are names first; "Mark", "Will", "Hope" are words first
        j = i + 1
        if j >= len(tokens) or not tokens[j].is_word or tokens[j].start - token.end > 2:
            return []
        if not same_line(text, token, tokens[j]) or not self._common_surname(tokens[j]):
            return []
        if tokens[j].key in CONTEXT_WORDS or self.words.stop(tokens[j]):
            return []
        if self._common_word(tokens[j]) and not common_given:
            return []  # "mary brown", but not "ASA HELD", "Aline place": a rarer given name wants a rarer surname
        if token.key in self.lex.clinical or tokens[j].key in self.lex.clinical:
            return []
        return [(token.start, tokens[j].end, "PERSON", 0.7)]

    def _common_surname(self, token: Token) -> bool:
        """One of the census's commoner surnames, even if it is also a word: 'Smith', 'Young', 'Brown'."""
        return self.lex.surname_rank.get(token.key, 1_000_000) <= COMMON_SURNAME_RANK

    def _initial(
        self, text: str, tokens: tuple[Token, ...], strength: list[int], i: int, clinical: frozenset[int]
    ) -> list[Found]:
        """An initial with a period, then a name: 'j. o'brien', 'W. MAROTTA' — not 'n/v. Fruit', '2L. Contd'."""
        token = tokens[i]
        if not token.is_initial or i + 1 >= len(tokens) or tokens[i + 1].text != ".":
            return []
        if (
            i > 0
            and tokens[i - 1].end == token.start
            and (tokens[i - 1].text[-1:].isalnum() or tokens[i - 1].text in {"/", "'", "’"})
        ):
            return []  # the end of "n/v", "2L", "80'S"
        if i > 0 and tokens[i - 1].text in {"&", "/"}:
            return []  # "I & O."
        j = next_index(tokens, i + 1)
        if j is None or not same_line(text, token, tokens[j]) or tokens[j].start - tokens[i + 1].end > 2:
            return []
        follower = tokens[j]
        # the word after "X." starts a sentence too: only a listed name or an unknown word counts
        if token.key in {"r", "l", "p", "a", "s", "o", "m"} and strength[j] < 2 and not _second_initial(tokens, i):
            return []  # right, left, and the S/O/A/P of a note: "R. mainstem", "P. ANTIBX", "a.m."
        if (strength[j] >= 2 or self._unknown(follower)) and j not in clinical and follower.capitalized:
            return [(token.start, follower.end, "PERSON", 0.7)]
        return []


def same_line(text: str, a: Token, b: Token) -> bool:
    lo, hi = (a, b) if a.start <= b.start else (b, a)
    return "\n" not in text[lo.end : hi.start]


def _last_within(tokens: tuple[Token, ...], i: int, end: int) -> int:
    """The index of the last token from ``i`` on that ends by ``end``."""
    while i + 1 < len(tokens) and tokens[i + 1].end <= end:
        i += 1
    return i


def _before_auxiliaries(text: str, tokens: tuple[Token, ...], i: int) -> int:
    """The index to read a name back from, before the verb at ``i``: past 'has', 'was', 'has been'."""
    k = i
    for _ in range(2):
        if k > 0 and tokens[k - 1].key in AUXILIARIES and same_line(text, tokens[k - 1], tokens[i]):
            k -= 1
    return k


def _second_initial(tokens: tuple[Token, ...], i: int) -> bool:
    """The initial at ``i`` follows another initial-and-name and 'and': 'd. renna and l. hoyt'."""
    return (
        i >= 4
        and tokens[i - 1].key in {"and", "&"}
        and tokens[i - 2].is_word
        and tokens[i - 3].text == "."
        and tokens[i - 4].is_initial
    )


def _comma_before(tokens: tuple[Token, ...], i: int) -> bool:
    return i > 0 and tokens[i - 1].text == ","
