"""What ADP policy questions ask and what the manuals' answering sentences say ("how long does an appeal
take?", "can they apply if WSIB covers it?", "where does the application go?"); the matching itself is
the coverage kit's (``curbside.coverage.policy_quotes``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from curbside.clinical_words import CHART_SHORTHAND
from curbside.coverage.adp.asked_clause import asked_clause
from curbside.coverage.adp.store import ParagraphRow
from curbside.coverage.parties import Parties
from curbside.coverage.policy_quotes import PolicyIndex, PolicyText, Vocabulary

__all__ = ["FUNDING_WORDS", "VOCABULARY", "policy_index", "subject_words", "unanswered"]

# whom the manuals write a rule for: their defined terms, capitalised (ADP Manual §010 Definitions: Applicant,
# Authorizer, Client, Vendor …); lower case only where the manuals write it so ('the prescriber', 'the client')
PARTIES = Parties(
    terms={
        "applicant": re.compile(r"\b(Applicants?|[Cc]lients?|[Ii]ndividuals?)\b"),
        "authorizer": re.compile(
            r"\b(Authori[sz]ers?|[Oo]ccupational [Tt]herapists?|[Pp]hysiotherapists?|Regulated Health Professionals?)\b"
        ),
        "vendor": re.compile(r"\b[Vv]endors?\b"),
        "prescriber": re.compile(r"\b([Pp]rescribers?|[Pp]hysicians?|[Nn]urse [Pp]ractitioners?)\b"),
        "program": re.compile(r"\b(Program|ADP|Ministry)\b"),
    },
    implied={
        # a clinician's 'pt' is the patient (lower case); 'PT' is a physiotherapist, an Authorizer
        "applicant": re.compile(
            r"\b([Pp]ts?|(?i:patients?|clients?|applicants?|she|he|her|his|him|they|them|kid|child|son|daughter|"
            r"mom|mother|dad|father|husband|wife|senior|vet|veteran|man|woman|someone|resident))\b"
        ),
        "authorizer": re.compile(
            r"\b(OTs?|PTs?|(?i:authori[sz]\w*|occupational therap\w*|physio\w*|therapists?))\b"
        ),
        # where a patient buys a device is a vendor in the manuals' words ('bought it at the pharmacy')
        "vendor": re.compile(r"(?i)\b(vendors?|suppliers?|dealers?|stores?|shops?|retailers?|pharmacy|pharmacies)\b"),
        "prescriber": re.compile(
            r"(?i)\b(doctors?|physicians?|gps?|mds?|prescri\w*|nurse practitioners?|nps?|specialists?)\b"
        ),
        "program": re.compile(r"(?i)\b(adp|program|ministry)\b"),
    },
    # every rule is the Program's to apply: a sentence about it is no other party's
    everyone=frozenset({"program"}),
)

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|eighteen|twenty|thirty|forty|"
    "forty-five|sixty|ninety"
)

VOCABULARY = Vocabulary(
    asks={  # most specific first
        # a telephone or fax number: 'who do we call - is there a toll free # for the payments unit?'
        "contact": re.compile(
            r"\btoll[- ]?free\b|\b(?:tele)?phone (?:#|number|no\b)|\bfax (?:#|number|no\b)|\bwho (?:do|should|can) "
            r"(?:i|we|they|she|he) (?:call|phone|contact)\b|\bnumber (?:to|for) (?:call|reach|contact)\b",
            re.I,
        ),
        # whom a cheque is made out to: 'who does the refund cheque get made out to?'
        "payee": re.compile(r"\b(made (out|payable) to|payable to|cheques? (is|are|be|get|gets) (made|sent))\b", re.I),
        # who pays whom: 'who pays for those and to whom?'
        "payer": re.compile(r"\b(who (pays|is paying|will pay|should pay|would pay)|to whom|pay (them|it|those|that) to)\b", re.I),
        "time": re.compile(
            # 'when' asks a time as a question's word ('when does …', 'when can …'), not as a conjunction ('a chair for
            # trips / when the power chair is in the shop')
            r"\b(how (long|soon|often|quick(ly)?|fast)|^when|when (?:do|does|did|is|are|can|could|should|will|would|"
            r"must|has|have)|period|valid|good for|stale|expire\w*|within|"
            # 'how many weeks does ADP take', not 'ok for authorizers to take them?'
            r"how many (?:business )?(?:days|weeks|months|years)|takes? (?:long|a while))\b",
            re.I,
        ),
        # a place: 'where does it go?', 'who do I send it to?'; not 'can the vendor submit the appeal for her?' (a yes
        # or no) or 'who do they have to tell?' (an obligation)
        "where": re.compile(
            r"\b(where|who handles|which office)\b|\b(send|submit\w*)\b(?:\s+[\w'’]+){0,4}?\s+to\b",
            re.I,
        ),
        "count": re.compile(r"\b(how many|both|plus|as well as|more than one)\b", re.I),
        "who": re.compile(r"\b(who|which (part|section|professional|clinician|profession)s?)\b", re.I),
        "how": re.compile(r"\b(how (do|does|can|should|would|to)|what (happens|if)|what do (i|we) do)\b", re.I),
        # what goes in a form or chart, or what a finding may be: 'what kind of objective findings should go in?',
        # 'what can I put in the skin integrity part?'
        "content": re.compile(
            r"\bwhat (?:kinds?|types?|sorts?) of\b|\bwhat (?:can|could|should|do|would) (?:i|we|they|she|he) "
            r"(?:put|include|write|document|list|enter|attach)\b|\bwhat (?:goes|should go|can go|to put|to include)\b",
            re.I,
        ),
        # 'any conditions?': what must be true or done
        "conditions": re.compile(
            r"\b(conditions?|requirements?|criteria|catch|minimum|need(s|ed)? to (have|be|meet))\b", re.I
        ),
        # what someone must do or have: 'is the vendor supposed to give her one?', 'what does she have to sign?',
        # 'what does ADP need as proof?'
        "obligation": re.compile(r"\b(supposed to|ha(ve|s|d) to|needs?|require[sd]?|obliged|obligated)\b", re.I),
        # a yes or no: any question with its verb first ('can the vendor charge more …?')
        "allowed": re.compile(
            r"\b(can|could|may|will|would|does|do|did|is|are|should|must|has|have)\b|"
            r"\b(eligible|allowed|funded|covered|instead|also|still|apply|applies|ok|okay|permitted|acceptable)\b",
            re.I,
        ),
    },
    says={
        # a telephone number as the manuals print one: '(613) 548-6477', '1-800-267-9458'
        "contact": re.compile(r"\(?\b\d{3}\)?[-.\s]\d{3}[-.\s]\d{4}\b|\b1-8\d\d-\d{3}-\d{4}\b"),
        # a cheque's payee: 'a cheque should be directed to the attention of: Minister of Finance' (§315.02)
        "payee": re.compile(r"\b(payable to|made (out )?to|to the attention of)\b", re.I),
        # who pays whom: a sentence saying a payment and to or from whom ('must pay the Vendor directly')
        "payer": re.compile(r"\b(pa(y|ys|id)|payment|charge)\b[^.]*\b(directly|vendor|client|applicant|program)\b", re.I),
        # a duration as the manuals write it: 'ninety (90) days', 'five (5) working days', '30 business days'
        "time": re.compile(
            rf"\b(\d+|{_NUMBER_WORDS})\s(\(\d+\)\s)?((business|working|calendar)\s)?(days?|weeks?|months?|years?)\b", re.I
        ),
        "allowed": re.compile(
            r"\b(not (eligible|entitled|funded|provided|considered|processed)|does not|will not|may not|must not|"
            r"are not|is not|should not|avoid|only|eligible|entitled|must be|may be|will consider|available)\b",
            re.I,
        ),
        # an obligation is answered by what must be done, or must not
        # ... or what no one has to pay: 'does she have to pay for the loaner?' is answered by '… provided at no cost
        # to the Client' (§505)
        "obligation": re.compile(
            r"\b(must|required|requires?|shall|is to be|are to be|cannot|may not|at no (?:cost|charge)|free of charge"
            r"|may be (?:purchased|obtained|bought|used|submitted))\b",
            re.I,
        ),
        "conditions": re.compile(r"\b(must|required|requires?|only (if|when)|not eligible|unless|minimum|may only)\b", re.I),
        # how it is done, or what follows: a sentence that says what must, will or may happen
        "how": re.compile(r"\b(must|will|may|should|shall|required|is to be|are to be)\b", re.I),
        # who does it: a profession, or who completes, signs or registers (not a mere mention of a role)
        "who": re.compile(
            r"\b((occupational )?therapists?|physiotherapists?|nurse practitioners?|audiologists?|"
            r"(completed|signed|authori[sz]ed|prescribed) by|registered (as )?(an? )?authori[sz]ers?|section \d+ [–-])\b",
            re.I,
        ),
        "where": re.compile(r"\b((sent|submitted|forwarded|directed|returned) to|central equipment pool|CEP)\b", re.I),
        # a count as the manuals print one: 'up to', 'two', 'There are 16 essential data items'
        "count": re.compile(r"\b(up to|one|two|three|maximum|more than one)\b|\b\d{1,3} [a-z]", re.I),
        # what a form's part or a finding holds: 'May include documentation of reddened areas, results of pressure
        # mapping etc.' (Mobility §530)
        "content": re.compile(r"\b(includ\w*|such as|e\.g\.|for example|etc\.?)", re.I),
    },
    # a question about the amount is answered by the funding rules, not by a policy sentence
    # ('what % does ADP pay?': the sign is the word)
    amount=re.compile(
        r"\b(how much|what (share|percent\w*|portion|part)|what (do|does|will|would) (adp|it|the program|they|"
        r"the patient|the client|i|we) (cover|pay))\b|\bwhat\s?%",
        re.I,
    ),
    # abbreviations and words a clinician writes for what the manuals spell out
    spelled={
        "wsib": "workplace safety insurance",
        "odsp": "ontario disability support",
        "cep": "central equipment pool",
        "get": "obtain",
        "good": "stale valid",
        # who and which form
        "doctor": "prescriber",
        "gp": "prescriber",
        "physician": "prescriber",
        "fill": "complete",
        "part": "section",
        "ot": "occupational therapist",
        "physio": "physiotherapist",
        # what happened, in the manuals' words
        "white": "correction fluid",
        "whiteout": "correction fluid",
        "mistake": "correction incorrectly",
        "outgrew": "body size change",
        "outgrown": "body size change",
        "outgrow": "body size change",
        "grew": "body size change",
        "kid": "child",
        "walker": "ambulation aid",
        "crutches": "ambulation aid",
        "cane": "ambulation aid",
        "new": "replacement",
        "discount": "rebate less",
        "cheaper": "less",
        "push": "propel",
        "seeing": "assessed",  # a clinician 'sees' a patient: the manuals' assessment
        "seen": "assessed",
        "cut": "deduction reduced",
        "bought": "purchase",
        "buy": "purchase",
        "buying": "purchase",
        "spare": "backup second",
        # paid back is the manuals' payment ('direct payment … to the Client is not available')
        "reimburse": "payment",
        "reimbursed": "payment",
        "reimburses": "payment",
        "reimbursing": "payment",
        # extras on a device are its options ('non-ADP funded items', Mobility §220 Options)
        "extra": "options",
        "extras": "options",

        # the unit that pays vendors' invoices is the Financial Management Branch's Program Payments Unit (§1100)
        "payments": "payments financial management branch",
        "yrs": "years",
        # the stemmer keeps a four-letter word whole: 'who pays' meets the manuals' 'must pay'
        "pays": "pay",
        # an Ontario nursing home is a long-term care (LTC) home in the manuals' words
        "nursing": "long term care",
        "ltc": "long term care",
    },
    # 'pt' is a clinician's 'patient' ('pt already bought a walker'), not a physiotherapist
    stop=frozenset("patient patients pt pts client clients adp program device devices assistive ontario".split()),
    phrased={
        re.compile(r"\bpa(?:y|id) (?:\w+ )?back\b|\brefund"): "reimbursement",
        # to 'get back to' someone is to contact them (the Program 'will endeavour to contact the individual')
        re.compile(r"\b(?:get|gets|getting|got) back to\b"): "contact",
        # to send a patient to a vendor is to refer them ('wants to send my pt to a vendor her husband co-owns')
        re.compile(r"\b(?:send|sends|sending|sent) (?:\w+ ){0,2}(?:pts?|patients?|clients?|residents?|them|him|her) to\b"): "refer",
        # 'she isn't eligible' is the manuals' 'ineligibility'
        re.compile(r"\b(?:not|isn'?t|aren'?t|no longer|never) eligible\b"): "ineligible ineligibility",
        # what ADP does not fund is, in the manuals' words, 'non-ADP funded items' (Mobility §220)
        re.compile(r"\b(?:doesn'?t|does not|don'?t|do not|won'?t|will not|isn'?t|not) (?:fund|cover|pay)"): "non",
    },
    # the Policies and Procedures Manual governs every category's Policy and Administration Manual
    governing="core",
    parties=PARTIES,
    asking=asked_clause,
)


def policy_index(paragraphs: Iterable[ParagraphRow]) -> PolicyIndex:
    """Every sentence of the loaded manuals: ``source`` is the manual, ``ref`` the paragraph id."""
    return PolicyIndex(
        (PolicyText(p.manual, p.paragraph_id, str(p.page), p.text, p.section_title) for p in paragraphs), VOCABULARY
    )


# what the funding rules answer: a sentence sharing only these with a question ('does ADP cover a walker?')
# does not answer it better than the rules do
FUNDING_WORDS = "pay pays paid cover covers covered fund funds funded funding cost costs"
_PAYING = "pay pays paid"


def subject_words(question: str | None, matched: str) -> str:
    """What a question is about beyond what it asks: its device and the funding words a share answers; a
    question asking who pays whom asks about paying, which no share answers ('who pays for the extras?' is
    Mobility §220's 'The Applicant must pay the Vendor directly')."""
    asks_payer = bool(question) and VOCABULARY.asks["payer"].search(question or "") is not None
    funding = " ".join(w for w in FUNDING_WORDS.split() if not (asks_payer and w in _PAYING.split()))
    return f"{matched} {funding}"

# kinds of question a funding share never answers: who does it, when, where it goes, how many
_PROCESS_KINDS = {
    "time": "it asks when or how long",
    "where": "it asks where to send it",
    "count": "it asks how many",
    "who": "it asks who does it",
    "how": "it asks how it is done",
    "conditions": "it asks the conditions",
    "payer": "it asks who pays whom",
}
_WORD = re.compile(r"[a-z][a-z-]+")


def unanswered(index: PolicyIndex, question: str | None) -> str | None:
    """What a question asks that no funding share answers, said for the reply, when no manual sentence
    matched it: a process ('who does it') or words the manuals never use ('outgrew'); None for a
    question about an amount or in the manuals' own words ('does ADP cover a walker?')."""
    if not question or VOCABULARY.amount.search(question):  # type: ignore[union-attr]
        return None
    kind = next((k for k, pattern in VOCABULARY.asks.items() if pattern.search(question)), None)
    if kind in _PROCESS_KINDS:
        return _PROCESS_KINDS[kind]
    # contractions ("can't", "patient's") are not words a manual would lack
    words = [w for w in _WORD.findall(question.lower().replace("’", "'")) if "'" not in w]
    unknown = [
        w for w in dict.fromkeys(words) if VOCABULARY.stems(w) and not index.known(w) and w not in CHART_SHORTHAND
    ]
    return "the manuals never use the words " + ", ".join(f"'{w}'" for w in unknown) if unknown else None
