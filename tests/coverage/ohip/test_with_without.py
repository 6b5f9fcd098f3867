"""A question's 'no X' / 'without X' against a title's 'with X' / 'without X' (#14). Titles are the Schedule's own
(ohip-schedule-of-benefits-2025-03-03.txt, N26-N27: lines 33209, 33246)."""

from __future__ import annotations

from curbside.coverage.ohip.with_without import by_with_or_without, not_contradicted

TEXTS = {
    "F110": "Neck without dislocation of head: closed reduction with anaesthetic",
    "D015": "Glenohumeral joint - closed reduction without anaesthetic",
    "D016": "Glenohumeral joint - closed reduction with anaesthetic",
    "F201": "Closed reduction, fracture/dislocation (Halo or caliper traction)",
}
SCORES = {"F110": 3.0, "D016": 2.8, "F201": 2.0, "D015": 1.9}


def test_no_x_in_the_question_puts_a_title_without_x_first_and_leaves_one_with_x_out() -> None:
    question = "reduced an anterior shoulder dislocation with just traction, no anaesthetic at all"
    # 'without dislocation' in F110's title does not count for it: the question's 'no' is of the anaesthetic
    assert by_with_or_without(["F110", "D016", "F201"], SCORES, question, TEXTS, 0.5) == ["D015", "F201"]


def test_with_x_in_the_question_leaves_a_title_without_x_out() -> None:
    question = "closed reduction of a shoulder dislocation with anaesthetic"
    ordered = by_with_or_without(["D015", "F201", "D016"], SCORES, question, TEXTS, 0.5)
    assert ordered[0] == "F110" and "D015" not in ordered


def test_a_question_naming_neither_or_only_contradicted_titles_keeps_the_order() -> None:
    codes = ["F110", "D016", "F201"]
    assert by_with_or_without(codes, SCORES, "closed reduction of a shoulder dislocation", TEXTS, 0.5) == codes
    only = {"F110": TEXTS["F110"], "D016": TEXTS["D016"]}
    assert by_with_or_without(["F110", "D016"], {"F110": 3.0, "D016": 2.8}, "no anaesthetic", only, 0.5) == [
        "F110",
        "D016",
    ]


def test_an_agreeing_title_far_below_the_best_words_is_not_brought_forward() -> None:
    scores = {"F110": 3.0, "D016": 2.8, "F201": 2.0, "D015": 0.5}
    ordered = by_with_or_without(["F110", "D016", "F201"], scores, "no anaesthetic", TEXTS, 0.5)
    assert ordered == ["F201"]


def test_a_title_saying_when_sutures_are_used_or_not_meets_the_questions_stitches() -> None:
    texts = {  # M1
        "Z113": "Biopsy(ies) - any method, when sutures are not used",
        "Z116": "Biopsy(ies) - any method, when sutures are used",
        "Z156": "Removal by excision and suture - single lesion",
    }
    scores = {"Z113": 3.0, "Z116": 3.0, "Z156": 2.9}
    question = "punch biopsy of a skin lesion, didn't need stitches - code and fee?"
    # Z156 "… excision and suture" is named by the sutures the question did without: left out as well
    assert by_with_or_without(["Z113", "Z116", "Z156"], scores, question, texts, 0.5) == ["Z113"]
    question = "punch bx of a suspicious mole in the office, closed it w/ 2 stitches - code & fee?"
    assert by_with_or_without(["Z156", "Z113"], scores, question, texts, 0.5) == ["Z116", "Z156"]


def test_a_title_agreeing_only_by_the_thing_is_not_put_first() -> None:
    texts = {  # M1, M14
        "Z113": "Biopsy(ies) - any method, when sutures are not used",
        "Z176": "Repair of lacerations - up to 5 cm",
    }
    scores = {"Z176": 3.0, "Z113": 2.5}
    question = "closed a 2 cm scalp lac on a kid w/ skin glue, no stitches - what code?"
    assert by_with_or_without(["Z176"], scores, question, texts, 0.5) == ["Z113", "Z176"]
    assert by_with_or_without(["Z176"], scores, question, texts, 0.5, lambda code: code != "Z113") == ["Z176"]
    # nor when the words found it among the codes answered
    assert by_with_or_without(["Z176", "Z113"], scores, question, texts, 0.5, lambda c: c != "Z113") == ["Z176", "Z113"]


def test_a_titles_no_x_and_under_x_are_read_as_without_and_with() -> None:
    texts = {  # S27
        "Z541": "Dilation and/or disimpaction or removal of foreign body under general anaesthetic (as sole procedure)",
        "Z756": "Fecal disimpaction - no anaesthetic",
    }
    scores = {"Z541": 3.0, "Z756": 2.9}
    question = "manual disimpaction, no anaesthetic, elderly pt - billable? code?"
    assert by_with_or_without(["Z541", "Z756"], scores, question, texts, 0.5) == ["Z756"]


def test_a_count_says_with_and_before_or_after_says_without_or_with() -> None:
    # V6: Z787 "Follow-up colposcopy with biopsy(ies)", Z730 "Follow up colposcopy without biopsy"; J15:
    # J327 "Volume versus Flow Study - … repeat after bronchodilator" beside J304 (the study itself)
    texts = {
        "Z730": "Follow up colposcopy without biopsy",
        "Z787": "Follow-up colposcopy with biopsy(ies)",
        "J327": "Volume versus Flow Study - repeat after bronchodilator",
        "J304": "Volume versus Flow Study - from which an expiratory limb, and inspiratory limb if indicated",
    }
    scores = {"Z730": 3.0, "Z787": 2.9}
    question = "follow up colpo for LSIL, took 2 biopsies this time - what do I bill?"
    assert by_with_or_without(["Z730", "Z787"], scores, question, texts, 0.5) == ["Z787"]
    scores = {"J327": 3.0, "J304": 2.9}
    question = "what code for a flow volume loop in the office (before bronchodilator)?"
    assert by_with_or_without(["J327", "J304"], scores, question, texts, 0.5) == ["J304"]
    question = "flow volume loop repeated after bronchodilator"
    assert by_with_or_without(["J304", "J327"], scores, question, texts, 0.5)[0] == "J327"


# J35-J36 (hyperbaric oxygen therapy) and M14 (complex laceration repair), the Schedule's titles
HYPERBARIC = {
    "G804": "Physician in hyperbaric unit but not in chamber(s) with patient(s), per session per patient - first ¼ hour",
    "G807": "Physician not in constant attendance - not in the hyperbaric unit, supervision",
    "G800": "Physician in chamber with patient(s), per session per patient - first ¼ hour",
}
LACERATIONS = {
    "Z187": "Complex laceration repair, face",
    "Z188": "Complex laceration repair, anatomical area other than face, (except digit, zone 1 repair)",
}


def test_a_title_excluding_what_the_question_names_is_contradicted() -> None:
    question = (
        "hyperbaric unit - I'm physically IN the chamber w/ the pt for the dive. what do I bill for the 1st 15 min?"
    )
    scores = {"G804": 1.07, "G807": 0.69, "G800": 0.67}
    assert by_with_or_without(["G804", "G807", "G800"], scores, question, HYPERBARIC, 0.5) == ["G800"]
    assert not_contradicted(["G804", "G807", "G800"], question, HYPERBARIC) == ["G800"]
    # a question naming none of the things excluded leaves every title
    assert not_contradicted(["G804", "G800"], "hyperbaric oxygen - what do I bill?", HYPERBARIC) == ["G804", "G800"]


def test_non_x_agrees_with_a_title_other_than_x() -> None:
    question = "deep shin lac, closed 3 layers - is there a complex repair code for non-face?"
    ordered = by_with_or_without(["Z187", "Z188"], {"Z187": 0.77, "Z188": 0.74}, question, LACERATIONS, 0.5)
    assert ordered[0] == "Z188"
    assert not_contradicted(["Z188"], "7 cm face lac, complex repair", LACERATIONS) == []


def test_a_title_named_by_what_the_question_did_without_is_contradicted() -> None:
    """J116: G192 "Video fluoroscopic multichannel urodynamic assessment", G193 "Complete multichannel urodynamic
    assessment …"; GP75: B993 "… Patient's Home … (non-elective)" says without it, as the question does."""
    texts = {
        "G192": "Video fluoroscopic multichannel urodynamic assessment",
        "G193": "Complete multichannel urodynamic assessment - to include monitoring of intravesicular pressures",
        "B993": "Special visit premium: Special Visits to Patient's Home — First person seen, Saturdays (non-elective)",
    }
    question = "full urodynamic study w/ EMG, no fluoroscopy - codes?"
    assert not_contradicted(["G192", "G193"], question, texts) == ["G193"]
    assert not_contradicted(["B993"], "non-elective house call on a Saturday - first person premium?", texts) == [
        "B993"
    ]
