"""The general mechanisms behind the detector's rules, each on hand-written text: formats of
phone numbers and dates, places a patient is moved to or from, lives or works in, names in lists,
after 'seen by', on a line with a credential and at a note's end, names and places that run on
over the words beside them, drugs that are no people, redaction in any case, and hex digests."""

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
        # places: a verb of moving earlier in the clause, glued verbs, '@', things done 'at' a place
        ("PT WAS ADMITTED TO THE ED FROM THE NEWARK HOUSE AFTER A FALL.", "NEWARK HOUSE", "LOCATION"),
        ("ST elevations on EKG at OSH-> medflight to AUBURN for emergent cath.", "AUBURN", "LOCATION"),
        ("Rx deferred, pt being d/c'd to Faught Manwaring at 4pm.", "Faught Manwaring", "LOCATION"),
        ("CABG (c/b ugib) that she had at piscataway. Presents with BRBPR.", "piscataway", "LOCATION"),
        ("INR 7 (ON COUMADIN AT HOME); 7/23 AT CALVERT- 2 FFP GIVEN.", "CALVERT", "LOCATION"),
        ("Social: had a bed @ Avon C. but will need to be rescreened.", "Avon C.", "LOCATION"),
        ("ADMITTED IN TRANSFER FROM ONTARIO HOSPITAL FOR MENTAL STATUS CHANGES.", "ONTARIO HOSPITAL", "LOCATION"),
        ("Pt slated to go to rehab(xiong alhambra Vredeveld) today.", "xiong alhambra Vredeveld", "LOCATION"),
        ("pt states i'm at the general hospital", "general hospital", "LOCATION"),
        # places: where someone lives, works or is from; hyphenated towns; a name that runs on
        ("SOCIAL: PT LIVES WITH SON AND FAMILY IN LAYEL. HAS 4 DAUGHTERS.", "LAYEL", "LOCATION"),
        ("SOCIAL: LIVES AT DELTA HOUSE, NO ETOH.", "DELTA HOUSE", "LOCATION"),
        ("Wife has a job in Bel Air, visits daily.", "Bel Air", "LOCATION"),
        ('S: "I\'m in the church in Sanks"', "Sanks", "LOCATION"),
        ("Pt is from Dorchester, lives alone.", "Dorchester", "LOCATION"),
        ("SOCIAL: LIVES WITH SON IN SECURITY-WIDEFIELD.", "SECURITY-WIDEFIELD", "LOCATION"),
        ("Mr. Bauserman was accepted at Williamsport Boga, awaiting consent.", "Williamsport Boga", "LOCATION"),
        # names: a line that is a name and a credential, misspelt credentials, rare listed names
        ("Wheezes bilaterally.\nCODLING PFISTERER RRT\n", "CODLING PFISTERER", "PERSON"),
        ("Plan as above.\n SPANNER P. GEORGE, RRT\n", "SPANNER P. GEORGE", "PERSON"),
        ("Spoke with family.\npat rixford licws", "pat rixford", "PERSON"),
        ("HOLD CAPTOPRIL FOR SBP <110 (AS DISCUSSED WITH NP GRAZIER).", "GRAZIER", "PERSON"),
        ("PLAN: SEE THAT CASE MANAGEMENT CONTACTS FORDON EMAYO HANNIG\n", "FORDON EMAYO HANNIG", "PERSON"),
        ("social: kulkarni visited during the evening.", "kulkarni", "PERSON"),
        ("COPING: LUNA HAS PHONED AND WAS UPDATED.", "LUNA", "PERSON"),
        ("pt alert. lago whittall from speech and swallow in today.", "lago whittall", "PERSON"),
        ("Name: Åsa Laine\nPhone: 555-1234", "Åsa Laine", "PERSON"),
        # names: an initial after a title, the second of two initialled names, the other of a pair
        ("pmicu nursing progress\nmr M remained on same doses of pressors", "M", "PERSON"),
        ("nsg (b. burkey and l. hoyt) verified amt of cash.", "l. hoyt", "PERSON"),
        ("health care proxies: suzette and ank", "ank", "PERSON"),
        ("Georgeanna Dolphin (son) cell# 432-808-9422", "Georgeanna Dolphin", "PERSON"),
        ("social: daughter Dollar in to visit.", "Dollar", "PERSON"),
        # dates shaped like fractions, in a list, as a heading or after a clock time; years
        ("PMH: S/P MI x2 (1/4, 2/22), stent to L circ.", "1/4", "DATE"),
        ("HD 1/4 or 8/14, monitor resp status.", "1/4", "DATE"),
        ("PMHX: HTN\n2/3: CABG X4, STABLE.", "2/3", "DATE"),
        ("d/c integrelin at 0630 3/4, watch BP.", "3/4", "DATE"),
        ("AWOKE FROM SLEEP ON 12/10 WITH CP AND DOE.", "12/10", "DATE"),
        ("PPM placed 2004 for CHB.", "2004", "DATE"),
        ("Smoked from 1975 to 1988.", "1975", "DATE"),
        # phone numbers: slashed, run together, spaced after 'call <someone> at'
        ("Home phone 617/555-1234 after 5.", "617/555-1234", "PHONE"),
        ("Can be reached at 617-5551234.", "617-5551234", "PHONE"),
        ("Call daughter at 555 1234 with changes.", "555 1234", "PHONE"),
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
        "WIFE AND FRIENDS IN TO VISIT.",  # 'in to' is no town after 'family in'
        "IVF GIVEN 5PM 1/2 NS AT 100CC/HR.",  # a fraction after a clock time is still a fraction
        "Crackles 1/3 and 1/2 up bilaterally.",  # fractions listed together
        "Will call at 1400 if needed; page at 2100.",  # clock times after 'call' and 'page'
        "She lives in Assisted Living with her son.",  # a kind of home, all common words
        "Rates in the general hospital population.",  # 'the general hospital' as a kind
        "Plan: rehab (acute vs subacute) per PT.",  # a remark in brackets after a facility word
        "Expression is regulated by Nodal signalling in the embryo.",  # 'by' a rare word
        "PT HAS CALLED OUT ALL NIGHT.",  # 'has' before a verb of calling, no name
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


def test_a_name_runs_on_over_name_words_beside_it_only() -> None:
    from curbside.phi._lexicon import load_lexicon
    from curbside.phi._runs import run_on

    lexicon = load_lexicon()

    def grown(text: str, word: str, kind: str) -> str:
        start = text.index(word)
        (span,) = [s for s in run_on(text, [(start, start + len(word), kind, 0.7)], lexicon) if s[2] == kind]
        return text[span[0] : span[1]]

    assert grown("Accepted at Williamsport Boga tomorrow.", "Williamsport", "LOCATION") == "Williamsport Boga"
    assert grown("BIGEMINY SALTERN GLENN AWARE", "GLENN", "PERSON") == "SALTERN GLENN"  # a rare word that is a name
    assert grown("Stable night.\nKim T. called", "Kim", "PERSON") == "Kim T."  # an initial and its stop
    assert grown("Transfer to Quincy\nMarder aware", "Quincy", "LOCATION") == "Quincy"  # never past a line
    assert grown("Seen at Boston Medical today", "Boston", "LOCATION") == "Boston"  # common words stay out
    # at most two words on a side
    assert grown("per lago whittall palmitessa abernethy", "lago", "PERSON") == "lago whittall palmitessa"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        # surnames that are also clinical words (a catheter, an eponym, an abbreviation) run on after the name
        ("Anna Foley, DOB 1950-02-03", "[PERSON], DOB [DATE]"),
        ("seen with her husband Robert Parkinson", "seen with her husband [PERSON]"),
        ("Jane Doe, 54F", "[PERSON], 54F"),
        ("Dr. Sarah Cushing reviewed", "Dr. [PERSON] reviewed"),
        # not where the word is the eponym or the device
        ("John Foley catheter changed", "[PERSON] Foley catheter changed"),
        ("John Smith with Parkinson disease", "[PERSON] with Parkinson disease"),
    ],
)
def test_a_surname_that_is_a_clinical_word_runs_on_after_the_name(
    phi_detector: PhiDetector, text: str, redacted: str
) -> None:
    assert phi_detector.redact(text) == redacted
