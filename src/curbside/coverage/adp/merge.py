"""Turn what the two paths found into one ``AdpGetResult``.

The SQL path decides the facts whenever it answered: the device, and the rules
of the manuals that apply to it (verified against the PDF at load). The search
path adds corroboration (confidence), citations and context, and is checked
against the rules (conflicts). When SQL failed, ``fallback.answer_from_passages``
answers from the passages alone.
"""

from __future__ import annotations

import re

from curbside.coverage.adp.asked_clause import decides
from curbside.coverage.adp.data import Rule, cep_policy
from curbside.coverage.adp.fallback import answer_from_passages
from curbside.coverage.adp.parse import normalize
from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.adp.query import AdpRequest
from curbside.coverage.adp.search_path import SearchFindings, paragraph_text
from curbside.coverage.adp.sql_path import ChunkRef, SqlFindings
from curbside.coverage.adp.store import ManualEdition, edition_label
from curbside.coverage.adp.tool import (
    AdpGetResult,
    CepAssessment,
    DeviceMatch,
    Eligibility,
    ExclusionRule,
    Funding,
    ManualEditionInfo,
    RuleFinding,
    SocialAssistanceFunding,
    SourceRef,
)
from curbside.coverage.confidence import ConfidenceInputs, confidence
from curbside.coverage.conflicts import FieldComparison, detect
from curbside.coverage.paths import PathTrace, path_warnings
from curbside.coverage.policy_quotes import PolicyQuote
from curbside.types import Citation, Passage

__all__ = ["merge"]

MAX_CITATIONS = 6
CONTEXT_PASSAGES = 3
UNLOADED_CATEGORY_CONFIDENCE = 0.5  # below the spec's "medium" band: a general rule, not the category's own
RUNNER_UP = 0.9  # a second policy sentence scoring this share of the best one's is quoted beside it
# a sentence chosen because it shares the question's words: high, not the "very high" of a checked rule;
# below the follow-up line when few of its words are shared (the wrong sentences seen scored 6.6-8.1)
QUOTED_CONFIDENCE = 0.8
WEAK_QUOTE_CONFIDENCE = 0.65
STRONG_QUOTE = 10.0  # PolicyQuote.score: rare shared words, weighted by the sentence's length
UNANSWERED_CONFIDENCE = 0.5  # the question asks what no sentence of the manuals was found to say
MEANING_CATEGORY_CONFIDENCE = 0.5  # a category the question means but does not name (``meaning``)
PROGRAMS = {
    "OW": "Ontario Works (OW)",
    "ODSP": "Ontario Disability Support Program (ODSP)",
    "ACSD": "Assistance for Children with Severe Disabilities (ACSD)",
}
# the topics of a question -> the exclusion topics that answer it
# "Technical support, assessment/loaner equipment, a province wide on call emergency service, and limited warranty
# repairs and preventative maintenance are also provided at no cost to the Client" by the Central Equipment Pool
# (Mobility Devices manual §505, p. 27): ADP's own exclusion of repairs and maintenance (§225) does not decide what
# a question about a chair from the pool asks
_FROM_POOL = re.compile(r"\b(?:CEP|central equipment pool)\b", re.I)
_POOL_SERVES = frozenset({"repairs_maintenance_batteries"})
_ASKED_EXCLUSIONS = {
    "batteries": {"batteries", "repairs_maintenance_batteries"},
    "repairs": {"repairs", "repairs_maintenance_batteries"},
    "maintenance": {"repairs_maintenance_batteries"},
    "loss_theft": {"loss_theft"},
    "misuse": {"misuse"},
    "warranty_period": {"warranty_period"},
}
# a rule on the need's length: §300.04 "for six months or longer", Mobility §310 "solely for: • Post-operative needs"
_LONG_TERM_ONLY = re.compile(r"\bpost-operative\b|\bsix months or longer\b", re.I)
_TRANSPORT = re.compile(r"\b(?:car|transportation)\b", re.I)
# what the CEP's income thresholds answer: 'is my patient CEP eligible?', 'income of $30,000 - does she qualify?';
# not a question that only names the pool ('her chair came thru the CEP - can our shop fix it?')
_CEP_INCOME = re.compile(r"\b(?:income|eligib\w*|qualif\w*|afford\w*|threshold\w*)\b", re.I)
_DEVICE_TOPICS = {"funding", "eligibility", "social_assistance"}  # answers that depend on the device
_NUMBER = re.compile(r"\d{1,3}")
_WHICH_DEVICE = (
    "Which device is it, as the Authorizer or prescriber wrote it (e.g. 'wheeled walker', 'power wheelchair', "
    "'hearing aid')? ADP funding depends on the device category."
)


def merge(
    request: AdpRequest, sql: SqlFindings | None, found: SearchFindings | None, trace: list[PathTrace]
) -> AdpGetResult:
    warnings = path_warnings(trace)
    if sql is None:
        return answer_from_passages(request, found, trace, warnings)
    return _Answer(request, sql, found, trace, warnings).build()


class _Answer:
    """One answer under construction: the rules it cites, in order, become its citations."""

    def __init__(
        self,
        request: AdpRequest,
        sql: SqlFindings,
        found: SearchFindings | None,
        trace: list[PathTrace],
        warnings: list[str],
    ) -> None:
        self.request, self.sql, self.found = request, sql, found
        self.editions: dict[str, ManualEdition] = {e.manual: e for e in sql.editions}
        self.cited: list[Rule] = []
        self.not_listed: SourceRef | None = None  # what §205.01 says about a product no category lists
        self.sources: list[SourceRef] = []  # cited statements that are not rules (§205.01, the CEP pool)
        self.through_pool: Rule | None = None  # power tilt/recline: applied for through the Central Equipment Pool
        self.policy: list[PolicyQuote] = []  # the manual's sentences a policy question asks for, quoted first
        self.unanswered: str | None = None  # what a policy question asks that no sentence was found to say
        self.say_share = True  # the funding split is part of the answer (not when the question asks something else)
        # exclusions on what the question's story tells ('the repair bills are huge') but that do not decide what
        # it asks ('will ADP replace it?'): no verdict on it
        self.set_aside: list[Rule] = []
        self.short_term: list[Rule] = []  # the long-term-need rules a short-term need fails (need_length)
        # the question names no device the loaded manuals list: it may be one of a category whose manual is not loaded
        self.unlisted_device = False
        topics = request.topics
        # 'is my patient CEP eligible?' asks about the income thresholds, not the device's criteria
        self.eligibility_asked = "eligibility" in topics and not ("cep" in topics and sql.category is None)
        self.result = AdpGetResult(
            query=request.question or request.text,
            summary="",
            provenance=["sql"],
            confidence=0.0,
            edition=edition_label(sql.editions),
            manuals=[
                ManualEditionInfo(
                    manual=e.manual, title=e.title, edition=e.edition, edition_date=e.edition_date, label=e.label
                )
                for e in sql.editions
            ],
            trace=trace,
            warnings=warnings,
        )

    # --- pieces -----------------------------------------------------------------------------------
    def source(self, manual: str, section: str, page: int, quote: str) -> SourceRef:
        edition = self.editions[manual]
        return SourceRef(
            manual=manual, manual_title=edition.title, edition=edition.edition, section=section, page=page, quote=quote
        )

    def finding(self, rule: Rule) -> RuleFinding:
        return RuleFinding(
            rule_id=rule.id,
            topic=rule.topic,
            summary=rule.summary,
            applies_to=list(rule.applies_to),
            source=self.source(rule.manual, rule.section, rule.page, " ".join(rule.quotes)),
        )

    def said(self, rule: Rule) -> str:
        """'<summary> (<manual> §<section>, p. <page>)'."""
        return f"{rule.summary.rstrip('.')} ({self.ref(rule)})"

    def ref(self, rule: Rule) -> str:
        return f"{self._short(rule.manual)} §{rule.section}, p. {rule.page}"

    def _short(self, manual: str) -> str:
        title = self.editions[manual].title
        return "ADP Manual" if manual == "core" else title.replace(" Policy and Administration Manual", " manual")

    def cite(self, *rules: Rule | None) -> None:
        for rule in rules:
            if rule is not None and rule not in self.cited:
                self.cited.append(rule)

    def rules(self, kind: str) -> list[Rule]:
        return [r for r in self.sql.rules if r.kind == kind]

    # --- the answer -------------------------------------------------------------------------------
    def build(self) -> AdpGetResult:
        request, sql, result = self.request, self.sql, self.result
        decision = sql.decision
        problem = request.problem or decision.problem
        follow_ups = [f for f in (request.follow_up, decision.follow_up) if f]
        if request.empty:
            result.needs_more_info = True
            result.follow_up = (
                "Which device is the question about, and what do you need to know: what ADP pays, what it does not "
                "cover (batteries, repairs …), or who is eligible?"
            )
            result.summary = f"The request is empty: nothing to look up. {result.follow_up} ({result.edition})"
            return result

        result.device = self.device_match()
        category = sql.category
        if sql.not_listed is not None:
            result.covered = False
        elif category is not None or sql.device is not None:
            result.covered = True
        if result.device is not None and len(result.device.candidates) > 1:
            follow_ups.append(f"Which one is it: {', '.join(result.device.candidates)}?")
        if sql.device is not None and sql.device.follow_up:
            follow_ups.append(sql.device.follow_up)
        device_topics = request.topics & _DEVICE_TOPICS
        if "cep" in request.topics:  # 'is my patient CEP eligible?' asks about income, not the device
            device_topics -= {"eligibility"}
        unknown = (
            sql.not_listed is None
            and category is None
            and not (result.device and result.device.candidates)
            and (not request.topics or bool(device_topics))
        )
        # a policy question (an appeal's time, a lost device, WSIB) is answered by the manual's sentence;
        # not for a category whose own manual is not loaded: its rules may differ from the core manual's
        unloaded = result.device is not None and bool(result.device.category) and not result.device.policy_manual_loaded
        self.policy = [] if unloaded or sql.not_listed is not None else sql.policy
        if unknown and not problem and not self.policy:
            problem = (
                f"No ADP device category or listed device matches {request.question or request.text!r}, and what "
                "ADP pays depends on the device."
            )
            follow_ups.insert(0, _WHICH_DEVICE)
        # a question on what ADP pays for a device no loaded manual names ('who can be an authorizer?' asks none:
        # no manual's funding is missed): a sentence of the loaded manuals does not answer for the other categories
        if unknown and not problem or unknown and problem is not None and problem.startswith("No ADP device"):
            self.unlisted_device = bool(request.topics & {"funding", "social_assistance"})

        checks = request.checks if sql.not_listed is None else frozenset()  # nothing to fund, exclude or assess
        if "funding" in checks:
            result.funding = self.funding()
            result.social_assistance = self.social_assistance()
        if "exclusions" in checks:
            self.exclusions()
        if "eligibility" in checks:
            result.eligibility = self.eligibility()
            self.through_pool = next((r for r in sql.rules if r.topic == "central_equipment_pool"), None)
            self.cite(self.through_pool)
        if "cep" in checks and self.wants_cep():
            result.cep = self.cep()
            if result.cep.central_equipment_pool is not None:
                self.sources.append(result.cep.central_equipment_pool)
            result.warnings.append(f"CEP income thresholds: {result.cep.note}")
            if result.cep.eligible is None and result.cep.patient_income is not None and result.cep.household is None:
                follow_ups.append("Is the income for a single person or a family (the two thresholds differ)?")
        if sql.not_listed is not None:
            manual, section, page, quote = sql.not_listed
            self.not_listed = self.source(manual, section, page, quote)
            self.sources.insert(0, self.not_listed)
        if request.short_term:
            self.short_term = [r for r in sql.rules if any(_LONG_TERM_ONLY.search(q) for q in (r.summary, *r.quotes))]
            self.cite(*self.short_term)
        asked_exclusion = any(t in _ASKED_EXCLUSIONS for t in request.topics) or "exclusions" in request.topics
        answered = (
            bool(self.short_term)
            or any(e.asked for e in result.exclusion_rules)
            or (result.eligibility is not None and result.eligibility.basic_mobility is False)
            or ("funding_period" in request.topics and not self.set_aside)
            or self.cep_income_asked()
        )
        if answered:
            self.policy = []  # the structured rule asked about is the answer, with its own words
        elif not (problem or self.policy or unloaded or sql.not_listed is not None):
            self.unanswered = sql.unanswered
        self.choose_share()
        if self.short_term:  # no share is funded for a need ADP does not fund
            self.say_share = False
            self.cited = [r for r in self.cited if r.kind not in ("funding", "social_assistance")]
        if (
            self.say_share
            and result.funding is not None
            and not result.funding.social_assistance_applied
            and request.social_assistance is None
            and "funding" in request.topics
            and not asked_exclusion
        ):
            follow_ups.append(
                "Does the patient receive Ontario Works, ODSP or ACSD? Then ADP pays 100% (ADP Manual §310.00)."
            )

        # a second sentence that matches the question about as well is part of the answer too
        # and so is the governing manual's rule on the same words as a category manual's best sentence
        self.policy = [
            q for q in self.policy if q.governs or q.exception or q.score >= RUNNER_UP * self.policy[0].score
        ]
        for said in self.policy:
            self.sources.append(self.source(said.source, said.ref, int(said.page), said.text))
        result.needs_more_info = bool(problem) or bool(result.device and len(result.device.candidates) > 1)
        result.follow_up = follow_ups[0] if follow_ups else None
        self.citations_and_confidence(problem)
        result.summary = self.summary(problem)
        result.context = self.context()
        return result

    def choose_share(self) -> None:
        """Whether the funding split is said: a quoted policy sentence answers its question alone unless the
        question asks the amount; a question no sentence answers gets the split only when it asks about
        funding. A split not said is not cited either."""
        request = self.request
        amount = bool(request.question and VOCABULARY.amount and VOCABULARY.amount.search(request.question))
        if self.policy:
            self.say_share = amount or "social_assistance" in request.topics
        elif self.unanswered:
            self.say_share = amount or bool(request.topics & {"funding", "social_assistance"})
        if not self.say_share:
            self.cited = [r for r in self.cited if r.kind not in ("funding", "social_assistance")]

    def device_match(self) -> DeviceMatch | None:
        sql = self.sql
        r = sql.decision.resolution
        loaded = {name: manual for name, _, manual in sql.categories}
        if sql.device is not None:
            d = sql.device
            listed = self.source(d.manual, d.section, d.page, d.listed_as)
            return DeviceMatch(
                category=d.category,
                device_type=d.key,
                name=d.name,
                group=d.group,
                listed_as=d.listed_as,
                source=listed,
                matched=r.matched,
                policy_manual_loaded=loaded.get(d.category) is not None,
            )
        if sql.not_listed is not None:
            return DeviceMatch(matched=r.matched)
        cats = sql.decision.categories
        if not cats:
            return None
        one = cats[0] if len(cats) == 1 else None
        return DeviceMatch(
            category=one,
            matched=r.matched,
            policy_manual_loaded=one is not None and loaded.get(one) is not None,
            candidates=cats if len(cats) > 1 else [],
        )

    def _specific(self, rules: list[Rule]) -> Rule | None:
        """The rule of the device's own manual (applies_to not 'all'), else None."""
        return next((r for r in rules if "all" not in r.applies_to and r.adp_percent is not None), None)

    def funding(self) -> Funding:
        by_id = {r.id: r for r in self.sql.rules}
        funding_rules = self.rules("funding")
        social = self.rules("social_assistance")
        program = self.request.social_assistance
        on_assistance = program in PROGRAMS
        specific = self._specific(funding_rules)
        default = by_id.get("default-share")
        if on_assistance:
            primary = self._specific(social) or by_id.get("social-assistance-default")
        else:
            primary = specific or default
        assert primary is not None, "funding_rules.toml always holds the default shares"
        client = primary.client_percent  # None for §310.01: the client may still pay (maximum contribution, extras)
        supporting = [by_id.get("fixed-price")] if specific is not None and not on_assistance else []
        if specific is None and not on_assistance:  # no category manual: the models of §305.00 say what varies
            supporting = [by_id.get("fixed-price"), by_id.get("maximum-contribution"), by_id.get("grant")]
        supporting.append(by_id.get("approved-amount-cap"))
        if on_assistance:
            supporting.insert(0, by_id.get("social-assistance-models"))
        repairs = by_id.get("repairs")
        if self.request.topics & {"funding", "social_assistance"} or self.sql.category or not self.request.topics:
            self.cite(primary)
        return Funding(
            adp_contribution=primary.adp_percent,
            client_share_percent=client,
            adp_share_is_maximum=primary.adp_up_to,
            client_share_is_minimum=primary.client_minimum,
            funding_model=primary.funding_model if primary.funding_model != "default" else None,
            repair_coverage=f"Not covered: {self.said(repairs)}" if repairs else "",
            social_assistance_applied=on_assistance,
            basis=self.said(primary),
            rules=[self.finding(r) for r in (primary, *supporting) if r is not None],
        )

    def social_assistance(self) -> SocialAssistanceFunding:
        by_id = {r.id: r for r in self.sql.rules}
        models = by_id.get("social-assistance-models")
        specific = self._specific(self.rules("social_assistance"))
        program = self.request.social_assistance
        chosen = [r for r in (specific, models, by_id.get("social-assistance-default")) if r is not None]
        by_category = {
            rule.applies_to[0]: self.said(rule) for rule in self.sql.social_rules if "all" not in rule.applies_to
        }
        if "social_assistance" in self.request.topics or program in PROGRAMS:
            self.cite(specific or models)
        return SocialAssistanceFunding(
            programs=list(PROGRAMS.values()),
            patient_receives=None if program is None else program in PROGRAMS,
            adp_contribution=100.0,
            client_share_percent=specific.client_percent if specific else None,
            models=[q.strip() for q in models.quotes[1:]] if models else [],
            by_category=by_category,
            rules=[self.finding(r) for r in chosen],
        )

    def exclusions(self) -> None:
        wanted = [_ASKED_EXCLUSIONS[t] for t in self.request.topics if t in _ASKED_EXCLUSIONS]
        asked_topics = set().union(*wanted)
        rules = self.rules("exclusion")
        # asked first, the rule answering most of what was asked leading ("repairs or new batteries?" is
        # answered by the rule on both, not the one on batteries alone), then manual order
        rules.sort(key=lambda r: (r.topic not in asked_topics, -sum(r.topic in topics for topics in wanted)))
        asked_all = "exclusions" in self.request.topics
        for rule in rules:
            asked = rule.topic in asked_topics
            if asked and not self.decides_asked(rule):
                asked = False
                self.set_aside.append(rule)
            if asked or asked_all:
                self.cite(rule)
            self.result.exclusion_rules.append(
                ExclusionRule(
                    topic=rule.topic,
                    text=rule.summary,
                    applies_to=list(rule.applies_to),
                    asked=asked,
                    source=self.source(rule.manual, rule.section, rule.page, " ".join(rule.quotes)),
                )
            )
            self.result.exclusions.append(self.said(rule))

    def decides_asked(self, rule: Rule) -> bool:
        """Whether the exclusion ``rule`` decides what the question's asking clause asks: that clause names
        its topic, or the rule's own words decide what the clause asks (``asked_clause.decides``)."""
        if self.request.requirement:  # 'what warranty must it have?' is not 'will ADP pay while it runs?'
            return False
        if rule.topic in _POOL_SERVES and _FROM_POOL.search(self.request.question or ""):
            return False  # a Central Equipment Pool chair's upkeep is the pool's, at no cost to the client (§505)
        asked = self.request.asked
        if asked is None:
            return True
        if any(rule.topic in _ASKED_EXCLUSIONS.get(t, ()) for t in asked):
            return True
        return any(decides(t, rule.quotes) for t in asked)

    def eligibility(self) -> Eligibility:
        request, sql = self.request, self.sql
        criteria = self.rules("eligibility")
        out = Eligibility(criteria=[self.finding(r) for r in criteria])
        for rule in self.rules("funding_period")[:1]:
            out.other_criteria["designated_funding_period"] = self.said(rule)
            if "funding_period" in request.topics:
                self.cite(rule)
        if self.eligibility_asked:
            self.cite(*[r for r in criteria if "all" not in r.applies_to][:2] or criteria[:1])
        if sql.category != "Mobility Devices":
            return out
        use = request.use_case
        daily_rule = next((r for r in criteria if r.id == "mobility-daily-use"), None)
        transport = next((r for r in self.sql.rules if r.id == "mobility-transportation"), None)
        if request.community_only or (use is not None and use.location and _community_only(use.location)):
            out.basic_mobility = False
            if transport is not None:
                said = f"Not basic mobility: {self.said(transport)}"
                own = self.transport_criterion(criteria)
                out.other_criteria["basic_mobility"] = f"{said}; and {own}" if own else said
                self.cite(transport)
        elif use is not None and use.daily is False:
            out.basic_mobility = False
            if daily_rule is not None:
                out.other_criteria["basic_mobility"] = f"Not daily use: {self.said(daily_rule)}"
                self.cite(daily_rule)
        elif use is not None and use.daily and use.location and "home" in use.location.lower():
            out.basic_mobility = True
        if use is not None and use.independent_transfer is False and sql.device and sql.device.key == "power_scooter":
            scooter = next((r for r in criteria if r.id == "scooter-criteria"), None)
            if scooter is not None:
                out.other_criteria["independent_transfer"] = (
                    "A scooter is funded only when the applicant transfers on and off it independently: "
                    + self.said(scooter)
                )
                self.cite(scooter)
        return out

    def transport_criterion(self, criteria: list[Rule]) -> str | None:
        """The device's own criterion on transport, quoted, when it has one (a power scooter's "not intended to be
        a replacement for a car", Mobility §410.01): it says the same of the device asked about."""
        for rule in criteria:
            if "all" in rule.applies_to:
                continue
            quote = next((q for q in rule.quotes if _TRANSPORT.search(q)), None)
            if quote is not None:
                self.cite(rule)
                return f"“{quote.rstrip(' ;,').removesuffix(' and').rstrip(' ;,')}” ({self.ref(rule)})"
        return None

    def cep_income_asked(self) -> bool:
        """Whether the question asks what the CEP's income thresholds answer, not only names the pool."""
        request = self.request
        named = "cep" in request.topics and bool(_CEP_INCOME.search(request.question or request.text or ""))
        return named or request.income is not None

    def wants_cep(self) -> bool:
        request = self.request
        high_tech = self.sql.device is not None and self.sql.device.key == "power_dynamic_seating"
        return "cep" in request.topics or request.income is not None or high_tech

    def cep(self) -> CepAssessment:
        policy = cep_policy()
        income_policy, pool = policy.income_thresholds, policy.central_equipment_pool
        request = self.request
        income, household = request.income, request.household
        threshold = income_policy.family if household == "family" else income_policy.single
        eligible: bool | None = None
        if income is not None and income >= 0:
            if household is not None:
                eligible = income <= threshold
            elif income <= min(income_policy.single, income_policy.family):
                eligible = True
            elif income > max(income_policy.single, income_policy.family):
                eligible = False
        pool_source = (
            self.source(pool.manual, pool.section, pool.page, pool.quote) if pool.manual in self.editions else None
        )
        return CepAssessment(
            name=income_policy.name,
            official=income_policy.official,
            source=income_policy.source,
            cited_as=income_policy.cited_as,
            as_of=income_policy.as_of,
            income_threshold=threshold if household is not None else None,
            single_income_threshold=income_policy.single,
            family_income_threshold=income_policy.family,
            patient_income=income,
            household=household,
            eligible=eligible,
            client_share=income_policy.client_share_percent_if_below if eligible else None,
            note=income_policy.note,
            central_equipment_pool=pool_source,
        )

    # --- citations, confidence, conflicts -------------------------------------------------------
    def _chunk_for(self, rule_manual: str, section: str) -> tuple[Passage | None, ChunkRef | None]:
        if self.found is not None:
            holding = self.found.holding(rule_manual, section)
            if holding:
                return holding[0], None
        return None, self.sql.chunks.get((rule_manual, section))

    def citations_and_confidence(self, problem: str | None) -> None:
        result = self.result
        citations: list[Citation] = []
        corroborating: set[str] = set()
        comparisons: list[FieldComparison] = []
        for rule in self.cited:
            passage, chunk = self._chunk_for(rule.manual, rule.section)
            if self.found is not None:
                for held in self.found.holding(rule.manual, rule.section):
                    corroborating.add(held.chunk_id)
                    comparisons += _compare(rule, held)
            if len(citations) < MAX_CITATIONS and (passage is not None or chunk is not None):
                citations.append(self._citation(len(citations) + 1, rule, passage, chunk))
        for source in self.sources:
            passage, chunk = self._chunk_for(source.manual, source.section)
            if self.found is not None:
                corroborating |= {p.chunk_id for p in self.found.holding(source.manual, source.section)}
            if len(citations) < MAX_CITATIONS and (passage is not None or chunk is not None):
                citations.append(self._source_citation(len(citations) + 1, source, passage, chunk))
        result.citations = citations
        result.conflicts = detect(comparisons)
        if corroborating:
            result.provenance = ["sql", "vector"]
        # the unofficial CEP thresholds alone are no manual evidence: only a device, a rule or §205.01 counts
        answered = not result.needs_more_info and (result.covered is not None or bool(self.cited) or bool(self.policy))
        result.confidence = confidence(
            ConfidenceInputs(
                sql_hit=answered,
                passages=len(corroborating),
                sql_records=len(self.cited) + len(self.sources),
                conflicts=len(result.conflicts),
            )
        )
        if self.short_term:  # a verdict from the duration or operation the question tells, read from its words
            result.confidence = min(result.confidence, QUOTED_CONFIDENCE)
        elif self.unanswered:
            result.confidence = min(result.confidence, UNANSWERED_CONFIDENCE)
        elif self.set_aside:  # the rules on the question's story do not decide what it asks: no checked verdict
            result.confidence = min(result.confidence, WEAK_QUOTE_CONFIDENCE)
        elif self.policy and not self.say_share:  # the quote is the answer, not a checked rule beside it
            # a sentence about another party ('The ADP Authorizers …' for 'can she apply?') may answer another
            # question; one found by the question's meaning rather than its words is a candidate, not a verdict
            # one holding none of the words its asking clause asks ('what does she have to sign?') answers its story
            strong = (
                self.policy[0].score >= STRONG_QUOTE
                and not all(q.other_party for q in self.policy)
                and not self.policy[0].by_meaning
                and not self.policy[0].off_clause
            )
            result.confidence = min(result.confidence, QUOTED_CONFIDENCE if strong else WEAK_QUOTE_CONFIDENCE)
        elif self.policy and self.policy[0].by_meaning:
            result.confidence = min(result.confidence, WEAK_QUOTE_CONFIDENCE)
        if self.sql.decision.resolution.by_meaning:  # the category was recognised by meaning, not named
            result.confidence = min(result.confidence, MEANING_CATEGORY_CONFIDENCE)
        device = result.device
        if self.unlisted_device:  # the general share, for a device perhaps in a category whose manual is not loaded
            result.confidence = min(result.confidence, UNLOADED_CATEGORY_CONFIDENCE)
        if device is not None and device.category and not device.policy_manual_loaded:
            # the share comes from the general rules; the category's own manual sets its funding model
            # (fixed price, maximum contribution or grant, ADP Manual §305) and it is not loaded
            result.confidence = min(result.confidence, UNLOADED_CATEGORY_CONFIDENCE)

    def _citation(self, n: int, rule: Rule, passage: Passage | None, chunk: ChunkRef | None) -> Citation:
        source = self.source(rule.manual, rule.section, rule.page, rule.quotes[0])
        return self._source_citation(n, source, passage, chunk)

    def _source_citation(self, n: int, source: SourceRef, passage: Passage | None, chunk: ChunkRef | None) -> Citation:
        if passage is None:
            assert chunk is not None
            chunk_id, doc_key, title, section_path, _, _, _ = chunk
            score = 0.0
        else:
            chunk_id, doc_key, title, section_path, score = (
                passage.chunk_id,
                passage.doc_key,
                passage.title,
                passage.section_path,
                passage.score,
            )
        return Citation(
            n=n,
            chunk_id=chunk_id,
            doc_key=doc_key,
            title=title,
            section_path=section_path,
            page=source.page,
            score=round(score, 6),
            excerpt=f"§{source.section}: {source.quote}",
        )

    # --- text -----------------------------------------------------------------------------------
    def summary(self, problem: str | None) -> str:
        request, result = self.request, self.result
        parts: list[str] = []
        if problem:
            parts.append(problem)
        asked_exclusions = [e for e in result.exclusion_rules if e.asked]
        if self.short_term:
            rules = "; ".join(f"{r.summary.rstrip('.')} ({self.ref(r)})" for r in self.short_term)
            parts.append(
                f"Not for a short-term need (“{request.short_term}”): ADP funds a long-term need only. {rules}."
            )
        if self.unanswered:
            parts.append(f"The loaded ADP manuals have no sentence found to answer this: {self.unanswered}.")
        if self.policy:
            quoted = "; ".join(
                f"“{said.text.rstrip('.')}.” ({self._short(said.source)} {_where(said.ref)}, p. {said.page})"
                for said in self.policy
            )
            parts.append(f"The manual: {quoted}")
        unloaded_note = self.unloaded_manuals_note()
        if unloaded_note:
            parts.append(unloaded_note)
        unloaded = self.unloaded_candidates()
        if unloaded:
            parts.append(
                f"The Policy and Administration Manuals of {', '.join(unloaded)}, which set these categories' "
                "funding models, are not loaded."
            )
        if self.sql.decision.resolution.by_meaning and result.device is not None:
            parts.append(
                f"No device or category is named in the manuals' words; the question reads as {result.device.category}."
            )
        if self.not_listed is not None:
            src = self.not_listed
            parts.append(
                f"No: ADP lists no {result.device.matched if result.device else 'such product'} in any of its device "
                f"categories (ADP Manual §105.05). Under §205.01 the ADP will not consider listing a product that "
                f'"{src.quote}" ({self._short(src.manual)} §{src.section}, p. {src.page}).'
            )
        elif asked_exclusions:
            refs = "; ".join(
                f"{self._short(e.source.manual)} §{e.source.section}, p. {e.source.page}" for e in asked_exclusions
            )
            parts.append(f"No: {asked_exclusions[0].text.rstrip('.')} ({refs}).")
        eligibility = result.eligibility
        if eligibility is not None and eligibility.basic_mobility is False:
            parts.append(eligibility.other_criteria.get("basic_mobility", "Not basic mobility") + ".")
        if eligibility is not None and "independent_transfer" in eligibility.other_criteria:
            parts.append(eligibility.other_criteria["independent_transfer"] + ".")
        if eligibility is not None and "funding_period" in request.topics:
            period = eligibility.other_criteria.get("designated_funding_period")
            if period:
                parts.append(f"{period}.")
        cep_asked = result.cep is not None and ("cep" in request.topics or request.income is not None)
        cep_first = cep_asked and "funding" not in request.topics and self.cep_income_asked()
        if cep_first:
            parts.append(self._cep_sentence(result.cep))  # type: ignore[arg-type]
        elif result.funding is not None and self.say_share:
            parts.append(self._funding_sentence())
        if eligibility is not None and self.eligibility_asked and eligibility.criteria and not cep_first:
            specific = [c for c in eligibility.criteria if "all" not in c.applies_to] or eligibility.criteria
            parts.append(
                "Eligibility: "
                + "; ".join(f"{c.summary.rstrip('.')} (§{c.source.section})" for c in specific[:3])
                + "."
            )
        if self.through_pool is not None:
            parts.append(f"{self.said(self.through_pool)}.")
        if cep_asked and not cep_first:
            parts.append(self._cep_sentence(result.cep))  # type: ignore[arg-type]
        if result.citations:
            parts.append("[" + "][".join(str(c.n) for c in result.citations[:3]) + "]")
        parts.append(f"({result.edition})")
        return " ".join(p.strip() for p in parts if p)

    def unloaded_manuals_note(self) -> str | None:
        """Which manuals an answer lacks when the funding sentence does not say it: the category's own, or, for a
        device the loaded manuals do not list, those of every category but the loaded ones (§105.05 names them
        all; each category's devices are listed in its own manual)."""
        device, funding = self.result.device, self.result.funding
        said_with_share = self.say_share and funding is not None and not self.short_term
        if device is not None and device.category and not device.policy_manual_loaded and not said_with_share:
            return f"The {device.category} Policy and Administration Manual, which sets that category's rules, is not loaded."
        if not self.unlisted_device:
            return None
        loaded = [name for name, _, manual in self.sql.categories if manual is not None]
        others = len(self.sql.categories) - len(loaded)
        if not loaded or not others:
            return None
        return (
            f"The loaded manuals list the devices of {', '.join(loaded)} only; the Policy and Administration Manuals "
            f"of the other {others} ADP device categories (ADP Manual §105.05), which list their devices and set "
            "their funding, are not loaded."
        )

    def unloaded_candidates(self) -> list[str]:
        """The candidate categories of an ambiguous request ('a prosthetic ear': five kinds of prostheses) when
        none has its manual loaded: whichever is meant, its own rules are not at hand."""
        device = self.result.device
        if device is None or len(device.candidates) < 2:
            return []
        loaded = {name for name, _, manual in self.sql.categories if manual is not None}
        return [] if loaded & set(device.candidates) else list(device.candidates)

    def _funding_sentence(self) -> str:
        funding, result = self.result.funding, self.result
        assert funding is not None
        device = result.device
        what = device.name if device and device.name else (device.category if device and device.category else None)
        for_what = f" for a {what}" if device and device.name else (f" for {what}" if what else "")
        primary = funding.rules[0]
        ref = f"{self._short(primary.source.manual)} §{primary.source.section}, p. {primary.source.page}"
        up_to = "up to " if funding.adp_share_is_maximum else ""
        if funding.social_assistance_applied:
            program = PROGRAMS[self.request.social_assistance or "OW"]
            if funding.client_share_percent == 0:
                text = (
                    f"For a client receiving {program}, ADP pays {funding.adp_contribution:g}% of the Approved Price"
                    f"{for_what}; the client pays nothing toward it ({ref})."
                )
            else:
                text = (
                    f"For a client receiving {program}, ADP pays {up_to}{funding.adp_contribution:g}%{for_what} "
                    f"({ref}); which base (Approved Price, maximum contribution or grant) depends on the category's "
                    "manual (ADP Manual §310.00)."
                )
        elif (device is None or not device.category) and not _GENERAL.search(self.request.question or ""):
            # no category named or recognised ('a spectacle-mounted telescope', 'silicone finger prostheses'): its
            # manual may note another share, and none of the other categories' manuals is loaded. Asked in general
            # ('in general, what share of a device's price?'), the general share is the answer.
            return (
                "No share is stated for it: the ADP Manual's general share "
                f"({ref}) applies only where the device's category manual does not note otherwise."
            )
        elif device is not None and device.category and not device.policy_manual_loaded:
            # the general share holds 'unless noted otherwise' (§305.01), and the manual that would note it is not
            # at hand (hearing aids are paid by a grant): no share is stated for the category
            return (
                f"The {device.category} Policy and Administration Manual, which sets what ADP pays for that category "
                "(a fixed price, a maximum contribution or a grant: ADP Manual §305), is not loaded, so no share is "
                f"stated here; the ADP Manual's general share ({ref}) applies only where a category's manual does not "
                "note otherwise."
            )
        else:
            at_least = "at least " if funding.client_share_is_minimum else ""
            text = (
                f"ADP pays {up_to}{funding.adp_contribution:g}% of the Approved Price{for_what} and the client pays "
                f"{at_least}{funding.client_share_percent:g}% ({ref})."
            )
            sa = self.result.social_assistance
            if sa is not None and sa.client_share_percent == 0 and sa.rules:
                r = sa.rules[0].source
                text += (
                    f" Clients receiving Ontario Works, ODSP or ACSD: ADP pays 100% "
                    f"({self._short(r.manual)} §{r.section}, p. {r.page})."
                )
        if device and device.category and not device.policy_manual_loaded:
            text += (
                f" The {device.category} Policy and Administration Manual, which sets that category's funding model, "
                "is not loaded."
            )
        return text

    def _cep_sentence(self, cep: CepAssessment) -> str:
        verdict = ""
        if cep.eligible is not None and cep.patient_income is not None:
            verdict = (
                f" By them an income of ${cep.patient_income:,.0f} would be "
                f"{'under' if cep.eligible else 'over'} the threshold."
            )
        pool = ""
        if cep.central_equipment_pool is not None:
            pool = f" In the manuals, CEP is the Central Equipment Pool for High Technology Wheelchairs (Mobility Devices manual §{cep.central_equipment_pool.section})."  # fmt: skip
        return (
            f"CEP income thresholds (${cep.single_income_threshold:,.0f} single, ${cep.family_income_threshold:,.0f} "
            f"family) are not from an official source ({cep.cited_as}, as of {cep.as_of}); the ADP manuals set no income "
            f"test.{verdict}{pool}"
        )

    def context(self) -> list[str]:
        lines = [f"{self.ref(r)}: {' '.join(r.quotes)}" for r in self.cited]
        if self.found is not None:
            for passage in self.found.passages[:CONTEXT_PASSAGES]:
                lines.append(f"{passage.title} > {passage.section_path} (p. {passage.page}): {passage.excerpt(400)}")
        return lines


# a question about devices in general, not about one device
_GENERAL = re.compile(r"\b(?:in general|generally|usually|typically|a device'?s?|any device|most devices)\b", re.I)


def _where(ref: str) -> str:
    """'§305.01' for a paragraph; a part's introduction is cited by its part ('Part 4')."""
    return ref if ref.startswith("Part ") else f"§{ref}"


def _community_only(location: str) -> bool:
    where = location.lower()
    return "home" not in where and any(w in where for w in ("community", "outdoor", "outside", "travel"))


def _compare(rule: Rule, passage: Passage) -> list[FieldComparison]:
    """The figures of the rule's quotes against the same sentences in the passage's copy of the paragraph.

    Each quote with a number becomes a pattern with its numbers left open; where the passage
    states that sentence with other numbers, the first differing one is compared.
    """
    text = normalize(paragraph_text(passage, rule.section))
    if not text:
        return []
    out: list[FieldComparison] = []
    for quote in rule.quotes:
        wanted = _NUMBER.findall(normalize(quote))
        if not wanted:
            continue
        pattern = r"(\d{1,3})".join(re.escape(part) for part in _NUMBER.split(normalize(quote)))
        match = re.search(pattern, text)
        if match is None:
            continue
        for sql_number, passage_number in zip(wanted, match.groups(), strict=True):
            if sql_number != passage_number:
                value = float(sql_number)
                field = "adp_percent" if value == rule.adp_percent else "client_percent" if value == rule.client_percent else "figure"  # fmt: skip
                out.append(
                    FieldComparison(
                        field=field,
                        subject=f"§{rule.section}",
                        sql_value=value,
                        vector_value=float(passage_number),
                        chunk_id=passage.chunk_id,
                    )
                )
                break
    return out
