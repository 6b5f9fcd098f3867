"""Limited Use notes grouped into criteria, one per Reason for Use code.

A group's ``lccNote`` elements come in ``seq`` order: a note with a
``reasonForUseId`` holds a code's criteria; typed notes follow it (type R
often continues the criteria or gives "LU Authorization Period: …", N a note
on dose). A type T note precedes codes as a one-line heading, e.g.
"Osteoarthritis". The types' meanings are not documented, so grouping goes by
position only: each typed note joins the code before it (a T note opens the
next one), and types stay visible as written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["LuGroup", "group_notes"]

_PERIOD = "LU Authorization Period:"


class NoteLike(Protocol):
    @property
    def seq(self) -> str | None: ...

    @property
    def note_type(self) -> str | None: ...

    @property
    def reason_for_use_id(self) -> str | None: ...

    @property
    def text(self) -> str: ...


@dataclass(slots=True)
class LuGroup:
    code: str | None  # the Reason for Use code; None for notes before any code
    heading: str | None  # the type T note before the code, e.g. 'Osteoarthritis'
    criteria: str  # the code's own text
    notes: list[tuple[str | None, str]] = field(default_factory=list)  # (type as written, text) after it
    authorization_period: str | None = None  # from an 'LU Authorization Period: …' note

    def full_text(self) -> str:
        return "\n\n".join([self.criteria, *(text for _, text in self.notes)]).strip()


def _order(note: NoteLike) -> tuple[int, str]:
    seq = note.seq or ""
    return (int(seq), seq) if seq.isdigit() else (1 << 30, seq)


def group_notes(notes: Iterable[NoteLike]) -> list[LuGroup]:
    out: list[LuGroup] = []
    heading: str | None = None
    for note in sorted(notes, key=_order):
        if note.reason_for_use_id:
            out.append(LuGroup(note.reason_for_use_id, heading, note.text))
            heading = None
        elif note.note_type == "T" and len(note.text) < 120:
            heading = note.text
        else:
            if not out or heading is not None:
                out.append(LuGroup(None, heading, ""))
                heading = None
            target = out[-1]
            if note.text.startswith(_PERIOD):
                target.authorization_period = note.text[len(_PERIOD) :].strip()
            target.notes.append((note.note_type, note.text))
    return out
