"""files.search and files.read against wsgidav on loopback (user and password on): names and content
searched, a real PDF and text files read exactly, the text cut where asked and read on, paths that try
to leave the shared folder refused, the size cap, and the failures (not configured, server down)."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from curbside.tools.base import ToolResult
from curbside.tools.workspace import WorkspaceDeps
from tests.tools.workspace.conftest import (
    PASSWORD,
    SHARED,
    USER,
    NoNetwork,
    Server,
    executor_for,
    workspace_settings,
)

T = TypeVar("T")

BP_LOG = (
    "Home blood pressure log, J. Doe\n"
    "2026-11-18 148/92 right arm, seated\n"
    "2026-11-20 Blood pressure 152/94 after walking; repeat 146/90\n"
    "2026-11-22 139/88\n"
)
CARDIOLOGY = "# Referral: cardiology\n\nReason: resistant hypertension on three agents.\n"
LABS = "date,test,value,unit\n2026-11-15,HbA1c,7.9,%\n2026-11-15,creatinine,98,umol/L\n"
ADP_PDF = "moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01.pdf"


@pytest.fixture(scope="module")
def shared(webdav_server: Server) -> Server:
    """The shared folder's files (written straight to the server's disk), and one file above it."""
    folder = webdav_server.root / SHARED
    for relative, text in {
        "notes/bp-log.txt": BP_LOG,
        "notes/2026/visit-2026-11-20.md": "Visit note. Plan: start amlodipine 5 mg daily.\n",
        "referrals/cardiology.md": CARDIOLOGY,
        "referrals/lab-results.csv": LABS,
        "letters/big.txt": "blood pressure " * 200,  # 3,000 bytes: over a 1 KiB cap
        "letters/windows-1252.txt": None,
    }.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            path.write_bytes("Café visit: blood pressure 130/80\r\n".encode("cp1252"))
        else:
            path.write_text(text, encoding="utf-8")
    (folder / "empty").mkdir()
    (folder / "letters" / "scan.docx").write_bytes(b"PK\x03\x04 not really a docx")
    # above the shared folder: the tools must never reach it, even though it matches the search
    (webdav_server.root / "secret.txt").write_text("blood pressure of the whole clinic\n", encoding="utf-8")
    return webdav_server


@pytest.fixture(scope="module")
def adp_pdf(shared: Server, shared_data: Path) -> Path:
    """A real 54-page PDF from the Ontario ADP manuals, put in the shared folder."""
    source = shared_data / "ontario" / "adp" / ADP_PDF
    target = shared.root / SHARED / "forms" / ADP_PDF
    target.parent.mkdir(exist_ok=True)
    shutil.copyfile(source, target)
    return source


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def _deps(tmp_path: Path, url: str | None, password: str = PASSWORD, **kw: Any) -> WorkspaceDeps:
    settings = workspace_settings(
        tmp_path,
        webdav_url=url,
        webdav_user=USER,
        webdav_password=password,
        **{k: kw.pop(k) for k in list(kw) if k.startswith("workspace_")},
    )
    return WorkspaceDeps(settings, **kw)


def _url(server: Server) -> str:
    return f"{server.base}/{SHARED}"  # no trailing slash: the tools add it


def _call(deps: WorkspaceDeps, tool: str, **args: Any) -> ToolResult:
    return run(executor_for(deps).call(tool, args))


def _ok(result: ToolResult) -> dict[str, Any]:
    assert result.ok, result.error
    assert result.result is not None
    return result.result


# ---------------------------------------------------------------- search


def test_search_by_name(tmp_path: Path, shared: Server) -> None:
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="Cardiology"))
    assert [(m["path"], m["matched_in"], m["size"]) for m in out["matches"]] == [
        ("referrals/cardiology.md", "name", len(CARDIOLOGY))
    ]
    assert out["matches"][0]["modified"] is not None


def test_search_by_content_gives_the_line(tmp_path: Path, shared: Server) -> None:
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="blood pressure", folder="notes"))
    assert out["folder"] == "notes/"
    assert [(m["path"], m["matched_in"], m["line_number"], m["line"]) for m in out["matches"]] == [
        ("notes/bp-log.txt", "content", 1, "Home blood pressure log, J. Doe"),
    ]
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="BLOOD pressure walking"))
    assert [(m["path"], m["line_number"], m["line"]) for m in out["matches"]] == [
        ("notes/bp-log.txt", 3, "2026-11-20 Blood pressure 152/94 after walking; repeat 146/90"),
    ]


def test_search_walks_subfolders_and_never_leaves_the_shared_folder(tmp_path: Path, shared: Server) -> None:
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="blood pressure"))
    paths = [m["path"] for m in out["matches"]]
    assert paths == ["letters/big.txt", "letters/windows-1252.txt", "notes/bp-log.txt"]
    assert "secret.txt" not in str(out)
    assert out["matches"][1]["line"] == "Café visit: blood pressure 130/80"  # read as Windows-1252
    assert len(out["matches"][0]["line"]) <= 200 and out["matches"][0]["line"].endswith("…")
    # every file under the folder was compared by name; the text files were opened
    assert out["files_seen"] == 7 and out["files_scanned"] == 6
    top = _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="blood pressure", folder="/"))
    assert top["folder"] == "" and [m["path"] for m in top["matches"]] == paths  # '/' is the shared folder's top
    assert _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="amlodipine"))["matches"][0]["path"] == (
        "notes/2026/visit-2026-11-20.md"
    )


def test_search_max_and_nothing_found(tmp_path: Path, shared: Server) -> None:
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="blood pressure", max=1))
    assert len(out["matches"]) == 1 and out["total"] == 3 and out["truncated"] is True
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.search", query="warfarin"))
    assert out["matches"] == [] and out["total"] == 0


def test_search_skips_text_over_the_cap(tmp_path: Path, shared: Server) -> None:
    deps = _deps(tmp_path, _url(shared), workspace_max_file_bytes=1024)
    out = _ok(_call(deps, "files.search", query="blood pressure", folder="letters"))
    assert [m["path"] for m in out["matches"]] == ["letters/windows-1252.txt"]  # big.txt is not opened


# ---------------------------------------------------------------- read


def test_read_a_text_file_exactly(tmp_path: Path, shared: Server) -> None:
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.read", path="notes/bp-log.txt"))
    assert out["text"] == BP_LOG
    assert out["format"] == "text" and out["size"] == len(BP_LOG.encode()) and out["pages"] is None
    assert out["total_chars"] == len(BP_LOG) and out["truncated"] is False and out["note"] is None
    csv = _ok(_call(_deps(tmp_path, _url(shared)), "files.read", path="referrals/lab-results.csv"))
    assert csv["text"] == LABS


def test_absolute_path_inside_the_shared_folder_is_allowed(tmp_path: Path, shared: Server) -> None:
    out = _ok(_call(_deps(tmp_path, _url(shared)), "files.read", path=f"/{SHARED}/notes/./bp-log.txt"))
    assert out["path"] == "notes/bp-log.txt" and out["text"] == BP_LOG


def test_read_a_real_pdf(tmp_path: Path, shared: Server, adp_pdf: Path) -> None:
    from pypdf import PdfReader

    deps = _deps(tmp_path, _url(shared))
    first = _ok(_call(deps, "files.read", path=f"forms/{ADP_PDF}", max_chars=20_000))
    assert first["format"] == "pdf"
    assert first["pages"] == len(PdfReader(adp_pdf).pages) == 54
    assert first["size"] == adp_pdf.stat().st_size
    assert first["text"].startswith("[page 1]\nMobility Devices")
    assert "[page 5]" in first["text"]
    assert "The purpose of this Manual is to present the policies and procedures" in first["text"]
    total = first["total_chars"]
    assert len(first["text"]) == 20_000 and total > 20_000 and first["truncated"] is True
    assert first["note"] == (
        f"Cut to characters 0–20,000 of {total:,}; call files.read again with offset=20000 "
        "to read on (max_chars up to 200,000)."
    )
    # reading on joins up exactly
    rest = _ok(_call(deps, "files.read", path=f"forms/{ADP_PDF}", offset=20_000, max_chars=200_000))
    assert rest["truncated"] is False and rest["note"] is None
    whole = _ok(_call(deps, "files.read", path=f"forms/{ADP_PDF}", max_chars=200_000))
    assert first["text"] + rest["text"] == whole["text"] and len(whole["text"]) == total
    assert whole["text"].rstrip().split("\n")[-1]  # the last page's text is there


@pytest.mark.parametrize(
    "path",
    [
        "../secret.txt",
        "notes/../../secret.txt",
        "notes/../referrals/cardiology.md",  # even when it would stay inside: '..' is refused, not resolved
        "/secret.txt",
        f"/{SHARED}/../secret.txt",
        "/etc/passwd",
        "notes\\..\\..\\secret.txt",
        "notes/bp-log.txt\x00.pdf",
        "http://127.0.0.1:1/secret.txt",
    ],
)
def test_paths_that_leave_the_shared_folder_are_refused(tmp_path: Path, shared: Server, path: str) -> None:
    transport = NoNetwork()  # refused before anything is sent
    result = _call(_deps(tmp_path, _url(shared), transport=transport), "files.read", path=path)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "VALIDATION_ERROR", result.error
    assert transport.sent == []
    folder = _call(_deps(tmp_path, _url(shared), transport=transport), "files.search", query="x", folder=path)
    assert folder.error is not None and folder.error.code == "VALIDATION_ERROR"


def test_size_cap_refuses_before_download(tmp_path: Path, shared: Server) -> None:
    result = _call(_deps(tmp_path, _url(shared), workspace_max_file_bytes=1024), "files.read", path="letters/big.txt")
    assert result.status == "error" and result.error is not None
    assert result.error.code == "FILE_TOO_LARGE"
    assert result.error.message == (
        "letters/big.txt is 2.9 KiB; the limit is 1.0 KiB (CURBSIDE_WORKSPACE_MAX_FILE_BYTES)."
    )


def test_size_cap_holds_when_the_server_does_not_say_the_size(tmp_path: Path) -> None:
    """A server that lists no size and streams without Content-Length: reading stops at the cap."""
    import httpx

    listing = (
        '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/clinic/notes/huge.txt</D:href>'
        "<D:propstat><D:prop><D:resourcetype/></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>"
        "</D:response></D:multistatus>"
    )

    async def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 512

    def answer(request: httpx.Request) -> httpx.Response:
        if request.method == "PROPFIND":
            return httpx.Response(207, content=listing.encode())
        return httpx.Response(200, content=chunks())  # a generator: sent chunked, no Content-Length

    deps = _deps(
        tmp_path, "http://dav.test/clinic/", workspace_max_file_bytes=1024, transport=httpx.MockTransport(answer)
    )
    result = _call(deps, "files.read", path="notes/huge.txt")
    assert result.error is not None and result.error.code == "FILE_TOO_LARGE"
    assert result.error.message == (
        "notes/huge.txt is larger than the limit of 1.0 KiB (CURBSIDE_WORKSPACE_MAX_FILE_BYTES)."
    )


def test_unsupported_missing_and_folders(tmp_path: Path, shared: Server) -> None:
    deps = _deps(tmp_path, _url(shared))
    docx = _call(deps, "files.read", path="letters/scan.docx")
    assert docx.error is not None and docx.error.code == "UNSUPPORTED_FORMAT" and ".pdf" in docx.error.message
    missing = _call(deps, "files.read", path="notes/nothing.txt")
    assert missing.error is not None and missing.error.code == "NOT_FOUND"
    assert missing.error.message == (
        "No file 'notes/nothing.txt' in the shared folder; files.search finds files by name or content."
    )
    folder = _call(deps, "files.read", path="empty.txt")
    assert folder.error is not None and folder.error.code == "NOT_FOUND"
    no_folder = _call(deps, "files.search", query="x", folder="nowhere")
    assert no_folder.error is not None and no_folder.error.code == "NOT_FOUND"
    assert no_folder.error.message == (
        "No folder 'nowhere' in the shared folder; files.search without a folder searches it all."
    )
    wrong_root = _call(_deps(tmp_path, f"{shared.base}/no-such-share/"), "files.search", query="x")
    assert wrong_root.error is not None and wrong_root.error.code == "CONFIG_ERROR"
    assert "CURBSIDE_WEBDAV_URL" in wrong_root.error.message


# ---------------------------------------------------------------- failures and shape


def test_no_files_configured_says_which_setting(tmp_path: Path) -> None:
    transport = NoNetwork()
    for tool, args in (("files.search", {"query": "bp"}), ("files.read", {"path": "a.txt"})):
        result = _call(_deps(tmp_path, None, transport=transport), tool, **args)
        assert result.error is not None and result.error.code == "CONFIG_ERROR"
        assert "CURBSIDE_WEBDAV_URL" in result.error.message
    assert transport.sent == []


def test_wrong_password(tmp_path: Path, shared: Server) -> None:
    result = _call(_deps(tmp_path, _url(shared), password="nope"), "files.read", path="notes/bp-log.txt")
    assert result.error is not None and result.error.code == "CONFIG_ERROR"
    assert "CURBSIDE_WEBDAV_USER" in result.error.message and "nope" not in result.error.message


def test_server_down_is_a_clear_error(tmp_path: Path, closed_url: str) -> None:
    for tool, args in (("files.search", {"query": "bp"}), ("files.read", {"path": "a.txt"})):
        result = _call(_deps(tmp_path, closed_url + SHARED), tool, **args)
        assert result.error is not None and result.error.code == "UPSTREAM_UNAVAILABLE"
        assert "could not be reached (connection refused)" in result.error.message
        assert "CURBSIDE_WEBDAV_URL" in result.error.message


def test_there_is_no_file_write_tool(tmp_path: Path) -> None:
    registry = executor_for(_deps(tmp_path, None)).registry
    assert sorted(registry.names()) == [
        "calendar.create_event",
        "calendar.list_events",
        "files.read",
        "files.search",
    ]
    for name in ("files.search", "files.read"):
        spec = registry.get(name)
        assert spec.requires_phi is True and spec.category == "workspace" and spec.requires_confirmation is False
