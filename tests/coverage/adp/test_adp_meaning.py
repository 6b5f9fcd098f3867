"""Questions in everyday words: rules and categories found by what the question means (real July 2023 manuals).

Sentences read in the manuals: ADP Manual §220.03 p. 29 ("lost or stolen"), §220.04 p. 30 ("damaged due to
misuse or negligence"), §105.05 p. 13 (the categories: Pressure Modification Devices, the Maxillofacial,
Ocular, Limb and Breast Prostheses, whose own manuals are not loaded); Mobility Devices manual §410.01 p. 24
("The scooter is not intended to be a replacement for a car or another transportation modality").
"""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from curbside.coverage.adp.meaning import QuestionMeaning
from curbside.coverage.adp.query import plan
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult

CONFIDENT = 0.7


def ask(adp: AdpService, q: str) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(q=q)))


@pytest.mark.parametrize(
    ("question", "lost"),
    [
        ("she lost her walker on the bus - will ADP replace it?", True),
        ("his hearing aids were stolen", True),
        ("the scooter was lost in the move", True),
        ("lost his nose to a tumour resection, needs a prosthesis", False),
        ("lost his licence and wants a scooter", False),
        ("she lost 20 kg and the chair no longer fits", False),
    ],
)
def test_a_loss_is_of_a_device(question: str, lost: bool) -> None:
    assert ("loss_theft" in plan(AdpGetArgs(q=question)).topics) is lost


@pytest.mark.parametrize(
    "question", ["grandson smashed her walker horsing around", "he wrecked the chair", "goofing around on it"]
)
def test_damage_by_misuse_in_everyday_words(question: str) -> None:
    assert "misuse" in plan(AdpGetArgs(q=question)).topics


def test_a_category_is_recognised_only_when_clearly_nearest() -> None:
    clear = QuestionMeaning(np.zeros(0), {"Pressure Modification Devices": 0.45, "Home Oxygen": 0.2})
    close = QuestionMeaning(np.zeros(0), {"Hearing Devices": 0.45, "Ocular Prostheses": 0.4})
    far = QuestionMeaning(np.zeros(0), {"Mobility Devices": 0.3, "Home Oxygen": 0.1})
    assert clear.nearest_category() == "Pressure Modification Devices"
    assert close.nearest_category() is None
    assert far.nearest_category() is None


def test_a_category_named_in_everyday_words_is_not_loaded(adp: AdpService) -> None:
    result = ask(adp, "pt confined to bed with a heel pressure sore - does ADP pay for a pressure-relieving mattress?")
    assert result.device is not None and result.device.category == "Pressure Modification Devices"
    assert "not loaded" in result.summary
    assert result.confidence < CONFIDENT


def test_a_lost_body_part_is_no_lost_device(adp: AdpService) -> None:
    result = ask(adp, "my patient lost his nose to a tumour resection and needs a prosthetic nose - will ADP help?")
    assert "lost or stolen" not in result.summary
    assert "not loaded" in result.summary  # every prosthesis category it may be has its manual not loaded
    assert result.confidence < CONFIDENT


def test_a_wrecked_device_is_damage_by_misuse(adp: AdpService) -> None:
    result = ask(adp, "her grandson smashed her ADP walker horsing around on it - will ADP pay for a new one?")
    assert "misuse or negligence" in result.summary


def test_a_scooter_instead_of_driving_is_no_car_replacement(adp: AdpService) -> None:
    result = ask(adp, "my pt can no longer drive and wants ADP to fund a power scooter to get to the shops - ok?")
    assert "not intended to be a replacement for a car" in result.summary
    assert "lost or stolen" not in result.summary


def test_a_sentence_far_from_the_meaning_is_not_quoted(adp: AdpService) -> None:
    # 'lost' is shared with §220.03's "lost or stolen", but the question is about a licence, not a device
    result = ask(adp, "pt lost her licence - can ADP fund a power scooter?")
    assert "lost or stolen" not in result.summary
