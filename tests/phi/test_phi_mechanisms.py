"""The general mechanisms behind the detector's rules, each on hand-written text: formats of
phone numbers and dates, places a patient is moved to or from, names in lists, after 'seen by'
and at a note's end, drugs that are no people, redaction in any case, and hex digests."""

from __future__ import annotations

import hashlib
import uuid

import pytest

from curbside.phi import PhiDetector


def covered(detector: PhiDetector, text: str, phi: str) -> str | None:
    """The type of the span covering ``phi`` in ``text``, or None."""
    start = text.index(phi)
    spans = [s for s in detector.detect(text) if s.start <= start and s.end >= start + len(phi)]
    return spans[0].type if spans else None


@pytest.mark.parametrize(
    ("text", "phi", "kind"),
    [
        # phone numbers in every common shape
        ("Call daughter at 555-1234 with any changes.", "555-1234", "PHONE"),
        ("Wife's cell 410.322.1419 after 5.", "410.322.1419", "PHONE"),
        ("Contact son (home) 555 1234.", "555 1234", "PHONE"),
        ("Office 617-555-0123 ext 22 for results.", "617-555-0123 ext 22", "PHONE"),
        ("Fax (555)555-5555x123 today.", "(555)555-5555x123", "PHONE"),
        ("Reach the fellow at x4521.", "x4521", "PHONE"),
        ("Pager 5-1234, ext. 4321.", "ext. 4321", "PHONE"),
        ("Call me at +44 20 7946 0958 tomorrow.", "+44 20 7946 0958", "PHONE"),
        # dates: day first (Canada), month words between numbers, ranges
        ("DOB 14/03/1957 per the health card.", "14/03/1957", "DATE"),
        ("Born 14-Mar-1957 in Kingston.", "14-Mar-1957", "DATE"),
        ("Seen 21-mar-19 in clinic.", "21-mar-19", "DATE"),
        ("Surgery Mar-14-2019 uneventful.", "Mar-14-2019", "DATE"),
        ("DOB: 14Mar1957", "14Mar1957", "DATE"),
        ("Dates of service 3/14-3/21.", "3/14-3/21", "DATE"),
        ("Seen on March 14th and again later.", "March 14th", "DATE"),
        # places after a verb of moving a patient
        ("INTUBATED AND TRANSFERRED TO CONCORD FOR FURTHER MANAGEMENT.", "CONCORD", "LOCATION"),
        ("46 year old male came into Orewiler on 1/9 with leg swelling.", "Orewiler", "LOCATION"),
        ("BROUGHT TO KREITLER ER FOR CHEST PAIN.", "KREITLER ER", "LOCATION"),
        ("Pt being d/c'd to Plainfield Peveler at 4pm.", "Plainfield Peveler", "LOCATION"),
        ("Male who presented to woodlawn rask hospital with SOB.", "woodlawn rask hospital", "LOCATION"),
        ("PACKING INTACT SINCE ARRIVAL TO RUSTRIAN.", "RUSTRIAN", "LOCATION"),
        ("she arrived via amb from pluck ew for further eval.", "pluck ew", "LOCATION"),
        ("83 y.o. female Admitted from Marion Independence for cath.", "Marion Independence", "LOCATION"),
        ("Plan: transfer to chester 2, CT removal today.", "chester 2", "LOCATION"),
        # names: lists after a title, 'seen by', a signature, a full name in any case
        ("Dr. Yurchak and Farness aware of the gas.", "Farness", "PERSON"),
        ("Dr. Chen, Patel & Okafor rounded.", "Okafor", "PERSON"),
        ("RUN OF VENT BIGEMINY. SADYE SWINGLE AWARE, MGSO4 GIVEN.", "SADYE SWINGLE", "PERSON"),
        ("Pt seen by smith today.", "smith", "PERSON"),
        ("Evaluated by Kowalczyk from ortho.", "Kowalczyk", "PERSON"),
        ("BP stable overnight.\nHEPARIN NOT 1400U/HR. LULA\n", "LULA", "PERSON"),
        ("Stable night, plan unchanged.\nKim T.\n", "Kim", "PERSON"),
        ("sertraline dose for john smith", "john smith", "PERSON"),
        ("Sertraline dose for John Smith", "John Smith", "PERSON"),
        ("What is the Zoloft dose for mary brown?", "mary brown", "PERSON"),
        ("son-inlaw Greg in to visit.", "Greg", "PERSON"),
    ],
)
def test_each_mechanism_finds_its_phi(phi_detector: PhiDetector, text: str, phi: str, kind: str) -> None:
    assert covered(phi_detector, text, phi) == kind, phi_detector.detect(text)


@pytest.mark.parametrize(
    "text",
    [
        "UO 500-1000 cc over the shift; shift 700-1900 quiet.",  # volume and time ranges are no phones
        "PS 10/5-12/5 overnight; settings 20/10/40% on PSV/CPAP.",  # ventilator settings are no dates
        "Crackles 1/3-1/2 up bilaterally.",  # fractions of the lungs
        "application startup complete",  # a rare surname that is mostly a word
        "Zoloft 50 mg daily; Lipitor 20mg qhs.",  # dosed: drugs
        "Started Zoloft today, Paxil stopped.",  # started: a drug
        "PT TAKEN FROM VENT AT 9 AM.",  # a device is no place
        "SEEN BY HOME NSG FOR PUMP SET UP.",  # a common word after 'seen by'
        "ASA HELD THIS AM. Aline place in R radial.",  # a given name before a common word
        "Plan transfer to the PCU when a bed opens.",  # a unit's acronym is no town
        "Job failed. Retrying",  # one line: no signature
        "daughter at bedside, russian speaking, will interpret.",  # a language is no name
    ],
)
def test_ordinary_words_stay(phi_detector: PhiDetector, text: str) -> None:
    assert phi_detector.detect(text) == []


@pytest.mark.parametrize(
    ("upper", "lower"),
    [
        ("Sertraline dose for John Smith", "sertraline dose for john smith"),
        ("Pt seen by Smith today.", "Pt seen by smith today."),
        ("Spoke with Dr Okafor about the plan.", "spoke with dr okafor about the plan."),
        ("Son Bill called, BP stable.", "son bill called, BP stable."),
    ],
)
def test_redaction_does_not_depend_on_capitals(phi_detector: PhiDetector, upper: str, lower: str) -> None:
    assert phi_detector.redact(upper).lower() == phi_detector.redact(lower).lower()
    assert "[PERSON]" in phi_detector.redact(lower)


def test_hex_digests_and_uuids_are_left_whole(phi_detector: PhiDetector) -> None:
    digests = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(40)]
    digests += [hashlib.md5(str(i).encode()).hexdigest() for i in range(40)]
    digests += [str(uuid.UUID(int=i * 7919 * 10**30)) for i in range(1, 20)]
    digests += [d.upper() for d in digests[:10]] + [
        d[:12] for d in digests[:40] if sum(c.isalpha() for c in d[:12]) >= 3
    ]
    for digest in digests:
        for text in (f"job {digest} completed", f"ingested document sha256={digest}"):
            assert phi_detector.redact(text) == text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Health card 1234567890 on file.", "HEALTH_CARD"),
        ("OHIP 1234567890AB on file.", "HEALTH_CARD"),
        ("MRN 4471203 on the requisition.", "ID"),
        ("mrn: 12345678 in the log", "ID"),
    ],
)
def test_numbers_that_identify_a_patient_stay_phi(phi_detector: PhiDetector, text: str, kind: str) -> None:
    assert kind in {s.type for s in phi_detector.detect(text)}
