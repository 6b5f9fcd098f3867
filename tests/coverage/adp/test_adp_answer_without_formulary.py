"""coverage.answer on a home with the ADP manuals but no formulary: the device part answers, and a warning
says drug names could not be recognised because the ODB formulary is not loaded (and how to load it)."""

from __future__ import annotations

import asyncio

from curbside.app import Curbside
from curbside.coverage.answer.models import CoverageAnswerResult
from curbside.types import ToolCaller


def test_without_the_formulary_a_warning_says_drugs_were_not_looked_for(adp_app: Curbside) -> None:
    caller = ToolCaller(user="adp-only", role="clinician")
    args = {"question": "What does ADP pay for a walker? She is also on Januvia."}
    outcome = asyncio.run(adp_app.tools.call("coverage.answer", args, caller=caller))
    assert outcome.status == "ok", outcome.error
    r = CoverageAnswerResult.model_validate(outcome.result)
    assert [(t.tool, t.status) for t in r.trace] == [("adp.get", "ok")]
    assert r.warnings[-1] == (
        "The ODB formulary is not loaded, so drug names in the question were not looked for and no drug coverage "
        "is answered; load it with `curbside coverage load DIR` (odb*formulary*.xml in DIR)."
    )
