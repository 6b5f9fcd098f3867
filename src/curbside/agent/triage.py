"""Triage by rules: a clinician's message -> its route (direct / lookup / reasoning / multi_step) and the
intents in it, each with the slots a planner needs. Pure and fast (no model, no I/O): a model is asked
only where this says it is unsure (``Triage.confident`` False, with the reason).

How a route is chosen, in order:
1. nothing to look up, and a greeting, a thanks or a question about Curbside itself -> direct;
2. a write made conditional on a value ("if her K is below 3.5 order …") -> multi_step;
3. clinical judgement asked for ("should I", "given her eGFR", "is it safe for her") -> reasoning, unless
   the subtasks are spelled out in order ("check …, then …") -> multi_step;
4. two or more subtasks (intents; each write and each calculator counts) -> multi_step;
5. one -> lookup. With none, a clinical question for the knowledge base -> lookup (unsure when nothing
   clinical was recognised).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from curbside.agent import slots as s
from curbside.agent import triage_words as w
from curbside.agent.intents import Intent, IntentKind, Route, Triage
from curbside.agent.triage_writes import find_writes

__all__ = ["PATIENT_KINDS", "triage"]

# intents that read or write one patient's chart: they need a patient
PATIENT_KINDS = frozenset(
    {
        "patient_summary", "patient_labs", "patient_vitals", "patient_medications", "patient_allergies",
        "patient_problems", "chart_write",
    }
)  # fmt: skip
# calculators that are scores by name: naming one asks for it
_SCORES = frozenset(
    """wells_pe wells_dvt wells_dvt_1997 cha2ds2_vasc has_bled curb65 child_pugh meld meld_na meld_3 caprini
    centor feverpain fib4 framingham_hard_chd glasgow_blatchford gcs grace heart perc psi_port rcri sirs sofa
    apache_ii charlson""".split()
)
# calculators for a value the chart also holds: "her BMI" reads the chart, "calculate BMI" calculates;
# the value a calculator computes is not also read ("calculate her eGFR with CKD-EPI")
_CHART_HELD = frozenset({"bmi"})
_COMPUTES = {"bmi": ("vital", "bmi"), "ckd_epi_2021": ("lab", "egfr"), "mdrd": ("lab", "egfr")}
_NUMBER = re.compile(r"(?<![a-z])\d+(?:\.\d+)?(?![a-z]*\d)")
_PATIENT_BEFORE = re.compile(
    r"(?:\b(?:her|his|their|patient'?s|pt'?s)|what'?s (?:the|her|his)|what is (?:the|her|his))\s+$"
)
_WITH_PATIENT_MEDS = re.compile(
    r"\b(?:to|with|against) (?:her|his|their|the patient'?s|this patient'?s) (?:current |other |home |active )?"
    r"(?:meds|medications|drugs|regimen)\b"
)
_CONDITIONAL = re.compile(r"\bif\b")
_PAIR = re.compile(r"^\s*:?\s*\d+\s*/\s*\d+")
_ANAPHOR = re.compile(r"^(?:(?:a|an|the|new|another|repeat|one|it|same)\s*)*$")
_CONDITION_ON_RESULT = re.compile(
    r"\bif\b.*\b(?:last|latest|result|level|value|older|above|below|over|under|high|low|abnormal)\b|\bif\b.*[<>]"
)
_QUESTION_ABOUT_DRUG = re.compile(r"\bnew (?:rx|med\w*|drug|prescription)\b")


@cache
def _catalog() -> dict[str, str]:
    from curbside.tools.calculators.catalog import calculators

    return {calc_id: calc.title for calc_id, calc in calculators().items()}


def triage(message: str, *, has_patient: bool, calculators: Mapping[str, str] | None = None) -> Triage:
    """Route a clinician's message and name its intents, by rules.

    ``has_patient``: a patient is active in the session (questions about "her" need one).
    ``calculators``: calculator ids -> titles to recognise (default: every calculator in the catalog).
    """
    text = s.Text.of(message)
    reading = _Reading(text, has_patient, dict(calculators) if calculators is not None else _catalog())
    return reading.decide()


class _Reading:
    """One message being read: the mentions found in it, then the intents, then the route."""

    def __init__(self, text: s.Text, has_patient: bool, calculators: dict[str, str]) -> None:
        self.text = text
        self.low = text.low
        self.has_patient = has_patient
        self.patient_ref = bool(w.PATIENT_REF.search(self.low))
        self.data_cue = bool(w.DATA_REQUEST.search(self.low)) or len(self.low.split()) <= 3
        self.writes = find_writes(text)
        self.drugs = [m for m in s.drugs_in(text) if self._free(m.start)]
        self.calcs = self._calculators(calculators)
        self.intents: list[Intent] = []
        self.notes: list[str] = []

    # --- helpers ----------------------------------------------------------------------------------------

    def _free(self, at: int) -> bool:
        """Outside every write's span: the words are not a write's object."""
        return not any(x.start <= at < x.end for x in self.writes)

    def _about_patient(self) -> bool:
        return self.patient_ref or self.has_patient or self.data_cue

    def _add(self, kind: IntentKind, slots: dict[str, Any] | None = None, text: str = "") -> None:
        self.intents.append(Intent(kind, slots or {}, text or self.text.orig))

    def _has(self, kind: str) -> bool:
        return any(i.kind == kind for i in self.intents)

    # --- mentions -----------------------------------------------------------------------------------------

    def _calculators(self, calculators: dict[str, str]) -> list[s.Mention]:
        verb = bool(w.CALC_VERB.search(self.low))
        numbers = bool(_NUMBER.search(self.low))
        knowledge = bool(w.KNOWLEDGE.search(self.low))
        # "what is the CHA2DS2-VASc score?", "explain HAS-BLED": about the score, for the knowledge base
        if w.CALC_EXPLAIN.search(self.low) and not numbers and not self.patient_ref:
            return []
        kept: list[s.Mention] = []
        for mention in s.calculators_in(self.text, calculators):
            if not self._free(mention.start):
                continue
            name = mention.name
            about_patient = bool(_PATIENT_BEFORE.search(self.low[: mention.start]))
            if name in _SCORES:
                kept.append(mention)
            elif name in _CHART_HELD:
                if verb or numbers:
                    kept.append(mention)
            elif verb or about_patient or (self.patient_ref and not knowledge):
                kept.append(mention)  # "CrCl for her?", "what is her CrCl": this patient's, from the chart
            elif numbers and (not s.given_value(self.text, mention) or _PAIR.match(self.low[mention.end :])):
                kept.append(mention)  # 'QTc 520' is a value, not a request; 'MAP 120/80' gives the inputs
        return list({m.name: m for m in kept}.values())

    def _calc_overlaps(self, mention: s.Mention) -> bool:
        return any(c.start <= mention.start < c.end or mention.start <= c.start < mention.end for c in self.calcs)

    def _drug_overlaps(self, mention: s.Mention) -> bool:
        return any(d.start <= mention.start < d.end for d in self.drugs)

    # --- intents ------------------------------------------------------------------------------------------

    def read(self) -> None:
        self._patient_find()
        self._chart_reads()
        self._conditional_read()
        labs = next((i.slots for i in self.intents if i.kind == "patient_labs"), {})
        for write in self.writes:
            slots = write.slots
            # "… order a new one", "recheck in 2 days": the test is the lab the message asked about
            if slots.get("write") == "order_service" and labs.get("lab") and _ANAPHOR.match(slots.get("display", "")):
                slots = {**slots, "kind": "lab", "display": labs["lab"], **s.lab_code(labs["lab"])}
            self._add("chart_write", slots, write.text)
        for calc in self.calcs:
            self._add("calculator", {"calculator": calc.name}, self.text.orig[calc.start : calc.end])
        self._coverage()
        self._drug_safety()
        self._evidence()
        self._workspace()

    def _patient_find(self) -> None:
        slots: dict[str, Any] = {}
        if name := s.patient_name(self.text):
            slots["name"] = name
        if born := s.birth_date(self.low):
            slots["birth_date"] = born
        elif written := s.birth_date_as_written(self.low):
            slots["birth_date_as_written"] = written  # day and month could be either: ask
        if number := s.mrn(self.low):
            # the MRN as the words gave it, and as ehr.search_patient names the argument
            slots["mrn"] = slots["identifier"] = number
        if slots:
            self._add("patient_find", slots)

    def _chart_reads(self) -> None:
        low = self.low
        computed = {_COMPUTES[c.name] for c in self.calcs if c.name in _COMPUTES}
        general = bool(w.NOT_A_READ.search(low)) and not self.patient_ref
        wants = self._about_patient() or self._has("patient_find") or bool(_CONDITIONAL.search(low))
        labs: list[str] = []
        known: list[bool] = []
        for mention in s.labs_in(self.text):
            if not self._free(mention.start) or self._calc_overlaps(mention) or self._drug_overlaps(mention):
                continue
            if s.given_value(self.text, mention) or ("lab", mention.name) in computed:
                continue
            if wants and not general:
                for name in s.group_labs(mention.name):
                    if name not in labs:
                        labs.append(name)
                        known.append(mention.known or name != mention.name)
                if mention.name in ("labs", "bloodwork", "blood work") and not labs:
                    labs.append("")  # "his labs": every recent lab
                    known.append(True)
        if labs:
            slots: dict[str, Any] = {}
            names = [n for n in labs if n]
            if names:
                slots["lab"] = names[0]
                if len(names) > 1:
                    slots["labs"] = names
                if not known[labs.index(names[0])]:
                    slots["lab_known"] = False  # not a name ehr.get_observations knows: the planner resolves it
            slots.update(s.time_slots(low))
            self._add("patient_labs", slots)
        vitals = [
            m.name
            for m in s.vitals_in(self.text)
            if self._free(m.start) and not self._calc_overlaps(m) and not s.given_value(self.text, m)
            and ("vital", m.name) not in computed
        ]  # fmt: skip
        generic = any(self._free(m.start()) for m in w.VITALS_GENERIC.finditer(low))
        if (vitals or generic) and wants and not general:
            slots = {"vital": vitals[0]} if vitals else {}
            if len(set(vitals)) > 1:
                slots["vitals"] = list(dict.fromkeys(vitals))
            slots.update(s.time_slots(low))
            self._add("patient_vitals", slots)
        free = self._free_match
        if free(w.MED_LIST) or self._class_of_patient():
            if self._about_patient():
                self._add("patient_medications", {})
        if free(w.ALLERGY) and self._about_patient():
            self._add("patient_allergies", {})
        if free(w.PROBLEMS) and self._about_patient():
            self._add("patient_problems", {})
        # "the meds on her chart", "does the chart show allergies": the chart is where they are read, not a summary
        read_else = any(i.kind.startswith("patient_") and i.kind != "patient_find" for i in self.intents)
        if (free(w.SUMMARY) or (free(w.SUMMARY_CHART) and not read_else)) and (self.patient_ref or self.has_patient):
            self._add("patient_summary", {})

    def _conditional_read(self) -> None:
        """'order an A1c if the last is older than a year': the condition reads the chart first, even
        when the lab is named only inside the order."""
        if not self.writes or not _CONDITIONAL.search(self.low):
            return
        if any(i.kind in ("patient_labs", "patient_vitals") for i in self.intents):
            return
        lab = next((x.slots.get("display") for x in self.writes if x.slots.get("kind") == "lab"), None)
        if lab and _CONDITION_ON_RESULT.search(self.low):
            self._add("patient_labs", {"lab": lab, "latest": True})

    def _free_match(self, pattern: re.Pattern[str]) -> bool:
        return any(self._free(m.start()) for m in pattern.finditer(self.low))

    def _class_of_patient(self) -> bool:
        """'her PPI', 'is she on a statin': a drug class said of the patient names her medication."""
        for found in w.DRUG_CLASSES.finditer(self.low):
            before = self.low[: found.start()]
            if self._free(found.start()) and re.search(r"\b(?:her|his|their|on (?:a|an|any))\s+$", before):
                return True
        return False

    def _coverage(self) -> None:
        low = self.low
        programs = [
            name
            for name, pattern in (("ohip", w.COVERAGE_OHIP), ("odb", w.COVERAGE_ODB), ("adp", w.COVERAGE_ADP))
            if pattern.search(low)
        ]
        general = w.COVERAGE_ANY.search(low)
        if programs == ["adp"] and not general and not re.search(r"\badp\b|\bassistive\b", low):
            return  # a device named without a word about paying for it
        if not programs and general and self.drugs and not self.writes:
            programs = ["odb"]
        if programs:
            self._add("coverage", {"program": programs[0] if len(programs) == 1 else "any"})

    def _drug_safety(self) -> None:
        low = self.low
        drugs = [d.name for d in self.drugs]
        interaction = bool(w.INTERACTION.search(low))
        with_meds = bool(_WITH_PATIENT_MEDS.search(low))
        # one drug checked against the patient's own medicines ("interactions with the new cipro") is still
        # an interaction check: the planner adds her medication list
        against_patient = with_meds or _QUESTION_ABOUT_DRUG.search(low) or self.patient_ref or self.has_patient
        # two drugs 'with' each other ("can I take ibuprofen with lisinopril") ask the same
        paired = any(
            re.fullmatch(r"\s*(?:\+|&|with|together with|alongside|plus)\s*", low[a.end : b.start])
            for a, b in zip(self.drugs, self.drugs[1:], strict=False)
        )
        if (interaction and (len(set(drugs)) >= 2 or against_patient)) or (drugs and with_meds) or paired:
            self._add("drug_interactions", {"drugs": list(dict.fromkeys(drugs))})
        if with_meds and not self._has("patient_medications"):
            self._add("patient_medications", {})
        if not drugs:
            return
        if w.ADVERSE.search(low):
            self._add("adverse_events", {"drug": drugs[0]})
        section = next((name for name, pattern in w.LABEL_SECTIONS if pattern.search(low)), None)
        label_cue = w.LABEL_CUE.search(low) or (section and section not in ("renal", "hepatic"))
        renal_question = section in ("renal", "hepatic") and re.search(r"\bdos\w*\b|\badjust\w*\b|\bsafe\b|\bok\b", low)
        if label_cue or renal_question:
            slots: dict[str, Any] = {"drug": drugs[0]}
            if section:
                slots["section"] = section
            self._add("drug_label", slots)

    def _evidence(self) -> None:
        low = self.low
        if w.LITERATURE.search(low) and not self.writes:
            slots: dict[str, Any] = {"query": self.text.orig}
            if kinds := s.article_types(low):
                slots["article_types"] = kinds
            self._add("literature", slots)
        if w.TRIALS.search(low):
            self._add("trials", s.trial_slots(self.text))
        if w.GUIDELINE.search(low):
            self._add("guideline", {"query": self.text.orig})

    def _workspace(self) -> None:
        if w.FILES.search(self.low):
            self._add("files", {"query": self.text.orig})
        elif self._free_match(w.CALENDAR):
            self._add("calendar", {})

    # --- route ----------------------------------------------------------------------------------------------

    def decide(self) -> Triage:
        low = self.low
        if not low:
            return Triage("direct", (Intent("greeting", {}, ""),), False, "an empty message")
        concrete = bool(self.drugs or self.calcs or self.writes or s.labs_in(self.text) or _NUMBER.search(low))
        capability = w.CAPABILITY.search(low) or (w.CAPABILITY_SHORT.search(low) and not self.patient_ref)
        itself = w.CURBSIDE_ITSELF.search(low)
        if (capability or itself) and not concrete:
            slots = {"topic": "privacy"} if itself and not capability else {}
            return Triage("direct", (Intent("greeting", slots, self.text.orig),), True, "a question about Curbside")
        self.read()
        if w.OUT_OF_SCOPE.search(low) and not self._clinical():
            # a booking, a score, money, a letter to a landlord: declined, even when a verb looked like a write
            return Triage(
                "direct", (Intent("unknown", {"scope": "out"}, self.text.orig),), True, "outside what Curbside does"
            )
        tasks = len(self.intents)
        if tasks == 0 and w.GREETING.search(low):
            return Triage("direct", (Intent("greeting", {}, self.text.orig),), True, "a greeting or thanks")
        reasoning = bool(w.REASONING.search(low)) or (
            bool(w.SAFETY_QUESTION.search(low)) and (self.patient_ref or tasks == 0)
        )
        conditional = bool(self.writes) and bool(_CONDITIONAL.search(low)) and tasks >= 2
        sequenced = bool(w.SEQUENCE.search(low))
        route: Route
        if conditional:
            route, why = "multi_step", "a write that depends on a value"
        elif reasoning and sequenced and tasks >= 2:
            route, why = "multi_step", f"{tasks} subtasks in order, then judgement"
        elif reasoning:
            route, why = "reasoning", "clinical judgement asked for"
            self._reasoning_intents()
        elif tasks >= 2:
            route, why = "multi_step", f"{tasks} subtasks"
        elif tasks == 1:
            route, why = "lookup", f"one tool: {self.intents[0].kind}"
        else:
            route, why = "lookup", "a clinical question for the knowledge base"
        change = w.MED_CHANGE.search(low)
        if not self.intents and self.drugs and change and not reasoning:
            # "d/c the metformin", "increase amlodipine to 10 mg": no tool stops or changes an order
            self._add("unknown", {"action": change[0].split()[-1], "drug": self.drugs[0].name})
            self.notes.append("a change to a medication, which no write tool makes")
        if not self.intents:
            self._add("knowledge", {"question": self.text.orig})
            if route == "lookup" and not w.KNOWLEDGE.search(low) and not self.drugs:
                self.notes.append("no rule matched; asked the knowledge base")
        if route == "reasoning" and tasks >= 3 and not sequenced:
            self.notes.append(f"judgement asked over {tasks} subtasks: reasoning or multi-step")
        self._check_patient()
        confident = not self.notes
        reason = why if confident else f"{why}; unsure: {'; '.join(self.notes)}"
        return Triage(route, tuple(self.intents), confident, reason)

    def _clinical(self) -> bool:
        """Something clinical is named: a drug, a calculator, a lab or vital, the patient, a chart read."""
        reads = any(i.kind not in ("chart_write", "calendar", "files", "knowledge", "greeting") for i in self.intents)
        return bool(
            self.drugs or self.calcs or s.labs_in(self.text) or s.vitals_in(self.text) or self.patient_ref or reads
        ) or bool(w.CLINICAL.search(self.low))

    def _reasoning_intents(self) -> None:
        """A drug that is the subject of the decision ("start metformin", "hold the lisinopril") needs its
        label; anticoagulation in atrial fibrillation needs CHA2DS2-VASc."""
        for drug in self.drugs:
            decided = w.REASONING_ACTION.search(self.low[: drug.start])
            if decided and not self._has("drug_label") and not self._has("drug_interactions"):
                self._add("drug_label", {"drug": drug.name})
        if (
            re.search(r"\banticoagula\w*\b", self.low)
            and re.search(r"\b(?:afib|a-?fib|af|atrial fibrillation)\b", self.low)
            and not self._has("calculator")
            and not self._has("guideline")
        ):
            self._add("calculator", {"calculator": "cha2ds2_vasc"})

    def _check_patient(self) -> None:
        needs = any(i.kind in PATIENT_KINDS for i in self.intents)
        if needs and not self.has_patient and not self._has("patient_find"):
            self.notes.append("needs a patient")
