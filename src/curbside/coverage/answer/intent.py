"""Which domains a question is about: hints first, then its words.

The spec (Tool 1, step 1): hints decide first (codes -> billing, a device -> device,
a drug -> drug), then keywords are scored per domain. Curbside routes every domain
that scores ``ROUTE_AT`` or more rather than only the highest, so a question that
spans domains reaches each of their tools. When hints are given they are the
caller's own reading of the question: a domain they do not name is added only on
a word that names its subject (a fee code, a device, a drug: ``STRONG``).

The question is cut into clauses so each tool can be sent the part that concerns it
("...discharged today on apixaban, needs a walker": the walker goes to adp.get).
Drug names come from the loaded formulary's own name index when one is given
(``DrugLookup``), else from INN stems, drug-class words and DINs alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from curbside.coverage.answer.models import Domain, Hints
from curbside.coverage.answer.vocabulary import CLEAR, DEVICE_NOUNS, FEE_CODE, KEYWORDS, STRONG
from curbside.coverage.odb.unlisted import drug_names, uncommon_words, unlisted_names
from curbside.coverage.odb.words import CLASS_ALIASES, CLASS_STEMS

__all__ = ["DOMAINS", "ROUTE_AT", "DrugLookup", "Intent", "Signal", "classify", "split_clauses"]

DOMAINS: tuple[Domain, ...] = ("billing", "device", "drug")
ROUTE_AT = CLEAR  # one clear word, or two that lean the same way

# finds the drug a text names, e.g. in the loaded formulary; None when it names none
DrugLookup = Callable[[str], str | None]

# WHO INN stems ("The use of stems in the selection of International Nonproprietary Names", 2018)
# beyond the classes odb.get knows: enough to notice that a word is a drug when no formulary is loaded
_MORE_STEMS = (
    "cillin", "mycin", "floxacin", "cycline", "azepam", "oxetine", "tidine", "dipine", "semide", "thiazide",
    "formin", "glitazone", "parin", "mab", "tinib", "vir", "conazole", "lukast", "tropium",
)  # fmt: skip
_STEMS = tuple(s for stems in CLASS_STEMS.values() for s in stems) + _MORE_STEMS
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]")
_DIN = re.compile(r"\b\d{8}\b")
_ADP_PAYS = re.compile(r"\b(?:ADP|assistive devices? program)\b", re.IGNORECASE)
_OHIP = re.compile(r"\b(?:OHIP|schedule of benefits)\b", re.IGNORECASE)
_DEVICES = tuple((re.compile(rf"\b(?:{p})\b", re.IGNORECASE), c) for p, c in DEVICE_NOUNS.items())
# clause boundaries: sentence ends, dashes, ', and/but/also/plus', and 'and' before a new question
_CLAUSE_BREAK = re.compile(
    r"(?<=[.?!;])\s+|\s+[—–-]{1,2}\s+|,\s*(?:(?:and|but|also|plus)\s+)?|,?\s+also\s*,?\s+"
    r"|\s+and\s+(?=(?:what|which|how|is|are|can|could|does|do|will|would)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Signal:
    domain: Domain
    weight: int
    label: str  # what matched, e.g. 'fee code C124', 'walker', 'drug apixaban'
    clause: int  # index into Intent.clauses
    claims: bool = True  # the clause is about this domain (not so for 'covered', which every domain uses)


@dataclass(frozen=True, slots=True)
class Intent:
    domains: tuple[Domain, ...]
    scores: dict[Domain, int]
    signals: tuple[Signal, ...]
    from_hints: tuple[Domain, ...]
    clauses: tuple[str, ...]
    codes: tuple[str, ...] = ()  # fee codes written in the question
    devices: tuple[tuple[str, str | None], ...] = ()  # (device as written, ADP category)
    drugs: tuple[str, ...] = ()  # drug names found in the question
    notes: tuple[str, ...] = field(default=())
    breaks: tuple[str, ...] = ()  # the question's own text between clause i and clause i + 1 (', ', ' - ', '. ')

    def text_for(self, domain: Domain, *, story: bool = False) -> str:
        """The clauses that concern ``domain``, and those that concern no domain clearly ('what is covered?');
        with ``story``, also the clauses before them that name a drug and ask nothing: the drug given or tested is
        the service's matter ('uro - botox injections into the detrusor for refractory OAB. fee code?' bills the
        injection), where a device needed is not ('needs a walker - what can I bill?').

        The whole question when no clause names the domain (it was routed by a hint).
        """
        own = {s.clause for s in self.signals if s.domain == domain and s.claims}
        if not own:
            return self._joined(range(len(self.clauses)))
        clear = {s.clause for s in self.signals if s.weight >= ROUTE_AT}
        shared = set(range(len(self.clauses))) - clear
        drug = {s.clause for s in self.signals if s.domain == "drug" and s.claims}
        told = {i for i in drug - own if story and i < max(own) and "?" not in self.clauses[i]}
        return self._joined(sorted(own | shared | told))

    def _joined(self, chosen: Iterable[int]) -> str:
        """The chosen clauses, neighbours joined as the question joined them (a list of drugs stays a list:
        'failed keppra, carbamazepine + lamotrigine - lacosamide ODB LU code?'), others by ``_join``."""
        runs: list[str] = []
        last = -2
        for i in chosen:
            if runs and i == last + 1 and len(self.breaks) >= i:
                runs[-1] += self.breaks[i - 1] + self.clauses[i]
            else:
                runs.append(self.clauses[i])
            last = i
        return _join(runs)

    def labels(self, domain: Domain) -> list[str]:
        return list(dict.fromkeys(s.label for s in self.signals if s.domain == domain))


def _join(clauses: Iterable[str]) -> str:
    """'on Januvia.' + 'is it covered?' -> 'on Januvia; is it covered?'.

    A full stop inside the text is dropped: the tools' name matching keeps dots (for '0.5 mg'),
    so 'januvia.' would not read as a name.
    """
    text = ""
    for clause in clauses:
        if text:
            text = text[:-1] + "; " if text.endswith(".") else text + (" " if text[-1] in "?!" else "; ")
        text += clause
    return text


def split_clauses(question: str) -> list[str]:
    parts = (p.strip(" ,;:") for p in _CLAUSE_BREAK.split(question))
    return [p for p in parts if p]


def clause_breaks(question: str, clauses: Sequence[str]) -> tuple[str, ...]:
    """The text of ``question`` between each clause and the next (``split_clauses`` cut it there)."""
    breaks: list[str] = []
    end = 0
    for n, clause in enumerate(clauses):
        start = question.find(clause, end)
        if start < 0:
            return ()
        if n:
            breaks.append(question[end:start])
        end = start + len(clause)
    return tuple(breaks)


def classify(
    question: str,
    hints: Hints | None = None,
    lookup: DrugLookup | None = None,
    schedule_word: Callable[[str], bool] | None = None,
) -> Intent:
    """The domains to route ``question`` to, with the evidence for each. ``schedule_word`` says whether the loaded
    Schedule lists a word: a name English does not use is a service then ('haemorrhoidectomy'), not a drug."""
    clauses = tuple(split_clauses(question))
    signals: list[Signal] = []
    codes: list[str] = []
    devices: list[tuple[str, str | None]] = []
    drugs: list[str] = []
    for i, clause in enumerate(clauses):
        found = _clause_signals(clause, i, lookup)
        signals.extend(found.signals)
        codes.extend(found.codes)
        devices.extend(found.devices)
        drugs.extend(found.drugs)
    scores = _scores(signals)
    # nothing routes, but the only words that lean anywhere are billing's ('what does a standard paeds consult
    # pay?'): the Schedule is asked; 'paeds' is the asker's shorthand, not a drug
    only_billing = (
        not hints
        and all(scores[d] < ROUTE_AT for d in DOMAINS)
        and {s.domain for s in signals if s.claims} == {"billing"}
    )
    if not hints and not only_billing and all(scores[d] < ROUTE_AT for d in DOMAINS):
        # nothing routes: a name English does not use reads as a drug ('is Contrave covered?'); never
        # beside a code, a device or billing words, where it is 'WSIB' or 'ODSP'. A word English uses little
        # that the Schedule lists names a service ('did mohs on 2 BCCs'); beside one, only a name the drug
        # lexicon knows is a drug ('BCCs' is the lesions the service treats)
        services = [w for w in uncommon_words(question) if schedule_word is not None and schedule_word(w)]
        for name in services:
            signals.append(Signal("billing", STRONG, f"service {name.lower()}", 0, True))
        for name in unlisted_names(question):
            if name in services or (services and not drug_names(name)):
                continue
            drugs.append(name.lower())
            signals.append(Signal("drug", STRONG, f"drug {name.lower()}", 0, True))
        scores = _scores(signals)
    hinted = _hinted(hints)
    if hinted:
        routed = set(hinted) | {d for d in DOMAINS if scores[d] >= STRONG}
    else:
        routed = {d for d in DOMAINS if scores[d] >= ROUTE_AT} | ({"billing"} if only_billing else set())
    return Intent(
        domains=tuple(d for d in DOMAINS if d in routed),
        scores=scores,
        signals=tuple(signals),
        from_hints=hinted,
        clauses=clauses,
        breaks=clause_breaks(question, clauses),
        codes=tuple(dict.fromkeys(codes)),
        devices=tuple(dict.fromkeys(devices)),
        drugs=tuple(dict.fromkeys(drugs)),
    )


@dataclass(slots=True)
class _Found:
    signals: list[Signal] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    devices: list[tuple[str, str | None]] = field(default_factory=list)
    drugs: list[str] = field(default_factory=list)


def _clause_signals(clause: str, index: int, lookup: DrugLookup | None) -> _Found:
    found = _Found()

    def add(domain: Domain, weight: int, label: str, claims: bool = True) -> None:
        found.signals.append(Signal(domain, weight, label, index, claims))

    for match in FEE_CODE.finditer(clause):
        code = match.group(1).upper()
        found.codes.append(code)
        add("billing", STRONG, f"fee code {code}")
    for pattern, category in _DEVICES:
        for match in pattern.finditer(clause):
            noun = match.group(0).lower()
            found.devices.append((noun, category))
            add("device", STRONG, noun)
    for keyword in KEYWORDS:
        for match in keyword.pattern.finditer(clause):
            add(keyword.domain, keyword.weight, match.group(0).lower(), keyword.claims)
    for drug in _drugs(clause, lookup):
        found.drugs.append(drug)
        add("drug", STRONG, f"drug {drug}")
    if _DIN.search(clause):
        add("drug", STRONG, "DIN")
    if _ADP_PAYS.search(clause) and not found.codes and not _OHIP.search(clause):
        # 'vendor wants to bill ADP as soon as the chair is ordered', 'a vendor offered our OT a fee for each ADP
        # application': the bill and the fee are the program's and its vendors', not a service of the Schedule
        found.signals = [s for s in found.signals if s.domain != "billing"]
    return found


def _drugs(clause: str, lookup: DrugLookup | None) -> list[str]:
    names: list[str] = []
    if lookup is not None:
        named = lookup(clause)
        if named:
            names.append(named.lower())
    words = [w.lower() for w in _WORD.findall(clause)]
    for word in words:
        if len(word) >= 6 and word.endswith(_STEMS) and word not in names:
            names.append(word)
    compact = [re.sub(r"[^a-z0-9]", "", w) for w in words]
    for n in (3, 2, 1):  # drug classes as people write them: 'statin', 'GLP-1 agonist', 'SGLT2 inhibitors'
        for i in range(len(compact) - n + 1):
            if CLASS_ALIASES.get("".join(compact[i : i + n])):
                names.append(" ".join(words[i : i + n]))
                return names
    return names


def _scores(signals: Iterable[Signal]) -> dict[Domain, int]:
    scores: dict[Domain, int] = dict.fromkeys(DOMAINS, 0)
    seen: set[tuple[Domain, str]] = set()
    for s in signals:
        if (s.domain, s.label) in seen:  # a word said twice is one piece of evidence
            continue
        seen.add((s.domain, s.label))
        scores[s.domain] += s.weight
    return scores


def _hinted(hints: Hints | None) -> tuple[Domain, ...]:
    if hints is None:
        return ()
    named = {
        "billing": bool(hints.codes),
        "device": hints.device is not None and bool(hints.device.category or hints.device.type),
        "drug": bool(hints.drug),
    }
    return tuple(d for d in DOMAINS if named[d])
