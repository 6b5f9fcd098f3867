"""Codes outside the specialty assumed from the question's words, when the service asked is listed elsewhere.

A specialty the question names ('ENT office …', 'allergist - …') is the section its consultations and
visits are listed in, but many of its services are not: the Schedule lists "Pure tone threshold audiometry …
- technical component" (G440) under "Diagnostic and Therapeutic Procedures - Otolaryngology" (J99), a part
no specialty's section holds. Searching the specialty's codes only, 'ENT office … pure tone audiogram, what's
the technical component code' found A245 "Consultation". When the specialty was assumed from the question's
words (not given in the request's fields), no title among its codes holds a word of the question and a title
elsewhere holds much of it, the codes are found everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from curbside.coverage.ohip.title_meaning import LEADERS, question_weights, title_share

if TYPE_CHECKING:
    from curbside.coverage.ohip.query import WordIndex

__all__ = ["REACH", "listed_elsewhere"]

# a title elsewhere names the service asked when it holds this share of the question's word weight (as much as
# a code must hold to be stated at all with some confidence: ``merge.WEAK_MATCH``) and no title among the
# specialty's codes holds a word of the question: 'FP-OB … normal vaginal delivery' has P006 "Vaginal" in the
# obstetrics section, and S724 "Perineorrhaphy (not eligible for payment with delivery or other vaginal …)"
# elsewhere holds more of the question's words but is not the service
REACH = 0.4
MINOR = 0.25  # a share of the question's word weight that names no service
OUTWEIGHS = 3.0  # … when a title elsewhere holds this many times as much


def listed_elsewhere(
    words: Sequence[str],
    within: Sequence[tuple[str, float]],
    everywhere: Sequence[tuple[str, float]],
    index: WordIndex,
) -> bool:
    """Whether the codes found in every section (``everywhere``: code, score; best first) name the service asked
    and those found in the specialty's sections (``within``) name none of it (``REACH``)."""
    weights = question_weights(words, index)

    def best(found: Sequence[tuple[str, float]]) -> float:
        # a title naming a part of a service names it by its heading too ('G658 Level 1 - professional component
        # - 36 to 59 hours recording' under "CONTINUOUS ECG MONITORING (E.G. HOLTER)", not in Cardiology (60))
        return max((title_share(weights, code, index, headed=True) for code, _ in found[:LEADERS]), default=0.0)

    if not within and everywhere:
        # no code of the specialty holds a word of the question at all ('ophtho - botox for benign essential
        # blepharospasm': G871, J52, is in no ophthalmology section): the codes holding some of it are elsewhere
        return best(everywhere) > 0.0
    inside, outside = best(within), best(everywhere)
    # the specialty's best title holding a minor word of the question only ('home' of W163 "Nursing home …" for
    # 'nephro - pt does home hemodialysis, weekly team fee?') names no more of it than none would: G865
    # "Chronic dialysis weekly team fee: Home haemodialysis" is in the dialysis part, no specialty's section
    return inside < MINOR and outside >= REACH and outside >= OUTWEIGHS * inside
