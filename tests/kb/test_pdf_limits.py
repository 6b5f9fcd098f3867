"""PDF decompression bombs: pypdf's per-stream caps (lowered by Curbside) and a budget per file.

Before these limits, a 2 MB PDF whose one page inflates to 2 GiB grew the process by 160 MB
(pypdf's own 75 MB cap, held twice), and five pages of 70 MB streams by 650 MB: pypdf keeps
every decoded stream for the life of the reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bomb_files import GiB, MiB, in_subprocess, pdf_with_streams, repeated, text_page

from curbside.errors import FileTooLargeError
from curbside.kb.loaders import PDF_MAX_INFLATED_BYTES, PDF_MAX_STREAM_BYTES, InflateLimits, load_document

GROWTH_BOUND = 100 * MiB
_SHOW = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n"


def test_page_inflating_to_2_gib_is_refused(tmp_path: Path) -> None:
    path = pdf_with_streams(tmp_path / "leaflet.pdf", [repeated(b" " * MiB, 2048).zlib_stream()])
    assert path.stat().st_size < 2.5 * MiB

    outcome = in_subprocess(path)

    assert outcome["error"] == "FileTooLargeError"
    assert outcome["message"] == (
        "leaflet.pdf: every page's content inflates beyond the 32.0 MiB limit for one stream; "
        "refused as a likely decompression bomb"
    )
    assert outcome["growth"] < GROWTH_BOUND


def test_many_pages_just_under_the_stream_cap_are_refused_by_the_budget(tmp_path: Path) -> None:
    # Twenty pages of 30 MiB each: every stream passes pypdf's cap; together 600 MiB.
    page = repeated(b" " * MiB, 30, adler=True).zlib_stream()
    path = pdf_with_streams(tmp_path / "atlas.pdf", [page] * 20)

    outcome = in_subprocess(path)

    assert outcome["error"] == "FileTooLargeError"
    assert outcome["message"].startswith(
        "atlas.pdf: its page content inflates to more than 256.0 MiB by page 9 (from a 6"
    )
    assert outcome["growth"] < GROWTH_BOUND  # each page's decoded content is let go after the page


def test_one_bomb_page_is_skipped_and_the_rest_is_read(tmp_path: Path) -> None:
    streams = [text_page("Oxygen targets 92 to 96 percent."), repeated(b" " * MiB, 64).zlib_stream(), text_page("End.")]
    doc = load_document(pdf_with_streams(tmp_path / "copd.pdf", streams))
    assert [b.text for s in doc.root.walk() for b in s.blocks] == ["Oxygen targets 92 to 96 percent.", "End."]
    assert doc.warnings == [
        "page 2 could not be read (a stream on it inflates beyond the 32.0 MiB limit; a decompression bomb?); "
        "its text is not indexed"
    ]


def test_stream_cap_is_an_override(tmp_path: Path) -> None:
    padded = _SHOW + b" " * (MiB - len(_SHOW))  # "Hello" and a megabyte of spaces
    streams = [text_page("Fluids: 30 mL/kg."), repeated(padded, 2, adler=True).zlib_stream()]
    path = pdf_with_streams(tmp_path / "sepsis.pdf", streams)
    assert load_document(path).warnings == []
    doc = load_document(path, limits=InflateLimits(pdf_max_stream_bytes=MiB))
    assert doc.warnings == [
        "page 2 could not be read (a stream on it inflates beyond the 1.0 MiB limit; a decompression bomb?); "
        "its text is not indexed"
    ]


def test_budget_is_an_override(tmp_path: Path) -> None:
    path = pdf_with_streams(tmp_path / "short.pdf", [text_page(f"Step {n}.") for n in range(1, 4)])
    assert len(load_document(path).root.blocks) == 3
    with pytest.raises(
        FileTooLargeError, match=r"^short.pdf: its page content inflates to more than 100 bytes by page 3"
    ):
        load_document(path, limits=InflateLimits(pdf_max_inflated_bytes=100))


def test_token_cap_skips_a_page_too_dense_to_parse(tmp_path: Path) -> None:
    dense = repeated(_SHOW * 1000, 10, adler=True).zlib_stream()  # 10,000 text operations, 100,000 tokens
    path = pdf_with_streams(tmp_path / "chart.pdf", [text_page("Legend: systolic pressure."), dense])
    assert load_document(path).warnings == []
    doc = load_document(path, limits=InflateLimits(pdf_max_stream_tokens=5_000))
    assert doc.root.blocks[0].text == "Legend: systolic pressure."
    assert doc.warnings == [
        "page 2 could not be read (it is beyond a safety limit of the PDF reader: Reached maximum number "
        "of tokens per stream.); its text is not indexed"
    ]


def test_real_manuals_are_far_below_the_limits(shared_data: Path) -> None:
    # The 54-page ADP mobility manual decodes to 400 KB of page content, 19 KB on its densest
    # page; the 132-page one to 2 MB, 31 KB. Limits 100x tighter than the defaults still pass.
    path = shared_data / "ontario/adp/moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"
    tight = InflateLimits(pdf_max_stream_bytes=256 * 1024, pdf_max_inflated_bytes=2 * MiB, pdf_max_stream_tokens=20_000)
    assert load_document(path, limits=tight).warnings == []
    assert PDF_MAX_STREAM_BYTES == 32 * MiB and PDF_MAX_INFLATED_BYTES == GiB // 4
