"""Coverage passages stay in their own namespace: out of general answers unless asked for."""

from __future__ import annotations

import asyncio

from curbside.app import Curbside
from curbside.types import AskRequest


def test_ask_reaches_formulary_passages_only_in_their_namespace(odb_app: Curbside) -> None:
    question = "which sitagliptin products are interchangeable?"
    general = asyncio.run(odb_app.asker.ask(AskRequest(question=question)))
    assert general.status == "no_source" and general.citations == []
    formulary = asyncio.run(odb_app.asker.ask(AskRequest(question=question, namespace="odb")))
    assert formulary.status == "answered"
    assert formulary.citations and all("Edition 43 (2025-08-29)" in c.title for c in formulary.citations)
    assert "SITAGLIPTIN" in formulary.answer
