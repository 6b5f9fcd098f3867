from __future__ import annotations

from curbside.llm.extractive import answer_kind, extractive_answer, passage_units, terms
from curbside.types import Passage


def passage(doc: str, text: str, title: str = "Guide", section: str = "") -> Passage:
    return Passage(
        chunk_id=f"{doc}:v1:0",
        doc_key=doc,
        title=title,
        section_path=section,
        score=1.0,
        text=f"{title} > {section}\n\n{text}" if section else f"{title}\n\n{text}",
    )


def test_best_sentences_are_quoted_in_passage_order_with_markers() -> None:
    first = passage(
        "a",
        "Hypertension is common. Measure blood pressure in both arms at the first visit. "
        "Confirm hypertension with home or ambulatory monitoring before treating it.",
    )
    second = passage("b", "Thiazide diuretics are a first-line treatment of hypertension in adults.")
    answer = extractive_answer("how to confirm hypertension before treating", [first, second], 3)
    assert "Hypertension is common." not in answer.text  # shares one word only: outranked
    assert "Confirm hypertension with home or ambulatory monitoring before treating it. [1]" in answer.text
    positions = [answer.text.index(s.text) for s in answer.sentences]
    assert positions == sorted(positions)
    assert [c.n for c in answer.citations] == list(range(1, len(answer.citations) + 1))
    assert answer.citations[0].chunk_id == "a:v1:0"


def test_word_families_meet() -> None:
    assert terms("pregnant diabetic doses") == terms("pregnancy diabetes dose")


def test_repeats_headings_and_page_furniture_are_left_out() -> None:
    text = (
        "Metformin and renal function\n\n"
        "Starting metformin is not recommended when the eGFR is between 30 and 45. "
        "Click to view the metformin table in a new window. "
        "Starting metformin is not recommended when the eGFR is between 30 and 45!"
    )
    answer = extractive_answer("starting metformin eGFR 30 to 45", [passage("m", text)], 4)
    assert answer.text == "Starting metformin is not recommended when the eGFR is between 30 and 45. [1]"


def test_no_shared_word_falls_back_to_the_top_passage_opening() -> None:
    top = passage("t", "Artemisinin combinations are given for three days. Severe cases need artesunate.")
    answer = extractive_answer("zzz qqq", [top], 4)
    assert answer.text.startswith("Artemisinin combinations are given for three days. [1]")


def test_label_lines_under_a_heading_answer_through_their_context() -> None:
    # the CEP page files sertraline's dose as list items under "Dosing", inside the drug's section
    text = (
        "Selective Serotonin Reuptake Inhibitors (SSRIs)\n\n25 mg, 50 mg, 100 mg capsule\n\n"
        "Coverage: ODB; NIHB\n\nDosing\n\nInitial: 25-50 mg daily (am/pm)\n\nMax: 200 mg daily\n\n"
        "Side effects\n\nGI: nausea, vomiting, diarrhea"
    )
    drug = passage(
        "cep", text, "Anxiety and Depression", "Management > First-line medication options > Sertraline (Zoloft®)"
    )
    answer = extractive_answer("sertraline starting dose?", [drug], 4)
    assert answer.text.startswith("Initial: 25-50 mg daily (am/pm) [1]")
    assert "Side effects" not in answer.text and "Dosing [1]" not in answer.text  # headings are context only
    assert "Max: 200 mg daily" in extractive_answer("maximum daily dose of sertraline?", [drug], 4).text


def test_short_lines_under_a_heading_are_its_items_not_headings() -> None:
    # the CEP page lists a drug's warnings as short lines under "Warnings": each is an item read under that
    # heading, not the heading of the line after it
    text = (
        "Dosing\n\nInitial: 150 mg daily\n\nWarnings\n\nAngioedema\n\nHypersensitivity reactions\n\n"
        "Caution in renal impairment\n\nNew-onset congestive heart failure in CV-compromised adults"
    )
    drug = passage("cep", text, "Anxiety and Depression", "Management > First-line medication options > Pregabalin")
    units = {u.text: u for u in passage_units(drug, 0)}
    assert "Caution in renal impairment" in units and "Hypersensitivity reactions" not in units  # two words: too short
    assert "warnin" in units["New-onset congestive heart failure in CV-compromised adults"].context
    assert "renal" not in units["New-onset congestive heart failure in CV-compromised adults"].context
    answer = extractive_answer("pregabalin in CKD - any renal caution?", [drug], 4)
    assert "Caution in renal impairment [1]" in answer.text
    # a subheading over prose, or a numbered clause's title, still heads what follows
    nested = "Treatment\n\nFirst-line drug classes\n\nFirst-line options are a thiazide diuretic or an ACE inhibitor."
    assert {"firstl", "class"} <= passage_units(passage("htn", nested), 0)[0].context
    clause = "Goals:\n\n525.01 Power Tilt or Power Recline\n\n1. Maintain skin integrity where there is a risk"
    units = passage_units(passage("adp", clause), 0)
    assert [u.text for u in units] == ["Maintain skin integrity where there is a risk"]
    assert "tilt" in units[0].context
    # a manual's numbered section title too (Mobility Devices manual §805): a heading, not an answer about errors
    section = "805 ADP Processing Errors\n\nThe Authorizer must notify the ADP in writing of the error(s)."
    units = passage_units(passage("adp", section), 0)
    assert [u.text for u in units] == ["The Authorizer must notify the ADP in writing of the error(s)."]
    assert {"proces", "error"} <= units[0].context


def test_a_short_line_between_two_short_items_is_one_of_them_not_a_heading() -> None:
    # the CEP page's Citalopram (Celexa®) card lists its warnings with no heading over them; a short line after
    # an item and before another is an item too ("Hyponatremia (especially in elderly)" was read as the heading
    # of the line after it, and no answer could quote it)
    text = (
        "Max: 40 mg daily\n\nAgitation/anxiety may worsen initially (first 1-2 weeks)\n\n"
        "Discontinuation symptoms (do not discontinue abruptly)\n\nFractures (especially in first 6 weeks)\n\n"
        "GI bleeding (consider gastroprotective agent if high risk)\n\nHyponatremia (especially in elderly)\n\n"
        "Serotonin syndrome/Neuroleptic malignant syndrome (NMS)\n\nSuicidal thinking & self-harm (patients <25)"
    )
    card = passage("cep", text, "Anxiety and Depression", "Management > First-line medication options > Citalopram")
    units = [u.text for u in passage_units(card, 0)]
    assert "Hyponatremia (especially in elderly)" in units
    assert "Discontinuation symptoms (do not discontinue abruptly)" in units
    answer = extractive_answer("84F starting citalopram - hyponatremia warning on the card?", [card], 4)
    assert "Hyponatremia (especially in elderly) [1]" in answer.text
    # a line telling what to do is an item though a labelled line comes before it
    paxil = "Other: weight gain, withdrawal effects\n\nAvoid in older adults and pregnancy\n\nFractures (especially in first 6 weeks)"
    assert "Avoid in older adults and pregnancy" in [u.text for u in passage_units(passage("cep", paxil), 0)]
    # a short line after prose still heads what follows it
    prose = "Take it in the morning.\n\nOther options\n\nSwitch to an SNRI if the first SSRI fails to help."
    assert {"option"} <= passage_units(passage("cep", prose), 0)[-1].context


def test_a_documents_terms_of_use_are_no_answer() -> None:
    # the CEP page's "Acknowledgment and legal" section: a question naming the CEP found it, and quoted it
    legal = (
        "This Tool is a product of the CEP. Use of this Tool for commercial purposes or any modifications of the Tool "
        "are subject to charge and must be negotiated with the CEP (info@cep.health).\n\nFor statistical and "
        "bibliographic purposes, please notify the CEP (info@cep.health) of any use or reprinting of the Tool.\n\n"
        "Clinical leadership of the resource was provided by Dr. Sharon Bal."
    )
    units = [u.text for u in passage_units(passage("cep", legal, "Anxiety and Depression", "Acknowledgment and legal"), 0)]
    assert units == ["Clinical leadership of the resource was provided by Dr. Sharon Bal."]


def test_one_item_of_a_list_of_short_lines_unless_another_names_more_of_the_question() -> None:
    text = (
        "Grants are paid for\n\nEnteral Feeding Equipment and Supplies\n\nInsulin Pumps Supplies\n\n"
        "Ostomy Supplies for Adults\n\nVentilator Equipment and Supplies"
    )
    grants = passage("adp", text, "ADP Policies and Procedures Manual", "Part 3 > Grants")
    answer = extractive_answer("are grants paid for supplies?", [grants], 4)
    assert answer.text.count("Supplies [1]") == 1
    both = extractive_answer("are grants paid for insulin pumps and ostomy supplies?", [grants], 4)
    assert "Insulin Pumps Supplies [1]" in both.text and "Ostomy Supplies for Adults [1]" in both.text


def test_a_title_with_a_bracketed_figure_heads_the_label_lines_below_it() -> None:
    # "($/100 days)" keeps the line from looking like a heading, yet it says what "SR: $66-207" is
    text = "Cost for usual dose ($/100 days)\n\nSR: $66-207\n\nXL: $41-72\n\nDosing (SR)\n\nUsual: 100-150 mg daily"
    drug = passage("cep", text, "Anxiety and Depression", "Management > Bupropion (Wellbutrin®)")
    units = {u.text: u for u in passage_units(drug, 0)}
    assert {"cost", "usual", "dose"} <= units["SR: $66-207"].context
    assert "cost" not in units["Usual: 100-150 mg daily"].context
    assert "Cost for usual dose ($/100 days)" in units  # still a unit of its own
    assert "SR: $66-207 [1]" in extractive_answer("bupropion SR cost per 100 days?", [drug], 4).text


def test_a_label_line_naming_a_scale_is_read_with_the_cut_offs_under_it() -> None:
    # the CEP page (Screening and assessment > … > Anxiety): the cut-off line names no scale; the line above does
    text = (
        "General anxiety disorder (GAD): Generalized Anxiety Disorder 7 (GAD-7)\n\n"
        "Cut off points for minimal (≤4), mild (score 5-9), moderate (score 10-14) and severe anxiety (score ≥15)\n\n"
        "Social anxiety disorder (SAD): Social Phobia Inventory (SPIN)\n\n"
        "Cut off points for minimal (score ≤20), mild (score 21-30), moderate (score 31-40), severe (score 41-50) "
        "and very severe social phobia (score ≥51)\n\n"
        "Max: 200 mg daily\n\nTake with food."
    )
    cep = passage("cep", text, "Anxiety and Depression", "Screening and assessment > Anxiety")
    units = [u.text for u in passage_units(cep, 0)]
    assert units[:2] == [
        "General anxiety disorder (GAD): Generalized Anxiety Disorder 7 (GAD-7): Cut off points for minimal (≤4), "
        "mild (score 5-9), moderate (score 10-14) and severe anxiety (score ≥15)",
        "Social anxiety disorder (SAD): Social Phobia Inventory (SPIN): Cut off points for minimal (score ≤20), mild "
        "(score 21-30), moderate (score 31-40), severe (score 41-50) and very severe social phobia (score ≥51)",
    ]
    assert "Max: 200 mg daily" in units  # a value, not a name: no line under it is read with it
    answer = extractive_answer("pt scored 26 on the SPIN for social anxiety - what severity band is that?", [cep], 4)
    assert "mild (score 21-30)" in answer.text and "mild (score 5-9)" not in answer.text


def test_lead_in_lines_are_context_not_answers() -> None:
    text = "ADP funding assistance may be requested for up to:\n\nTwo different ambulation aids (e.g. walker and crutches)."
    answer = extractive_answer("how many ambulation aids can ADP fund?", [passage("adp", text)], 4)
    assert answer.text == "Two different ambulation aids (e.g. walker and crutches). [1]"


def test_units_far_below_the_best_are_left_out() -> None:
    text = (
        "Initial: 25-50 mg daily (am/pm)\n\nDepression and anxiety often occur together in adults seen in primary care."
    )
    drug = passage("cep", text, "Guide", "Sertraline (Zoloft®) > Dosing")
    answer = extractive_answer("sertraline starting dose?", [drug], 4)
    assert answer.text == "Initial: 25-50 mg daily (am/pm) [1]"


def test_a_question_for_a_time_span_prefers_the_unit_that_gives_one() -> None:
    # ADP manual 600: funding periods are list items under a numbered clause heading
    text = (
        "600.02 Funding Periods\n\n"
        "Seating systems: replaced on request of the client and the authorizer.\n\n"
        "Seating systems: replaced once in 2 years by the program."
    )
    manual = passage("adp", text, "ADP manual", "Part 6: Device Eligibility > 600 Number of Devices Funded")
    assert extractive_answer("how often are seating systems replaced?", [manual], 1).text == (
        "Seating systems: replaced once in 2 years by the program. [1]"
    )
    assert "600.02" not in extractive_answer("how often are seating systems replaced?", [manual], 4).text


def test_an_echo_of_the_question_is_not_an_answer() -> None:
    side_effects = passage(
        "cep", "Urogenital: sexual dysfunction\n\nGI: nausea, vomiting, diarrhea", "CEP", "Citalopram > Side effects"
    )
    management = passage(
        "cep2",
        "Management: Wait and watch for improvement; Lower the dose; Switch medication if not manageable "
        "(switch to bupropion or mirtazapine)",
        "CEP",
        "Sexual side effects",
    )
    answer = extractive_answer(
        "SSRI sexual dysfunction not settling, what to switch to?", [side_effects, management], 1
    )
    assert "switch to bupropion or mirtazapine" in answer.text


def test_what_is_questions_prefer_the_sentence_that_opens_with_the_term() -> None:
    text = (
        "Most importantly, phenotypic complexity is dependent on the organism and its environment. "
        "Phenotypic complexity quantifies the number of genetically uncorrelated phenotypic traits."
    )
    answer = extractive_answer("what is phenotypic complexity?", [passage("p", text)], 1)
    assert answer.text.startswith("Phenotypic complexity quantifies")


def test_question_phrasing_and_hyphens_meet_the_source_words() -> None:
    assert "contra" in terms("who should not get bupropion?", question=True)
    assert {"gad"} <= set(terms("usual pregabalin dose for generalized anxiety disorder?", question=True))
    assert "postme" in terms("post-menopausal women") and "postme" in terms("postmenopausal women")
    assert terms("25-50 mg") == ["25-50", "mg"]  # number ranges keep their hyphen


def test_a_bulleted_line_is_a_candidate_however_short_and_is_quoted_without_its_bullet() -> None:
    # ADP manual (PDF): "800.00 … The Application Forms are as follows:" then "- " items
    text = "The Application Forms are as follows:\n\n- Application for Breast Prosthesis Grant\n\n- Hearing Devices"
    manual = passage("adp", text, "ADP manual", "Part 8: Application Forms")
    answer = extractive_answer("which application form for a breast prosthesis grant?", [manual], 4)
    assert answer.text.startswith("Application for Breast Prosthesis Grant [1]")
    assert all(not s.text.startswith("- ") for s in answer.sentences)


def test_a_patients_age_in_the_question_is_not_a_quantity_to_match() -> None:
    # seen on the CEP page: "... depression in a 15 year old?" was answered "Max: 15 mg daily"
    dosing = passage("cep", "Mirtazapine for depression. Max: 15 mg daily.", section="Depression > Dosing")
    options = passage(
        "cep",
        "First-line medication options: sertraline, escitalopram or fluoxetine.",
        section="Depression > First-line",
    )
    answer = extractive_answer("first-line medication for depression in a 15 year old?", [dosing, options], 1)
    assert "sertraline" in answer.text and "15 mg" not in answer.text


def test_a_list_under_a_lead_in_is_a_unit_of_its_own() -> None:
    # the CEP page's "Switch" table: the lead-in says what the items are, and no item says it
    body = (
        "When to consider:\n\nFirst antidepressant tried\n\nBothersome side effects\n\n"
        "<25% improvement on symptom scale\n\nThe patient prefers to switch\n\nAdvantages\n\n"
        "Lower overall CNS load\n\nEasier to discontinue (1 drug)"
    )
    switch = passage("cep", body, title="Anxiety and Depression", section="Depression > Overall approach > Switch")
    answer = extractive_answer(
        "when should I switch rather than add a second drug after the first antidepressant?", [switch], 4
    )
    listed = "When to consider: First antidepressant tried; Bothersome side effects; <25% improvement on symptom scale; The patient prefers to switch"
    assert f"{listed} [1]" in answer.text
    # the list ends at the one-word title of the next block; its items stay candidates of their own
    assert "Advantages;" not in answer.text
    assert any(s.text == "<25% improvement on symptom scale" for s in answer.candidates)


def test_a_list_needs_a_lead_in_the_question_asks_for_and_short_items() -> None:
    prose = (
        "When to consider:\n\nReview the dose every four weeks and check sodium at baseline.\n\nRepeat at 2-4 weeks."
    )
    answer = extractive_answer("when should I check sodium?", [passage("a", prose)], 3)
    assert not any(s.text.startswith("When to consider: ") for s in answer.candidates)  # sentences, not items
    forms = "The Application Forms are as follows:\n\n- Application for Breast Prosthesis Grant\n\n- Hearing Devices"
    answer = extractive_answer("which application form for a breast prosthesis grant?", [passage("b", forms)], 3)
    assert not any(s.text.startswith("The Application Forms") for s in answer.candidates)  # the item answers


def test_a_question_for_an_age_asks_for_the_age_kind_and_prefers_a_unit_that_states_one() -> None:
    from curbside.llm.extractive import answer_kind, asked_kind

    assert asked_kind("at what age should colorectal cancer screening start?") == "age"
    assert asked_kind("how old must a child be for the booster?") == "age"
    assert asked_kind("how long to continue an SSRI?") == "time span"
    # a count of weeks is a time span: "6-8 weeks" answers it, "49 questions" does not
    assert asked_kind("how many weeks of exercise before it counts as a trial?") == "time span"
    assert asked_kind("how many CBT sessions does the program offer?") == "count"
    assert asked_kind("dose in a 15 year old?") == "dose"  # an age in the question describes the patient
    shows = answer_kind("what age?")
    assert shows is not None
    for stated in ("aged 50", "ages 50-74", "age ≥ 65", "50 years of age", "65 years and older", "65–69-year olds"):
        assert shows.search(stated), stated
    for other in ("for 50 years", "Max: 50 mg daily", "age at menopause (years): 49.1"):
        assert not shows.search(other), other
    # both units share the question's words and hold a number; only one states an age (the shorter one wins without)
    screening = passage(
        "crc",
        "Colorectal cancer screening starts every 2 years. "
        "Colorectal cancer screening starts for adults aged 50 to 74 at average risk of cancer.",
        section="Prevention",
    )
    answer = extractive_answer("at what age should colorectal cancer screening start?", [screening], 1)
    assert answer.text == "Colorectal cancer screening starts for adults aged 50 to 74 at average risk of cancer. [1]"


def test_what_a_payer_pays_for_something_asks_for_an_amount() -> None:
    from curbside.llm.extractive import asked_kind

    assert asked_kind("what does OHIP pay for a psychotherapy session?") == "amount"
    assert asked_kind("what will ADP pay toward a walker?") == "amount"
    assert asked_kind("what does ADP pay for?") is None  # which things it pays for: a list, not an amount
    assert asked_kind("does ADP pay for walker batteries?") is None  # yes or no


def test_the_cost_of_a_dose_asks_for_a_price() -> None:
    from curbside.llm.extractive import asked_kind

    assert asked_kind("wellbutrin XL - cost for 100 days of the usual dose?") == "price"
    assert asked_kind("price per dose of sertraline?") == "price"
    assert asked_kind("usual dose of sertraline?") == "dose"


def test_an_intake_is_asked_as_a_dose() -> None:
    from curbside.llm.extractive import answer_kind, asked_kind

    question = "what is a safe daily intake of PBDE-47 for humans?"
    assert asked_kind(question) == "dose"
    shows = answer_kind(question)
    assert shows is not None and shows.search("a tolerable intake of 0.1 µg per kg")
    assert not shows.search("minnows were fed twice daily for 21 days")


def test_the_question_word_says_what_kind_of_value_is_asked() -> None:
    from curbside.llm.extractive import asked_kind

    # a value word that is only the object of the question does not make it a value question
    assert asked_kind("cross-tapering SSRIs - when do I see them after each dose change?") is None
    assert asked_kind("can a client appeal the ADP approved price of their device?") is None
    assert asked_kind("how often should the dose of lithium be checked?") == "frequency"
    assert asked_kind("how fast can I uptitrate aripiprazole?") == "time span"
    # still value questions
    assert asked_kind("max dose of sertraline?") == "dose"
    assert asked_kind("is there a maximum dose, and how much is it?") == "dose"
    assert asked_kind("how much does a walker cost?") == "price"


def test_a_frequency_is_shown_by_a_frequency_word_or_a_time_span() -> None:
    shows = answer_kind("how often to check eGFR in someone on metformin?")
    assert shows is not None
    assert shows.search("Check eGFR at least yearly")
    assert shows.search("every 3 to 6 months when below 60")
    assert shows.search("Power Dynamic Positioning Devices - 5 years")
    assert not shows.search("Usual: 20 mg daily")  # every dose line says daily
    fast = answer_kind("how fast does ADP reply?")
    assert fast is not None and fast.search("within five (5) working days")


def test_a_study_figure_threshold_code_or_number_is_a_kind_of_value() -> None:
    from curbside.llm.extractive import asked_kind

    kinds = {
        "HR for colorectal cancer with hormone therapy in EPIC?": "ratio",
        "human case fatality rate of RVF in Mozambique?": "rate",
        "what QTc should make me stop citalopram?": "threshold",
        "MIC of MmPPOX against M. smegmatis?": "concentration",
        "half-life of PBDE-47 in humans?": "time span",
        "what number do pts call for the after-hours answering service?": "phone number",
        "ODB LU code for vortioxetine?": "code",
    }
    assert {q: asked_kind(q) for q in kinds} == kinds
    assert asked_kind("is it OR safe to combine them?") is None  # "or" is no odds ratio


def test_each_new_kind_is_shown_by_its_own_form_of_value() -> None:
    shown = {
        "HR for colorectal cancer in EPIC?": ("HR (95% CI): 0.93 (0.84–1.03)", "a hazard of bias"),
        "seroprevalence of RVF in goats?": ("antibodies were found in 2.8% of cattle", "cattle were sampled in 1960"),
        "GAD-7 cutoff for severe anxiety?": ("15-21: Severe anxiety", "a severe anxiety disorder"),
        "what QTc should make me stop citalopram?": ("QTc > 500 ms", "monitor the QTc"),
        "MIC of MmPPOX against M. tuberculosis?": ("with an MIC of 1.6 µg/mL", "MmPPOX inhibits growth"),
        "phone # for the Central Equipment Pool?": ("Call 1-800-268-6021", "Call the pool"),
        "ODB LU code for vortioxetine?": ("LU code 430", "Coverage: ODB ✓"),
    }
    for question, (answer, other) in shown.items():
        shows = answer_kind(question)
        assert shows is not None and shows.search(answer) and not shows.search(other), question


def test_a_far_less_relevant_passage_adds_nothing_to_the_answer() -> None:
    # 'pristiq max dose?' found the desvenlafaxine card (relevance 0.95) and the aripiprazole one (0.35): the
    # second card's "Max: 15 mg daily" scores well on 'max' and 'dose' but belongs to another drug
    pristiq = passage("cep", "Initial: 50 mg daily\n\nMax: 100 mg daily", section="Desvenlafaxine (Pristiq®)")
    abilify = passage("cep2", "Initial: 2-5 mg daily\n\nMax: 15 mg daily", section="Aripiprazole (Abilify®)")
    near = abilify.model_copy(update={"relevance": 0.9})
    pristiq = pristiq.model_copy(update={"relevance": 0.95})
    far = abilify.model_copy(update={"relevance": 0.35})
    assert "Max: 15 mg daily" not in extractive_answer("pristiq max dose?", [pristiq, far], 4).text
    assert "Max: 100 mg daily [1]" in extractive_answer("pristiq max dose?", [pristiq, far], 4).text
    assert "Max: 15 mg daily" in extractive_answer("pristiq max dose?", [pristiq, near], 4).text  # near: kept


FUNDING_PERIODS = (
    "Designated Funding Period\n\nThis is a minimum period of time that a Device is expected to remain useful. "
    "Designated Funding Periods:\n\n1. Ambulation Aids - 5 years\n\n2. Wheelchairs - 5 years\n\n"
    "3. Power Dynamic Positioning Devices - 5 years\n\n4. Positioning Devices (Seating) - 2 years."
)


def test_a_list_item_whose_only_news_is_the_value_asked_is_no_echo() -> None:
    # "Wheelchairs - 5 years" adds one word to the question, the number it asks for
    manual = passage("adp", FUNDING_PERIODS, "ADP manual", "Part 6: Device Eligibility > 600 Funding Periods")
    answer = extractive_answer("how many years before ADP will fund another manual wheelchair?", [manual], 1)
    assert answer.text == "Wheelchairs - 5 years [1]"  # a unit adding no number stays an echo: see the test above


def test_other_items_of_the_list_the_answer_comes_from_are_left_out() -> None:
    manual = passage("adp", FUNDING_PERIODS, "ADP manual", "Part 6: Device Eligibility > 600 Funding Periods")
    answer = extractive_answer("how many years before ADP will fund another manual wheelchair?", [manual], 4)
    assert "Wheelchairs - 5 years [1]" in answer.text
    assert "Ambulation Aids" not in answer.text and "Positioning Devices" not in answer.text
    dosing = passage(
        "cep",
        "Dosing\n\nInitial: 25-50 mg daily (am/pm)\n\nUsual: MDD: 50-100 mg daily; GAD: 50-150 mg daily; "
        "SAD & panic: 50-200 mg daily\n\nMax: 200 mg daily",
        "CEP",
        "Management > First-line medication options > Sertraline (Zoloft®)",
    )
    assert extractive_answer("sertraline starting dose?", [dosing], 4).text == "Initial: 25-50 mg daily (am/pm) [1]"
    # items naming what the question asks just as well stay
    both = extractive_answer("starting and maximum dose of sertraline?", [dosing], 4).text
    assert "Initial: 25-50 mg daily (am/pm)" in both and "Max: 200 mg daily" in both


def test_lines_under_one_label_are_not_other_items() -> None:
    text = (
        "Light Therapy: First-line monotherapy for seasonal depression\n\n"
        "Light Therapy: Typical or studied dose and duration: 10,000 lux for 30 minutes per day for up to 6 weeks.\n\n"
        "Light Therapy: A response is usually seen within 1 to 3 weeks"
    )
    appendix = passage("cep", text, "CEP", "Appendix > Alternative therapies")
    answer = extractive_answer("how soon does light therapy start working for seasonal depression?", [appendix], 4)
    assert "within 1 to 3 weeks" in answer.text and "First-line monotherapy for seasonal depression" in answer.text


def test_a_unit_close_in_meaning_answers_in_other_words() -> None:
    # "changes how food tastes" is "dysgeusia" in the source (a word the lay vocabulary does not hold): no shared
    # word, so only the meaning score finds it
    tastes = (
        "Tastes of the oral solution differ between the brands that pharmacies stock, and the nurse notes "
        "them at each of the monthly visits to the clinic."
    )
    source = passage("a", f"{tastes}\nTaste fresh food.\nDysgeusia is a common adverse effect in the first weeks.")
    question = "can it change how food tastes?"
    cosines = {
        tastes: 0.80,
        "Taste fresh food.": 0.81,
        "Dysgeusia is a common adverse effect in the first weeks.": 0.88,
    }
    assert "Dysgeusia" not in extractive_answer(question, [source], 1).text
    answer = extractive_answer(question, [source], 1, meaning=lambda texts: [cosines.get(t) for t in texts])
    assert answer.text.startswith("Dysgeusia is a common adverse effect")


def test_meaning_does_not_outvote_a_unit_that_says_the_question_words() -> None:
    source = passage(
        "a",
        "Sertraline starting dose is 25 mg daily in older adults.\nBegin with a low amount and go up slowly.",
    )
    question = "sertraline starting dose in older adults?"
    cosines = {
        "Begin with a low amount and go up slowly.": 0.90,
        "Sertraline starting dose is 25 mg daily in older adults.": 0.86,
    }
    answer = extractive_answer(question, [source], 1, meaning=lambda texts: [cosines.get(t) for t in texts])
    assert answer.text.startswith("Sertraline starting dose is 25 mg")


def test_units_without_a_stored_vector_score_by_their_words_alone() -> None:
    source = passage("a", "Needles for the injection are changed at each visit.\nParesthesia is common.")
    plain = extractive_answer("can it cause pins and needles?", [source], 2)
    unknown = extractive_answer(
        "can it cause pins and needles?", [source], 2, meaning=lambda texts: [None] * len(texts)
    )
    assert [s.score for s in unknown.candidates] == [s.score for s in plain.candidates]


def test_a_reserve_passage_joins_the_answer_without_changing_the_first_passages_scores() -> None:
    first = passage(
        "a",
        "People who stop an antidepressant usually taper it over 1 week or longer. Discuss the taper plan with the "
        "patient.",
        section="Stopping",
    )
    reserve = passage("b", "Most people taper an antidepressant over 2-4 weeks.", section="Discontinuation")
    question = "over how long do people usually taper an antidepressant?"
    alone = extractive_answer(question, [first], 4)
    both = extractive_answer(question, [first], 4, reserve=[reserve])
    assert "over 2-4 weeks" not in alone.text  # a fact the first passage lacks, from a passage under the threshold
    assert "Most people taper an antidepressant over 2-4 weeks. [2]" in both.text
    assert both.citations[-1].chunk_id == "b:v1:0"
    # the first passage's units score exactly as without the reserve, and only they are the scored candidates
    assert [(c.text, c.score) for c in both.candidates] == [(c.text, c.score) for c in alone.candidates]


def test_a_reserve_passage_never_leads_the_answer() -> None:
    first = passage("a", "Sertraline is an SSRI used in adults with depression.", section="Sertraline")
    reserve = passage("b", "Initial sertraline dose: 25-50 mg daily; maximum sertraline dose 200 mg.", section="Dosing")
    answer = extractive_answer("sertraline starting dose and maximum dose mg?", [first], 4, reserve=[reserve])
    assert "25-50 mg" not in answer.text  # it outscores every first unit: the reserve may add to an answer, not be it
    assert answer.citations[0].chunk_id == "a:v1:0"


def test_the_rule_whose_range_holds_the_patients_value_is_quoted() -> None:
    """'new T2DM pt eGFR 28, can I start metformin?' was answered with the rule for an eGFR between 30 and 45
    (src/curbside/samples/sample-metformin-renal.html); the rule for below 30 is the one that applies."""
    from curbside.llm.extractive import patient_value

    rules = passage(
        "metformin",
        "Starting metformin is not recommended when the eGFR is between 30 and 45 mL/min/1.73 m2. "
        "Metformin is contraindicated when the eGFR is below 30 mL/min/1.73 m2.",
    )
    low = extractive_answer("new T2DM pt eGFR 28, can I start metformin?", [rules], 1)
    assert low.text.startswith("Metformin is contraindicated when the eGFR is below 30")
    middle = extractive_answer("new T2DM pt eGFR 38, can I start metformin?", [rules], 1)
    assert middle.text.startswith("Starting metformin is not recommended when the eGFR is between 30 and 45")
    # a dose, an age, a duration or a count is not the patient's reading
    assert patient_value("GAD7 of 12 - what severity?") == 12
    for question in ("max sertraline 200 mg?", "80 yo with 3 months of symptoms", "55M w T2DM and CAD"):
        assert patient_value(question) is None, question


def test_the_strengths_a_drug_comes_in_are_its_forms_line() -> None:
    """'cymbalta - available strengths?' was answered with coverage and side-effect lines: the CEP monograph's
    forms line ('30 mg, 60 mg capsule', Duloxetine (Cymbalta®)) never says 'strength'."""
    monograph = passage(
        "cep",
        "Coverage: ODB ✓; NIHB ✓\nCV: increased blood pressure, orthostatic hypotension\n30 mg, 60 mg capsule\n"
        "Usual: 60 mg daily",
        section="Duloxetine (Cymbalta®)",
    )
    answer = extractive_answer("duloxetine - available strengths?", [monograph], 1)
    assert answer.text.startswith("30 mg, 60 mg capsule")
    # a clinician's 'tabs' and 'liquid' are the monograph's tablet and oral solution
    assert terms("tabs liquid", question=True) == terms("tablet solution")


def test_asked_whether_a_short_list_item_is_read_with_its_heading() -> None:
    """'pregabalin for GAD - any lip/face swelling warning?': the monograph lists "Warnings" / "Angioedema" /
    "Hypersensitivity reactions" (Pregabalin (Lyrica®), cep-anxiety-and-depression.html); the one-word item was no
    candidate, and a unit saying only the asked thing counted a third."""
    monograph = passage(
        "cep",
        "Usual: GAD: 300 mg daily (150 mg BID)\nOther: skin rash, peripheral edema, weight gain\n"
        "Warnings\nAngioedema\nHypersensitivity reactions\nCaution in renal impairment",
        section="Pregabalin (Lyrica®)",
    )
    answer = extractive_answer("pregabalin - any lip/face swelling warning?", [monograph], 2)
    assert "Warnings: Angioedema" in answer.text
    # a question that asks no yes or no reads the list as before: no "Heading: item" unit is made
    units = extractive_answer("pregabalin usual dose?", [monograph], 4).candidates
    assert not any(u.text.startswith("Warnings: ") for u in units)


def test_a_fax_is_asked_by_its_number_not_by_faxing() -> None:
    from curbside.llm.extractive import asked_kind

    # guideline QA development questions the value guard withheld for want of a telephone number
    assert asked_kind("fax number for the Program Payments Unit at FMB in Kingston?") == "phone number"
    assert asked_kind("ADP fax # to send a grant application?") == "phone number"  # not the grant's price
    assert asked_kind("halton pt - how do I fax an OSP referral?") is None
    assert asked_kind("what has to go with a non-urgent referral fax?") is None
    assert asked_kind("what number on a herbal product label shows health canada approval?") is None
    assert asked_kind("local toronto phone # for ADP general inquiries?") == "phone number"


def test_a_code_tables_row_shows_a_code() -> None:
    shows = answer_kind("benefit code for ODSP pt on the ADP invoice?")
    assert shows is not None
    assert shows.search("ODS - Ontario Disability Support Program")  # the ADP manual's benefit-code table
    assert shows.search("REG – Client who is not under a program listed above.")


def test_a_start_the_question_tells_of_is_not_asked() -> None:
    from curbside.llm.extractive import asks_quantity, question_terms

    # the CEP page's Escitalopram card ("Initial: 5-10 mg daily (am/pm)", "CNS: headache, …") beside its
    # "Specific side effect management for symptoms > Headache" ("Management: Consider switching dose timing")
    question = "new headaches after starting cipralex - how do I manage?"
    assert "start" not in question_terms(question) and not asks_quantity(question)
    assert "start" in question_terms("starting dose of cipralex?") and asks_quantity("starting dose of cipralex?")
    assert "start" not in question_terms("started fetzima at 20 - usual maintenance range?")
    assert "start" in question_terms("what dose should it be started at?")
    card = passage(
        "cep",
        "Initial: 5-10 mg daily (am/pm)\n\nCNS: headache, sleep disturbance, drowsiness, nervousness, dizziness",
        section="Management > First-line medication options > Escitalopram (Cipralex®)",
    )
    headache = passage(
        "cep2",
        "Short-term or long-term: usually short-term\n\nManagement: Consider switching dose timing",
        section="Management > Specific side effect management for symptoms > Headache",
    )
    answer = extractive_answer(question, [card, headache], 2)
    assert "Management: Consider switching dose timing" in answer.text
    assert "Initial: 5-10 mg daily" not in answer.text
