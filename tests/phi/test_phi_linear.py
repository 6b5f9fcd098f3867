"""Work that grows linearly with the text, shown by counting, never by timing (the figures for
10k / 100k / 1M characters are in benchmarks/bench_phi.py)."""

from __future__ import annotations

from collections.abc import Iterator

from curbside.phi import PhiDetector
from curbside.phi._lexicon import load_lexicon
from curbside.phi._propagate import propagate, seed_kinds
from curbside.phi._tokens import Token, tokenize
from curbside.phi.recognizers._numbers import EMAIL, ClinicalNumberRecognizer


class CountingTokens(tuple[Token, ...]):
    """A token tuple that counts every token it hands out."""

    reads = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        CountingTokens.reads += 1
        return super().__getitem__(index)

    def __iter__(self) -> Iterator[Token]:
        for token in super().__iter__():
            CountingTokens.reads += 1
            yield token


def test_seed_sweep_reads_each_token_a_bounded_number_of_times() -> None:
    # many seeds over a long text: seeds x tokens would be 2,000 x 16,000 reads
    text = "Dr. Quartermain saw pt. BP stable, HR 80s. " * 2_000
    tokens = CountingTokens(tokenize(text))
    seeds = [(t.start, t.end, "PERSON") for t in tokens if t.key == "quartermain"]
    assert len(seeds) == 2_000 and len(tokens) > 15_000
    CountingTokens.reads = 0
    kinds = seed_kinds(tokens, seeds)
    assert kinds == {"quartermain": "PERSON"}
    assert CountingTokens.reads <= 2 * len(tokens) + 2 * len(seeds)  # one pass, plus a look per seed


def test_seed_sweep_handles_overlapping_and_straddling_seeds() -> None:
    text = "Transfer to Quartermain Lally or Quartermain 3 per Dr. Ronayne"
    tokens = tokenize(text)
    start = text.index("Quartermain")
    seeds = [
        (start, text.index(" or"), "LOCATION"),  # "Quartermain Lally"
        (start, start + 5, "PERSON"),  # cuts "Quartermain": covers no whole token
        (text.index("Lally") - 1, text.index(" or"), "PERSON"),  # inside the first: first seed wins
        (text.index("Ronayne"), len(text), "PERSON"),
    ]
    assert seed_kinds(tokens, seeds) == {"quartermain": "LOCATION", "lally": "LOCATION", "ronayne": "PERSON"}


def test_propagation_marks_every_other_mention() -> None:
    text = "Transfer to Quartermain 2. Later to Quartermain 3; QUARTERMAIN called."
    first = text.index("Quartermain")
    spans = propagate(text, [(first, first + 11, "LOCATION", 0.7)], load_lexicon())
    assert [(text[s:e], kind) for s, e, kind, _ in spans] == [
        ("Quartermain", "LOCATION"), ("Quartermain", "LOCATION"), ("QUARTERMAIN", "LOCATION"),
    ]  # fmt: skip
    assert propagate(text, [(first, first + 11, "LOCATION", 0.6)], load_lexicon()) == []  # weak finds do not spread


def test_email_pattern_starts_only_where_a_run_starts() -> None:
    # the search tries each run once: a run of "a.a.a" is not retried from every position inside it
    assert [m.group() for m in EMAIL.finditer("write to jane.doe@example.org or a.b@c.io")] == [
        "jane.doe@example.org",
        "a.b@c.io",
    ]
    assert EMAIL.search("x" + "1-" * 5_000) is None
    assert EMAIL.match("ne.doe@example.org", 0) is not None
    assert EMAIL.search("jane.doe@example.org", 2) is None  # not from inside the run


def test_address_lines_are_looked_for_within_a_few_characters() -> None:
    recognizer = ClinicalNumberRecognizer()
    under = "Lives at 12 Main St.\nSpringfield\nIL 62704\n\nBP stable."
    found = {under[s:e] for s, e, kind, _ in recognizer.find(under, None) if kind == "ADDRESS"}
    assert {"12 Main St.", "Springfield", "IL 62704"} <= found
    # a thousand addresses on one line without a break: no line under any of them
    one_line = "12 Main St. " * 1_000
    blocks = [s for s in recognizer.find(one_line, None) if s[3] == 0.6]
    assert blocks == []


def test_detect_is_the_same_in_one_window_or_many(phi_detector: PhiDetector) -> None:
    text = "Dr. Quartermain saw pt on 7/22. BP stable.\n" * 120 + "Son bill called Quartermain.\n"
    small = PhiDetector(phi_detector._analyzer, lexicon=phi_detector._lexicon, window_chars=1000)
    assert [(s.text, s.type) for s in small.detect(text)] == [(s.text, s.type) for s in phi_detector.detect(text)]
