"""The Bookshelf guideline pipeline against a loopback server: a ``file_list.csv`` in Bookshelf's
format, packages built here from the real ``.nxml`` in ``../shared/data/guidelines/pmc-nxml``, and
hostile packages (path traversal, absolute paths, links, devices, size bombs, not gzip at all).

The helpers at the top (``tar_gz``, ``BookshelfSite``) are shared with tests/cli/test_guidelines_cli.py.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re
import tarfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from curbside.errors import UpstreamError, ValidationError
from curbside.settings import Settings
from curbside.tools.evidence.bookshelf import (
    DEFAULT_PUBLISHER,
    Book,
    Selection,
    normalize_accession,
    parse_file_list,
    select_books,
    title_pattern,
)
from curbside.tools.evidence.bookshelf_archive import ArchiveLimits
from curbside.tools.evidence.bookshelf_fetch import (
    FetchReport,
    GuidelinePaths,
    IngestCounts,
    fetch_guidelines,
)
from curbside.tools.outbound import OutboundClient, Service
from tests.tools.evidence.replay import Fault, ReplayServer, Reply

HEADER = "File,Title,Publisher,Publication date/year,Accession ID,Last Updated"
FAST = Service("NCBI Bookshelf", "CURBSIDE_BOOKSHELF_URL", 200)  # bursts of 200: the real 3/s would slow the suite
WHO = "World Health Organization"

# --- shared helpers -------------------------------------------------------------------------------


@dataclass
class Member:
    name: str
    data: bytes = b""
    kind: bytes = tarfile.REGTYPE
    linkname: str = ""


def tar_gz(members: Sequence[Member]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for m in members:
            info = tarfile.TarInfo(m.name)
            info.type = m.kind
            info.linkname = m.linkname
            info.size = len(m.data) if m.kind == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(m.data) if m.kind == tarfile.REGTYPE else None)
    return buffer.getvalue()


def csv_row(*cells: str) -> str:
    return ",".join(f'"{c}"' if "," in c else c for c in cells)


class BookshelfSite:
    """The replay server as NCBI Bookshelf: ``/litarch/file_list.csv`` and the packages it names."""

    def __init__(self, replay: ReplayServer) -> None:
        self.replay = replay
        self.rows: list[str] = [HEADER]
        self.files: dict[str, bytes] = {}
        replay.route("GET", "/litarch/file_list.csv", lambda r: Reply(200, self.csv().encode(), "text/csv"))
        replay.route("GET", "/litarch/", self._package)

    @property
    def base_url(self) -> str:
        return f"{self.replay.url}/litarch"

    def csv(self) -> str:
        return "\n".join(self.rows) + "\n"

    def add(
        self,
        accession: str,
        title: str,
        body: bytes | None,
        *,
        publisher: str = WHO,
        updated: str = "2024-05-01 10:00:00",
        path: str | None = None,
    ) -> str:
        """List a book; ``body`` None lists it without serving its package (a 404)."""
        path = path or f"{accession[-2:]}/{accession[-4:-2]}/who_{accession}.tar.gz"
        self.rows.append(csv_row(path, title, publisher, "2019", accession, updated))
        if body is not None:
            self.files[f"/litarch/{path}"] = body
        return path

    def _package(self, request: object) -> Reply:
        body = self.files.get(request.path)  # type: ignore[attr-defined]
        if body is None:
            return Reply(404, b"<html>Not Found</html>", "text/html")
        return Reply(200, body, "application/x-gzip")

    def archive_calls(self) -> int:
        return len([r for r in self.replay.calls("/litarch/") if not r.path.endswith("file_list.csv")])


def real_nxml(shared_data: Path, name: str) -> bytes:
    return (shared_data / "guidelines" / "pmc-nxml" / name).read_bytes()


# --- fixtures -------------------------------------------------------------------------------------


@pytest.fixture
def site(replay: ReplayServer) -> BookshelfSite:
    return BookshelfSite(replay)


@pytest.fixture
def paths(tmp_path: Path) -> GuidelinePaths:
    return GuidelinePaths.under(tmp_path / "home")


@dataclass
class Recorder:
    """An ``ingest`` callable that records the files it is given (the real ingestor runs in the CLI test)."""

    calls: list[list[Path]]

    def __call__(self, files: Sequence[Path]) -> IngestCounts:
        self.calls.append(list(files))
        return IngestCounts(ingested=len(files))


Run = Callable[..., FetchReport]


@pytest.fixture
def run(make_client: Callable[..., OutboundClient], site: BookshelfSite, paths: GuidelinePaths) -> Run:
    def go(selection: Selection | None = None, client: OutboundClient | None = None, **kwargs: object) -> FetchReport:
        chosen = client or make_client()
        return asyncio.run(
            fetch_guidelines(
                chosen,
                base_url=site.base_url,
                paths=paths,
                selection=selection or Selection(),
                service=FAST,
                **kwargs,  # type: ignore[arg-type]
            )
        )

    return go


@pytest.fixture
def who_books(site: BookshelfSite, shared_data: Path) -> dict[str, bytes]:
    """Two WHO books from real .nxml (with front matter, a reference list, a figure and a PDF) and one NCBI book."""
    malaria = tar_gz(
        [
            Member("who_malaria/", kind=tarfile.DIRTYPE),
            Member("who_malaria/ch1.nxml", real_nxml(shared_data, "pntd.0002065.nxml")),
            Member("who_malaria/ch2.nxml", real_nxml(shared_data, "pone.0000217.nxml")),
            Member("who_malaria/fm-preface.nxml", b"<book-part><title>Foreword</title></book-part>"),
            Member("who_malaria/rl1.nxml", real_nxml(shared_data, "mds526.nxml")),  # not a skip prefix: kept
            Member("who_malaria/rl-refs.nxml", b"<ref-list/>"),
            Member("who_malaria/ak-thanks.nxml", b"<ack/>"),
            Member("who_malaria/figures/fig1.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64),
            Member("who_malaria/who_malaria.pdf", b"%PDF-1.7\n" + b"x" * 200),
        ]
    )
    oral = tar_gz([Member("NBK200002/ch1.nxml", real_nxml(shared_data, "1472-6831-8-11.nxml"))])
    gene = tar_gz([Member("gene/ch1.nxml", real_nxml(shared_data, "6605965a.nxml"))])
    site.add("NBK200001", "Guidelines for malaria, fourth edition", malaria)
    site.add("NBK200002", "Oral health, a WHO report", oral, publisher="WORLD HEALTH ORGANIZATION (WHO)")
    site.add("NBK1116", "GeneReviews®", gene, publisher="University of Washington, Seattle")
    return {"NBK200001": malaria, "NBK200002": oral, "NBK1116": gene}


# --- the file list --------------------------------------------------------------------------------


def test_file_list_real_format_header_any_case_and_quoted_titles() -> None:
    text = (
        "file,TITLE,Publisher,publication DATE/year,ACCESSION id,last updated\n"
        "ca/84/gene_NBK1116.tar.gz,GeneReviews,NCBI,1993,NBK1116,2026-08-31 02:41:04\n"
        '3d/12/who_NBK5.tar.gz,"Malaria, severe: a WHO guideline",World Health Organization,2021,nbk5,2025-01-02\n'
    )
    listing = parse_file_list(text)
    assert listing.bad_count == 0
    gene, malaria = listing.books
    assert gene == Book("ca/84/gene_NBK1116.tar.gz", "GeneReviews", "NCBI", "1993", "NBK1116", "2026-08-31 02:41:04")
    assert malaria.title == "Malaria, severe: a WHO guideline" and malaria.accession == "NBK5"


def test_file_list_columns_by_header_name_and_by_position_without_one() -> None:
    reordered = "Accession ID,Last Updated,File,Title,Publisher,Publication year\nNBK7,2024-01-01,aa/bb/x_NBK7.tar.gz,T,WHO,2020\n"
    (book,) = parse_file_list(reordered).books
    assert (book.accession, book.file, book.publisher, book.year, book.last_updated) == (
        "NBK7",
        "aa/bb/x_NBK7.tar.gz",
        "WHO",
        "2020",
        "2024-01-01",
    )
    headless = "ca/84/gene_NBK1116.tar.gz,Gene\x1b[31mReviews,NCBI,1993,NBK1116,2026-08-31 02:41:04\n"
    (book,) = parse_file_list("\ufeff" + headless).books
    assert book.accession == "NBK1116" and book.title == "Gene [31mReviews"  # no terminal escape survives


def test_file_list_rows_that_are_not_books_are_counted_never_fatal() -> None:
    text = "\n".join(
        [
            HEADER,
            "ca/84/good_NBK1.tar.gz,Good,World Health Organization,2020,NBK1,2024-01-01",
            "too,few",
            "ca/84/x.tar.gz,No accession,WHO,2020,PMC123,2024-01-01",
            "../../etc/passwd.tar.gz,Traversal,WHO,2020,NBK2,2024-01-01",
            "https://evil.example/x.tar.gz,Elsewhere,WHO,2020,NBK3,2024-01-01",
            "/abs/x.tar.gz,Absolute,WHO,2020,NBK4,2024-01-01",
            "ca/84/x.pdf,Not a package,WHO,2020,NBK5,2024-01-01",
        ]
    )
    listing = parse_file_list(text)
    assert [b.accession for b in listing.books] == ["NBK1"]
    assert listing.bad_count == 6
    assert any("NBK2" in row and "'..'" in row for row in listing.bad_rows)
    assert any("NBK3" in row and "not a relative path" in row for row in listing.bad_rows)


@pytest.mark.parametrize("body", ["<html><body>Service unavailable</body></html>", "garbage,1\nmore,2\n"])
def test_a_body_that_is_no_file_list_is_an_upstream_error(body: str) -> None:
    with pytest.raises(UpstreamError, match="file_list.csv"):
        parse_file_list(body)


def test_selection_publisher_title_accession_and_limit() -> None:
    books = [
        Book("a/a.tar.gz", "Guidelines for malaria", "World Health Organization", "2023", "NBK1", "x"),
        Book("b/b.tar.gz", "Consolidated HIV guidelines", "WORLD HEALTH ORGANIZATION", "2021", "NBK2", "x"),
        Book("c/c.tar.gz", "GeneReviews", "University of Washington", "1993", "NBK1116", "x"),
        Book("a/a.tar.gz", "Guidelines for malaria", "World Health Organization", "2023", "NBK1", "x"),  # repeated
        Book("d/d.tar.gz", "Malaria (severe) in children", "World Health Organization", "2020", "NBK4", "x"),
    ]
    assert [b.accession for b in select_books(books, Selection())] == ["NBK1", "NBK2", "NBK4"]
    assert [b.accession for b in select_books(books, Selection(publisher=None))] == ["NBK1", "NBK2", "NBK1116", "NBK4"]
    assert [b.accession for b in select_books(books, Selection(title=title_pattern("MALARIA")))] == ["NBK1", "NBK4"]
    assert [b.accession for b in select_books(books, Selection(title=title_pattern(r"^guidelines\b")))] == ["NBK1"]
    # not a valid regular expression: searched for as text
    assert [b.accession for b in select_books(books, Selection(title=title_pattern("(severe")))] == ["NBK4"]
    assert [b.accession for b in select_books(books, Selection(publisher="washington"))] == ["NBK1116"]
    assert [b.accession for b in select_books(books, Selection(accessions=("NBK4", "NBK2")))] == ["NBK2", "NBK4"]
    assert [b.accession for b in select_books(books, Selection(limit=2))] == ["NBK1", "NBK2"]
    assert Selection().publisher == DEFAULT_PUBLISHER
    assert normalize_accession(" nbk1116 ") == "NBK1116"
    with pytest.raises(ValidationError, match="NBK followed by digits"):
        normalize_accession("PMC1116")


# --- fetch, extract, ingest, resume ---------------------------------------------------------------


def test_fetch_extracts_chapter_nxml_only_and_hands_them_to_ingest(
    run: Run, site: BookshelfSite, paths: GuidelinePaths, who_books: dict[str, bytes], shared_data: Path
) -> None:
    recorder = Recorder([])
    report = run(ingest=recorder)
    assert report.listed == 3
    assert [(r.accession, r.status) for r in report.results] == [("NBK200001", "fetched"), ("NBK200002", "fetched")]
    malaria = report.results[0]
    assert malaria.files == ["NBK200001_ch1.nxml", "NBK200001_ch2.nxml", "NBK200001_rl1.nxml"]
    assert malaria.skipped_parts == 3  # fm-, rl-, ak-
    folder = paths.book_dir("NBK200001")
    assert sorted(p.name for p in folder.iterdir()) == malaria.files  # no figure, no PDF, no front matter
    assert (folder / "NBK200001_ch1.nxml").read_bytes() == real_nxml(shared_data, "pntd.0002065.nxml")
    assert b"Rift Valley Fever" in (folder / "NBK200001_ch1.nxml").read_bytes()
    assert recorder.calls == [[folder / f for f in malaria.files], [paths.book_dir("NBK200002") / "NBK200002_ch1.nxml"]]
    assert report.extracted == 4 and report.ingested == 4 and not report.failed
    manifest = json.loads(paths.manifest.read_text())["books"]
    assert set(manifest) == {"NBK200001", "NBK200002"}
    entry = manifest["NBK200001"]
    assert entry["archive_sha256"] == hashlib.sha256(who_books["NBK200001"]).hexdigest()
    assert entry["last_updated"] == "2024-05-01 10:00:00" and entry["files"] == malaria.files and entry["ingested"]
    assert paths.archive("NBK200001").read_bytes() == who_books["NBK200001"]  # kept as a cache
    assert site.archive_calls() == 2  # GeneReviews (not WHO) never requested


def test_a_rerun_sends_no_archive_request_and_ingests_only_what_was_not(
    run: Run, site: BookshelfSite, paths: GuidelinePaths, who_books: dict[str, bytes]
) -> None:
    first = run()  # download and extract only
    assert first.count("fetched") == 2 and first.ingested == 0
    site.replay.reset()
    recorder = Recorder([])
    again = run(ingest=recorder)
    assert site.archive_calls() == 0 and len(site.replay.calls("/litarch/file_list.csv")) == 1
    assert [r.status for r in again.results] == ["skipped", "skipped"]
    assert again.results[0].message == "unchanged since 2024-05-01 10:00:00"
    assert len(recorder.calls) == 2 and again.ingested == 4  # ingested now, from the files on disk
    site.replay.reset()
    third = run(ingest=recorder)
    assert site.archive_calls() == 0 and len(recorder.calls) == 2 and third.count("skipped") == 2


def test_a_changed_book_is_fetched_again_and_missing_files_come_from_the_cached_archive(
    run: Run, site: BookshelfSite, paths: GuidelinePaths, who_books: dict[str, bytes]
) -> None:
    run()
    site.rows[1] = site.rows[1].replace("2024-05-01 10:00:00", "2025-02-03 04:05:06")
    (paths.book_dir("NBK200002") / "NBK200002_ch1.nxml").unlink()
    site.replay.reset()
    report = run()
    by = {r.accession: r for r in report.results}
    assert by["NBK200001"].status == "fetched" and by["NBK200001"].message.startswith("updated: 3 .nxml")
    assert by["NBK200002"].message.startswith("extracted again from the cached archive")
    assert [r.path for r in site.replay.calls("/litarch/") if r.path.endswith(".tar.gz")] == [
        "/litarch/01/00/who_NBK200001.tar.gz"
    ]
    assert (paths.book_dir("NBK200002") / "NBK200002_ch1.nxml").is_file()
    assert json.loads(paths.manifest.read_text())["books"]["NBK200001"]["last_updated"] == "2025-02-03 04:05:06"


def test_dry_run_lists_without_downloading(
    run: Run, site: BookshelfSite, paths: GuidelinePaths, who_books: dict[str, bytes]
) -> None:
    plan = run(dry_run=True)
    assert site.archive_calls() == 0 and not paths.nxml.exists()
    assert [(r.status, r.message) for r in plan.results] == [
        ("planned", "new: would fetch 01/00/who_NBK200001.tar.gz"),
        ("planned", "new: would fetch 02/00/who_NBK200002.tar.gz"),
    ]
    run(selection=Selection(accessions=("NBK200002",)))
    plan = run(dry_run=True)
    assert [r.status for r in plan.results] == ["planned", "skipped"]


def test_accessions_not_listed_or_filtered_out_are_reported(run: Run, who_books: dict[str, bytes]) -> None:
    report = run(selection=Selection(accessions=("NBK1116", "NBK999", "NBK200002")), dry_run=True)
    assert report.not_listed == ["NBK999"] and report.filtered_out == ["NBK1116"]
    assert [r.accession for r in report.results] == ["NBK200002"]


def test_prune_archives_and_an_unreadable_manifest(
    run: Run, paths: GuidelinePaths, who_books: dict[str, bytes]
) -> None:
    report = run(prune_archives=True, selection=Selection(limit=1))
    assert report.count("fetched") == 1 and not paths.archive("NBK200001").exists()
    paths.manifest.write_text("{not json")
    report = run(selection=Selection(limit=1))
    assert report.count("fetched") == 1 and "could not be read" in report.warnings[0]
    # a manifest naming a file outside the book's folder is not believed: the book is fetched again
    manifest = json.loads(paths.manifest.read_text())
    manifest["books"]["NBK200001"]["files"] = ["../../../../../etc/hostname"]
    paths.manifest.write_text(json.dumps(manifest))
    recorder = Recorder([])
    report = run(selection=Selection(limit=1), ingest=recorder)
    assert report.results[0].status == "fetched" and report.results[0].files[0] == "NBK200001_ch1.nxml"
    assert all(path.parent == paths.book_dir("NBK200001") for path in recorder.calls[0])


# --- hostile and broken packages ------------------------------------------------------------------


def test_hostile_and_broken_packages_fail_alone_and_nothing_escapes(
    run: Run, site: BookshelfSite, paths: GuidelinePaths, tmp_path: Path, shared_data: Path
) -> None:
    chapter = real_nxml(shared_data, "1472-6831-8-11.nxml")
    outside = tmp_path / "outside"
    outside.mkdir()
    big = b"\0" * (3 * 1024 * 1024)  # compresses to a few KB: a small bomb
    plain_tar = io.BytesIO()
    with tarfile.open(fileobj=plain_tar, mode="w") as tar:
        info = tarfile.TarInfo("ch1.nxml")
        info.size = len(chapter)
        tar.addfile(info, io.BytesIO(chapter))
    hostile = {
        "NBK900001": (tar_gz([Member("b/ch1.nxml", chapter), Member("../../evil.nxml", b"<evil/>")]), "'..' path"),
        "NBK900002": (tar_gz([Member(str(outside / "evil.nxml"), b"<evil/>")]), "absolute"),
        "NBK900003": (
            tar_gz([Member("ch-link.nxml", kind=tarfile.SYMTYPE, linkname="/etc/passwd")]),
            "link to an absolute",
        ),
        "NBK900004": (
            tar_gz([Member("b/ch-up.nxml", kind=tarfile.SYMTYPE, linkname="../../../../outside/evil.nxml")]),
            "outside the destination",
        ),
        "NBK900005": (tar_gz([Member("b/hard.nxml", kind=tarfile.LNKTYPE, linkname="../../etc/passwd")]), "outside"),
        "NBK900006": (tar_gz([Member("b/dev.nxml", kind=tarfile.CHRTYPE)]), "special file"),
        "NBK900007": (tar_gz([Member("b/ch1.nxml", chapter), Member("b/book.pdf", big)]), "contents exceed 2.0 MiB"),
        "NBK900008": (tar_gz([Member("b/huge.nxml", b"<a>" + big[: 3 * len(big) // 6] + b"</a>")]), "over 1.0 MiB"),
        "NBK900009": (b"PK\x03\x04 this is a zip, not a gzip tar", "not a readable gzip tar"),
        "NBK900010": (plain_tar.getvalue(), "not a readable gzip tar"),
        "NBK900011": (tar_gz([Member("b/ch1.nxml", chapter)])[:400], "not a readable gzip tar"),  # truncated
        "NBK900012": (tar_gz([Member(f"b/f{n}.png", b"x") for n in range(12)]), "more than 10 members"),
    }
    for accession, (body, _) in hostile.items():
        site.add(accession, f"Hostile {accession}", body)
    site.add("NBK900013", "Missing package", None)
    safe_links = tar_gz(
        [Member("b/ch1.nxml", chapter), Member("b/ch2.nxml", kind=tarfile.SYMTYPE, linkname="ch1.nxml")]
    )
    site.add("NBK900014", "Good, after all the bad ones", safe_links)
    limits = ArchiveLimits(members=10, total_bytes=2 * 1024 * 1024, nxml_bytes=1024 * 1024)
    report = run(limits=limits)

    by = {r.accession: r for r in report.results}
    for accession, (_, reason) in hostile.items():
        assert by[accession].status == "failed", accession
        assert reason in by[accession].message, (accession, by[accession].message)
        assert "it was deleted" in by[accession].message
        assert not paths.archive(accession).exists() and not paths.book_dir(accession).exists()
    assert by["NBK900013"].status == "failed"
    assert by["NBK900013"].message == "download failed: NCBI Bookshelf answered HTTP 404."
    good = by["NBK900014"]
    assert (
        good.status == "fetched" and good.files == ["NBK900014_ch1.nxml"] and "1 link(s) not extracted" in good.message
    )
    assert report.stopped is None and len(report.failed) == 13
    # nothing was written anywhere but the books' own folders
    assert not any(p.name.startswith("evil") for p in tmp_path.rglob("*")), list(tmp_path.rglob("evil*"))
    assert sorted(p.name for p in paths.nxml.iterdir()) == ["NBK900014"]  # no staging folder left
    assert set(json.loads(paths.manifest.read_text())["books"]) == {"NBK900014"}


def test_names_are_flattened_safe_and_unique(run: Run, site: BookshelfSite, paths: GuidelinePaths) -> None:
    body = tar_gz(
        [
            Member("a/ch1.nxml", b"<book-part/>"),
            Member("b/ch1.nxml", b"<book-part/>"),
            Member("c/Annex 2 (tables).NXML", b"<book-part/>"),
            Member("./d/.nxml", b"<book-part/>"),
        ]
    )
    site.add("NBK7", "Names", body)
    (result,) = run().results
    assert result.files == ["NBK7_Annex-2-tables.nxml", "NBK7_ch1-2.nxml", "NBK7_ch1.nxml", "NBK7_part.nxml"]
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", name) for name in result.files)


# --- the service failing --------------------------------------------------------------------------


def test_a_5xx_on_a_package_is_retried(run: Run, site: BookshelfSite, who_books: dict[str, bytes]) -> None:
    site.replay.fail_next("/litarch/01/00/who_NBK200001.tar.gz", Fault("status", 503), Fault("status", 429, "0"))
    report = run()
    assert report.count("fetched") == 2
    assert len(site.replay.calls("/litarch/01/00/who_NBK200001.tar.gz")) == 3


def test_an_oversized_package_is_not_kept(run: Run, paths: GuidelinePaths, who_books: dict[str, bytes]) -> None:
    report = run(limits=ArchiveLimits(download_bytes=1000))
    assert all(r.status == "failed" and "larger than 1,000 bytes" in r.message for r in report.results)
    assert not list(paths.archives.glob("*"))


def test_a_dead_service_stops_the_run_and_says_which_books_were_not_tried(
    run: Run, site: BookshelfSite, who_books: dict[str, bytes]
) -> None:
    site.replay.fail_next("/litarch/01/00/who_NBK200001.tar.gz", *[Fault("drop")] * 3)
    report = run()
    first, second = report.results
    assert first.status == "failed" and "Could not reach NCBI Bookshelf" in first.message
    assert report.stop_code == "UPSTREAM_UNAVAILABLE"
    assert second.status == "failed" and second.message.startswith("not tried: Could not reach NCBI Bookshelf")
    assert site.archive_calls() == 3  # the retries of the first book only


def test_the_file_list_failing_is_an_error_naming_it(
    run: Run, site: BookshelfSite, evidence_settings: Settings, make_client: Callable[..., OutboundClient]
) -> None:
    site.replay.fail_next("/litarch/file_list.csv", *[Fault("status", 500)] * 3)
    with pytest.raises(UpstreamError, match=r"file list .*file_list.csv\): NCBI Bookshelf answered HTTP 500") as caught:
        run()
    assert caught.value.code == "UPSTREAM_ERROR"
    site.replay.fail_next("/litarch/file_list.csv", Fault("status", 500))
    assert run().listed == 0  # retried once, then an empty list: nothing to do
    closed = evidence_settings.model_copy(update={"bookshelf_url": "http://127.0.0.1:9/litarch", "outbound_retries": 0})
    with pytest.raises(UpstreamError, match="Could not reach NCBI Bookshelf at 127.0.0.1:9") as caught:
        asyncio.run(
            fetch_guidelines(
                make_client(closed),
                base_url=closed.bookshelf_url,
                paths=GuidelinePaths.under(closed.home),
                selection=Selection(),
                service=FAST,
            )
        )
    assert caught.value.code == "UPSTREAM_UNAVAILABLE"
