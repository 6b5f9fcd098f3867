"""`curbside ask`: a short answer with citations."""

from __future__ import annotations

import textwrap
from typing import TextIO

import click

from curbside.cli._common import app_context, echo_json, json_option, stderr_is_tty

__all__ = ["ask", "print_answer"]


@click.command()
@click.argument("question", required=False, default="")
@click.option(
    "--condition", help="Diagnosed condition; with --finding it targets the guideline section for this patient."
)
@click.option(
    "--finding", "findings", multiple=True, help="A clinical finding (repeatable), e.g. 'pregnant, first trimester'."
)
@click.option("-k", "k", type=click.IntRange(1, 20), default=None, help="Passages to answer from (default 5).")
@click.option("--source-type", help="Only sources of this type.")
@click.option("--specialty", help="Only sources of this specialty.")
@click.option("--doc-key", help="Only this document.")
@click.option(
    "--namespace", default="kb", show_default=True, help="'kb' (ingested documents) or 'odb' (formulary passages)."
)
@click.option("--no-llm", is_flag=True, help="Extractive answer even when a model is configured.")
@click.option(
    "--context-file",
    type=click.File("r", encoding="utf-8"),
    help="Patient context for the model ('-' reads stdin); a prompt holding PHI never reaches the cloud model.",
)
@json_option
def ask(
    question: str,
    condition: str | None,
    findings: tuple[str, ...],
    k: int | None,
    source_type: str | None,
    specialty: str | None,
    doc_key: str | None,
    namespace: str,
    no_llm: bool,
    context_file: TextIO | None,
    as_json: bool,
) -> None:
    """Answer QUESTION from the knowledge base, citing every sentence.

    \b
    curbside ask "can I start metformin if eGFR is 35?"
    curbside ask --condition malaria --finding pregnant --finding "first trimester"
    curbside ask "dose adjustment?" --context-file chart.txt
    """
    # the question is screened for PHI in a child process that starts loading now, on the other core
    with app_context(phi_in_child=True) as core:
        import asyncio
        import contextlib

        from curbside.auth import operator_caller
        from curbside.types import AskRequest

        request = AskRequest(
            question=question,
            condition=condition,
            findings=list(findings),
            k=k,
            source_type=source_type,
            specialty=specialty,
            doc_key=doc_key,
            namespace=namespace,
            use_llm=not no_llm,
            patient_context=context_file.read() if context_file is not None else None,
        )
        status: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
        if stderr_is_tty() and core.models.has_model and not no_llm:
            from rich.console import Console

            # a local model on a CPU takes seconds to answer: say what is happening
            status = Console(stderr=True).status(f"Answering with {core.llm_description()} …")
        with status:
            # recorded on the audit trail as the machine's operator, like every CLI action
            answer = asyncio.run(core.ask(request, operator_caller(core.settings), channel="cli"))
    if as_json:
        echo_json(answer.model_dump())
        return
    print_answer(answer)


def print_answer(answer: object, *, width: int = 96) -> None:
    from curbside.types import Answer

    assert isinstance(answer, Answer)
    if answer.status == "clarify":
        click.echo(f"Before answering: {answer.clarifying_question}")
        return
    label = {"answered": "", "no_source": "No source: ", "degraded": "Degraded: "}[answer.status]
    click.echo(textwrap.fill(label + answer.answer, width=width))
    if answer.citations:
        click.echo("\nSources:")
    for c in answer.citations:
        where = " > ".join(p for p in (c.title, c.section_path) if p)
        page = f", p. {c.page}" if c.page else ""
        click.echo(f"  [{c.n}] {where}{page}")
        click.echo(f"      id: {c.chunk_id}")
    for warning in answer.warnings:
        click.echo(f"warning: {warning}", err=True)
    meta = answer.metadata
    model = meta.get("model_used") or meta.get("mode") or "no answer"
    phi = {True: "; PHI found", False: "; no PHI found"}.get(meta.get("phi_detected"), "")  # type: ignore[arg-type]
    click.echo(f"\n({answer.status}; {model}{phi}; {meta.get('took_ms', 0):.0f} ms)")
