"""Understanding an ``odb.get`` request: plain-words questions and drug name/DIN resolution.

``plan`` reads the request without the formulary (DIN, strength, what is
asked, the condition); ``NameIndex.resolve`` matches names against the loaded
edition's product and ingredient names — longest phrase first, ingredients
before products of the same name, a close spelling only when nothing matches
exactly; a drug class, by its ingredients' INN stems (``words``).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from curbside import drug_lexicon
from curbside.coverage.odb.tool import Check, OdbGetArgs
from curbside.coverage.odb.unlisted import rare_in_english, uncommon_in_english
from curbside.coverage.odb.words import (
    CLASS_ALIASES,
    CLASS_NAMES,
    CLASS_NOT,
    CLASS_STEMS,
    FORMS,
    KEYWORDS,
    SALTS,
    STOP,
)

__all__ = [
    "NameIndex",
    "Request",
    "Resolution",
    "norm",
    "norm_strength",
    "plan",
    "said_strength",
    "same_strength",
    "strength_apart",
]

_DIN_IN_TEXT = re.compile(r"\b(?:DIN[\s:#-]*)?(\d{8})\b|\bDIN[\s:#-]*(\d{5,7})\b", re.IGNORECASE)
_STRENGTH = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?|\.\d+)(?:\s*|-)(mg|mcg|µg|g|ml|%|iu|units?|u)\b"  # '100-unit vial' too
    r"(?:\s*/\s*((?:\d+(?:\.\d+)?|\.\d+)?\s*ml|dose|h|hr|g))?",
    re.IGNORECASE,
)
_FOR = re.compile(r"\bfor\b", re.IGNORECASE)
_CONDITION = re.compile(
    r"^\s*(?:(?:a|an|the|my|his|her|their|patients?|people|someone)\s+)*(?:with\s+)?"
    r"(?P<cond>[a-z][a-z0-9' -]{2,60}?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)


def norm(text: str) -> str:
    """Lower case words: 'Apo-Atorvastatin' -> 'apo atorvastatin', 'A & B' -> 'a and b'."""
    text = text.lower().replace("&", " and ").replace("+", " and ")
    return " ".join(re.sub(r"[^a-z0-9.]+", " ", text).replace(" .", " ").split()).strip(".")


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def norm_strength(text: str) -> str:
    """'20 mg' -> '20mg', '.5 mg' -> '0.5mg', '0.68mg/mL' -> '0.68mg/ml'; a toxin's '100 LD50 Units', '100U' and a
    '100-unit vial' -> '100units'."""
    value = re.sub(r"\s+", "", text.lower()).replace("µg", "mcg")
    value = re.sub(r"(?<=\d)-?(?:ld50)?(?:units?|u)(?![a-z])", "units", value)
    value = re.sub(r"(?<![\d.])\.(\d)", r"0.\1", value)
    return re.sub(r"(\d)\.0+(?!\d)|(\.\d*?[1-9])0+(?!\d)", lambda m: m.group(1) or m.group(2), value)  # '1.0mg' = '1mg'


_MASS = re.compile(r"^(\d+(?:\.\d+)?)(mcg|mg|g)(?![a-z])(.*)$")
_IN_MG = {"mcg": 0.001, "mg": 1.0, "g": 1000.0}


def _strength_key(normalised: str) -> tuple[float, str] | str:
    """'137mcg' and '0.137mg' -> (0.137, ''); '50mcg/dose' -> (0.05, '/dose'); other strengths as written."""
    match = _MASS.match(normalised)
    if match is None:  # a vial's units are its strength: Botox '100U/Vial' is the '100 unit vial'
        return re.sub(r"^(\d+(?:\.\d+)?units)/vial$", r"\1", normalised)
    return round(float(match.group(1)) * _IN_MG[match.group(2)], 9), match.group(3)


def same_strength(listed: str | None, asked: str, *, per_unit: bool = False, form: str | None = None) -> bool:
    """Whether the formulary's strength is the one asked, in any unit of mass ('0.137mg' is '137 mcg'); a dose in
    a volume asked ('2.5mg/2.5mL', a nebule) is also the concentration the formulary lists ('1mg/mL').

    ``per_unit``: a bare mass asked is also a strength the formulary gives per unit of use, the unit being what
    one dose comes in: 'neupro 4mg' is the '4mg/24hr' patch, 'abilify maintena 400 mg' the '400mg/Vial' kit,
    'humira 40 mg' the '40mg/0.8mL' syringe; not a concentration ('5mg/mL', '5mg/5mL') or a cream's '/g'. With the
    product's dosage ``form``, a strength per the volume its pack holds is the pack's ('aclasta 5 mg' is '5mg/100mL'
    in an 'Inj Sol-100mL Pk'), and a prefilled device listed per mL with no volume holds one mL ('taltz 80 mg' is
    '80mg/mL' in an 'Inj Sol-Pref Autoinj')."""
    key, wanted = _strength_key(norm_strength(listed or "")), _strength_key(asked)
    if key == wanted or key == _concentration(asked):
        return True
    if not (per_unit and isinstance(key, tuple) and isinstance(wanted, tuple) and wanted[1] == ""):
        return False
    held = _injected_per_pack(key, form or "")
    if held is not None:  # 'omlyclo 150 mg' is the '150mg/mL' in an 'Inj Sol-1mL Pref Syr Pk'
        return held == wanted[0]
    if key[0] != wanted[0]:
        return False
    return bool(_PER_UNIT_OF_USE.fullmatch(key[1])) or _per_pack(key[1], form or "")


def strength_as_written(listed: str | None, asked: str) -> bool:
    """Whether the formulary writes the strength as asked, not only the same concentration: '320mg/2mL' is the
    2 mL syringe's strength, and '160mg/mL' in a 1 mL one the same concentration."""
    return _strength_key(norm_strength(listed or "")) == _strength_key(asked)


def _injected_per_pack(key: tuple[float, str], form: str) -> float | None:
    """The mass one injectable pack holds when the formulary gives its strength per mL and its one volume
    ('150mg/mL' in an 'Inj Sol-1mL Pref Syr Pk' holds 150 mg; in an 'Inj Sol-5mL Vial', 750 mg); None otherwise."""
    if key[1] != "/ml" or not re.search(r"\binj\b", form, re.I):
        return None
    volumes = set(re.findall(r"(\d+(?:\.\d+)?)\s?ml\b", form, re.I))
    return round(key[0] * float(volumes.pop()), 9) if len(volumes) == 1 else None


def _per_pack(per: str, form: str) -> bool:
    """Whether a strength given per ``per`` ('/100ml', '/ml') is what one pack of the dosage ``form`` holds."""
    volume = re.fullmatch(r"/(\d+(?:\.\d+)?)?ml", per)
    if volume is None:
        return False
    packs = re.findall(r"(\d+(?:\.\d+)?)\s?ml\b", form, re.I)
    if volume.group(1):  # '5mg/100mL' in an 'Inj Sol-100mL Pk'
        return any(float(v) == float(volume.group(1)) for v in packs)
    return not packs and bool(re.search(r"\bpref\b", form, re.I))  # '80mg/mL' in an 'Inj Sol-Pref Autoinj'


# what one dose of a strength given per unit comes in: a vial, a metered dose, a patch's hour, a prefilled syringe's
# volume under 5 mL other than 1 mL (a concentration is '/mL'; an oral liquid's '/5mL' is one too)
_PER_UNIT_OF_USE = re.compile(
    r"/(?:vial|metereddose|actuation|dose|blister|cap|sachet|(?:24)?hr(?:/[\d.]+sqcm)?|0?\.\d+ml|[1-4]\.\d+ml|[2-4]ml)"
)


_PER_VOLUME = re.compile(r"^(\d+(?:\.\d+)?)(mcg|mg|g)/(\d+(?:\.\d+)?)ml$")


def _concentration(normalised: str) -> tuple[float, str] | None:
    """'2.5mg/2.5ml' -> (1.0, '/ml'), the key of '1mg/ml'; None for a strength that is no dose in a volume."""
    match = _PER_VOLUME.match(normalised)
    if match is None or float(match.group(3)) == 0:
        return None
    return round(float(match.group(1)) * _IN_MG[match.group(2)] / float(match.group(3)), 9), "/ml"


@dataclass(frozen=True, slots=True)
class Request:
    """An ``odb.get`` request as understood before looking anything up."""

    text: str  # what the search path searches
    din: str | None
    names: tuple[str, ...]  # explicit drug / ingredient names
    question: str | None
    drug_class: str | None  # a CLASS_STEMS key
    strength: str | None  # normalised, e.g. '20mg'
    form: str | None  # 'tab', 'cap', …
    checks: frozenset[Check]
    condition: str | None
    top_k: int
    include_brand: bool
    exclude_lu: bool
    check_alternatives: bool


def _class_of(text: str) -> str | None:
    words = norm(text).split()
    for n in (4, 3, 2, 1):
        for i in range(len(words) - n + 1):
            alias = CLASS_ALIASES.get(_compact("".join(words[i : i + n])))
            if alias:
                return alias
    return None


_NOT_WANTED = frozenset({"t", "not", "no", "cannot", "unable", "never", "over", "instead", "than"})


def plan(args: OdbGetArgs) -> Request:
    question = args.q
    text = question or ""
    din = args.din
    if din is None and question:
        match = _DIN_IN_TEXT.search(question)
        if match:
            din = (match.group(1) or match.group(2)).zfill(8)
    strength = norm_strength(args.strength) if args.strength else None
    if strength is None and question:
        strength = said_strength(question)
    # the first form named, unless it is the one not wanted: 'can't swallow tabs - fluconazole oral suspension
    # covered?', 'prefers the suboxone film over the tabs'
    said = norm(" ".join(filter(None, (question, args.drug)))).split()
    forms = [(FORMS[w], not _NOT_WANTED & set(said[max(0, k - 3) : k])) for k, w in enumerate(said) if w in FORMS]
    form = next((f for f, wanted in forms if wanted), forms[0][0] if forms else None)
    checks = set(args.checks())
    if question and not args.check:
        asked = {check for check, pattern in KEYWORDS if pattern.search(question)}
        checks |= asked
        if "lu_criteria" in asked:
            checks.add("coverage")
    condition = args.condition
    if condition is None and question:  # after the last 'for': 'criteria for celecoxib for osteoarthritis'
        parts = _FOR.split(question)
        match = _CONDITION.match(parts[-1]) if len(parts) > 1 else None
        if match and not _DIN_IN_TEXT.search(match.group("cond")):
            condition = match.group("cond").strip()
    names = tuple(n for n in (args.drug, args.ingredient) if n)
    if not text:
        text = " ".join(filter(None, (*names, args.strength, args.drug_class, f"DIN {din}" if din else None)))
    if args.condition and args.condition.lower() not in text.lower():
        text += f" for {args.condition}"
    class_words = args.drug_class or args.drug or question
    drug_class = _class_of(class_words) if class_words else None
    return Request(
        text=text,
        din=din,
        names=names,
        question=question,
        drug_class=drug_class,
        strength=strength,
        form=form,
        checks=frozenset(checks),
        condition=condition,
        top_k=args.top_k,
        include_brand=args.include_brand,
        exclude_lu=args.exclude_lu,
        check_alternatives=args.check_alternatives,
    )


def said_strength(question: str) -> str | None:
    """The first strength written in ``question``, normalised ('16 mg' -> '16mg')."""
    match = _STRENGTH.search(question)
    return norm_strength(match.group(0)) if match else None


_APART = 2  # words between a strength and a name after it beyond which the strength is not that name's


def strength_apart(question: str, name: str) -> bool:
    """Whether the strength ``plan`` read from ``question`` stands before ``name`` and apart from it, so it is
    another drug's: 'tylenol 1g qid didn't cut it, GI bleed on naproxen - celecoxib on ODB?' (people write a
    dose after its drug; '2.5 mg of apixaban' keeps it, two words before)."""
    strength = _STRENGTH.search(question)
    words = r"\W+".join(re.escape(w) for w in norm(name).split())
    named = re.search(rf"(?<![a-z0-9]){words}(?![a-z0-9])", question.lower()) if words else None
    if strength is None or named is None or strength.end() > named.start():
        return False
    return len(question[strength.end() : named.start()].split()) > _APART


@dataclass(slots=True)
class Resolution:
    """Which products a name (or question) points at."""

    kind: Literal["brand", "ingredient", "class", "none"]
    matched: str = ""  # the words that matched, as written in the request
    dins: set[str] = field(default_factory=set)  # brand matches
    generic_keys: set[int] = field(default_factory=set)  # ingredient and class matches
    fuzzy: bool = False
    history: bool = False  # every name found is one the patient takes or took ('can't take terbinafine')


class NameIndex:
    """Product and ingredient names of one edition, normalised, for phrase lookup."""

    def __init__(self, rows: Iterable[tuple[str, str, int, str]]) -> None:
        self.brands: dict[str, set[str]] = defaultdict(set)
        self.generics: dict[str, set[int]] = defaultdict(set)
        self.generic_names: dict[int, str] = {}
        self.generic_of: dict[str, int] = {}
        rows = list(rows)
        for din, product, generic_key, generic in rows:
            self.generic_names[generic_key] = generic
            self.generic_of[din] = generic_key
            for key in _brand_keys(product):
                self.brands[key].add(din)
        for generic_key, generic in self.generic_names.items():
            for key in _generic_keys(generic):
                self.generics[key].add(generic_key)
                for spoken in _spoken_keys(key):
                    self.generics[spoken].add(generic_key)
        # a device is asked for by its maker's words, without the description many products share: 'contour next
        # test strips' is 'Contour Next Blood Glucose Test Strips'; the shared words are read from the names
        normed = {product: norm(product) for _, product, _, _ in rows}  # once each: norm is most of the cost
        shared = _shared_words(normed.values())
        for din, product, _, _ in rows:
            short = _without_description(normed[product], shared)
            if short and short not in self.brands and short not in self.generics and not short[-1].isdigit():
                self.brands[short].add(din)
        # a generic maker's product is asked for without the maker ('nitrofurantoin BID' is PMS-Nitrofurantoin
        # BID): the makers are the first words of products of many ingredients ('apo', 'teva', 'pms')
        makers = _makers((normed[product], generic_key) for _, product, generic_key, _ in rows)
        # … and an ingredient is asked for by its maker apart from its name ('teriflunomide 14 mg - apo generic
        # DIN?' is Apo-Teriflunomide): a maker's word English hardly uses ('apo', 'teva'; not 'mint', not 'm')
        self.by_maker: dict[tuple[str, int], set[str]] = defaultdict(set)
        for din, product, generic_key, _ in rows:
            first, _, rest = normed[product].partition(" ")
            if first in makers and rest and rest not in self.brands and rest not in self.generics:
                if not rest[-1].isdigit():
                    self.brands[rest].add(din)
            if first in makers and rest and len(first) >= 3 and first.isalpha() and uncommon_in_english(first):
                self.by_maker[first, generic_key].add(din)
        # a brand is asked for by its first word alone when every product it begins holds one ingredient:
        # 'symbicort' is Symbicort 100 Turbuhaler and Symbicort 200 Turbuhaler; an English word is not ('ensure',
        # 'boost', 'extra' begin nutrition products) unless the drug lexicon knows it ('wellbutrin')
        by_first: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for din, product, generic_key, _ in rows:
            first = normed[product].split()[0] if normed[product] else ""
            if len(first) >= 5 and first.isalpha() and first not in makers and first not in STOP:
                by_first[first].append((din, generic_key))
        for first, products in by_first.items():
            if first in self.brands or first in self.generics or len({k for _, k in products}) != 1:
                continue
            if rare_in_english(first) or drug_lexicon.ingredient_of(first):
                self.brands[first].update(din for din, _ in products)
        self.longest = max(len(k.split()) for k in (*self.brands, *self.generics))
        self.vocabulary = sorted({k for k in (*self.brands, *self.generics) if " " not in k and len(k) >= 5})

    def resolve(self, text: str, *, fuzzy: bool = True) -> Resolution:
        """The longest name in ``text`` (a brand that is not also an ingredient's name wins a tie: it names the
        product), else (``fuzzy``) a close spelling of one word."""
        # a name may end a sentence ('on Januvia. what is covered?'); inner dots stay ('0.5')
        words, clauses = _clause_words(text)
        found = self._exact(words)
        kinds = _history_kinds(words, found, clauses)
        asked = [f for f in found if kinds[f[0]] is None]
        if len({f[2].matched for f in found}) > 1:
            # 'on biphentin … want to add guanfacine XR': the drug asked about, not the one taken; with every drug
            # named in the history, the one taken now, not those that failed ('fludrocortisone didn't help - pt
            # has been on brand amatine 5 mg for yrs. is the brand still an ODB benefit?')
            found = asked or [f for f in found if kinds[f[0]] == "current"] or found
        if found:
            longest = max(n for _, n, _ in found)
            tied = [r for _, n, r in found if n == longest]
            # a brand named beside its ingredient is the product meant ('denosumab biosimilar Jubbonti')
            chosen = next((r for r in tied if r.kind == "brand"), tied[0])
            chosen.history = not asked
            return self._of_maker(chosen, words)
        for word in words if fuzzy else ():
            if len(word) < 5 or word in STOP or CLASS_ALIASES.get(word) or not word.isalpha():
                continue
            close = difflib.get_close_matches(word, self.vocabulary, n=1, cutoff=0.85) or self._shortened(word)
            if close:
                spelled = self.resolve(close[0])
                how = "read as" if difflib.SequenceMatcher(None, word, close[0]).ratio() >= 0.85 else "short for"
                spelled.matched, spelled.fuzzy = f"{word} ({how} {close[0]})", True
                return spelled
        return Resolution("none")

    def _of_maker(self, found: Resolution, words: list[str]) -> Resolution:
        """``found``, an ingredient, narrowed to the products of the maker the question names beside it ('apo
        generic'), when that maker makes it; else ``found``."""
        if found.kind != "ingredient" or len(found.generic_keys) != 1:
            return found
        (key,) = found.generic_keys
        for word in words:
            dins = self.by_maker.get((word, key))
            if dins:
                return Resolution("brand", f"{word} {found.matched}", dins=set(dins), history=found.history)
        return found

    def _shortened(self, word: str) -> list[str]:
        """The one ingredient a clipped name stands for ('vanco' is vancomycin, whose brand Vancocin it also
        starts): every listed name starting with ``word`` must be that ingredient or its brands."""
        if not rare_in_english(word):  # 'plaque' is not Plaquenil, 'lipid' not Lipidil
            return []
        starting = [v for v in self.vocabulary if v.startswith(word) and v != word]
        keys: set[int] = set()
        for name in starting:
            keys |= self.generics.get(name, set()) | {self.generic_of[d] for d in self.brands.get(name, ())}
        if len(keys) != 1:
            return []
        named = [v for v in starting if v in self.generics]
        return named[:1] or starting[:1]

    def _exact(self, words: list[str]) -> list[tuple[int, int, Resolution]]:
        """Each name written in ``words`` as (position, length, resolution), longest first; a name inside a
        longer one is not counted again."""
        found: list[tuple[int, int, Resolution]] = []
        taken: set[int] = set()
        for n in range(min(self.longest, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if taken & set(range(i, i + n)):
                    continue
                phrase = " ".join(words[i : i + n])
                if n == 1 and (phrase in STOP or len(phrase) < 3 or phrase.replace(".", "").isdigit()):
                    continue
                if phrase in self.generics:
                    found.append((i, n, Resolution("ingredient", phrase, generic_keys=set(self.generics[phrase]))))
                elif phrase in self.brands:
                    found.append((i, n, Resolution("brand", phrase, dins=set(self.brands[phrase]))))
                else:
                    continue
                taken |= set(range(i, i + n))
        return sorted(found, key=lambda f: (-f[1], f[0]))

    def by_class(self, stem_key: str) -> Resolution:
        stems, others = CLASS_STEMS[stem_key], CLASS_NOT.get(stem_key, ())
        keys = {
            k
            for k, name in self.generic_names.items()
            if any(w.endswith(stems) and not w.endswith(others) for w in norm(name).split())
        }
        return Resolution("class", CLASS_NAMES[stem_key], generic_keys=keys)


# words that put a drug in the patient's history, a few words before its name: 'on max metformin', 'failed
# topicals', 'switching from Januvia' ('on ODB' is the formulary, not a drug taken); a drug the prescriber passes
# over is no more the one asked: 'wants prasugrel instead of ticagrelor'
_HISTORY = frozenset(
    {"on", "failed", "tried", "from", "after", "stopped", "off", "allergic", "intolerant", "despite", "instead"}
)
_HISTORY_REACH = 3
# a drug the patient cannot take or tolerate is history too: 'can't take terbinafine' ('can t take' once normalised)
_NOT_TAKEN = frozenset({"take", "tolerate", "use"})
_NEGATION = frozenset({"t", "not", "cannot", "unable", "never"})
_NEGATION_REACH = 4  # words before a name a negation may stand and still deny it


# words just after a drug's name that put it in the past: 'fludrocortisone didn't help', 'propranolol made her dizzy'
_FAILED_AFTER = frozenset({"didn", "didnt", "doesn", "failed", "made", "caused", "gave", "stopped", "intolerant"})
_LIST_JOINS = frozenset({"and", "or"})


# where a clause ends: a history word before it does not reach past ('… so she stopped. flunarizine on ODB?')
_CLAUSE_END = re.compile(r"[.?!;:]+\s+|\s+[-–—]+\s+")


def _clause_words(text: str) -> tuple[list[str], list[int]]:
    """``text``'s normalised words (a name may end a sentence: 'on Januvia. what is covered?'; inner dots stay:
    '0.5') and the positions where its clauses begin."""
    words: list[str] = []
    starts: list[int] = []
    for piece in _CLAUSE_END.split(text):
        starts.append(len(words))
        words += [w.rstrip(".") for w in norm(piece).split()]
    return words, starts


def _history_kinds(
    words: list[str], found: list[tuple[int, int, Resolution]], clauses: list[int]
) -> dict[int, str | None]:
    """Each name's place in the patient's history, by its position: 'current' (taken now: 'on X'), 'past'
    (failed, stopped, not tolerated: 'failed keppra, carbamazepine + lamotrigine', 'X didn't help') or None (the
    drug asked about). A history word or a list of failed drugs reaches to the end of its clause only."""
    kinds: dict[int, str | None] = {}
    end, last = 0, -1
    previous: str | None = None
    for position, length, _ in sorted(found, key=lambda f: f[0]):
        clause = max((c for c in clauses if c <= position), default=0)
        if clause > last:  # the first name of its clause
            end, previous = max(end, clause), None
        last = position
        after = words[position + length : position + length + 2]
        between = words[end:position]
        if _FAILED_AFTER & set(after):
            kind: str | None = "past"
        elif previous in ("past", "current") and all(w in _LIST_JOINS for w in between):
            kind = previous  # the rest of a list of drugs that failed, or that the patient takes ('on X + Y')
        elif _taken_before(words, position, end):
            before = set(words[max(end, position - _HISTORY_REACH) : position])
            kind = "current" if "on" in before and not (_HISTORY - {"on"} | _NOT_TAKEN) & before else "past"
        elif _NEGATION & set(words[max(end, position - _NEGATION_REACH) : position]):
            kind = "past"  # 'a pump that isn't labelled compatible w/ trurapi - needs to stay on novorapid'
        else:
            kind = None
        kinds[position] = kind
        end, previous = position + length, kind
    return kinds


def _taken_before(words: list[str], position: int, start: int) -> bool:
    """Whether a history word stands among the few words before ``position`` (not before ``start``, where the
    previous name ends: 'on alendronate teriparatide' puts only alendronate in the history)."""
    first = max(start, position - _HISTORY_REACH)
    before = words[first:position]
    if any(w in _HISTORY and (k + 1 == len(before) or before[k + 1] != "odb") for k, w in enumerate(before)):
        return True
    # 'can't take terbinafine', 'unable to tolerate the metformin': the verb just before the name, negated just
    # before the verb ('couldn't tolerate the dry mouth. toviaz' is about the mouth, not toviaz)
    for k in range(max(start, position - 2), position):
        if words[k] in _NOT_TAKEN and _NEGATION & set(words[max(0, k - 2) : k]):
            return True
    return False


# a product name's last word that says how it is packed, not which product: preservative-free
_QUALIFIERS = frozenset({"p.f", "pf"})


def _brand_keys(product: str) -> set[str]:
    """'Januvia'; 'Atasol Tab' also as 'atasol'; 'Atorvastatin-10' only as 'atorvastatin' (the 10 is a strength);
    'Jubbonti (Preservative Free)' also as 'jubbonti'."""
    keys = set()
    bare = norm(re.sub(r"\(.*?\)", " ", product))
    if bare and bare != norm(product):  # 'Jubbonti (Preservative Free)' is also 'jubbonti'
        keys |= _brand_keys(bare)
    words = norm(product).split()
    if len(words) > 1 and words[-1] in _QUALIFIERS:  # 'Ventolin Nebules P.F.' is also 'ventolin nebules'
        keys |= _brand_keys(" ".join(words[:-1]))
    if not re.fullmatch(r"[\d.]+(mg|mcg|ml|g)?", words[-1]) if words else False:
        keys.add(" ".join(words))
    while words and (words[-1] in FORMS or re.fullmatch(r"[\d.]+(mg|mcg|ml|g)?", words[-1])):
        words.pop()
        if words:
            keys.add(" ".join(words))
    return keys


def _spoken_keys(key: str) -> set[str]:
    """An ingredient as clinicians say it, where the drug lexicon reads the shorter name as the same ingredient:
    'insulin glargine' is said 'glargine', 'insulin glargine and lixisenatide' 'glargine and lixisenatide'."""
    words = key.split()
    out = set()
    for i in range(len(words) - 1):
        if len(words[i + 1]) >= 5 and drug_lexicon.ingredient_of(words[i + 1]) == f"{words[i]} {words[i + 1]}":
            out.add(" ".join(words[:i] + words[i + 1 :]))
    return out


SHARED_BY = 8  # product names a word must occur in to be a description ('strips', 'glucose'), not a maker's word


def _shared_words(names: Iterable[str]) -> frozenset[str]:
    """The words of many normalised product names ('strips', 'glucose')."""
    counts: Counter[str] = Counter()
    for name in set(names):
        counts.update(set(name.split()))
    return frozenset(w for w, n in counts.items() if n >= SHARED_BY and w.isalpha())


MAKER_OF = 10  # ingredients whose products a name's first word must begin to be a maker's ('apo', 'jamp')


def _makers(products: Iterable[tuple[str, int]]) -> frozenset[str]:
    """The first words of normalised product names that begin products of many ingredients (the makers of
    generics: 'apo', 'teva', 'pms'), from (name, ingredient key) pairs."""
    ingredients: dict[str, set[int]] = defaultdict(set)
    for name, generic_key in products:
        first, _, rest = name.partition(" ")
        if rest:
            ingredients[first].add(generic_key)
    return frozenset(w for w, keys in ingredients.items() if len(keys) >= MAKER_OF)


def _without_description(name: str, shared: frozenset[str]) -> str | None:
    """A normalised product name without its trailing run of words many names share, when two or more words of
    the maker's own remain: 'contour next blood glucose test strips' -> 'contour next'."""
    words = name.split()
    end = len(words)
    while end and words[end - 1] in shared:
        end -= 1
    if end == len(words) or end < 2 or len(words) - end < 2:
        return None
    return " ".join(words[:end])


def _generic_keys(generic: str) -> set[str]:
    key = norm(re.sub(r"\(.*?\)", " ", generic))
    keys = {norm(generic), key, key.replace(" and ", " ")}
    base = " ".join(w for w in key.split() if w not in SALTS)
    if base:
        keys |= {base, base.replace(" and ", " ")}
    return {k for k in keys if k}
