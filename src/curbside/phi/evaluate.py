"""Score the PHI detector on labelled notes: span recall, precision and F2.

A gold span counts as found when any detected span overlaps it (recall); a detected span
counts as correct when it overlaps any gold span (precision). Types are ignored overall;
``by_type`` is the recall of each gold type. F2 = 5PR / (4P + R) weighs recall four times
as much as precision: a missed name costs more than an extra redaction.

Two file formats:

* ``jsonl``: one note per line, ``{"text": ..., "phi": [{"start", "end", "type", "text"}]}``
  (the PhysioNet deid notes in ``shared/data/phi/physionet-deid-dev``);
* ``presidio-synth``: the JSON list of Presidio's synthetic sentences
  (``{"full_text", "spans": [{"entity_type", "start_position", "end_position", ...}]}``), its labels
  mapped to Curbside's types by ``PRESIDIO_SYNTH_TYPES``. Labels outside Curbside's PHI list
  (ORGANIZATION, TITLE, NRP, DOMAIN_NAME, IP_ADDRESS, and ages of 89 or less) are not scored:
  they are no gold, and a detection that overlaps only them is neither right nor wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from curbside.errors import NotFoundError, ValidationError
from curbside.phi._spans import PhiSpan
from curbside.phi.scoring import GoldNote, GoldSpan, score_notes

__all__ = [
    "PHYSIONET_TYPES",
    "PRESIDIO_SYNTH_TYPES",
    "evaluate_phi",
    "load_phi_dataset",
]

DatasetFormat = Literal["auto", "jsonl", "presidio-synth"]

#: presidio-research synth_dataset_v2 label -> Curbside PHI type (None: not scored).
PRESIDIO_SYNTH_TYPES: dict[str, str | None] = {
    "PERSON": "PERSON",
    "STREET_ADDRESS": "ADDRESS",
    "ZIP_CODE": "ADDRESS",
    "GPE": "LOCATION",
    "DATE_TIME": "DATE",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "US_SSN": "SIN_SSN",
    "CREDIT_CARD": "ID",
    "IBAN_CODE": "ID",
    "US_DRIVER_LICENSE": "ID",
    "AGE": "AGE",  # scored only when the age is over 89
    "ORGANIZATION": None,
    "TITLE": None,
    "NRP": None,
    "DOMAIN_NAME": None,
    "IP_ADDRESS": None,
}
#: PhysioNet deid gold types -> Curbside PHI types (for ``by_phi_type``).
PHYSIONET_TYPES: dict[str, str] = {
    "HCPName": "PERSON",
    "PTName": "PERSON",
    "PTNameInitial": "PERSON",
    "RelativeProxyName": "PERSON",
    "Date": "DATE",
    "DateYear": "DATE",
    "Age": "AGE",
    "Phone": "PHONE",
    "Location": "LOCATION",
    "Other": "ID",
}


def load_phi_dataset(path: Path, fmt: DatasetFormat = "auto") -> tuple[list[GoldNote], str]:
    """The notes of ``path`` and the format read; clear errors for a missing or malformed file."""
    if not path.is_file():
        raise NotFoundError(f"PHI dataset {str(path)!r} not found (give a .jsonl file or presidio-synth .json).")
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{path}: not UTF-8 text ({exc}).") from exc
    if fmt == "auto":
        fmt = "presidio-synth" if raw.lstrip().startswith("[") else "jsonl"
    notes = _read_presidio_synth(raw, path) if fmt == "presidio-synth" else _read_jsonl(raw, path)
    if not notes:
        raise ValidationError(f"{path}: no notes in the file.")
    return notes, fmt


def _read_jsonl(raw: str, path: Path) -> list[GoldNote]:
    notes = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"{where}: not valid JSON ({exc.msg}).") from exc
        if not isinstance(row, dict) or not isinstance(row.get("text"), str):
            raise ValidationError(f'{where}: each line must be an object with a "text" string.')
        phi = row.get("phi", [])
        if not isinstance(phi, list):
            raise ValidationError(f'{where}: "phi" must be a list of spans.')
        spans = []
        for item in phi:
            if not isinstance(item, dict):
                raise ValidationError(f'{where}: each "phi" span must be an object.')
            start, end = _offsets(item.get("start"), item.get("end"), row["text"], where)
            label = item.get("type")
            if not isinstance(label, str) or not label:
                raise ValidationError(f'{where}: span {start}-{end} has no "type".')
            spans.append(GoldSpan(start, end, label, PHYSIONET_TYPES.get(label, label)))
        patient = row.get("patient")
        if patient is not None and not isinstance(patient, int | str):
            raise ValidationError(f'{where}: "patient" must be a number or a string.')
        notes.append(GoldNote(row["text"], spans, patient=patient))
    return notes


def _read_presidio_synth(raw: str, path: Path) -> list[GoldNote]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno}).") from exc
    if not isinstance(data, list):
        raise ValidationError(f"{path}: a presidio-synth file is a JSON list of sentences.")
    notes = []
    for index, row in enumerate(data):
        where = f"{path}, item {index}"
        if not isinstance(row, dict) or not isinstance(row.get("full_text"), str):
            raise ValidationError(f'{where}: each item must be an object with a "full_text" string.')
        text = row["full_text"]
        spans, ignored = [], []
        for item in row.get("spans") or []:
            if not isinstance(item, dict):
                raise ValidationError(f"{where}: each span must be an object.")
            start, end = _offsets(item.get("start_position"), item.get("end_position"), text, where)
            label = str(item.get("entity_type", ""))
            phi_type = PRESIDIO_SYNTH_TYPES.get(label)
            if phi_type == "AGE" and not _over_89(text[start:end]):
                phi_type = None
            if phi_type is None:
                ignored.append((start, end))
            else:
                spans.append(GoldSpan(start, end, label, phi_type))
        notes.append(GoldNote(text, spans, ignored))
    return notes


def _offsets(start: object, end: object, text: str, where: str) -> tuple[int, int]:
    if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start < end <= len(text):
        raise ValidationError(f"{where}: span offsets {start!r}-{end!r} do not fit a text of {len(text)} characters.")
    return start, end


def _over_89(value: str) -> bool:
    digits = "".join(c for c in value if c.isdigit())
    return bool(digits) and int(digits) > 89


def evaluate_phi(
    path: Path,
    detect: Callable[[str], list[PhiSpan]],
    *,
    fmt: DatasetFormat = "auto",
    folds: int | None = None,
    seed: int = 0,
    on_start: Callable[[int], None] | None = None,
    on_note: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Load ``path``, score ``detect`` on it, and name the dataset and format in the result.

    With ``folds``, the notes are split by patient (``curbside.phi.folds``) and each fold is
    scored on its own; the result holds every fold and their mean and minimum.
    """
    notes, read_as = load_phi_dataset(path, fmt)
    if folds is not None:
        from curbside.phi.folds import patient_folds

        patient_folds(notes, folds, seed)  # a bad fold count fails before any note is read
    if on_start is not None:
        on_start(len(notes))
    if folds is None:
        result = score_notes(notes, detect, on_note=on_note)
    else:
        from curbside.phi.folds import cross_validate

        result = cross_validate(notes, detect, k=folds, seed=seed, on_note=on_note)
    return {"dataset": str(path), "format": read_as, **result}
