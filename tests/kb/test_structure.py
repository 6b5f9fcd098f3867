"""Structure survives loading (#13): list items, table rows and label lines stay whole lines
through loading and chunking; references, UI hints, page chrome and heading markers stay out.

Real files (the CEP page, the PMC articles, the ADP manuals, the shipped samples) and
generated HTML, DOCX, Markdown, text and PDF fixtures.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from lxml import etree
from test_loaders import make_pdf

from curbside.kb.chunking import Chunk, Chunker
from curbside.kb.document import BLOCK_KINDS, Block, LoadedDocument, Section
from curbside.kb.loaders import load_document
from curbside.search.embedders.tokenizer import MINILM_MAX_TOKENS, minilm_token_counter

CEP = "guidelines/html/cep-anxiety-and-depression.html"
PMC = "guidelines/pmc-nxml"
ADP = "ontario/adp"
SAMPLES = Path(__file__).resolve().parents[2] / "src" / "curbside" / "samples"
FIRST_LINE = ("Management", "First-line medication options")
UNIT_KINDS = {"list_item", "table_row", "label"}

# A title-path element must not end in a reference marker run ("options 1,3–5, 7, 9, 11–30 , 34,35,38")
# nor carry footnote symbols, UI hints or words split by inline markup ("Warning s").
MARKER_RUN = re.compile(r"\s\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\s*$")
SPLIT_WORD = re.compile(r"(?<!\S)[b-hj-z](?!\S)")  # a lone lower-case letter other than a, i
JUNK_TITLES = re.compile(r"scroll \(left-right\)|jump to|^references$|[*†‡]$", re.I)
CITATION_SIGNS = ("[Internet]", "[cited ", "Available from:")


# ---------------------------------------------------------------- helpers


@cache
def _load(path: Path) -> LoadedDocument:
    return load_document(path)  # the ADP manuals take seconds: load each once per session


@cache
def _chunks(path: Path) -> tuple[Chunk, ...]:
    return tuple(Chunker(MINILM_MAX_TOKENS, minilm_token_counter).chunk(_load(path)))


def chunk_lines(chunks: tuple[Chunk, ...] | list[Chunk]) -> set[str]:
    return {line.strip() for c in chunks for line in c.text.split("\n\n", 1)[-1].splitlines() if line.strip()}


def chunk_with_line(chunks: tuple[Chunk, ...] | list[Chunk], line: str) -> Chunk:
    hits = [c for c in chunks if line in c.text.splitlines()]
    assert hits, f"no chunk has the whole line {line!r}"
    return hits[0]


def all_blocks(doc: LoadedDocument) -> list[Block]:
    return [b for s in doc.root.walk() for b in s.blocks]


def section_at(doc: LoadedDocument, *path: str | None) -> Section:
    section = doc.root
    for title in path:
        section = next(c for c in section.children if c.title == title)
    return section


def title_paths(doc: LoadedDocument) -> set[tuple[str | None, ...]]:
    out: set[tuple[str | None, ...]] = set()

    def walk(section: Section, prefix: tuple[str | None, ...]) -> None:
        for child in section.children:
            out.add((*prefix, child.title))
            walk(child, (*prefix, child.title))

    walk(doc.root, ())
    return out


def assert_clean_paths(chunks: tuple[Chunk, ...] | list[Chunk]) -> None:
    for c in chunks:
        for title in c.section_path:
            assert not MARKER_RUN.search(title), (title, c.section_path)
            assert not SPLIT_WORD.search(title), (title, c.section_path)
            assert not JUNK_TITLES.search(title), (title, c.section_path)


def assert_units_whole(doc: LoadedDocument, chunks: tuple[Chunk, ...] | list[Chunk]) -> int:
    """Every list item, table row and label line that fits is a whole line of some chunk."""
    lines = chunk_lines(chunks)
    checked = 0
    for block in all_blocks(doc):
        text = block.text.strip()
        if block.kind in UNIT_KINDS and minilm_token_counter([text])[0] <= MINILM_MAX_TOKENS // 2:
            assert text in lines, f"{block.kind} {text!r} is not a whole line of any chunk"
            checked += 1
    return checked


# ---------------------------------------------------------------- the CEP page


def test_cep_dosing_units_are_whole_lines_under_the_drug(shared_data: Path) -> None:
    path = shared_data / CEP
    chunks = _chunks(path)
    dosing = chunk_with_line(chunks, "Initial: 25-50 mg daily (am/pm)")
    assert dosing.section_path == (*FIRST_LINE, "Sertraline (Zoloft®)", "Dosing")
    assert "Usual: MDD: 50-100 mg daily; GAD: 50-150 mg daily; SAD & panic: 50-200 mg daily" in dosing.text.splitlines()
    assert "Max: 200 mg daily" in dosing.text.splitlines()
    card = chunk_with_line(chunks, "Coverage: ODB ✓; NIHB ✓")  # a bold lead-in folded into its short list
    assert card.section_path[:3] == (*FIRST_LINE, "Citalopram (Celexa®)")
    sertraline = section_at(_load(path), *FIRST_LINE, "Sertraline (Zoloft®)")
    assert [(b.text, b.kind) for b in section_at(_load(path), *FIRST_LINE, "Sertraline (Zoloft®)", "Dosing").blocks] == [
        ("Initial: 25-50 mg daily (am/pm)", "list_item"),
        ("Usual: MDD: 50-100 mg daily; GAD: 50-150 mg daily; SAD & panic: 50-200 mg daily", "list_item"),
        ("Max: 200 mg daily", "list_item"),
    ]
    texts = [b.text for b in sertraline.blocks]
    assert texts[0] == "Selective Serotonin Reuptake Inhibitors (SSRIs)"  # the class line over the card's title
    assert "First-line for: Major depressive disorder; Generalized anxiety disorder; Social anxiety disorder; Panic disorder (+/- agoraphobia)" in texts
    assert "Cost for usual dose ($/100 days): $26-81" in texts
    assert [c.title for c in sertraline.children] == ["Dosing", "Side effects", "Warnings and contraindications"]


def test_cep_treatment_duration_label_lines(shared_data: Path) -> None:
    chunks = _chunks(shared_data / CEP)
    duration = chunk_with_line(chunks, "Depression: 6-12 months after symptom remission")  # no "remission1"
    assert duration.section_path[-1] == "Treatment duration"
    assert "Anxiety: 12-24 months" in duration.text.splitlines()


def test_cep_section_paths_are_clean(shared_data: Path) -> None:
    doc = _load(shared_data / CEP)
    chunks = _chunks(shared_data / CEP)
    assert_clean_paths(chunks)
    paths = {c.section_path for c in chunks}
    assert (*FIRST_LINE, "Sertraline (Zoloft®)", "Warnings and contraindications") in paths  # not "Warning s"
    assert ("Management", "Medication counselling",
            "Before starting a treatment, discuss the following with the patient, and if desired, their family or "
            "caregiver(s)", "Treatment duration") in paths  # fmt: skip
    # a drug card and its details dialog are one section, each drug straight under the options
    drugs = [s.title for s in section_at(doc, *FIRST_LINE).children]
    assert drugs[:6] == [
        "Citalopram (Celexa®)", "Escitalopram (Cipralex®)", "Fluoxetine (Prozac®)", "Fluvoxamine (Luvox®)",
        "Paroxetine (Paxil®)", "Sertraline (Zoloft®)",
    ]  # fmt: skip
    assert len(drugs) == len(set(drugs))
    # what follows a dialog is not inside the last drug opened in it
    assert "Role of benzodiazepines for anxiety disorders" in drugs


def test_cep_keeps_out_references_chrome_and_ui_hints(shared_data: Path) -> None:
    chunks = _chunks(shared_data / CEP)
    text = "\n".join(c.text for c in chunks)
    for sign in CITATION_SIGNS:
        assert sign not in text
    assert "Table of antidepressant medications (adult)" not in text
    lines = chunk_lines(chunks)
    for junk in ("Close", "Expand All", "No Results Found 0/0", "Jump to", "Scroll (left-right) for details",
                 "View dosing, side effects, warnings and contraindications", "Screen patient Conduct a comprehensive assessment"):  # fmt: skip
        assert junk not in lines
    assert not any(re.search(r"[a-z]\d$", line) for line in lines if line.endswith(("remission1", "months7")))


def test_cep_block_kinds_and_units_survive_chunking(shared_data: Path) -> None:
    doc = _load(shared_data / CEP)
    kinds = {b.kind for b in all_blocks(doc)}
    assert {"paragraph", "list_item", "label", "heading"} <= kinds <= set(BLOCK_KINDS)
    assert assert_units_whole(doc, _chunks(shared_data / CEP)) > 300


# ---------------------------------------------------------------- the PMC articles


def _cited_titles(path: Path) -> list[str]:
    root = etree.parse(str(path)).getroot()
    titles = []
    for el in root.iter("{*}article-title", "article-title"):
        if any(a.tag in ("ref-list", "ref") for a in el.iterancestors()):
            title = " ".join("".join(el.itertext()).split())
            if len(title) >= 40:
                titles.append(title)
    return titles


@pytest.mark.parametrize(
    "name",
    ["1471-2180-11-174.nxml", "1472-6831-8-11.nxml", "6605965a.nxml", "ehp-116-1694.nxml", "mds526.nxml",
     "pntd.0002065.nxml", "pone.0000217.nxml", "pone.0046493.nxml"],
)  # fmt: skip
def test_pmc_articles_units_paths_and_no_references(shared_data: Path, name: str) -> None:
    path = shared_data / PMC / name
    doc, chunks = _load(path), _chunks(path)
    assert_clean_paths(chunks)
    assert_units_whole(doc, chunks)
    text = " ".join(" ".join(c.text.split()) for c in chunks)
    cited = _cited_titles(path)
    assert cited, "the reference list should name cited articles"
    leaked = [t for t in cited if t in text]
    assert not leaked, leaked


def test_pmc_table_rows_carry_their_headers(shared_data: Path) -> None:
    lysis = _chunks(shared_data / PMC / "1471-2180-11-174.nxml")
    row = chunk_with_line(lysis, "Strain: IN56 (WT); n: 230; MLT (min): 65.1; SD (min): 3.24")
    assert "Table 1 Effects of holin allelic sequences on the stochasticity of lysis time." in row.text.splitlines()
    assert chunk_with_line(lysis, "Strain: IN56; Relevant Genotype: MC4100 (λ cI857 S); Source: [46]")
    rvf = _chunks(shared_data / PMC / "pntd.0002065.nxml")  # two header rows, "Goats" spanning three columns
    assert chunk_with_line(
        rvf,
        "District: Mocuba; Goats n: 59; Goats Seroprevalence (%): 0.0; Goats 95% C.I.: 0.0, 4.9; Sheep n: 181; "
        "Sheep Seroprevalence (%): 13.8; Sheep 95% C.I.: 9.5, 19.7",
    )
    oc = _load(shared_data / PMC / "6605965a.nxml")  # a row spanning the table is a group label of its own
    rows = [b.text for b in all_blocks(oc) if b.kind == "table_row"]
    assert "Menopausal status (%)" in rows
    assert all(b.kind in BLOCK_KINDS for b in all_blocks(oc))


# ---------------------------------------------------------------- the ADP manuals (PDF)


def test_adp_manuals_list_items_and_label_lines(shared_data: Path) -> None:
    mobility = shared_data / ADP / "moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"
    program = shared_data / ADP / "moh-adp-policies-and-procedures-manual-assistive-devices-program-2023-07-01.pdf"
    for path in (mobility, program):
        assert_units_whole(_load(path), _chunks(path))
    lines = chunk_lines(_chunks(mobility))
    assert "Forearm crutches" in lines  # "• Forearm crutches": a list item, its bullet glyph dropped
    assert "Power wheelchairs, power bases, power add-on devices, power scooters" in lines
    program_lines = chunk_lines(_chunks(program))
    assert "Email: adp@ontario.ca" in program_lines
    assert "Fax: (416) 327-8192" in program_lines
    # Word's "o" second-level bullet is a list item too
    assert "Is customized to address a disability;" in program_lines
    # a label line after a finished sentence starts its own unit
    assert ("NOTE: Factors that will influence the prescription details include the Applicant's medical condition "
            "and prognosis, and seating needs now and in the foreseeable future.") in lines  # fmt: skip
    # a capitalised word after a colon in a wrapped line is not a label
    assert any(
        line.endswith("Policy and Administration Manual and on the website at: https://www.ontario.ca/page/assistivedevices-program.")
        for line in program_lines
    )


def test_adp_manuals_tables_of_contents_are_not_indexed(shared_data: Path) -> None:
    # "510 Contact 28" is a section's title and page: navigation, which answered "what's the March of Dimes contact?"
    mobility = shared_data / ADP / "moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"
    chunks = _chunks(mobility)
    assert not any("Table of Contents" in c.section_path[:1] for c in chunks)
    assert "510 Contact 28" not in chunk_lines(chunks)
    contact = chunk_with_line(chunks, "The Central Equipment Pool (CEP) for High Technology Wheelchairs is operated by "
                              "Motion Specialties. Contact numbers for CEP are 416-701-1351 or 1-800-395-6661.")
    assert contact.section_path[-1] == "510 Contact"


# ---------------------------------------------------------------- the shipped samples


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir() if not p.name.startswith((".", "_"))))
def test_samples_keep_their_text(name: str) -> None:
    path = SAMPLES / name
    doc = load_document(path)
    chunks = Chunker(MINILM_MAX_TOKENS, minilm_token_counter).chunk(doc)
    assert chunks
    assert_clean_paths(chunks)
    assert_units_whole(doc, chunks)
    assert all(b.kind in BLOCK_KINDS for b in all_blocks(doc))


def test_sample_source_notes_are_not_mistaken_for_citations() -> None:
    hypertension = load_document(SAMPLES / "sample-hypertension.md")
    assert any("Rabi et al., Can J Cardiol 2020;36:596-624" in b.text for b in all_blocks(hypertension))
    metformin = load_document(SAMPLES / "sample-metformin-renal.html")
    # a line break in the HTML source is not a <br>: the paragraph stays one block
    assert any(b.text.startswith("Sample document shipped") and "Source: U.S. FDA" in b.text for b in all_blocks(metformin))
    malaria = load_document(SAMPLES / "sample-malaria-guideline.nxml")
    block = next(b for b in all_blocks(malaria) if b.text.startswith("Severe malaria is a medical emergency"))
    assert block.kind == "paragraph"  # a sentence with a colon, not a "Label: value" line


# ---------------------------------------------------------------- generated fixtures: HTML

_HTML = """<!DOCTYPE html>
<html><head><title>Antidepressants | Example Health</title></head><body>
<nav><a href="/">Home</a></nav>
<div class="search-tool"><input type="search"><span class="search-no-results-found">No Results Found</span></div>
<main>
<h1>Antidepressants</h1>
<h4>Jump to:</h4>
<p><a href="#options">Options</a><br><a href="#duration">Duration</a></p>
<h2 id="options"><strong>First-line options<sup>1,3–5, 7</sup></strong><sup>, 34,35</sup></h2>
<h5>Scroll (left-right) for details</h5>
<ul class="slider"><li>
  <div class="inner"><span class="subhead">SSRIs</span>
    <h6>Sertraline</h6>
    <p><strong>Coverage</strong></p><ul><li>ODB ✓</li><li>NIHB ✓</li></ul>
    <a class="button open-modal" href="#">View dosing, side effects, warnings and contraindications</a>
  </div>
  <div class="modal"><div class="close-wrapper"><a href="" class="close">Close</a></div>
    <h4>Sertraline</h4>
    <h6><strong>Dosing*** </strong></h6>
    <ul>
      <li><b>Initial:</b> 25-50 mg daily</li>
      <li><b>Usual:</b><ul><li><i>MDD:</i> 50-100 mg daily</li><li><i>GAD:</i> 50-150 mg daily</li></ul></li>
      <li><b>Max:</b> 200 mg daily</li>
    </ul>
    <h6><strong>Warning<b>s </b><b>and contraindications</b></strong></h6>
    <ul><li><p>Hyponatremia (especially in elderly)</p></li></ul>
  </div>
</li></ul>
<p>*Tolerability is based on drop-out rates.</p>
<h2 id="duration">Treatment duration</h2>
<p><strong>Depression:</strong> 6-12 months after symptom remission<sup>1</sup><br>
<strong>Anxiety:</strong> 12-24 months<sup>7</sup></p>
<p>Dose by body surface area in m<sup>2</sup>; platelets above 100 x 10<sup>9</sup>/L.</p>
<table><caption>Dose by weight</caption>
  <thead><tr><th rowspan="2">Weight</th><th colspan="2">Dose</th></tr><tr><th>Adults</th><th>Children</th></tr></thead>
  <tbody><tr><td>&lt;50 kg</td><td>25 mg</td><td>10 mg</td></tr>
  <tr><td colspan="3">Renal impairment</td></tr>
  <tr><td>≥50 kg</td><td>50 mg</td><td>25 mg</td></tr></tbody>
</table>
<table><tr><td>Maximum dose</td><td>200 mg</td></tr><tr><td>Route</td><td>Oral</td></tr></table>
<dl><dt>MDD</dt><dd>Major depressive disorder</dd></dl>
<h2>References</h2>
<ol><li>Ottawa Depression Algorithm. Table of antidepressant medications (adult) [Internet]. 2024
[cited 18 July 2024]. Available from: https://example.org/table</li></ol>
<h3>Further notes under references</h3>
<p>Not indexed either.</p>
<h2>After the references</h2>
<p>Kept text.</p>
<p>CPS [Internet]. Ottawa (ON): Canadian Pharmacists Association. ZOLOFT: Sertraline [product monograph]
[Internet]. 2020 [cited 2022 Nov 10]. Available from: http://www.e-therapeutics.ca</p>
</main></body></html>
"""


def test_html_fixture_units_and_clean_structure(tmp_path: Path) -> None:
    path = tmp_path / "antidepressants.html"
    path.write_text(_HTML, encoding="utf-8")
    doc = load_document(path)
    assert doc.title == "Antidepressants"
    assert {p for p in title_paths(doc)} == {
        ("First-line options",),
        ("First-line options", "Sertraline"),
        ("First-line options", "Sertraline", "Dosing"),
        ("First-line options", "Sertraline", "Warnings and contraindications"),
        ("Treatment duration",),
        ("After the references",),
    }
    kinds = lambda *path: [(b.text, b.kind) for b in section_at(doc, *path).blocks]  # noqa: E731
    assert kinds("First-line options") == [("*Tolerability is based on drop-out rates.", "paragraph")]
    assert kinds("First-line options", "Sertraline") == [("SSRIs", "heading"), ("Coverage: ODB ✓; NIHB ✓", "list_item")]
    assert kinds("First-line options", "Sertraline", "Dosing") == [
        ("Initial: 25-50 mg daily", "list_item"),
        ("Usual: MDD: 50-100 mg daily; GAD: 50-150 mg daily", "list_item"),
        ("Max: 200 mg daily", "list_item"),
    ]
    assert kinds("First-line options", "Sertraline", "Warnings and contraindications") == [
        ("Hyponatremia (especially in elderly)", "list_item")
    ]
    assert kinds("Treatment duration") == [
        ("Depression: 6-12 months after symptom remission", "label"),  # <br>-separated label lines
        ("Anxiety: 12-24 months", "label"),
        ("Dose by body surface area in m2; platelets above 100 x 109/L.", "paragraph"),  # exponents stay
        ("Dose by weight", "caption"),
        ("Weight: <50 kg; Dose Adults: 25 mg; Dose Children: 10 mg", "table_row"),
        ("Renal impairment", "table_row"),
        ("Weight: ≥50 kg; Dose Adults: 50 mg; Dose Children: 25 mg", "table_row"),
        ("Maximum dose: 200 mg", "table_row"),  # no header row: a two-column table reads key: value
        ("Route: Oral", "table_row"),
        ("MDD: Major depressive disorder", "label"),
    ]
    assert kinds("After the references") == [("Kept text.", "paragraph")]  # the citation paragraph is dropped
    text = "\n".join(b.text for b in all_blocks(doc))
    for junk in ("Home", "No Results", "Jump to", "Options", "Scroll", "View dosing", "Close", "[Internet]",
                 "Not indexed either"):  # fmt: skip
        assert junk not in text


def test_html_units_are_whole_lines_in_small_chunks(tmp_path: Path) -> None:
    path = tmp_path / "antidepressants.html"
    path.write_text(_HTML, encoding="utf-8")
    doc = load_document(path)
    for cap in (48, 64, MINILM_MAX_TOKENS):
        chunks = Chunker(cap, minilm_token_counter).chunk(doc)
        assert all(c.token_count <= cap for c in chunks)
        lines = chunk_lines(chunks)
        for block in all_blocks(doc):
            fits = minilm_token_counter([block.text])[0] <= cap // 4
            if fits:
                assert block.text in lines, (cap, block.text)


# ---------------------------------------------------------------- generated fixtures: DOCX


def _numbered(paragraph, level: int) -> None:  # noqa: ANN001 - a python-docx Paragraph
    """Word numbering on the paragraph itself (w:numPr), as Word writes list items."""
    num_pr = OxmlElement("w:numPr")
    ilvl = OxmlElement("w:ilvl")
    ilvl.set(qn("w:val"), str(level))
    num_id = OxmlElement("w:numId")
    num_id.set(qn("w:val"), "1")
    num_pr.append(ilvl)
    num_pr.append(num_id)
    paragraph._p.get_or_add_pPr().append(num_pr)


def test_docx_lists_tables_label_lines_and_references(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Sertraline", level=0)
    heading = document.add_heading("Dosing", level=1)
    heading.add_run("1,3").font.superscript = True  # a reference marker glued to the heading
    document.add_paragraph("Initial: 25-50 mg daily", style="List Bullet")
    document.add_paragraph("Usual:", style="List Bullet")
    document.add_paragraph("MDD: 50-100 mg daily", style="List Bullet 2")
    document.add_paragraph("GAD: 50-150 mg daily", style="List Bullet 2")
    document.add_paragraph("Max: 200 mg daily", style="List Bullet")
    document.add_heading("Coverage", level=1)
    lead = document.add_paragraph()
    lead.add_run("Covered by").bold = True
    for text in ("ODB", "NIHB"):
        _numbered(document.add_paragraph(text), 0)
    duration = document.add_paragraph()
    duration.add_run("Depression: 6-12 months after symptom remission")
    duration.add_run().add_break()
    duration.add_run("Anxiety: 12-24 months")
    document.add_heading("Dose table", level=1)
    table = document.add_table(rows=3, cols=3)
    for row, cells in zip(table.rows, [("Weight", "Adults", "Children"), ("<50 kg", "25 mg", "10 mg"),
                                       ("≥50 kg", "50 mg", "25 mg")], strict=True):  # fmt: skip
        for cell, text in zip(row.cells, cells, strict=True):
            cell.text = text
    header = table.rows[0]._tr.get_or_add_trPr()
    header.append(OxmlElement("w:tblHeader"))  # the row Word repeats on every page: the header row
    pairs = document.add_table(rows=2, cols=2)
    for row, cells in zip(pairs.rows, [("Route", "Oral"), ("Food", "With or without")], strict=True):
        for cell, text in zip(row.cells, cells, strict=True):
            cell.text = text
    document.add_heading("References", level=1)
    document.add_paragraph(
        "Smith J, Doe AB. Sertraline in primary care. Lancet. 2020;395:1-10. doi:10.1016/S0140-6736(20)30001-1"
    )
    document.add_heading("Monitoring", level=1)
    document.add_paragraph("Check sodium in older adults.")
    path = tmp_path / "sertraline.docx"
    document.save(path)

    doc = load_document(path)
    assert doc.title == "Sertraline"
    assert title_paths(doc) == {("Dosing",), ("Coverage",), ("Dose table",), ("Monitoring",)}
    kinds = lambda title: [(b.text, b.kind) for b in section_at(doc, title).blocks]  # noqa: E731
    assert kinds("Dosing") == [
        ("Initial: 25-50 mg daily", "list_item"),
        ("Usual: MDD: 50-100 mg daily; GAD: 50-150 mg daily", "list_item"),
        ("Max: 200 mg daily", "list_item"),
    ]
    assert kinds("Coverage") == [
        ("Covered by: ODB; NIHB", "list_item"),  # a bold lead-in over numbered paragraphs
        ("Depression: 6-12 months after symptom remission", "label"),  # a line break keeps label lines apart
        ("Anxiety: 12-24 months", "label"),
    ]
    assert kinds("Dose table") == [
        ("Weight: <50 kg; Adults: 25 mg; Children: 10 mg", "table_row"),
        ("Weight: ≥50 kg; Adults: 50 mg; Children: 25 mg", "table_row"),
        ("Route: Oral", "table_row"),
        ("Food: With or without", "table_row"),
    ]
    assert kinds("Monitoring") == [("Check sodium in older adults.", "paragraph")]
    assert "Lancet" not in "\n".join(b.text for b in all_blocks(doc))


def test_docx_merged_cells_repeat_in_every_row_they_cover(tmp_path: Path) -> None:
    document = docx.Document()
    table = document.add_table(rows=3, cols=3)
    for row, cells in zip(table.rows, [("Drug", "Dose", "Note"), ("Sertraline", "50 mg", "With food"),
                                       ("", "100 mg", "")], strict=True):  # fmt: skip
        for cell, text in zip(row.cells, cells, strict=True):
            cell.text = text
    table.cell(1, 0).merge(table.cell(2, 0))  # "Sertraline" spans two rows
    table.cell(1, 2).merge(table.cell(2, 2))
    path = tmp_path / "merged.docx"
    document.save(path)
    rows = [b.text for b in all_blocks(load_document(path))]
    assert rows == [
        "Drug: Sertraline; Dose: 50 mg; Note: With food",
        "Drug: Sertraline; Dose: 100 mg; Note: With food",
    ]


# ---------------------------------------------------------------- generated fixtures: Markdown and text

_MARKDOWN = """# Sertraline

**Dosing**

- Initial: 25-50 mg daily
- Usual:
  - MDD: 50-100 mg daily
  - GAD: 50-150 mg daily
- Max: 200 mg daily

**Coverage**

- ODB
- NIHB

Depression: 6-12 months after symptom remission
Anxiety: 12-24 months

The dose can be raised after a week
when it is tolerated.

| Weight | Adults | Children |
|---|---|---|
| <50 kg | 25 mg | 10 mg |

## References

1. Smith J, Doe AB. Sertraline in primary care. Lancet. 2020;395:1-10.

## Monitoring

Check sodium.
"""


def test_markdown_lists_tables_and_label_lines(tmp_path: Path) -> None:
    path = tmp_path / "sertraline.md"
    path.write_text(_MARKDOWN, encoding="utf-8")
    doc = load_document(path)
    assert doc.title == "Sertraline"
    assert title_paths(doc) == {("Monitoring",)}  # the References section is not indexed
    assert [(b.text, b.kind) for b in doc.root.blocks] == [
        ("Dosing", "heading"),  # a bold lead-in over label items stays a line of its own
        ("Initial: 25-50 mg daily", "list_item"),
        ("Usual: MDD: 50-100 mg daily; GAD: 50-150 mg daily", "list_item"),
        ("Max: 200 mg daily", "list_item"),
        ("Coverage: ODB; NIHB", "list_item"),
        ("Depression: 6-12 months after symptom remission", "label"),  # soft breaks between label lines
        ("Anxiety: 12-24 months", "label"),
        ("The dose can be raised after a week when it is tolerated.", "paragraph"),  # a soft wrap joins
        ("Weight: <50 kg; Adults: 25 mg; Children: 10 mg", "table_row"),
    ]
    assert "Lancet" not in "\n".join(b.text for b in all_blocks(doc))


_TEXT = """Sertraline dosing
Initial: 25-50 mg daily
Max: 200 mg daily

• Depression: 6-12 months after symptom remission
• Anxiety: 12-24 months

The dose may be raised after one week when the medication is well
Tolerated: it is a wrapped line, not a label.

[1] Smith J, Doe AB. Sertraline in primary care. Lancet. 2020;395:1-10. doi:10.1016/S0140-6736(20)30001-1
"""


def test_text_bullets_and_label_lines(tmp_path: Path) -> None:
    path = tmp_path / "sertraline.txt"
    path.write_text(_TEXT, encoding="utf-8")
    doc = load_document(path)
    assert [(b.text, b.kind) for b in doc.root.blocks] == [
        ("Sertraline dosing", "paragraph"),
        ("Initial: 25-50 mg daily", "label"),
        ("Max: 200 mg daily", "label"),
        ("Depression: 6-12 months after symptom remission", "list_item"),
        ("Anxiety: 12-24 months", "list_item"),
        ("The dose may be raised after one week when the medication is well Tolerated: it is a wrapped line, "
         "not a label.", "paragraph"),  # fmt: skip
    ]


def test_pdf_label_lines_and_bullets(tmp_path: Path) -> None:
    data = make_pdf([
        "Sertraline guide\nDosing\nInitial: 25-50 mg daily\nMax: 200 mg daily\n"
        "Give the dose in the morning or in the evening, with or without food, and keep the\n"
        "Same time each day: this wraps.\n"
        "• Depression: 6-12 months after symptom remission\n• Anxiety: 12-24 months",
        "References\nSmith J, Doe AB. Sertraline trial. Lancet. 2020;395:1-10. doi:10.1016/S0140-6736(20)30001-1",
    ])  # fmt: skip
    path = tmp_path / "guide.pdf"
    path.write_bytes(data)
    doc = load_document(path)
    assert [(b.text, b.kind, b.page) for b in doc.root.blocks] == [
        ("Sertraline guide", "paragraph", 1),
        ("Dosing", "paragraph", 1),
        ("Initial: 25-50 mg daily", "label", 1),
        ("Max: 200 mg daily", "label", 1),
        ("Give the dose in the morning or in the evening, with or without food, and keep the Same time each day: "
         "this wraps.", "paragraph", 1),  # fmt: skip
        ("Depression: 6-12 months after symptom remission", "list_item", 1),
        ("Anxiety: 12-24 months", "list_item", 1),
        ("References", "paragraph", 2),  # no outline: the heading line stays, the citation does not
    ]


# ---------------------------------------------------------------- the chunker


def test_chunker_never_splits_a_unit_that_fits() -> None:
    rows = [Block(f"Drug: drug{i}; Initial dose: {i} mg daily; Maximum dose: {10 * i} mg daily", kind="table_row")
            for i in range(40)]  # fmt: skip
    items = [Block(f"Item {i}: take with food and water every morning", kind="list_item") for i in range(40)]
    doc = LoadedDocument("Dosing guide", Section(None, [], [Section("Table", rows), Section("List", items)]), "html")
    for cap in (40, 64, 128):
        chunks = Chunker(cap, minilm_token_counter).chunk(doc)
        lines = [line for c in chunks for line in c.text.split("\n\n")[1:]]
        assert sorted(lines) == sorted(b.text for b in rows + items), cap  # each unit once, whole, on its own
        assert all(c.token_count <= cap for c in chunks)


def test_chunker_splits_a_large_multi_line_block_by_lines_first() -> None:
    code = "\n".join(f"step {i}: dose. Then wait. Then check." for i in range(60))
    doc = LoadedDocument("Guide", Section("Protocol", [Block(code, kind="code")]), "text")
    chunks = Chunker(64, minilm_token_counter).chunk(doc)
    assert len(chunks) > 1
    lines = [line for c in chunks for line in c.text.split("\n\n", 1)[1].splitlines()]
    assert lines == code.splitlines()  # lines whole, in order, one per line
