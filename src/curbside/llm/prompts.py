"""The prompt that asks a model to answer from numbered passages only."""

from __future__ import annotations

from collections.abc import Sequence

from curbside.llm.client import Message
from curbside.types import Passage

__all__ = ["SYSTEM_PROMPT", "answer_messages", "passage_heading"]

SYSTEM_PROMPT = (
    "You are a clinical reference assistant answering a clinician's question. Use only the numbered "
    "passages provided; do not use outside knowledge. Answer in at most five short sentences. End every "
    "sentence with the number of the passage that supports it in square brackets, like [1] or [2][3]. "
    "If the passages do not answer the question, say that the sources provided do not answer it."
)
# the format example carries no clinical content: small models copy examples into their answers
INSTRUCTION = (
    "Answer the question in two to five sentences using only the passages above. "
    "End each sentence with the number of the passage that supports it, in square brackets "
    "(for example [1] or [2])."
)


def passage_heading(passage: Passage) -> str:
    where = " > ".join(p for p in (passage.title, passage.section_path) if p)
    return where + (f" (p. {passage.page})" if passage.page else "")


def answer_messages(
    question: str, passages: Sequence[Passage], *, passage_chars: int = 1200, patient_context: str | None = None
) -> list[Message]:
    blocks = []
    for n, passage in enumerate(passages, 1):
        body = passage.body.strip()
        if len(body) > passage_chars:
            body = body[:passage_chars].rsplit(" ", 1)[0] + " …"
        blocks.append(f"[{n}] {passage_heading(passage)}\n{body}")
    # the patient's facts come before the passages, marked as context: they are not a source to cite.
    # The heading stands in its own block so the PHI screen's cache recognises the context it already read.
    context = (
        f"Patient context (not a source; do not cite it):\n\n{patient_context.strip()}\n\n" if patient_context else ""
    )
    user = (
        f"Question: {question}\n\n{context}Passages:\n\n"
        + "\n\n".join(blocks)
        + f"\n\nQuestion: {question}\n{INSTRUCTION}"
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]
