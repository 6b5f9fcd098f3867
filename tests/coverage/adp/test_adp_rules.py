"""The project's ADP data files against the manuals: every quote, section and page is in the PDF text.

The golden facts (the 75/25 split of §305, the social assistance funding of
§310.00 and §710, the exclusions) are asserted as read from the July 2023
manuals; ``verify`` is the check ``coverage load`` runs, so the files cannot
drift from the manuals unnoticed.
"""

from __future__ import annotations

from curbside.coverage.adp.data import (
    Rule,
    cep_policy,
    device_vocabulary,
    funding_rules,
    required_manuals,
    verify,
)
from curbside.coverage.adp.parse import ParsedManual, normalize


def _rule(rule_id: str) -> Rule:
    return next(r for r in funding_rules() if r.id == rule_id)


def test_every_quote_section_page_category_and_device_is_in_the_manuals(adp_manuals: dict[str, ParsedManual]) -> None:
    assert verify(adp_manuals) == []
    assert required_manuals() == {"core", "mobility-devices"}
    for rule in funding_rules():  # the same check, spelled out: the quote is in the cited paragraph's text
        text = adp_manuals[rule.manual].text_of(rule.section)
        assert all(normalize(q) in text for q in rule.quotes), rule.id


def test_the_75_25_split_of_section_305(adp_manuals: dict[str, ParsedManual]) -> None:
    fixed = _rule("fixed-price")
    assert (fixed.manual, fixed.section, fixed.page, fixed.adp_percent, fixed.client_percent, fixed.client_minimum) == (
        "core",
        "305.00",
        35,
        75,
        25,
        True,
    )
    maximum = _rule("maximum-contribution")
    assert (maximum.section, maximum.adp_percent, maximum.adp_up_to, maximum.funding_model) == (
        "305.00",
        75,
        True,
        "maximum_contribution",
    )
    assert "the ADP pays up to 75% of an ADP approved maximum amount" in adp_manuals["core"].text_of("305.00")
    default = _rule("default-share")
    assert (default.section, default.page, default.adp_percent, default.client_percent) == ("305.01", 35, 75, 25)
    mobility = _rule("mobility-share")
    assert (mobility.manual, mobility.section, mobility.page, mobility.adp_percent, mobility.client_percent) == (
        "mobility-devices",
        "705",
        38,
        75,
        25,
    )


def test_social_assistance_funding_of_section_310_and_710(adp_manuals: dict[str, ParsedManual]) -> None:
    models = _rule("social-assistance-models")
    assert (models.section, models.page, models.applies_to) == ("310.00", 36, ("all",))
    assert list(models.quotes[1:]) == [
        "a. 100% of the ADP Approved Price;",
        "b. 100% of the maximum contribution of the ADP Approved Price;",
        "c. 100% up to a maximum contribution of the Device retail price; or",
        "d. 100% of a grant amount.",
    ]
    text = adp_manuals["core"].text_of("310.00")
    assert "varies with the Device category" in text and "Refer to the Policy and Administration Manuals" in text
    # which categories get 100% of the Approved Price: the one loaded category manual says Mobility Devices does
    category_rules = [r for r in funding_rules() if r.kind == "social_assistance" and "all" not in r.applies_to]
    assert [(r.applies_to, r.section, r.page, r.adp_percent, r.client_percent) for r in category_rules] == [
        (("Mobility Devices",), "710", 39, 100, 0)
    ]
    assert "the ADP will pay 100 percent (100%) of the Approved Price for Mobility Devices" in adp_manuals[
        "mobility-devices"
    ].text_of("710")


def test_exclusions_with_their_sections() -> None:
    exclusions = {r.id: (r.manual, r.section, r.page) for r in funding_rules() if r.kind == "exclusion"}
    assert exclusions["batteries"] == ("core", "200.02", 19)
    assert exclusions["repairs"] == ("core", "670.00", 88)
    assert exclusions["repairs-client-cost"] == ("core", "670.02", 89)
    assert exclusions["mobility-repairs-batteries"] == ("mobility-devices", "225", 14)
    assert exclusions["lost-stolen"] == ("core", "220.03", 29)
    assert exclusions["misuse"] == ("core", "220.07", 31)
    assert _rule("repairs").quotes == (
        "The Program does not contribute toward the cost of repairs of purchased Devices under any circumstances.",
    )
    assert _rule("mobility-repairs-batteries").quotes == (
        "ADP does not provide funding towards the cost of repairs and/or maintenance and/or batteries for any Device.",
    )


def test_funding_periods_of_section_600() -> None:
    periods = {r.applies_to: (r.years, r.page) for r in funding_rules() if r.kind == "funding_period"}
    assert periods == {
        ("Ambulation Aids",): (5, 34),
        ("Wheelchairs",): (5, 34),
        ("power_dynamic_seating",): (5, 35),
        ("seating",): (2, 35),
    }


def test_cep_policy_is_marked_unofficial_and_dated() -> None:
    policy = cep_policy()
    income = policy.income_thresholds
    assert (income.official, income.single, income.family, income.as_of) == (False, 28000.0, 39000.0, "2025-09-26")
    assert "ontario-coverage-mcp-tools.md" in income.source and "no ministry document" in income.source
    assert "Not from an official source" in income.note
    pool = policy.central_equipment_pool
    assert (pool.official, pool.manual, pool.section, pool.page) == (True, "mobility-devices", "505", 27)


def test_every_device_is_listed_where_devices_toml_says(adp_manuals: dict[str, ParsedManual]) -> None:
    mobility = adp_manuals["mobility-devices"]
    for device in device_vocabulary().device:
        lines = [normalize(line) for line in mobility.section(device.section).paragraphs[0].text.splitlines()]  # type: ignore[union-attr]
        assert any(line.startswith(f"• {normalize(device.listed_as)}") for line in lines), device.key


def test_a_drifted_rule_is_caught(adp_manuals: dict[str, ParsedManual]) -> None:
    fixed = _rule("fixed-price")
    drifted = [
        fixed.model_copy(update={"quotes": ("Fixed price: the ADP pays 80% of an ADP Approved Price.",)}),
        fixed.model_copy(update={"page": 36}),
        fixed.model_copy(update={"section": "305.09"}),
        fixed.model_copy(update={"manual": "hearing-devices"}),
    ]
    assert verify(adp_manuals, drifted) == [
        "rule 'fixed-price': §305.00 of the Policies and Procedures Manual for the Assistive Devices Program (July "
        "2023) does not say 'Fixed price: the ADP pays 80% of an ADP Approved Price.'",
        "rule 'fixed-price': 'Fixed price: the ADP pays 75% of an ADP Approved Price.'… is not on page 36 "
        "of the Policies and Procedures Manual for the Assistive Devices Program (July 2023)",
        "rule 'fixed-price' cites §305.09, which the Policies and Procedures Manual for the Assistive Devices Program "
        "(July 2023) does not have",
        "rule 'fixed-price' cites the 'hearing-devices' manual, which is not among the files loaded",
    ]
