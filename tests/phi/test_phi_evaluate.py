"""The evaluator's arithmetic on tiny hand-made files, both formats, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curbside.errors import NotFoundError, ValidationError
from curbside.phi import PhiSpan
from curbside.phi.evaluate import PRESIDIO_SYNTH_TYPES, evaluate_phi, load_phi_dataset

NOTES = [
    # two gold spans: one found (overlap is enough), one missed; one false alarm
    {"text": "Dr Marder saw pt on 7/22 in Calvert.", "phi": [
        {"start": 3, "end": 9, "type": "HCPName", "text": "Marder"},
        {"start": 28, "end": 35, "type": "Location", "text": "Calvert"},
    ]},
    # one gold span found by two detections (both count as correct)
    {"text": "Son Bill Smith called.", "phi": [{"start": 4, "end": 14, "type": "RelativeProxyName", "text": "Bill Smith"}]},
    # no PHI, one false alarm
    {"text": "BP stable overnight.", "phi": []},
    # no PHI, nothing detected
    {"text": "Lungs clear.", "phi": []},
]  # fmt: skip

DETECTIONS = {
    "Dr Marder saw pt on 7/22 in Calvert.": [(0, 5), (20, 24)],  # "Dr Ma" overlaps Marder; 7/22 is not gold
    "Son Bill Smith called.": [(4, 8), (9, 14)],
    "BP stable overnight.": [(3, 9)],
    "Lungs clear.": [],
}


def fake_detect(text: str) -> list[PhiSpan]:
    """A fixed answer per text (the evaluator is under test here, not the detector)."""
    return [PhiSpan(s, e, "PERSON", 0.9, text[s:e]) for s, e in DETECTIONS[text]]


def write_jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_scores_by_overlap(tmp_path: Path) -> None:
    result = evaluate_phi(write_jsonl(tmp_path / "notes.jsonl", NOTES), fake_detect)
    assert (result["notes"], result["gold"], result["detected"]) == (4, 3, 5)
    assert result["recall"] == round(2 / 3, 4)  # Marder and Bill Smith found, Calvert missed
    assert result["precision"] == round(3 / 5, 4)  # "Dr Ma", "Bill", "Smith" right; "7/22", "stable" wrong
    p, r = 3 / 5, 2 / 3
    assert result["f2"] == round(5 * p * r / (4 * p + r), 4)
    assert result["by_type"] == {"HCPName": 1.0, "Location": 0.0, "RelativeProxyName": 1.0}
    assert result["by_phi_type"] == {"LOCATION": 0.0, "PERSON": 1.0}
    assert result["notes_without_phi"] == {"count": 2, "flagged": 1}
    assert result["format"] == "jsonl"
    assert set(result["latency_ms"]) == {"p50", "p95"}


def test_perfect_and_empty_detectors(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "notes.jsonl", NOTES)
    nothing = evaluate_phi(path, lambda text: [])
    assert (nothing["recall"], nothing["precision"], nothing["f2"]) == (0.0, 1.0, 0.0)
    gold = {n["text"]: n["phi"] for n in NOTES}
    exact = evaluate_phi(path, lambda t: [PhiSpan(g["start"], g["end"], "PERSON", 1.0, g["text"]) for g in gold[t]])
    assert (exact["recall"], exact["precision"], exact["f2"]) == (1.0, 1.0, 1.0)


def test_presidio_synth_labels_are_mapped_and_unscored_ones_ignored(tmp_path: Path) -> None:
    text = "Ana Lee, 93, of Acme Corp, lives at 12 Elm Street, Oulu; she is 45."
    rows = [{
        "full_text": text,
        "spans": [
            {"entity_type": "PERSON", "entity_value": "Ana Lee", "start_position": 0, "end_position": 7},
            {"entity_type": "AGE", "entity_value": "93", "start_position": 9, "end_position": 11},
            {"entity_type": "ORGANIZATION", "entity_value": "Acme Corp", "start_position": 16, "end_position": 25},
            {"entity_type": "STREET_ADDRESS", "entity_value": "12 Elm Street", "start_position": 36, "end_position": 49},
            {"entity_type": "GPE", "entity_value": "Oulu", "start_position": 51, "end_position": 55},
            {"entity_type": "AGE", "entity_value": "45", "start_position": 64, "end_position": 66},
        ],
    }]  # fmt: skip
    path = tmp_path / "synth.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    notes, fmt = load_phi_dataset(path)
    assert fmt == "presidio-synth"
    assert [(g.type, g.phi_type) for g in notes[0].spans] == [
        ("PERSON", "PERSON"), ("AGE", "AGE"), ("STREET_ADDRESS", "ADDRESS"), ("GPE", "LOCATION"),
    ]  # fmt: skip
    assert notes[0].ignored == [(16, 25), (64, 66)]  # the organisation and an age under 90

    def detect(t: str) -> list[PhiSpan]:  # finds the organisation only: neither right nor wrong
        return [PhiSpan(16, 25, "LOCATION", 0.9, t[16:25])]

    result = evaluate_phi(path, detect)
    assert (result["gold"], result["detected"], result["recall"], result["precision"]) == (4, 0, 0.0, 1.0)


def test_every_presidio_label_has_a_decision() -> None:
    assert set(PRESIDIO_SYNTH_TYPES) >= {
        "PERSON", "STREET_ADDRESS", "GPE", "ORGANIZATION", "CREDIT_CARD", "DATE_TIME", "TITLE", "PHONE_NUMBER",
        "AGE", "NRP", "EMAIL_ADDRESS", "ZIP_CODE", "DOMAIN_NAME", "IBAN_CODE", "US_SSN", "IP_ADDRESS",
        "US_DRIVER_LICENSE",
    }  # fmt: skip


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="not found"):
        load_phi_dataset(tmp_path / "nope.jsonl")


@pytest.mark.parametrize(
    ("second_line", "message"),
    [
        ("{not json", "line 2: not valid JSON"),
        ('["a list"]', 'line 2: each line must be an object with a "text" string'),
        ('{"text": "abc", "phi": {"start": 0}}', 'line 2: "phi" must be a list'),
        ('{"text": "abc", "phi": [{"start": 1, "end": 9, "type": "Date"}]}', "line 2: span offsets 1-9 do not fit"),
        ('{"text": "abc", "phi": [{"start": 0, "end": 2}]}', 'line 2: span 0-2 has no "type"'),
    ],
)
def test_malformed_rows_name_their_line(tmp_path: Path, second_line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine", "phi": []}\n' + second_line + "\n", encoding="utf-8")
    with pytest.raises(ValidationError, match=message):
        load_phi_dataset(path)


def test_malformed_presidio_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[{"full_text": "abc", "spans": [{"entity_type": "PERSON", "start_position": 2, '
                    '"end_position": 40}]}]', encoding="utf-8")  # fmt: skip
    with pytest.raises(ValidationError, match="item 0: span offsets 2-40"):
        load_phi_dataset(path)
    path.write_text("", encoding="utf-8")
    with pytest.raises(ValidationError, match="no notes"):
        load_phi_dataset(path)
