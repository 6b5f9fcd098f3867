"""`curbside guidelines fetch` through the real command line (click's runner, CURBSIDE_HOME in tmp_path)
against a loopback NCBI Bookshelf serving a file_list.csv and packages built from real .nxml files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.cli import cli
from tests.tools.evidence.replay import ReplayServer
from tests.tools.evidence.test_bookshelf import BookshelfSite, Member, real_nxml, tar_gz


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def site(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[BookshelfSite]:
    replay = ReplayServer()
    monkeypatch.setenv("CURBSIDE_BOOKSHELF_URL", f"{replay.url}/litarch")
    monkeypatch.setenv("CURBSIDE_OUTBOUND_BACKOFF_S", "0.01")
    yield BookshelfSite(replay)
    replay.close()


@pytest.fixture
def books(site: BookshelfSite, shared_data: Path) -> BookshelfSite:
    malaria = tar_gz(
        [
            Member("who_malaria/ch1.nxml", real_nxml(shared_data, "pntd.0002065.nxml")),
            Member("who_malaria/ch2.nxml", real_nxml(shared_data, "pone.0000217.nxml")),
            Member("who_malaria/fm-foreword.nxml", b"<book-part><title>Foreword</title></book-part>"),
            Member("who_malaria/fig1.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 32),
        ]
    )
    site.add("NBK200001", "Guidelines for malaria", malaria)
    site.add(
        "NBK200002",
        "Oral health surveys",
        tar_gz([Member("x/ch1.nxml", real_nxml(shared_data, "1472-6831-8-11.nxml"))]),
    )
    site.add("NBK1116", "GeneReviews", tar_gz([Member("g/ch1.nxml", b"<x/>")]), publisher="University of Washington")
    return site


def test_fetch_without_ingest_then_a_rerun_downloads_nothing(books: BookshelfSite, home: Path) -> None:
    code, out, err = run("guidelines", "fetch", "--no-ingest")
    assert code == 0, out + err
    assert (
        "+ NBK200001 Guidelines for malaria: fetched: 2 .nxml (1 front matter/reference/acknowledgement parts left out)"
        in out
    )
    assert "+ NBK200002 Oral health surveys: fetched: 1 .nxml" in out and "NBK1116" not in out
    assert "3 books in Bookshelf's list; 2 selected (publisher contains 'World Health Organization')." in out
    assert "2 fetched, 0 skipped, 0 failed; 3 .nxml files extracted, 0 ingested" in out
    folder = home / "guidelines" / "nxml" / "NBK200001"
    assert sorted(p.name for p in folder.iterdir()) == ["NBK200001_ch1.nxml", "NBK200001_ch2.nxml"]
    books.replay.reset()
    code, out, _ = run("guidelines", "fetch", "--no-ingest")
    assert code == 0 and books.archive_calls() == 0
    assert "= NBK200001 Guidelines for malaria: unchanged since 2024-05-01 10:00:00" in out
    assert "0 fetched, 2 skipped, 0 failed" in out


def test_dry_run_json_with_title_and_any_publisher(books: BookshelfSite) -> None:
    code, out, _ = run("guidelines", "fetch", "--dry-run", "--any-publisher", "--title", "gene|malaria", "--json")
    assert code == 0 and books.archive_calls() == 0
    data = json.loads(out)
    assert data["dry_run"] and data["counts"] == {"fetched": 0, "skipped": 0, "failed": 0, "planned": 2}
    assert [r["accession"] for r in data["results"]] == ["NBK200001", "NBK1116"]
    assert data["selection"] == "any publisher; title matches 'gene|malaria'"


def test_a_missing_and_a_hostile_package_fail_alone_with_exit_1(books: BookshelfSite, home: Path) -> None:
    books.add("NBK300001", "Gone", None)
    books.add("NBK300002", "Hostile", tar_gz([Member("../../../evil.nxml", b"<evil/>")]))
    code, out, err = run("guidelines", "fetch", "--no-ingest")
    assert code == 1
    assert "! NBK300001 Gone: download failed: NCBI Bookshelf answered HTTP 404." in err
    assert "! NBK300002 Hostile: archive rejected: member '../../../evil.nxml' has an absolute or '..' path" in err
    assert "2 fetched, 0 skipped, 2 failed" in out
    assert not list(home.parent.rglob("evil*"))


def test_an_unreachable_service_is_an_upstream_error_exit_5(
    site: BookshelfSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CURBSIDE_BOOKSHELF_URL", "http://127.0.0.1:9/litarch")
    monkeypatch.setenv("CURBSIDE_OUTBOUND_RETRIES", "0")
    code, _, err = run("guidelines", "fetch", "--no-ingest")
    assert code == 5
    assert err.startswith(
        "Error [UPSTREAM_UNAVAILABLE]: Could not read NCBI Bookshelf's file list (http://127.0.0.1:9/litarch/file_list.csv)"
    )
    code, out, _ = run("guidelines", "fetch", "--json")
    assert code == 5 and json.loads(out)["error"]["code"] == "UPSTREAM_UNAVAILABLE"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--accession", "PMC123"], "NBK followed by digits"),
        (["--publisher", "WHO", "--any-publisher"], "not both"),
        (["--limit", "0"], "Invalid value for '--limit'"),
    ],
)
def test_bad_options_exit_2(site: BookshelfSite, args: list[str], message: str) -> None:
    code, _, err = run("guidelines", "fetch", *args)
    assert code == 2 and message in err
    assert not site.replay.calls()


def test_fetch_ingests_as_guideline_and_search_finds_it(books: BookshelfSite) -> None:
    code, out, err = run("guidelines", "fetch", "--accession", "NBK200002")
    assert code == 0, out + err
    assert "+ NBK200002 Oral health surveys: fetched: 1 .nxml; ingested 1" in out
    code, out, _ = run("search", "Dutch Oral Health Impact Profile validity", "--source-type", "guideline", "--json")
    assert code == 0
    hits = json.loads(out)["hits"]
    assert hits and hits[0]["doc_key"] == "nbk200002_ch1"
    assert "Oral Health Impact Profile" in hits[0]["title"]
    _, out, _ = run("audit", "export", "--since", "2000-01-01")
    (row,) = [r for r in map(json.loads, out.splitlines()) if r["action"] == "documents.ingest"]
    assert row["outcome"] == "ok" and row["sources"] == ["nbk200002_ch1"]
    assert row["details"]["source_type"] == "guideline" and row["details"]["books_fetched"] == 1
    books.replay.reset()
    code, out, _ = run("guidelines", "fetch", "--accession", "NBK200002")
    assert code == 0 and books.archive_calls() == 0 and "= NBK200002" in out and "ingested" not in out.splitlines()[0]
