"""Patient-fold cross-validation: a patient's notes stay in one fold, the split is the same for the
same seed, every fold is scored, and `curbside eval phi --folds` reports them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.cli import cli
from curbside.errors import ValidationError
from curbside.phi import PhiSpan
from curbside.phi.evaluate import load_phi_dataset
from curbside.phi.folds import cross_validate, patient_folds
from curbside.phi.scoring import GoldNote, GoldSpan


def note(patient: int | None, text: str = "Dr Marder saw pt.", gold: bool = True) -> GoldNote:
    spans = [GoldSpan(3, 9, "HCPName", "PERSON")] if gold else []
    return GoldNote(text, spans, patient=patient)


NOTES = [note(p) for p in (1, 1, 1, 3, 3, 5, 7, 7, 9, 11, 13, 13, 15, 17)]


def test_a_patients_notes_stay_together() -> None:
    folds = patient_folds(NOTES, 3, seed=0)
    assert sum(map(len, folds)) == len(NOTES)
    where = {n.patient: i for i, fold in enumerate(folds) for n in fold}
    assert all(where[n.patient] == i for i, fold in enumerate(folds) for n in fold)
    assert max(map(len, folds)) - min(map(len, folds)) <= 3  # dealt largest patient first, to the smallest fold


def test_the_split_is_the_same_for_the_same_seed_and_moves_with_the_seed() -> None:
    def patients(seed: int) -> list[set[int | str | None]]:
        return [{n.patient for n in fold} for fold in patient_folds(NOTES, 3, seed=seed)]

    assert patients(0) == patients(0)
    assert any(patients(seed) != patients(0) for seed in range(1, 6))


def test_notes_without_a_patient_each_stand_alone() -> None:
    folds = patient_folds([note(None) for _ in range(6)], 3)
    assert [len(f) for f in folds] == [2, 2, 2]


@pytest.mark.parametrize(
    ("k", "message"), [(1, "at least 2 folds"), (10, "10 folds need at least 10 patients; the file has 9")]
)
def test_bad_fold_counts_are_refused(k: int, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        patient_folds(NOTES, k)


def test_cross_validate_scores_every_fold_and_the_worst() -> None:
    def finds_patient_1_only(text: str) -> list[PhiSpan]:
        return [PhiSpan(3, 9, "PERSON", 0.9, text[3:9])] if text.startswith("Dr Marder saw pt 1") else []

    notes = [note(p, f"Dr Marder saw pt {p}.") for p in (1, 1, 2, 3)]
    result = cross_validate(notes, finds_patient_1_only, k=2, seed=0)
    assert result["folds"] == 2 and len(result["runs"]) == 2
    by_fold = {tuple(r["patients"]): r["recall"] for r in result["runs"]}
    assert by_fold[(1,)] == 1.0  # patient 1's two notes make one fold; 2 and 3 the other
    assert by_fold[(2, 3)] == 0.0
    assert result["summary"]["recall"] == {"mean": 0.5, "min": 0.0}
    assert result["summary"]["by_type"]["HCPName"] == {"mean": 0.5, "min": 0.0}


def test_jsonl_patient_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"patient": 7, "text": "ok", "phi": []}\n{"text": "no patient", "phi": []}\n', encoding="utf-8")
    notes, _ = load_phi_dataset(path)
    assert [n.patient for n in notes] == [7, None]
    path.write_text('{"patient": [7], "text": "ok", "phi": []}\n', encoding="utf-8")
    with pytest.raises(ValidationError, match='line 1: "patient" must be a number or a string'):
        load_phi_dataset(path)


ROWS = [
    {"patient": p, "text": f"Dr. Marder saw pt {p} on 7/22.", "phi": [
        {"start": 4, "end": 10, "type": "HCPName", "text": "Marder"},
        {"start": 22 + len(str(p)), "end": 26 + len(str(p)), "type": "Date", "text": "7/22"},
    ]}
    for p in (1, 3, 5, 7)
]  # fmt: skip


def test_cli_folds_json_and_table(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS), encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", "phi", str(path), "--folds", "2", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["folds"], data["seed"], len(data["runs"])) == (2, 3, 2)
    assert sorted(p for run in data["runs"] for p in run["patients"]) == [1, 3, 5, 7]
    assert all(run["recall"] == 1.0 and run["by_type"] == {"Date": 1.0, "HCPName": 1.0} for run in data["runs"])
    assert data["summary"]["recall"] == {"mean": 1.0, "min": 1.0}

    table = CliRunner().invoke(cli, ["eval", "phi", str(path), "--folds", "2"])
    assert table.exit_code == 0, table.output
    lines = table.output.splitlines()
    assert "2 patient folds, seed 0" in lines[0]
    assert "HCPName" in lines[2] and "Date" in lines[2]
    assert [line.split()[0] for line in lines[3:]] == ["0", "1", "mean", "min"]


def test_cli_folds_errors_before_the_model_loads(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS), encoding="utf-8")
    too_many = CliRunner().invoke(cli, ["eval", "phi", str(path), "--folds", "5"])
    assert too_many.exit_code == 2 and "Error [VALIDATION_ERROR]: 5 folds need at least 5 patients" in too_many.output
    one = CliRunner().invoke(cli, ["eval", "phi", str(path), "--folds", "1"])
    assert one.exit_code == 2 and "--folds" in one.output
