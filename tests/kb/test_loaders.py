"""Document loaders: real shared files, hand-made fixtures, and every kind of bad input."""

from __future__ import annotations

import io
import random
import zipfile
from functools import cache
from pathlib import Path

import docx
import pytest
from pypdf import PdfReader, PdfWriter

from curbside.errors import (
    DocumentParseError,
    EmptyDocumentError,
    FileTooLargeError,
    NotFoundError,
    UnsupportedFormatError,
)
from curbside.kb.document import Block, LoadedDocument, Section
from curbside.kb.loaders import (
    PARSER_VERSION,
    SUPPORTED_EXTENSIONS,
    detect_format,
    load_document,
    skip_reason,
)
from curbside.kb.loaders import pdf as pdf_loader

FIXTURES = Path(__file__).parent / "fixtures"
BITS = FIXTURES / "bits"
DOCS = FIXTURES / "docs"
ADP = "ontario/adp"
MOBILITY_PDF = f"{ADP}/moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"
ADP_PDF = f"{ADP}/moh-adp-policies-and-procedures-manual-assistive-devices-program-2023-07-01.pdf"


# ---------------------------------------------------------------- helpers


def title_paths(doc: LoadedDocument) -> set[tuple[str | None, ...]]:
    """Every section's title path below the document title."""
    out: set[tuple[str | None, ...]] = set()

    def walk(section: Section, prefix: tuple[str | None, ...]) -> None:
        for child in section.children:
            path = (*prefix, child.title)
            out.add(path)
            walk(child, path)

    walk(doc.root, ())
    return out


def section_at(doc: LoadedDocument, *path: str) -> Section:
    section = doc.root
    for title in path:
        section = next(c for c in section.children if c.title == title)
    return section


def all_blocks(doc: LoadedDocument) -> list[Block]:
    return [b for s in doc.root.walk() for b in s.blocks]


def block_with(doc: LoadedDocument, phrase: str) -> Block:
    hits = [b for b in all_blocks(doc) if phrase in b.text]
    assert hits, f"no block contains {phrase!r}"
    return hits[0]


def section_of(doc: LoadedDocument, phrase: str) -> Section:
    return next(s for s in doc.root.walk() if any(phrase in b.text for b in s.blocks))


def _pdf_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(pages: list[str | None]) -> bytes:
    """A minimal PDF: one Helvetica text line per input line; None makes a page with no text."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    }
    kids = []
    for n, text in enumerate(pages):
        page_id, content_id = 4 + 2 * n, 5 + 2 * n
        kids.append(f"{page_id} 0 R")
        ops = ["BT", "/F1 11 Tf", "14 TL", "72 740 Td"]
        ops += [f"({_pdf_string(line)}) Tj T*" for line in (text or "").split("\n")] + ["ET"]
        stream = "\n".join(ops).encode("cp1252") if text is not None else b""
        objects[content_id] = b"<< /Length %d >>\nstream\n%b\nendstream" % (len(stream), stream)
        objects[page_id] = (
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {content_id} 0 R >>"
        ).encode()
    objects[2] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>".encode()
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for i in sorted(objects):
        offsets[i] = len(out)
        out += b"%d 0 obj\n%b\nendobj\n" % (i, objects[i])
    xref, size = len(out), max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    out += b"".join(b"%010d 00000 n \n" % offsets[i] for i in range(1, size))
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def rewrite_pdf(data: bytes, *, outline: list[tuple[str, int, str | None]] = (), **encrypt: str) -> bytes:
    """Add outline entries (title, 0-based page, parent title) and/or encryption with pypdf."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    items = {}
    for title, page, parent in outline:
        items[title] = writer.add_outline_item(title=title, page_number=page, parent=items.get(parent))
    if encrypt:
        writer.encrypt(algorithm="RC4-128", **encrypt)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


@cache
def _load_shared(path: Path) -> LoadedDocument:
    return load_document(path)  # the ADP manuals take seconds: load each once per session


# ---------------------------------------------------------------- public API


def test_supported_extensions_and_version() -> None:
    assert SUPPORTED_EXTENSIONS[".pdf"] == "pdf"
    assert SUPPORTED_EXTENSIONS[".htm"] == SUPPORTED_EXTENSIONS[".html"] == "html"
    assert SUPPORTED_EXTENSIONS[".xml"] == SUPPORTED_EXTENSIONS[".nxml"] == "nxml"
    assert SUPPORTED_EXTENSIONS[".markdown"] == "markdown"
    assert SUPPORTED_EXTENSIONS[".text"] == "text"
    assert isinstance(PARSER_VERSION, str) and PARSER_VERSION


def test_detect_format_trusts_extension_after_checking_bytes() -> None:
    assert detect_format(Path("a.PDF"), b"%PDF-1.7\n") == "pdf"
    assert detect_format(Path("a.docx"), b"PK\x03\x04rest") == "docx"
    assert detect_format(Path("a.md"), "# Café".encode()) == "markdown"
    assert detect_format(Path("a.txt"), "naïve".encode("cp1252")) == "text"
    assert detect_format(Path("a.txt"), "\ufefftext".encode("utf-16")) == "text"


def test_detect_format_rejects_what_the_bytes_contradict() -> None:
    with pytest.raises(DocumentParseError, match="old Office file.*save it as .docx"):
        detect_format(Path("letter.docx"), b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
    with pytest.raises(DocumentParseError, match=r"page\.html looks like binary data.*a PDF"):
        detect_format(Path("page.html"), b"%PDF-1.4\n...")


def test_skip_reasons_for_bookshelf_front_matter_references_acknowledgments() -> None:
    assert "front matter" in skip_reason(BITS / "fm-who9789240000001_NBK500001.nxml")
    assert "reference list" in skip_reason(BITS / "rl-who9789240000001_NBK500001.nxml")
    assert "acknowledgments" in skip_reason(BITS / "ak-who9789240000001_NBK500001.nxml")
    assert skip_reason(BITS / "who9789240000001_NBK500001_ch2.nxml") is None
    assert skip_reason(BITS / "who9789240000001_NBK500001_annex1.nxml") is None
    assert skip_reason(Path("fm-notes.md")) is None  # only Bookshelf XML follows that naming


# ---------------------------------------------------------------- JATS articles (shared data)

ARTICLES = {
    "1471-2180-11-174.nxml": (
        "Factors influencing lysis time stochasticity in bacteriophage λ",
        [("Results", "Effect of Host Growth Rates"), ("Discussion", "Effect of energy poison KCN"),
         ("Methods", "Bacterial strains"), ("Abstract", "Conclusions"), ("Appendix A",)],
    ),
    "1472-6831-8-11.nxml": (
        "The Dutch version of the Oral Health Impact Profile (OHIP-NL): Translation, reliability and "
        "construct validity",
        [("Methods", "Test-retest reliability"), ("Methods", "Construct validity"), ("Discussion",)],
    ),
    "6605965a.nxml": (
        "Oral contraceptives, reproductive history and risk of colorectal cancer in the European "
        "Prospective Investigation into Cancer and Nutrition",
        [("Materials and Methods",), ("Abstract", "Background"), ("Abstract", "Conclusion")],
    ),
    "ehp-116-1694.nxml": (
        "Dietary Exposure to 2,2′,4,4′-Tetrabromodiphenyl Ether (PBDE-47) Alters Thyroid Status and "
        "Thyroid Hormone–Regulated Gene Transcription in the Pituitary and Brain",
        [("Materials and Methods", "Bioencapsulation of PBDE-47 in Artemia shrimp"),
         ("Results", "TR transcripts in the liver")],
    ),
    "mds526.nxml": (
        "Socio-demographic inequalities in stage of cancer diagnosis: evidence from patients with female "
        "breast, lung, colon, rectal, prostate, renal, bladder, melanoma, ovarian and endometrial cancer",
        [("methods", "analysis"), ("Abstract", "Patients and methods"), ("discussion",)],
    ),
    "pntd.0002065.nxml": (
        "Serological Evidence of Rift Valley Fever Virus Circulation in Sheep and Goats in Zambézia "
        "Province, Mozambique",
        [("Materials and Methods", "Laboratory tests"), ("Results", "Cross-sectional surveys"),
         ("Author Summary",)],
    ),
    "pone.0000217.nxml": (
        "Quantifying Organismal Complexity using a Population Genetic Approach",
        [("Methods", "Appendix B: robustness to assumptions", "Ellipsoidal fitness isoclines"),
         ("Discussion", "Robustness of the Model")],
    ),
    "pone.0046493.nxml": (
        "MmPPOX Inhibits Mycobacterium tuberculosis Lipolytic Enzymes Belonging to the Hormone-Sensitive "
        "Lipase Family and Alters Mycobacterial Growth",
        [("Results", "In vitro inhibition studies"), ("Materials and Methods", "pH-stat assays")],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ARTICLES))
def test_jats_article_title_and_nested_sections(shared_data: Path, name: str) -> None:
    doc = load_document(shared_data / "guidelines/pmc-nxml" / name)
    title, expected_paths = ARTICLES[name]
    assert doc.format == "nxml"
    assert doc.title == title
    paths = title_paths(doc)
    for path in expected_paths:
        assert path in paths, f"{path} missing from {name}"
    assert doc.metadata.get("doi")
    assert not doc.root.is_empty()


def test_jats_mixed_content_tables_and_skipped_back_matter(shared_data: Path) -> None:
    doc = load_document(shared_data / "guidelines/pmc-nxml/1471-2180-11-174.nxml")
    text = "\n".join(b.text for b in all_blocks(doc))
    # <italic>Escherichia coli </italic>l lysogens: italics read as plain text, spacing kept
    assert "thermally-induced Escherichia coli l lysogens (Figure 2A)" in text
    caption = block_with(doc, "Effects of holin allelic sequences")
    assert (caption.text, caption.kind) == ("Table 1 Effects of holin allelic sequences on the stochasticity of lysis time.", "caption")
    # each row a block of its own, every cell under its column header (the "a" footnote mark left out)
    row = block_with(doc, "IN56 (WT)")
    assert (row.text, row.kind) == ("Strain: IN56 (WT); n: 230; MLT (min): 65.1; SD (min): 3.24", "table_row")
    # back matter: acknowledgments (a <sec> in <back>) and the reference list are not indexed
    assert "The authors are grateful" not in text
    assert "Microbial cell individuality" not in text  # a cited article's title
    # sub/sup and a display formula between words read with normal spacing
    other = load_document(shared_data / "guidelines/pmc-nxml/pone.0000217.nxml")
    block = block_with(other, "the average fitness is given by")
    assert "(Methods, Appendix A): in the diploid case, in which Feq is the equilibrium" in block.text


def test_jats_body_text_outside_sections_stays_at_root(shared_data: Path) -> None:
    doc = load_document(shared_data / "guidelines/pmc-nxml/6605965a.nxml")
    assert doc.root.blocks[0].text.startswith("Men tend to have a slightly higher incidence")
    floats = section_at(doc, "Figures and tables")  # tables kept in <floats-group>
    assert any(b.text.startswith("Table 1 Participant characteristics") for b in floats.blocks)


# ---------------------------------------------------------------- BITS book parts (fixtures)


def test_bits_chapter_paths_read_book_chapter_section() -> None:
    doc = load_document(BITS / "who9789240000001_NBK500001_ch2.nxml")
    assert doc.title == "WHO Guidelines for Malaria Treatment"
    assert title_paths(doc) == {
        ("Treatment of uncomplicated malaria",),
        ("Treatment of uncomplicated malaria", "Adults"),
        ("Treatment of uncomplicated malaria", "Adults", "Dosing"),
        ("Treatment of uncomplicated malaria", "Uncomplicated malaria in pregnancy"),
        ("Treatment of uncomplicated malaria", "Uncomplicated malaria in pregnancy", "First trimester"),
    }
    chapter = section_at(doc, "Treatment of uncomplicated malaria")
    # a <p> outside any <sec> belongs to the section it sits in: the chapter
    assert chapter.blocks[0].text == (
        "This chapter covers Plasmodium falciparum malaria without signs of severity."
    )
    dosing = section_at(doc, "Treatment of uncomplicated malaria", "Adults", "Dosing")
    assert [b.text for b in dosing.blocks[1:3]] == [
        "Day 1: first dose, then a second dose after 8 hours.",
        "Days 2–3: one dose every 12 hours.",
    ]
    assert [(b.text, b.kind) for b in dosing.blocks[1:]] == [
        ("Day 1: first dose, then a second dose after 8 hours.", "list_item"),
        ("Days 2–3: one dose every 12 hours.", "list_item"),
        ("Table 2.1 Dose by body weight", "caption"),
        ("Body weight (kg): 5 to <15; Tablets per dose: 1", "table_row"),
        ("Body weight (kg): ≥35; Tablets per dose: 4", "table_row"),
    ]
    assert block_with(doc, "for 3 days[12].")  # inline citation markup stays as text
    assert "Do not withhold treatment" in section_of(doc, "Box 2.1").blocks[-1].text
    assert "Lancet" not in "\n".join(b.text for b in all_blocks(doc))


def test_bits_annex_with_default_namespace() -> None:
    doc = load_document(BITS / "who9789240000001_NBK500001_annex1.nxml")
    assert ("Annex 1. Dosing tables", "Artesunate") in title_paths(doc)
    assert doc.metadata["book-part-type"] == "appendix"


def test_bits_reference_list_part_has_no_body() -> None:
    with pytest.raises(EmptyDocumentError, match="no <sec> sections or body text"):
        load_document(BITS / "rl-who9789240000001_NBK500001.nxml")


# ---------------------------------------------------------------- HTML


def test_real_html_page_nests_h2_h3_h4(shared_data: Path) -> None:
    doc = load_document(shared_data / "guidelines/html/cep-anxiety-and-depression.html")
    assert doc.format == "html"
    assert doc.title == "Anxiety and Depression"  # <title> minus its " | Centre for …" suffix
    paths = title_paths(doc)
    # reference superscripts are not part of the titles ("Screen for risk factors<sup>1, 3</sup>")
    assert ("Screening and assessment", "Screen patient", "Screen for risk factors") in paths
    assert ("Screening and assessment", "Conduct a comprehensive assessment", "Collect clinical history") in paths
    assert ("Management", "Pharmacological treatment options", "Factors to consider when choosing a medication") in paths
    collect = section_at(doc, "Screening and assessment", "Conduct a comprehensive assessment", "Collect clinical history")
    assert collect.blocks[0].text.startswith("Onset, intensity and history of symptoms")
    text = "\n".join(b.text for b in all_blocks(doc))
    assert "googletagmanager" not in text and "function(" not in text
    assert "Max: 40 mg daily (20 mg in older adults" in text  # dosing inside the drug modals


def test_html_fixture_structure_and_dropped_chrome() -> None:
    doc = load_document(DOCS / "asthma-care.html")
    assert doc.title == "Asthma care in children"
    assert title_paths(doc) == {
        ("Diagnosis",), ("Diagnosis", "Spirometry"), ("Treatment",), ("Appendix",), ("Appendix", "Action plan"),
    }  # the h1 repeating the title is not a section; the h3 after the second h1 nests under it
    assert doc.root.blocks[0].text == "This tool supports primary care clinicians."
    diagnosis = section_at(doc, "Diagnosis")
    assert [b.text for b in diagnosis.blocks] == [
        "Consider asthma when wheeze recurs.",
        "Loose text in a div is kept.",
    ]
    assert [b.text for b in section_at(doc, "Diagnosis", "Spirometry").blocks] == [
        "Offer spirometry from age 5.",
        "Repeat after a bronchodilator.",
        "Nested item about reversibility.",
    ]
    treatment = [b.text for b in section_at(doc, "Treatment").blocks]
    assert treatment == [
        "Inhaled corticosteroid doses",  # the caption, then one block per row under its headers
        "Drug: Budesonide; Low dose: 200 mcg",
        "SABA: Short-acting beta agonist.",
        "Review inhaler technique at every visit.",
        "PEF = 300 L/min\ntarget >= 80%",
    ]
    text = "\n".join(b.text for b in all_blocks(doc))
    for dropped in ("tracking", "Site banner", "Home", "Hidden", "Invisible", "Decorative",
                    "Related links", "Search", "Copyright"):  # fmt: skip
        assert dropped not in text


# ---------------------------------------------------------------- markdown and text


def test_markdown_headings_lists_code_and_tables() -> None:
    doc = load_document(DOCS / "hypertension-guide.md")
    assert doc.format == "markdown"
    assert doc.title == "Hypertension in adults"
    assert title_paths(doc) == {("Diagnosis",), ("Diagnosis", "Office measurement"), ("Treatment",)}
    assert doc.root.blocks[0].text.startswith("Hypertension is a blood pressure of 140/90")
    assert section_at(doc, "Diagnosis").blocks[0].text == (
        "Confirm the diagnosis with ambulatory monitoring when the clinic reading is raised."
    )  # setext heading; soft line break joined
    office = [b.text for b in section_at(doc, "Diagnosis", "Office measurement").blocks]
    assert office == [
        "Use a validated device.",
        "Measure both arms; use the arm with the higher reading.",
        "Nested step one.",
        "ABPM daytime average >= 135/85 -> hypertension",
    ]
    assert [(b.text, b.kind) for b in section_at(doc, "Treatment").blocks] == [
        ("Step: 1; Drug: ACE inhibitor or ARB", "table_row"),
        ("Step: 2; Drug: Add a calcium-channel blocker", "table_row"),
    ]  # one block per row, each cell under its column header


def test_markdown_title_falls_back_to_stem_when_first_heading_is_not_h1(tmp_path: Path) -> None:
    path = write(tmp_path, "copd_quick-ref.md", "## Assessment\n\nUse spirometry.\n\n# Later h1\n\nText.\n")
    doc = load_document(path)
    assert doc.title == "Copd quick ref"
    assert title_paths(doc) == {("Assessment",), ("Later h1",)}


def test_text_paragraphs_and_list_lines() -> None:
    doc = load_document(DOCS / "malaria_bedside-notes.txt")
    assert doc.format == "text"
    assert doc.title == "Malaria bedside notes"
    assert doc.root.children == []
    assert [b.text for b in doc.root.blocks] == [
        "Malaria bedside notes",
        "Fever in a returning traveller is malaria until proven otherwise.",
        "Test with RDT or microscopy.",  # list items: the bullet glyph is dropped, the kind kept
        "Repeat a negative test in 12 to 24 hours.",
    ]
    assert [b.kind for b in doc.root.blocks][2:] == ["list_item", "list_item"]


def test_text_in_cp1252_is_decoded(tmp_path: Path) -> None:
    path = write(tmp_path, "notes.txt", "Fièvre – paludisme : 37,5 °C".encode("cp1252"))
    assert load_document(path).root.blocks[0].text == "Fièvre – paludisme : 37,5 °C"


# ---------------------------------------------------------------- DOCX


def test_docx_title_headings_lists_and_tables(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Sepsis pathway", level=0)  # the Title style
    document.add_paragraph("For adults in the emergency department.")
    document.add_heading("Recognition", level=1)
    document.add_paragraph("Screen every patient with suspected infection.")
    document.add_heading("Red flags", level=2)
    document.add_paragraph("Systolic BP below 90 mmHg", style="List Bullet")
    document.add_paragraph("Lactate above 2 mmol/L", style="List Bullet")
    document.add_heading("Treatment", level=1)
    table = document.add_table(rows=2, cols=2)
    for row, cells in zip(table.rows, [("Drug", "Dose"), ("Piperacillin–tazobactam", "4.5 g IV")], strict=True):
        for cell, text in zip(row.cells, cells, strict=True):
            cell.text = text
    path = tmp_path / "sepsis.docx"
    document.save(path)

    doc = load_document(path)
    assert doc.format == "docx"
    assert doc.title == "Sepsis pathway"
    assert title_paths(doc) == {("Recognition",), ("Recognition", "Red flags"), ("Treatment",)}
    assert doc.root.blocks[0].text == "For adults in the emergency department."
    assert [b.text for b in section_at(doc, "Recognition", "Red flags").blocks] == [
        "Systolic BP below 90 mmHg",
        "Lactate above 2 mmol/L",
    ]
    # the first row of short labels over a row with numbers is the header row
    assert [(b.text, b.kind) for b in section_at(doc, "Treatment").blocks] == [
        ("Drug: Piperacillin–tazobactam; Dose: 4.5 g IV", "table_row")
    ]


def test_docx_corrupt_zip(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.docx", b"PK\x03\x04" + bytes(200))
    with pytest.raises(DocumentParseError, match="broken.docx"):
        load_document(path)


def test_docx_zip_without_word_document(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a Word document")
    path = write(tmp_path, "renamed.docx", buffer.getvalue())
    with pytest.raises(DocumentParseError, match="renamed.docx"):
        load_document(path)


# ---------------------------------------------------------------- PDF (shared data)


def test_adp_mobility_manual_outline_sections_and_pages(shared_data: Path) -> None:
    doc = _load_shared(shared_data / MOBILITY_PDF)
    assert doc.format == "pdf"
    assert doc.title == "Mobility Devices Policies and Procedures Manual"  # from /Title
    assert doc.page_count == 54
    assert doc.warnings == []
    paths = title_paths(doc)
    assert ("Part 7: Funding and Payment", "705 Funding Amount for ADP Clients") in paths
    assert ("Part 11: Contact Information", "1100 Program Addresses", "1100.01 Assistive Devices Program") in paths
    # page 38 of the PDF holds the 75% funding rule, under its outline entry
    block = block_with(doc, "The Program will pay 75 percent (75%) of the Approved Price")
    assert block.page == 38
    assert section_of(doc, "The Program will pay 75 percent").title == "705 Funding Amount for ADP Clients"
    # page 12 starts part 2; its bullet items stay separate blocks
    ambulation = section_at(doc, "Part 2: Devices Covered", "205 Ambulation Aids")
    assert (ambulation.blocks[0].text, ambulation.blocks[0].kind) == ("Forearm crutches", "list_item")
    assert ambulation.blocks[0].page == 12
    assert all(b.page is not None for b in all_blocks(doc))


def test_adp_program_manual_pages_headers_and_clauses(shared_data: Path) -> None:
    doc = _load_shared(shared_data / ADP_PDF)
    assert doc.title == "Policies and Procedures Manual for the Assistive Devices Program"
    assert doc.page_count == 132
    complaints = section_at(doc, "Part 10: Appeals and Complaints", "1005 Complaints")
    block = block_with(doc, "1005.00 Individuals may submit complaints")
    assert block.page == 123
    assert block in complaints.blocks
    # the heading line became the section title; a mention of it in running text did not
    assert complaints.blocks[0].text == "Policy"
    assert block_with(doc, "(see policy 1005 Complaints).").page == 123
    # numbered clauses start their own blocks; the running header/footer is gone
    assert block_with(doc, "905.00 Where the Client receives a rebate").page == 104
    texts = [b.text for b in all_blocks(doc)]
    assert "July 2023" not in texts
    assert not any(t.startswith("Policies and Procedures Manual for the Assistive Devices Program 1") for t in texts)


# ---------------------------------------------------------------- PDF (hand-made)

_HEADER = "Example Antibiotic Guide"


def _guide_pdf() -> bytes:
    return make_pdf([
        f"{_HEADER}\nAntibiotic guide for primary care clinicians\n1 Dosing\n"
        "Give amoxicillin 500 mg three times daily for five days in uncomplicated\n"
        "community-acquired pneumonia; review at 48 hours if there is no trans-\n"
        "fer of care.\n1",
        f"{_HEADER}\nSwitch to oral therapy when the patient is afebrile.\n1.1 Children\n"
        "• Use 30 mg/kg three times daily.\n• Maximum 1 g per dose.\n2",
        f"{_HEADER}\n2 Allergy\nUse doxycycline in penicillin allergy.\n3",
        f"{_HEADER}\nDocument the allergy in the record.\n4",
    ])  # fmt: skip


def test_pdf_without_outline_is_one_section_of_page_tagged_paragraphs(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "guide.pdf", _guide_pdf()))
    assert doc.page_count == 4
    assert doc.title == "Antibiotic guide for primary care clinicians"  # first line after the header
    assert doc.root.children == []
    texts = [b.text for b in doc.root.blocks]
    assert _HEADER not in texts and "1" not in texts and "4" not in texts  # running header, page numbers
    para = block_with(doc, "Give amoxicillin")
    assert para.page == 1
    assert para.text.endswith("review at 48 hours if there is no transfer of care.")  # de-hyphenated
    assert block_with(doc, "Maximum 1 g per dose").text == "Maximum 1 g per dose."  # a list item: glyph dropped
    assert block_with(doc, "Document the allergy").page == 4


def test_pdf_outline_builds_nested_sections_and_splits_pages(tmp_path: Path) -> None:
    data = rewrite_pdf(_guide_pdf(), outline=[("1 Dosing", 0, None), ("1.1 Children", 1, "1 Dosing"),
                                              ("2 Allergy", 2, None)])  # fmt: skip
    doc = load_document(write(tmp_path, "outlined.pdf", data))
    assert title_paths(doc) == {("1 Dosing",), ("1 Dosing", "1.1 Children"), ("2 Allergy",)}
    assert [b.text for b in doc.root.blocks] == ["Antibiotic guide for primary care clinicians"]
    dosing = section_at(doc, "1 Dosing")
    assert [b.page for b in dosing.blocks] == [1, 2]  # page 2's text before "1.1 Children" stays here
    assert dosing.blocks[1].text == "Switch to oral therapy when the patient is afebrile."
    children = section_at(doc, "1 Dosing", "1.1 Children")
    assert [(b.text, b.page) for b in children.blocks] == [
        ("Use 30 mg/kg three times daily.", 2),
        ("Maximum 1 g per dose.", 2),
    ]
    allergy = section_at(doc, "2 Allergy")
    assert [(b.text, b.page) for b in allergy.blocks] == [
        ("Use doxycycline in penicillin allergy.", 3),
        ("Document the allergy in the record.", 4),
    ]


def test_pdf_page_without_text_layer_warns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_loader.shutil, "which", lambda name: None)
    path = write(tmp_path, "partly-scanned.pdf", make_pdf(["Visible text on page one.", None, "Page three text."]))
    doc = load_document(path)
    assert doc.warnings == [
        "page 2 has no text layer (scanned image?); its text is not indexed "
        "(OCR needs tesseract and pdftoppm on PATH)"
    ]
    assert [b.page for b in doc.root.blocks] == [1, 3]


def test_pdf_blank_pages_are_ocrd_when_tools_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_loader.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(pdf_loader, "_ocr_page", lambda path, number: f"Scanned text of page {number}.")
    doc = load_document(write(tmp_path, "scan.pdf", make_pdf(["Typed page.", None, None])))
    assert [(b.text, b.page) for b in doc.root.blocks] == [
        ("Typed page.", 1), ("Scanned text of page 2.", 2), ("Scanned text of page 3.", 3),
    ]  # fmt: skip
    assert doc.warnings == ["pages 2-3 had no text layer; text comes from OCR (tesseract) and may hold errors"]


def test_pdf_with_no_text_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_loader.shutil, "which", lambda name: None)
    path = write(tmp_path, "scanned.pdf", make_pdf([None, None]))
    with pytest.raises(EmptyDocumentError, match=r"scanned.pdf has no text layer on any of its 2 pages.*OCR"):
        load_document(path)


def test_pdf_encrypted(tmp_path: Path) -> None:
    path = write(tmp_path, "locked.pdf", rewrite_pdf(_guide_pdf(), user_password="secret"))
    with pytest.raises(DocumentParseError, match="locked.pdf is encrypted; remove the password and ingest again"):
        load_document(path)


def test_pdf_encrypted_with_empty_user_password_opens(tmp_path: Path) -> None:
    data = rewrite_pdf(_guide_pdf(), user_password="", owner_password="owner")
    doc = load_document(write(tmp_path, "restricted.pdf", data))
    assert block_with(doc, "Give amoxicillin").page == 1


def test_pdf_truncated(tmp_path: Path) -> None:
    data = _guide_pdf()
    path = write(tmp_path, "cut.pdf", data[: len(data) // 2])
    with pytest.raises(DocumentParseError, match="cut.pdf is corrupt or truncated"):
        load_document(path)


def test_pdf_that_is_not_a_pdf(tmp_path: Path) -> None:
    path = write(tmp_path, "report.pdf", "<html><body>Download failed</body></html>")
    with pytest.raises(DocumentParseError, match="report.pdf is named .pdf but is not a PDF"):
        load_document(path)


# ---------------------------------------------------------------- bad input, any format


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="nothing-here.pdf"):
        load_document(tmp_path / "nothing-here.pdf")


def test_unsupported_extension_lists_supported_ones(tmp_path: Path) -> None:
    path = write(tmp_path, "formulary.xlsx", b"PK\x03\x04")
    with pytest.raises(UnsupportedFormatError, match=r"formulary.xlsx: unsupported file type '.xlsx'.*\.docx.*\.pdf"):
        load_document(path)


def test_file_over_max_bytes(tmp_path: Path) -> None:
    path = write(tmp_path, "big.txt", "x" * (3 * 1024 * 1024))
    with pytest.raises(FileTooLargeError, match=r"big.txt is 3.0 MiB; the limit is 2.0 MiB"):
        load_document(path, max_bytes=2 * 1024 * 1024)
    assert load_document(path, max_bytes=4 * 1024 * 1024).root.blocks


def test_empty_file(tmp_path: Path) -> None:
    with pytest.raises(EmptyDocumentError, match=r"empty.txt is empty \(0 bytes\)"):
        load_document(write(tmp_path, "empty.txt", b""))


def test_whitespace_only_file(tmp_path: Path) -> None:
    with pytest.raises(EmptyDocumentError, match="blank.md holds only whitespace"):
        load_document(write(tmp_path, "blank.md", " \n\t\n  \r\n"))


def test_binary_garbage_named_txt(tmp_path: Path) -> None:
    path = write(tmp_path, "notes.txt", random.Random(7).randbytes(4096))
    with pytest.raises(DocumentParseError, match="notes.txt looks like binary data"):
        load_document(path)


def test_markdown_with_only_a_title_has_no_text(tmp_path: Path) -> None:
    with pytest.raises(EmptyDocumentError, match="title-only.md contains no text"):
        load_document(write(tmp_path, "title-only.md", "# Just a title\n"))


def test_malformed_xml_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.nxml", "<article>\n<body>\n<sec><p>unclosed</sec>\n</body>\n</article>\n")
    with pytest.raises(DocumentParseError, match=r"bad.nxml is malformed XML: line 3"):
        load_document(path)


def test_nxml_without_sections_or_body_text(tmp_path: Path) -> None:
    xml = (
        "<article><front><article-meta><title-group><article-title>Stub</article-title></title-group>"
        "<abstract><p>Only an abstract.</p></abstract></article-meta></front><body/></article>"
    )
    with pytest.raises(EmptyDocumentError, match=r"stub.nxml has no <sec> sections or body text"):
        load_document(write(tmp_path, "stub.nxml", xml))


def test_xml_that_is_not_jats_or_bits(tmp_path: Path) -> None:
    path = write(tmp_path, "formulary.xml", "<formulary><drug id='1'>Amoxicillin</drug></formulary>")
    with pytest.raises(DocumentParseError, match=r"formulary.xml is XML but not a JATS article.*<formulary>"):
        load_document(path)


def test_unexpected_parser_failure_becomes_parse_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from curbside.kb.loaders import text as text_loader

    def explode(path: Path, data: bytes) -> LoadedDocument:
        raise RuntimeError("internal parser state broken")

    monkeypatch.setattr(text_loader, "load", explode)
    with pytest.raises(DocumentParseError, match="Could not read notes.txt as text: internal parser state broken"):
        load_document(write(tmp_path, "notes.txt", "Some text."))


def test_a_pdf_line_ending_in_an_abbreviations_point_or_continued_in_lower_case_goes_on() -> None:
    # Mobility Devices manual §530 p. 31: "… objective data (e.g." / "circumferential measurements) …"
    width = 80
    lines = [
        "7. Lower Extremity Edema: Findings may include objective data (e.g.",
        "circumferential measurements) and/or clinical observations.",
        "Trials should progress from the most basic and economical.",
        "to more complex and costly in the manual's own line break.",
        "Eligible applicants are listed below.",
        "a. when an applicant is a resident of Ontario;",
    ]
    texts = [text for text, _ in pdf_loader._paragraphs(lines, width)]
    assert texts[0] == (
        "7. Lower Extremity Edema: Findings may include objective data (e.g. circumferential measurements) and/or "
        "clinical observations."
    )
    assert texts[1].startswith("Trials should progress") and texts[1].endswith("in the manual's own line break.")
    assert texts[2] == "Eligible applicants are listed below."  # a lettered item starts anew
