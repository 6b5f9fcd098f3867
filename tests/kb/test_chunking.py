from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from curbside.errors import ConfigError
from curbside.kb.chunking import Chunk, Chunker, size_distribution
from curbside.kb.document import Block, LoadedDocument, Section
from curbside.search.embedders.tokenizer import MINILM_MAX_TOKENS, minilm_token_counter
from curbside.sentences import split_sentences

WORDS = (
    "malaria artesunate dose fever children pregnancy treatment severe uncomplicated parasitaemia quinine "
    "daily oral intravenous hospital referral infants adults artemether lumefantrine resistance vector "
    "prophylaxis diagnosis microscopy rapid test haemoglobin anaemia convulsions coma hypoglycaemia the of "
    "and in with for to is was should be given patients recommended evidence trial cohort outcome mortality"
).split()
EXTRAS = ["e.g.", "i.e.", "Dr. Smith", "et al.", "2.5 mg.", "vs.", "approx.", "Fig. 3", "J. Smith", "8 a.m."]


def count(text: str) -> int:
    return minilm_token_counter([text])[0]


def body(chunk: Chunk) -> str:
    return chunk.text.split("\n\n", 1)[1]


def head(chunk: Chunk) -> str:
    return chunk.text.split("\n\n", 1)[0]


def check_invariants(chunks: list[Chunk], cap: int, doc_title: str) -> None:
    """Every invariant the chunker promises, checked with the real counter."""
    real = minilm_token_counter([c.text for c in chunks])
    for i, (c, n) in enumerate(zip(chunks, real, strict=True)):
        assert c.ordinal == i
        assert c.token_count == n <= cap, (c.token_count, n, cap)
        assert "\n" not in head(c)
        assert head(c).startswith(doc_title)
        assert body(c).strip(), "empty chunk"
        assert (c.page is None) == (c.page_end is None)
        if c.page is not None:
            assert c.page_end is not None and c.page <= c.page_end


def doc_of(root: Section, title: str = "Malaria guidelines") -> LoadedDocument:
    return LoadedDocument(title=title, root=root, format="text")


def sentence(rng: random.Random, n_words: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n_words)]
    if n_words > 4 and rng.random() < 0.5:
        words.insert(rng.randrange(1, n_words), rng.choice(EXTRAS))
    return " ".join(words).capitalize() + rng.choice([".", ".", ".", "?", "!"])


def paragraph(rng: random.Random, n_sentences: int) -> str:
    return " ".join(sentence(rng, rng.randint(3, 30)) for _ in range(n_sentences))


# --- the tiers ------------------------------------------------------------------------


def test_small_document_is_one_chunk_with_child_titles() -> None:
    root = Section(None, [Block("Malaria is a parasitic disease.", 1)], [Section("Treatment", [Block("Give ACT.", 2)])])
    chunks = Chunker(256, minilm_token_counter).chunk(doc_of(root))
    assert [c.text for c in chunks] == ["Malaria guidelines\n\nMalaria is a parasitic disease.\n\nTreatment\n\nGive ACT."]
    assert chunks[0].section_path == ()
    assert (chunks[0].page, chunks[0].page_end) == (1, 2)
    check_invariants(chunks, 256, "Malaria guidelines")


def test_small_section_in_large_tree_has_full_title_path() -> None:
    rng = random.Random(1)
    adults = Section("Adults", [Block("Give artesunate 2.4 mg/kg IV.")])
    treatment = Section("Treatment", [Block(paragraph(rng, 3))], [Section("Severe", [], [adults])])
    root = Section(None, [Block(paragraph(rng, 30))], [treatment, Section("Prevention", [Block(paragraph(rng, 30))])])
    chunks = Chunker(64, minilm_token_counter).chunk(doc_of(root))
    check_invariants(chunks, 64, "Malaria guidelines")
    mine = [c for c in chunks if c.section_path == ("Treatment", "Severe")]
    assert [c.text for c in mine] == ["Malaria guidelines > Treatment > Severe\n\nAdults\n\nGive artesunate 2.4 mg/kg IV."]


def test_large_section_with_children_gives_own_text_then_children() -> None:
    rng = random.Random(2)
    intro, a, b = paragraph(rng, 2), paragraph(rng, 3), paragraph(rng, 3)
    treatment = Section("Treatment", [Block(intro)], [Section("Adults", [Block(a)]), Section("Children", [Block(b)])])
    chunks = Chunker(128, minilm_token_counter).chunk(doc_of(Section(None, [], [treatment])))
    check_invariants(chunks, 128, "Malaria guidelines")
    assert [(c.section_path, body(c)) for c in chunks] == [
        (("Treatment",), intro),
        (("Treatment", "Adults"), a),
        (("Treatment", "Children"), b),
    ]
    assert head(chunks[1]) == "Malaria guidelines > Treatment > Adults"


def test_large_leaf_falls_back_to_paragraph_groups() -> None:
    rng = random.Random(3)
    paras = [paragraph(rng, 2) for _ in range(12)]
    assert all(count("Malaria guidelines > Dosing\n\n" + p) <= 128 for p in paras)
    chunks = Chunker(128, minilm_token_counter).chunk(doc_of(Section("Dosing", [Block(p) for p in paras])))
    check_invariants(chunks, 128, "Malaria guidelines > Dosing")
    assert len(chunks) > 1
    groups = [body(c).split("\n\n") for c in chunks]
    assert [p for g in groups for p in g] == paras  # whole paragraphs, in order, none lost
    # greedy: each group could not also take the next paragraph
    for g, nxt in zip(groups, groups[1:], strict=False):
        assert count("Malaria guidelines > Dosing\n\n" + "\n\n".join([*g, nxt[0]])) > 128


def test_giant_paragraph_falls_back_to_sentence_groups() -> None:
    rng = random.Random(4)
    text = paragraph(rng, 60)
    sentences = split_sentences(text)
    chunks = Chunker(96, minilm_token_counter).chunk(doc_of(Section("Dosing", [Block(text, 7)])))
    check_invariants(chunks, 96, "Malaria guidelines")
    assert len(chunks) > 3
    assert " ".join(body(c) for c in chunks) == " ".join(sentences)
    # every chunk is made of whole sentences
    starts = {s.split()[0] + " " + s.split()[1] for s in sentences}
    assert all(" ".join(body(c).split()[:2]) in starts for c in chunks)
    assert all((c.page, c.page_end) == (7, 7) for c in chunks)


def test_giant_sentence_is_split_by_words() -> None:
    rng = random.Random(5)
    text = " ".join(rng.choice(WORDS) for _ in range(900))  # no sentence end at all
    chunks = Chunker(64, minilm_token_counter).chunk(doc_of(Section("Dosing", [Block(text)])))
    check_invariants(chunks, 64, "Malaria guidelines")
    assert " ".join(body(c) for c in chunks) == text


def test_large_table_block_keeps_rows_whole() -> None:
    rng = random.Random(12)
    rows = [" | ".join(rng.choices(WORDS, k=5)) for _ in range(80)]  # no sentence punctuation
    table = "\n".join(rows)
    chunks = Chunker(64, minilm_token_counter).chunk(doc_of(Section("Table 2", [Block(table)])))
    check_invariants(chunks, 64, "Malaria guidelines")
    assert len(chunks) > 3
    assert "\n".join(body(c) for c in chunks) == table


def test_giant_unbroken_token_is_split_by_characters() -> None:
    url = "https://example.org/" + "".join(f"seg{i}-x/" for i in range(800))  # one "word", thousands of tokens
    blob = "".join(random.Random(6).choice("abcdefghij") for _ in range(99))  # WordPiece: <=100 chars, many pieces
    assert count("Malaria guidelines > Links\n\n" + blob) > 32
    chunks = Chunker(32, minilm_token_counter).chunk(doc_of(Section("Links", [Block(url), Block(blob)])))
    check_invariants(chunks, 32, "Malaria guidelines")
    assert len(chunks) > 20
    assert "".join(body(c) for c in chunks) == url + blob


def test_path_shortening_keeps_document_title_and_last_titles() -> None:
    titles = [f"Subsection number {i} about severe malaria management in pregnant adolescents" for i in range(25)]
    leaf = Section(titles[-1], [Block("Give artesunate.")])
    node = leaf
    for t in reversed(titles[:-1]):
        node = Section(t, [], [node])
    chunks = Chunker(64, minilm_token_counter).chunk(doc_of(Section(None, [], [node])))
    check_invariants(chunks, 64, "Malaria guidelines")
    (chunk,) = chunks
    assert chunk.section_path == tuple(titles[:-1])  # the topmost section that fits holds the leaf
    line = head(chunk)
    assert line.startswith("Malaria guidelines … ") and line.endswith(titles[-2])
    assert count(line) <= 64 - 64 // 4
    assert body(chunk).endswith("Give artesunate.")


def test_absurd_titles_are_truncated() -> None:
    rng = random.Random(7)
    doc_title = " ".join(rng.choice(WORDS) for _ in range(300))
    section_title = " ".join(rng.choice(WORDS) for _ in range(300))
    doc = doc_of(Section(None, [], [Section(section_title, [Block(paragraph(rng, 20))])]), title=doc_title)
    chunks = Chunker(48, minilm_token_counter).chunk(doc)
    check_invariants(chunks, 48, doc_title.split()[0])
    for c in chunks:
        assert "…" in head(c)
        assert count(head(c)) <= 48 - 48 // 4


def test_pages_and_unknown_pages() -> None:
    rng = random.Random(8)
    blocks = [Block(paragraph(rng, 2), page) for page in (3, 3, 4, None, 5, 6, 6, 7)]
    chunks = Chunker(96, minilm_token_counter).chunk(doc_of(Section("Dosing", blocks)))
    check_invariants(chunks, 96, "Malaria guidelines")
    by_text = {b.text: b.page for b in blocks}
    for c in chunks:
        pages = [by_text[p] for p in body(c).split("\n\n") if by_text[p] is not None]
        assert (c.page, c.page_end) == ((min(pages), max(pages)) if pages else (None, None))
    no_pages = Chunker(96, minilm_token_counter).chunk(doc_of(Section("X", [Block("Text.")])))
    assert (no_pages[0].page, no_pages[0].page_end) == (None, None)


def test_no_empty_chunks_and_titles_alone_give_nothing() -> None:
    root = Section(
        "Malaria guidelines",  # same as the document title: not repeated in the path
        [Block("   "), Block("")],
        [Section("Only a title"), Section("", [Block("Untitled text.")]), Section(None, [], [Section("Deep", [])])],
    )
    chunks = Chunker(256, minilm_token_counter).chunk(doc_of(root))
    assert [c.text for c in chunks] == ["Malaria guidelines\n\nUntitled text."]
    assert Chunker(256, minilm_token_counter).chunk(doc_of(Section("Empty", [Block(" ")]))) == []


def test_titles_are_kept_on_one_line() -> None:
    doc = doc_of(Section("Treatment\nof  adults", [Block("Give ACT.")]), title="Malaria\n guidelines")
    (chunk,) = Chunker(256, minilm_token_counter).chunk(doc)
    assert chunk.text == "Malaria guidelines > Treatment of adults\n\nGive ACT."
    assert chunk.section_path == ("Treatment of adults",)


def test_fingerprint_and_validation() -> None:
    base = Chunker(256, minilm_token_counter).fingerprint()
    assert base.startswith("hierarchical-v2;max_tokens=256;sep= > ")
    assert Chunker(128, minilm_token_counter).fingerprint() != base
    assert Chunker(256, minilm_token_counter, path_separator=" / ").fingerprint() != base
    assert Chunker(256, lambda texts: [len(t) for t in texts]).fingerprint() != base
    with pytest.raises(ConfigError):
        Chunker(31, minilm_token_counter)


def test_counter_is_called_in_batches() -> None:
    calls: list[int] = []

    def counting(texts: list[str]) -> list[int]:
        calls.append(len(texts))
        return minilm_token_counter(texts)

    rng = random.Random(9)
    sections = [Section(f"Part {i}", [Block(paragraph(rng, 3)) for _ in range(4)]) for i in range(20)]
    chunks = Chunker(128, counting).chunk(doc_of(Section(None, [], sections)))
    check_invariants(chunks, 128, "Malaria guidelines")
    # the join probes once per Chunker, one priming batch, then about one verification
    # count per chunk (plus rare back-offs)
    assert calls[0] <= 8 and calls[1] > 80
    assert len(calls) <= 2 * len(chunks) + 6


def test_size_distribution_table() -> None:
    chunks = [Chunk(i, (), "x", n, None, None) for i, n in enumerate([10, 64, 65, 200, 256, 300])]
    dist = size_distribution(chunks, 256)
    assert (dist.count, dist.min, dist.max, dist.over_cap) == (6, 10, 300, 1)
    assert dist.p50 == 65 and dist.p95 == 300
    assert dist.buckets == (("≤64", 2), ("65–128", 1), ("129–192", 0), ("193–256", 2), (">256", 1))
    table = dist.format_table()
    assert "p95" in table and "193–256" in table and "33.3%" in table
    assert size_distribution([], 256).count == 0
    assert "chunks" in size_distribution([], 256).format_table()


# --- properties -----------------------------------------------------------------------


def random_tree(rng: random.Random, depth: int, marker: list[int]) -> Section:
    """A random section tree; every block starts with a unique marker so order can be checked."""

    def block() -> Block:
        marker[0] += 1
        kind = rng.random()
        if kind < 0.05:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(100, 600)))  # giant sentence
        elif kind < 0.08:
            text = "see https://who.int/" + "/".join(f"p{rng.randint(0, 9999)}" for _ in range(rng.randint(50, 400)))
        else:
            text = paragraph(rng, rng.choice([1, 1, 2, 3, 5, 8, 40]))
        return Block(f"B{marker[0]:05d}Z {text}", rng.choice([None, rng.randint(1, 50)]))

    title = rng.choice([None, "", "Treatment", "Severe malaria in pregnancy", " ".join(rng.choices(WORDS, k=rng.randint(1, 12)))])
    blocks = [block() for _ in range(rng.choice([0, 0, 1, 2, 3, 6]))]
    children = [random_tree(rng, depth - 1, marker) for _ in range(rng.randint(0, 4))] if depth > 0 else []
    return Section(title, blocks, children)


@pytest.mark.parametrize("cap", [64, 128, 256])
def test_random_trees_keep_every_invariant(cap: int) -> None:
    rng = random.Random(cap)
    chunker = Chunker(cap, minilm_token_counter)
    for _ in range(12):
        marker = [0]
        doc = doc_of(random_tree(rng, rng.randint(0, 4), marker), title=rng.choice(["Malaria guidelines", "WHO"]))
        chunks = chunker.chunk(doc)
        check_invariants(chunks, cap, doc.title)
        found = re.findall(r"\bB(\d{5})Z\b", "\n".join(body(c) for c in chunks))
        assert [int(m) for m in found] == list(range(1, marker[0] + 1))  # nothing lost or repeated, in order


# --- documents shaped like the shared articles ----------------------------------------


def article_tree(rng: random.Random) -> LoadedDocument:
    """An .nxml-like article: abstract, IMRaD sections with subsections, long paragraphs, a table."""
    sections = []
    for name in ["Introduction", "Methods", "Results", "Discussion"]:
        subs = [Section(f"{name} part {k}", [Block(paragraph(rng, rng.randint(2, 12))) for _ in range(rng.randint(1, 6))]) for k in range(rng.randint(0, 4))]
        sections.append(Section(name, [Block(paragraph(rng, rng.randint(1, 10))) for _ in range(rng.randint(0, 5))], subs))
    table = Block("\n".join(" | ".join(rng.choices(WORDS, k=6)) for _ in range(60)))
    sections.append(Section("Table 1", [table]))
    root = Section(None, [Block(paragraph(rng, 12))], sections)
    return LoadedDocument("Efficacy of artesunate in severe malaria: a randomised trial", root, "nxml")


def test_article_shaped_trees_at_minilm_cap() -> None:
    rng = random.Random(11)
    chunker = Chunker(MINILM_MAX_TOKENS, minilm_token_counter)
    for _ in range(8):
        doc = article_tree(rng)
        chunks = chunker.chunk(doc)
        check_invariants(chunks, MINILM_MAX_TOKENS, doc.title)
        assert size_distribution(chunks, MINILM_MAX_TOKENS).over_cap == 0


def test_shared_nxml_articles_within_cap(shared_data: Path) -> None:
    from curbside.kb.loaders import load_document

    files = sorted((shared_data / "guidelines" / "pmc-nxml").glob("*.nxml"))
    assert len(files) == 8
    chunker = Chunker(MINILM_MAX_TOKENS, minilm_token_counter)
    for path in files:
        doc = load_document(path)
        chunks = chunker.chunk(doc)
        assert chunks, path.name
        check_invariants(chunks, MINILM_MAX_TOKENS, " ".join(doc.title.split()))
        assert size_distribution(chunks, MINILM_MAX_TOKENS).over_cap == 0


def test_invariant_holds_with_a_non_additive_counter() -> None:
    # chars/4 rounded up: joins are not additive, so only the verify-and-back-off step keeps the cap
    def chars(texts: list[str]) -> list[int]:
        return [2 + -(-len(t) // 4) for t in texts]

    rng = random.Random(13)
    for cap in (32, 100):
        chunker = Chunker(cap, chars)
        for _ in range(8):
            marker = [0]
            chunks = chunker.chunk(doc_of(random_tree(rng, 3, marker)))
            assert all(c.token_count == chars([c.text])[0] <= cap for c in chunks)
            assert all(body(c).strip() for c in chunks)
            found = re.findall(r"\bB(\d{5})Z\b", "\n".join(body(c) for c in chunks))
            assert [int(m) for m in found] == list(range(1, marker[0] + 1))
