"""A consult turn over the knowledge base writes its passage sources as references in the style the
session prefers (citation_style: AMA, APA or Vancouver)."""

from __future__ import annotations

import asyncio

from curbside.agent.models import TurnRequest
from curbside.types import ToolCaller

DR = ToolCaller(user="dr-refs", role="clinician", channel="cli")
QUESTION = "What are the first-line medication options for depression?"


def test_passage_sources_follow_the_sessions_citation_style(make_core) -> None:
    core = make_core()
    written = {}
    for style in ("vancouver", "apa"):
        session = f"refs-{style}"
        core.sessions.open(DR.user, session)
        core.sessions.set_preferences(DR.user, session, citation_style=style)
        result = asyncio.run(core.turns.run(TurnRequest(message=QUESTION, session_id=session, use_llm=False), DR))
        passages = [c for c in result.sources_used if c.kind == "passage"]
        assert passages and all(c.reference for c in passages), result.sources_used
        # each passage carries its calibrated relevance, as ask's citations do
        assert all(0 <= (c.relevance or -1) <= 1 and c.relevance_label in ("high", "medium", "low") for c in passages)
        written[style] = passages[0].reference
    vancouver, apa = written["vancouver"], written["apa"]
    assert vancouver != apa
    # a passage has no date: APA says "(n.d.)"; Vancouver names the section cited
    assert "(n.d.)" in apa and "(n.d.)" not in vancouver
    assert "First-line medication options" in vancouver


def test_the_knowledge_bases_warnings_reach_the_turn(make_core) -> None:
    # the answer comes from passages that never name the population asked about: the clinician must be told
    core = make_core()
    request = TurnRequest(message="how long to continue an antidepressant after remission in pregnancy?", use_llm=False)
    result = asyncio.run(core.turns.run(request, DR))
    assert result.status == "answered"
    assert any("pregnancy" in w and "do not mention" in w for w in result.warnings), result.warnings
