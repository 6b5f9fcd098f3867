"""The words that route a question: per domain, patterns with a weight.

Weights: 3 names the subject itself (a fee code, a device, a drug, the program's name);
2 is a word that belongs to one domain ("bill", "formulary", "batteries"); 1 leans
towards a domain but occurs in others too ("covered", "discharge", "funding").
A domain is routed at 2 (see ``intent``), so one weak word alone routes nothing.

Device nouns map to the spec's ADP categories (Tool 3), used to notice a hint whose
category contradicts its device type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from curbside.coverage.answer.models import Domain

__all__ = ["DEVICE_NOUNS", "FEE_CODE", "KEYWORDS", "STRONG", "Keyword"]

STRONG = 3
CLEAR = 2
WEAK = 1

# OHIP fee codes: one letter and three digits (C124, A007, E083); a claim may add a suffix letter (A007A)
FEE_CODE = re.compile(r"\b([A-Za-z]\d{3})[ABCabc]?\b")


@dataclass(frozen=True, slots=True)
class Keyword:
    domain: Domain
    weight: int
    pattern: re.Pattern[str]
    claims: bool = True  # False: a word every coverage question uses; it scores but does not claim its clause


def _kw(domain: Domain, weight: int, words: str, *, claims: bool = True) -> Keyword:
    return Keyword(domain, weight, re.compile(rf"\b(?:{words})\b", re.IGNORECASE), claims)


# device noun -> ADP category (None: a device word with no one category)
DEVICE_NOUNS: dict[str, str | None] = {
    r"power wheel ?chairs?|wheel ?chairs?|rollators?|walkers?|scooters?|mobility (?:aids?|devices?)": "mobility",
    r"seating|positioning (?:devices?|systems?)|walking aids?|wheeled walkers?": "mobility",
    # 'power chair', 'power tilt chair', and the Central Equipment Pool that supplies them (Mobility Devices §505)
    r"power (?:tilt |recline |tilt[- ]and[- ]recline )?chairs?|central equipment pool": "mobility",
    r"communication (?:aids?|devices?)|AAC|speech[- ]generating devices?|SGDs?": "comm_aids",
    r"hearing aids?|hearing devices?|cochlear implants?": "hearing_devices",
    r"magnifiers?|low[- ]vision aids?|visual aids?|braille": "visual_aids",
    r"CPAP|APAP|BiPAP|ventilators?|home oxygen|oxygen concentrators?": "respiratory",
    r"insulin pumps?": "insulin_pump",
    r"(?:continuous )?glucose monitors?|CGMs?|flash glucose": "glucose_monitoring",
    r"prosthes[ie]s|prosthetics?|artificial limbs?|artificial eyes?": "prosthesis",
    r"orthos[ie]s|orthotics?|braces?|compression garments?|lymph[oe]dema garments?": None,
    r"ostomy supplies|crutch(?:es)?|canes?|patient lifts?|commodes?": None,
}

KEYWORDS: tuple[Keyword, ...] = (
    # billing: the OHIP Schedule of Benefits (fee codes themselves are matched by FEE_CODE)
    _kw("billing", CLEAR, r"bill|bills|billed|billing|billable|fees?|fee codes?|fee schedule|OHIP|premiums?"),
    _kw("billing", CLEAR, r"schedule of benefits|MRP|most responsible (?:physician|practitioner)|house calls?"),
    _kw("billing", CLEAR, r"tray fee|time units?|claim(?:ed|ing)? (?:for|as)"),
    _kw("billing", CLEAR, r"what can (?:i|we) add"),
    # 'how is the 2nd one paid?': how a service is paid is the Schedule's payment rules
    _kw("billing", CLEAR, r"how (?:is|are) (?:\w+ ){1,5}paid(?! for)"),  # 'what can I add for …' asks for a premium or add-on code
    # 'any add-on for the heart failure?', 'any add-on per patient seen?' ask for a premium or add-on code
    # ('add-on therapy' and a drug given 'as add-on for refractory sz' are a drug's, not billing's)
    _kw("billing", CLEAR, r"(?<!\bas )(?<!\bas an )add[- ]?ons?(?! (?:therap|treatment|medication|drug))"),
    # asking for a code ('freezing warts, which code?', '… - any code?'; 'what LU code' is not matched) or the doctor's pay
    # ('what do we get paid for the LTC form?'; a patient asks what ADP 'pays', not what they 'get paid')
    _kw("billing", CLEAR, r"(?:which|what|any|a|the) (?:fee |billing |OHIP )?codes?|(?:i|we|doctors?|physicians?|you) (?:get |be )?paid"),
    # a clause that ends asking for a code ('we manage her INRs by phone every wk - monthly code?'); a drug's
    # 'LU code?' and ADP's 'benefit code?' are not fee codes
    _kw("billing", CLEAR, r"(?<!lu )(?<!use )(?<!benefit )codes?(?=\s*\?)"),
    _kw("billing", WEAK, r"discharg\w*|admission|admitted|consult(?:ation)?s?|assessments?|visits?|payable"),
    _kw("billing", WEAK, r"psychotherapy|counselling|virtual care|(?<!lu )(?<!use )codes?|specialty|specialist"),
    _kw("billing", WEAK, r"family practice|internist|internal medicine|surgeon|anaesthe\w+|anesthe\w+"),
    # device: the Assistive Devices Program (device nouns from DEVICE_NOUNS)
    _kw("device", STRONG, r"ADP|assistive devices? program|assistive devices?"),
    _kw("device", CLEAR, r"batter(?:y|ies)|devices?|equipment"),
    _kw("device", WEAK, r"repairs?|vendors?|authori[sz]ers?|client share|ODSP|Ontario Works|ACSD|social assistance"),
    _kw("device", WEAK, r"fund(?:s|ed|ing)?", claims=False),
    _kw("device", WEAK, r"income|CEP"),
    # drug: the Ontario Drug Benefit formulary (drug names from the formulary's name index)
    _kw("drug", CLEAR, r"ODB|Ontario Drug Benefits?|formulary|Trillium|generics?|interchangeab\w*"),
    _kw("drug", CLEAR, r"limited use|LU|LU codes?|exceptional access|EAP|reason for use|DIN|drugs?|medications?"),
    _kw("drug", WEAK, r"cover(?:ed|s|age)?", claims=False),
    _kw("drug", WEAK, r"prescri\w+|Rx|tablets?|capsules?|mg|mcg|brand|cheapest|pharmac\w+"),
)
