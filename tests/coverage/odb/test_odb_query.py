"""Reading requests: the argument model, plain-words questions, and name resolution."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from curbside.coverage.odb.query import NameIndex, norm_strength, plan, same_strength, strength_as_written
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult
from curbside.coverage.odb.unlisted import class_of


def test_every_argument_and_result_field_is_described() -> None:
    schema = OdbGetArgs.model_json_schema(mode="validation")
    assert schema["additionalProperties"] is False
    assert all(p.get("description") for p in schema["properties"].values())
    assert {
        "q",
        "query",
        "question",
        "drug",
        "din",
        "ingredient",
        "strength",
        "drug_class",
        "check",
        "check_alternatives",
        "include_lu",
        "condition",
        "include_brand",
        "exclude_lu",
        "top_k",
    } == set(schema["properties"])
    result = OdbGetResult.model_json_schema(mode="serialization")
    assert {
        "coverage",
        "interchangeable",
        "lowest_cost",
        "lu_criteria",
        "alternatives",
        "citations",
        "confidence",
        "conflicts",
        "needs_more_info",
        "follow_up",
        "trace",
        "formulary",
    } <= set(result["properties"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "odb.get needs something to look up: a question (q), a drug name (drug), a DIN, an ingredient"),
        ({"q": "   "}, "An empty question cannot be answered."),
        ({"q": "is Januvia covered?", "question": "is Lipitor covered?"}, "give the question once"),
        ({"din": "0238-88-39x"}, "DIN '0238-88-39x' is not a Drug Identification Number: give up to 8 digits"),
        ({"drug": "Januvia", "top_k": 11}, "less than or equal to 10"),
        ({"drug": "Januvia", "check": ["price"]}, "Input should be 'coverage'"),
        ({"drug": "Januvia", "dose": "20mg"}, "Extra inputs are not permitted"),
    ],
)
def test_bad_arguments_name_the_problem(args: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError) as err:
        OdbGetArgs(**args)
    assert message in str(err.value)


def test_both_request_formats() -> None:
    simple = OdbGetArgs(drug="Januvia", check_alternatives=False, include_lu=False, top_k=3)
    assert simple.checks() == {"coverage", "interchangeable", "lowest_cost"}
    enhanced = OdbGetArgs(query="generic for Januvia?", din="DIN 2388839", check=["lu_criteria"])
    assert (enhanced.q, enhanced.din, enhanced.checks()) == ("generic for Januvia?", "02388839", {"lu_criteria"})


@pytest.mark.parametrize(
    ("question", "din", "strength", "condition", "asked"),
    [
        ("Is Ozempic covered for diabetes?", None, None, "diabetes", {"coverage", "lu_criteria"}),
        ("cheapest covered atorvastatin 20 mg", None, "20mg", None, {"lowest_cost", "coverage"}),
        ("Is there a generic for Januvia?", None, None, "Januvia", {"interchangeable"}),
        ("LU criteria for celecoxib for osteoarthritis", None, None, "osteoarthritis", {"lu_criteria"}),
        ("is DIN 2388839 covered", "02388839", None, None, {"coverage"}),
        ("price of 02443937 .5 mg tabs", "02443937", "0.5mg", None, {"lowest_cost"}),
    ],
)
def test_plain_words(
    question: str, din: str | None, strength: str | None, condition: str | None, asked: set[str]
) -> None:
    request = plan(OdbGetArgs(q=question))
    assert (request.din, request.strength, request.condition) == (din, strength, condition)
    assert asked <= request.checks


def test_class_words() -> None:
    assert plan(OdbGetArgs(q="cheapest covered statin")).drug_class == "statin"
    assert plan(OdbGetArgs(drug_class="GLP-1 agonist")).drug_class == "glp1"
    assert plan(OdbGetArgs(q="is Januvia covered")).drug_class is None


def test_a_dose_in_a_volume_is_read_whole() -> None:
    assert plan(OdbGetArgs(q="ventolin nebules 2.5mg/2.5mL - covered?")).strength == "2.5mg/2.5ml"


def test_strength_spelling() -> None:
    assert [norm_strength(s) for s in ("20 mg", ".5 mg", "0.68mg/mL", "1.34 mg / mL")] == [
        "20mg",
        "0.5mg",
        "0.68mg/ml",
        "1.34mg/ml",
    ]


ROWS = [
    ("02388839", "Januvia", 1, "SITAGLIPTIN"),
    ("02503840", "PMS-Sitagliptin", 1, "SITAGLIPTIN"),
    ("02333856", "Janumet", 2, "SITAGLIPTIN & METFORMIN"),
    ("02230713", "Lipitor", 3, "ATORVASTATIN CALCIUM"),
    ("02411369", "Atorvastatin-20", 3, "ATORVASTATIN CALCIUM"),
    ("02540258", "Ozempic", 4, "SEMAGLUTIDE"),
    ("02213419", "Ventolin Nebules P.F.", 5, "SALBUTAMOL"),
    ("02213486", "Ventolin", 5, "SALBUTAMOL"),
]


@pytest.mark.parametrize(
    ("text", "kind", "hit"),
    [
        ("is there a generic for Januvia?", "brand", {"02388839"}),
        ("PMS-Sitagliptin 25 mg", "brand", {"02503840"}),
        ("sitagliptin", "ingredient", {1}),
        ("sitagliptin and metformin", "ingredient", {2}),
        ("sitagliptin/metformin", "ingredient", {2}),
        ("cheapest atorvastatin 20 mg", "ingredient", {3}),  # the ingredient, not the product 'Atorvastatin-20'
        ("is ozempik covered", "brand", {"02540258"}),  # close spelling
        ("is Wegovy covered", "none", set()),
        # 'P.F.' (preservative-free) says how it is packed: 'ventolin nebules' names the nebules, not Ventolin
        ("ventolin nebules 2.5mg/2.5mL for home nebs", "brand", {"02213419"}),
        ("ventolin inhaler", "brand", {"02213486"}),
    ],
)
def test_name_resolution(text: str, kind: str, hit: set[object]) -> None:
    found = NameIndex(ROWS).resolve(text)
    assert found.kind == kind
    assert (found.dins if kind == "brand" else found.generic_keys) == hit
    assert found.fuzzy == (text == "is ozempik covered")


@pytest.mark.parametrize(
    ("listed", "asked", "same"),
    [
        ("0.137mg", "137 mcg", True),  # Synthroid 0.137mg Tab (DIN 02233852), prescribed as 137 mcg
        ("0.137mg", "0.137 mg", True),
        ("0.125mg", "137 mcg", False),
        ("18mcg", "0.018mg", True),  # Spiriva 18mcg inhalation capsule
        ("1g", "1000 mg", True),
        ("0.68mg/mL", "680 mcg/ml", True),  # the unit per volume is kept: only the mass converts
        ("0.68mg/mL", "0.68 mg", False),
        ("100000U/g", "100000 u/g", True),  # not a mass: compared as written
        ("1mg/mL", "2.5mg/2.5mL", True),  # a nebule: Ventolin Nebules P.F. 1mg/mL, 2.5 mL (DIN 02213419)
        ("2mg/mL", "2.5mg/2.5mL", False),
        ("80mg/0.8mL", "40mg/0.4mL", False),  # a syringe's dose in its volume is compared as written
        ("40mg/0.4mL", "40mg/0.4mL", True),
    ],
)
def test_a_strength_matches_in_any_unit_of_mass(listed: str, asked: str, same: bool) -> None:
    assert same_strength(listed, norm_strength(asked)) is same


@pytest.mark.parametrize(
    ("listed", "asked", "same"),
    [
        ("4mg/24hr", "4 mg", True),  # Neupro 4mg/24hr Trans Patch (DIN 02403927)
        ("400mg/Vial", "400mg", True),  # Abilify Maintena 400mg/Vial (DIN 02420872)
        ("40mg/0.8mL", "40 mg", True),  # a prefilled syringe holds the dose
        ("50mcg/MeteredDose", "50 mcg", True),
        ("5mg/mL", "5 mg", False),  # a concentration is no dose
        ("5mg/5mL", "5 mg", False),  # an oral liquid's is one too
        ("400mg/Vial", "300mg", False),
    ],
)
def test_a_bare_mass_is_a_strength_listed_per_unit_of_use(listed: str, asked: str, same: bool) -> None:
    assert same_strength(listed, norm_strength(asked), per_unit=True) is same
    assert not same_strength(listed, norm_strength(asked))  # only when nothing is listed as asked


@pytest.mark.parametrize(
    ("listed", "form", "asked", "same"),
    [
        ("5mg/100mL", "Inj Sol-100mL Pk (Preservative-Free)", "5 mg", True),  # Aclasta (DIN 02269198): the bottle
        ("140mg/mL", "Inj Sol-Pref Syr Autoinj", "140 mg", True),  # Repatha (DIN 02446057): one prefilled mL
        ("300mg/2mL", "Inj Sol-Pref Pen 2mL Pk (Preservative-Free)", "300 mg", True),  # Praluent (DIN 02547732)
        ("200mg/5mL", "Inj Susp-5mL Pk", "40 mg", False),  # Kenalog-40: 40 mg is a mL of it, not its pack
        ("10mg/mL", "O/L", "10 mg", False),  # an oral liquid per mL is a concentration
        ("5mg/100mL", "Inj Sol-50mL Pk", "5 mg", False),
        # per mL in a pack of one stated volume: the pack's mass (Omlyclo DIN 02553813, Erelzi DIN 02462850)
        ("150mg/mL", "Inj Sol-1mL Pref Syr Pk", "150 mg", True),
        ("50mg/mL", "Inj Sol-1mL Prefilled SensoReady Pen Pk", "50 mg", True),
        ("10mg/mL", "Inj Sol-5mL Vial", "50 mg", True),
        ("10mg/mL", "Inj Sol-5mL Vial", "10 mg", False),  # a mL of the vial, not the vial
        ("40mg/mL", "Inj Susp-5mL Pk", "40 mg", False),
    ],
)
def test_a_bare_mass_is_what_one_pack_of_the_form_holds(listed: str, form: str, asked: str, same: bool) -> None:
    assert same_strength(listed, norm_strength(asked), per_unit=True, form=form) is same


def test_a_strength_as_written_is_told_from_the_same_concentration() -> None:
    # Bimzelx: '320mg/2mL' (the 2 mL syringe and autoinjector) and '160mg/mL' (the 1 mL ones) are one concentration
    asked = norm_strength("320mg/2mL")
    assert same_strength("160mg/mL", asked) and same_strength("320mg/2mL", asked)
    assert strength_as_written("320mg/2mL", asked) and not strength_as_written("160mg/mL", asked)


def resolved_keys(rows: list[tuple[str, str, int, str]], text: str) -> set[int]:
    """The ingredient keys ``text`` resolves to: an ingredient's own, or those of the brands it names."""
    found = NameIndex(rows).resolve(text)
    key_of = {din: key for din, _, key, _ in rows}
    return found.generic_keys or {key_of[din] for din in found.dins}


HISTORY_ROWS = [
    ("02277166", "Biphentin", 10, "METHYLPHENIDATE HCL"),
    ("02409685", "Intuniv XR", 11, "GUANFACINE"),
    ("02247373", "Teva-Alendronate", 12, "ALENDRONATE"),
    ("02314541", "Forteo", 13, "TERIPARATIDE"),
]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # held-out 7: 'on biphentin' is what the child takes; guanfacine is what the question asks about
        ("10 yo on biphentin, ADHD still not controlled - want to add guanfacine XR. ODB LU code?", {11}),
        ("got ONJ on alendronate. teriparatide on ODB? LU code?", {13}),
        ("failed alendronate, switching to Forteo - covered?", {13}),
        ("fractures despite alendronate - is teriparatide covered on ODB?", {13}),  # 'despite' X: X was taken
    ],
)
def test_the_drug_asked_about_is_not_the_one_already_taken(text: str, asked: set[int]) -> None:
    assert resolved_keys(HISTORY_ROWS, text) == asked


FAILED_ROWS = [
    ("02247027", "Keppra", 30, "LEVETIRACETAM"),
    ("02244403", "Taro-Carbamazepine", 31, "CARBAMAZEPINE"),
    ("02246897", "Lamotrigine", 32, "LAMOTRIGINE"),
    ("02472902", "Teva-Lacosamide", 33, "LACOSAMIDE"),
    ("00496480", "Teva-Propranolol", 34, "PROPRANOLOL"),
    ("02246082", "Flunarizine", 35, "FLUNARIZINE HCL"),
    ("02009773", "Fludrocortisone", 36, "FLUDROCORTISONE ACETATE"),
    ("01934406", "Amatine", 37, "MIDODRINE HCL"),
]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # held-out 13: a list of drugs that failed ends at its last item; the drug after it is the one asked
        ("focal seizures, failed keppra, carbamazepine + lamotrigine - lacosamide ODB LU code?", {33}),
        # 'propranolol made her dizzy', and 'stopped' does not reach past its sentence
        ("migraine ppx - propranolol made her dizzy + exhausted so she stopped. flunarizine on ODB?", {35}),
        # every drug named is history: the one taken now, not the one that did not help
        (
            "neurogenic OH, fludrocortisone didn't help - pt has been on brand amatine 5 mg for yrs. still a benefit?",
            {37},
        ),
    ],
)
def test_drugs_that_failed_are_history(text: str, asked: set[int]) -> None:
    assert resolved_keys(FAILED_ROWS, text) == asked


def test_a_drug_the_question_denies_is_not_the_one_asked() -> None:
    # held-out 19: edition 43 lists NovoRapid (INSULIN ASPART 100U/mL 10mL Pk, DIN 02245397, LU 646 "… insulin pump
    # that has not been declared compatible with a funded biosimilar") beside its biosimilar Trurapi (DIN 02529254)
    rows = [("02245397", "NovoRapid", 40, "INSULIN ASPART"), ("02529254", "Trurapi", 40, "INSULIN ASPART")]
    text = "T1D on an older insulin pump that isn't labelled compatible w/ trurapi - needs to stay on novorapid vials"
    assert NameIndex(rows).resolve(text).dins == {"02245397"}
    assert NameIndex(rows).resolve("pump is compatible w/ trurapi - covered?").dins == {"02529254"}


def test_a_drug_alone_is_the_one_asked_even_after_on() -> None:
    # one drug named: 'on' does not remove it, and 'on ODB' is the formulary, not a drug taken
    assert NameIndex(HISTORY_ROWS).resolve("pt on biphentin - is it on ODB?").dins == {"02277166"}
    found = NameIndex(HISTORY_ROWS).resolve("is teriparatide on ODB or is alendronate the only one?")
    assert found.generic_keys == {13}  # neither is 'taken': the first named, as before


CLIPPED_ROWS = [
    ("00800430", "Vancocin", 20, "VANCOMYCIN HCL"),
    ("02407647", "Jamp-Vancomycin", 20, "VANCOMYCIN HCL"),
    ("02246833", "Plaquenil", 21, "HYDROXYCHLOROQUINE SULFATE"),
    ("02230713", "Lipitor", 3, "ATORVASTATIN CALCIUM"),
    ("02146959", "Lipidil Micro", 22, "FENOFIBRATE"),
]


def test_a_clipped_name_stands_for_the_one_ingredient_it_starts() -> None:
    found = NameIndex(CLIPPED_ROWS).resolve("1st recurrence of C diff, want PO vanco 125 qid - ODB LU code?")
    assert found.generic_keys == {20} and found.fuzzy and found.matched == "vanco (short for vancomycin)"


@pytest.mark.parametrize("text", ["plaque psoriasis, what is covered?", "lipid clinic referral - covered?"])
def test_an_english_word_is_not_read_as_a_clipped_name(text: str) -> None:
    # 'plaque' starts Plaquenil and 'lipid' starts Lipidil, but English uses both words (wordfreq Zipf >= 2)
    assert NameIndex(CLIPPED_ROWS).resolve(text).kind == "none"


def test_a_drug_not_tolerated_is_history_only_right_before_its_name() -> None:
    from curbside.coverage.odb.query import _taken_before, norm

    words = norm("pt can't take terbinafine - jublia?").split()
    assert _taken_before(words, words.index("terbinafine"), 0)
    words = norm("unable to tolerate metformin, sitagliptin?").split()
    assert _taken_before(words, words.index("metformin"), 0)
    # 'couldn't tolerate the dry mouth. toviaz 4mg': the mouth was not tolerated, toviaz is the drug asked
    words = norm("tried bladder training + oxybutynin, couldn't tolerate the dry mouth. toviaz 4mg on ODB?").split()
    assert not _taken_before(words, words.index("toviaz"), 0)


# ten ingredients each made by 'PMS' (a maker of generics), and the formulary's two nitrofurantoins (edition 43:
# NITROFURANTOIN 100mg Cap, Teva-Nitrofurantoin DIN 02231016; NITROFURANTOIN MONO/MICRO CRYSTALS 100mg Cap,
# PMS-Nitrofurantoin BID DIN 02455676)
MAKER_ROWS = [
    (f"0000000{k}", f"PMS-{name.title()}", k, name)
    for k, name in enumerate(["AMLODIPINE", "ATENOLOL", "BISOPROLOL", "CANDESARTAN", "CELECOXIB",
                              "CIPROFLOXACIN", "DILTIAZEM", "FLUOXETINE", "GABAPENTIN", "METFORMIN"])
] + [
    ("02231016", "Teva-Nitrofurantoin", 20, "NITROFURANTOIN"),
    ("02455676", "PMS-Nitrofurantoin BID", 21, "NITROFURANTOIN MONO/MICRO CRYSTALS"),
]  # fmt: skip


def test_a_generic_makers_product_is_found_without_the_maker() -> None:
    index = NameIndex(MAKER_ROWS)
    found = index.resolve("uncomplicated UTI - generic nitrofurantoin BID 100mg (pms) covered?")
    assert found.kind == "brand" and found.dins == {"02455676"}
    # the maker's name without the maker is the ingredient itself: that stays the ingredient
    assert index.resolve("is nitrofurantoin covered?").generic_keys == {20}
    assert "amlodipine" not in index.brands


def test_a_film_is_a_dosage_form() -> None:
    # Suboxone 8mg & 2mg is listed as an SL Tab (DIN 02295709) and a Soluble Film (DIN 02502348)
    assert plan(OdbGetArgs(q="pt prefers the suboxone film 8/2 over the tabs - on ODB?")).form == "film"


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("elidel cream on ODB?", "cr"),  # the formulary prints creams as '1% Cr'
        ("is lactulose syrup covered?", "o/l|oral sol|oral susp|liq"),
        # a form the patient cannot take is not the one asked
        ("pt w/ PEG tube can't swallow tabs - fluconazole oral suspension covered?", "susp|o/l"),
        ("OAT pt prefers the suboxone film 8/2 over the tabs - price per film", "film"),
        # edition 43 lists Bimzelx 320mg/2mL as 'Inj Sol-2mL Pref Syr' (DIN 02553619) and '… Pref Autoinj'
        ("bimekizumab 320mg/2mL syringe (Bimzelx) - DIN?", "syr"),
        ("taltz 80 mg autoinjector - LU code?", "autoinj"),
    ],
)
def test_the_dosage_form_asked_is_read_as_the_formulary_prints_it(text: str, form: str) -> None:
    assert plan(OdbGetArgs(q=text)).form == form


FIRST_WORD_ROWS = [
    ("02245385", "Symbicort 100 Turbuhaler", 30, "BUDESONIDE & FORMOTEROL FUMARATE DIHYDRATE"),
    ("02245386", "Symbicort 200 Turbuhaler", 30, "BUDESONIDE & FORMOTEROL FUMARATE DIHYDRATE"),
    ("02230000", "Ensure Plus", 31, "NUTRITION PRODUCT"),
    ("02230001", "Ensure High Protein", 32, "NUTRITION PRODUCT HIGH PROTEIN"),
    ("02230002", "Boost Plus", 33, "NUTRITION PRODUCT"),
]


def test_a_brand_is_found_by_its_first_word_but_an_english_word_is_not() -> None:
    index = NameIndex(FIRST_WORD_ROWS)
    assert index.resolve("symbicort LU code?").dins == {"02245385", "02245386"}
    assert index.resolve("I want to boost her dose, is it covered?", fuzzy=False).kind == "none"


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("is the ventolin inhaler covered?", "dose pk|pd cap|pd inh|actuation pk"),  # the MDI, not the nebules
        ("salbutamol for her home nebulizer - covered?", "inh sol|inh susp"),
    ],
)
def test_an_inhaler_and_nebules_are_told_apart(text: str, form: str) -> None:
    assert plan(OdbGetArgs(q=text)).form == form


def test_a_class_stem_shared_with_another_class_is_told_apart() -> None:
    # WHO INN stems: '-prazole' antiulcer benzimidazoles (PPIs), '-piprazole' psychotropics (aripiprazole)
    rows = [("02230000", "Apo-Omeprazole", 40, "OMEPRAZOLE"), ("02230001", "Abilify", 41, "ARIPIPRAZOLE")]
    assert NameIndex(rows).by_class("ppi").generic_keys == {40}
    assert class_of(["aripiprazole"]) is None and class_of(["esomeprazole"]) == "ppi"


# a maker of generics begins products of many ingredients ('Apo-'; MAKER_OF); the other Apo- rows stand for those
# (their DINs are placeholders); the teriflunomide products and DINs are edition 43's
APO_ROWS = [
    ("02500310", "Nat-Teriflunomide", 1, "TERIFLUNOMIDE"),
    ("02500639", "Apo-Teriflunomide", 1, "TERIFLUNOMIDE"),
    *[
        (f"0000000{n}", f"Apo-{name.title()}", 10 + n, name)
        for n, name in enumerate(
            ["ALENDRONATE", "AMLODIPINE", "ATENOLOL", "CITALOPRAM", "GLICLAZIDE", "LISINOPRIL", "METFORMIN",
             "RAMIPRIL", "SERTRALINE", "TRAZODONE"]
        )
    ],
]  # fmt: skip


def test_a_maker_named_apart_from_the_ingredient_chooses_its_product() -> None:
    # 'apo generic' beside 'teriflunomide' is Apo-Teriflunomide, not the group's first (Nat-Teriflunomide)
    found = NameIndex(APO_ROWS).resolve("RRMS 34F, starting teriflunomide 14 mg - apo generic DIN, LU code?")
    assert found.kind == "brand" and found.dins == {"02500639"}
    # no maker named: the ingredient
    assert NameIndex(APO_ROWS).resolve("is teriflunomide covered?").generic_keys == {1}
