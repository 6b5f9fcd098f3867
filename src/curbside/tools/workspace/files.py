"""``files.search`` and ``files.read``: the clinic's shared folder over WebDAV (RFC 4918), read only.

Search walks the folder with PROPFIND (Depth 1, folder by folder: many servers refuse Depth
infinity), matches the query's words against each path, and for text files against their lines.
Read fetches one file — text, or a PDF's text through the knowledge base's PDF loader — refusing
it before download when the server's size is over CURBSIDE_WORKSPACE_MAX_FILE_BYTES, and cuts the
text to ``max_chars`` characters, saying so. Paths never leave the shared folder (``paths``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from curbside.errors import ConfigError, CurbsideError, NotFoundError, too_large
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.workspace.dav import DAV, DavEntry, DavSession
from curbside.tools.workspace.filetext import READABLE_SUFFIXES, TEXT_SUFFIXES, file_format, to_text
from curbside.tools.workspace.paths import inside, relative_path

if TYPE_CHECKING:
    from curbside.tools.workspace.dav import DavEndpoint
    from curbside.tools.workspace.deps import WorkspaceDeps

__all__ = ["FileMatch", "FileSearchArgs", "FileSearchResult", "FileText", "ReadFileArgs", "specs"]

MAX_FOLDERS = 200  # folders one search lists
MAX_ENTRIES = 5000  # files one search considers
MAX_SCANNED = 200  # text files one search opens to look inside
SCAN_CONCURRENCY = 4
LINE_CHARS = 200
_MAX_SETTING = "CURBSIDE_WORKSPACE_MAX_FILE_BYTES"
_PROPS = [f"{{{DAV}}}resourcetype", f"{{{DAV}}}getcontentlength", f"{{{DAV}}}getlastmodified"]


class FileSearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: str = Field(
        min_length=1,
        max_length=200,
        description="Words to find (case-insensitive, all of them): in a file's path, or in one line of a text file.",
    )
    folder: str = Field("", max_length=1000, description="Folder to search, under the shared folder; default: all.")
    max: int = Field(20, ge=1, le=100, description="Most matches to return: path matches first, then content.")


class FileMatch(BaseModel):
    path: str = Field(description="Path under the shared folder; give it to files.read.")
    size: int | None = Field(description="Bytes; null when the server does not say.")
    modified: datetime | None
    matched_in: Literal["name", "content"]
    line: str | None = Field(description=f"The first matching line (content matches), cut to {LINE_CHARS} characters.")
    line_number: int | None = Field(description="1-based number of that line.")


class FileSearchResult(BaseModel):
    query: str
    folder: str
    matches: list[FileMatch]
    total: int = Field(description="Matches found; more than len(matches) when truncated.")
    truncated: bool
    files_seen: int = Field(description="Files whose paths were compared.")
    files_scanned: int = Field(description="Text files opened to search their content.")
    warnings: list[str] = Field(default_factory=list)


class ReadFileArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    path: str = Field(
        min_length=1,
        max_length=1000,
        description="The file, under the shared folder: 'notes/visit.txt' (see files.search).",
    )
    max_chars: int = Field(20_000, ge=500, le=200_000, description="Most characters of text to return.")
    offset: int = Field(0, ge=0, description="Characters to skip first, to read on where an earlier call was cut.")


class FileText(BaseModel):
    path: str
    format: Literal["text", "pdf"]
    size: int = Field(description="The file's size in bytes.")
    modified: datetime | None
    pages: int | None = Field(description="Pages of a PDF; null for text files.")
    text: str = Field(description="The text from `offset`, at most max_chars characters. A PDF's has [page N] lines.")
    offset: int
    total_chars: int = Field(description="Characters of text in the whole file.")
    truncated: bool = Field(description="True when text stops before the end; `note` says how to read on.")
    note: str | None = None
    warnings: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------- search


async def _search(ctx: ToolContext[WorkspaceDeps], args: FileSearchArgs) -> FileSearchResult:
    deps = ctx.deps
    endpoint = deps.files()
    start = relative_path(args.folder, endpoint, folder=True)
    words = args.query.casefold().split()
    warnings: list[str] = []
    async with DavSession.open(endpoint, transport=deps.transport) as dav:
        files = await _walk(dav, start, warnings)
        by_name = [f for f in files if _has_all(f[0].casefold(), words)]
        named = {path for path, _ in by_name}
        candidates = [
            (path, entry)
            for path, entry in files
            if path not in named
            and _suffix(path) in TEXT_SUFFIXES
            and (entry.size or 0) <= deps.settings.workspace_max_file_bytes
        ]
        if len(candidates) > MAX_SCANNED:
            warnings.append(
                f"{len(candidates)} text files could be searched; only the first {MAX_SCANNED} (by path) were opened. "
                "Give a folder to narrow the search."
            )
            candidates = candidates[:MAX_SCANNED]
        found = await _scan(dav, candidates, words, deps.settings.workspace_max_file_bytes, warnings)
    matches = [_match(path, entry, None) for path, entry in by_name]
    matches += [_match(path, entry, hit) for (path, entry), hit in zip(candidates, found, strict=True) if hit]
    return FileSearchResult(
        query=args.query,
        folder=start,
        matches=matches[: args.max],
        total=len(matches),
        truncated=len(matches) > args.max,
        files_seen=len(files),
        files_scanned=len(candidates),
        warnings=warnings,
    )


async def _walk(dav: DavSession, start: str, warnings: list[str]) -> list[tuple[str, DavEntry]]:
    """Every file under ``start`` as (relative path, entry), in path order, within the limits."""
    endpoint = dav.endpoint
    files: list[tuple[str, DavEntry]] = []
    queue: deque[str] = deque([start])
    listed = 0
    while queue:
        if listed >= MAX_FOLDERS:
            warnings.append(f"Only {MAX_FOLDERS} folders were listed; give a folder to search the rest.")
            break
        folder = queue.popleft()
        listed += 1
        try:
            entries = await dav.propfind(endpoint.url_for(folder), _PROPS, depth="1", what=f"folder {folder or '/'}")
        except NotFoundError:
            if folder != start:
                continue  # removed while we walked
            if not start:  # the shared folder itself: the setting is wrong
                raise ConfigError(
                    f"The WebDAV server at {endpoint.host} has no folder at CURBSIDE_WEBDAV_URL ({endpoint.root_path}); "
                    "set it to the shared folder's address."
                ) from None
            raise NotFoundError(
                f"No folder {start.rstrip('/')!r} in the shared folder; files.search without a folder searches it all."
            ) from None
        for entry in entries:
            path = inside(entry.path, endpoint)
            if path is None or path.rstrip("/") == folder.rstrip("/"):
                continue  # the folder itself, or an href outside the shared folder
            if entry.is_collection:
                queue.append(path + "/")
            else:
                files.append((path, entry))
        if len(files) >= MAX_ENTRIES:
            warnings.append(f"Only the first {MAX_ENTRIES} files were compared; give a folder to narrow the search.")
            files = files[:MAX_ENTRIES]
            break
    files.sort(key=lambda item: item[0])
    return files


async def _scan(
    dav: DavSession, candidates: list[tuple[str, DavEntry]], words: list[str], cap: int, warnings: list[str]
) -> list[tuple[int, str] | None]:
    """The first line of each candidate holding every word, as (number, line), or None."""
    gate = asyncio.Semaphore(SCAN_CONCURRENCY)
    failed: list[str] = []

    async def one(path: str) -> tuple[int, str] | None:
        async with gate:
            try:
                answer = await dav.send("GET", dav.endpoint.url_for(path), max_bytes=cap, what=path)
                text = to_text(path, answer.body).text
            except CurbsideError as exc:
                if exc.code in ("UPSTREAM_UNAVAILABLE", "UPSTREAM_TIMEOUT", "CONFIG_ERROR"):
                    raise  # the server, not the file: the whole search fails with its message
                failed.append(path)
                return None
        for number, line in enumerate(text.split("\n"), start=1):
            if _has_all(line.casefold(), words):
                return number, _excerpt(line, words[0])
        return None

    tasks = [asyncio.create_task(one(path)) for path, _ in candidates]
    try:
        found = await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:  # the server failed (or the call was cancelled): stop the other fetches
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    if failed:
        shown = ", ".join(failed[:3]) + (f" and {len(failed) - 3} more" if len(failed) > 3 else "")
        warnings.append(f"{len(failed)} text file(s) could not be read and were searched by name only: {shown}.")
    return list(found)


def _match(path: str, entry: DavEntry, hit: tuple[int, str] | None) -> FileMatch:
    return FileMatch(
        path=path,
        size=entry.size,
        modified=entry.modified,
        matched_in="content" if hit else "name",
        line=hit[1] if hit else None,
        line_number=hit[0] if hit else None,
    )


def _has_all(text: str, words: list[str]) -> bool:
    return all(word in text for word in words)


def _excerpt(line: str, word: str) -> str:
    """The line, or LINE_CHARS characters of it around the first word."""
    line = line.strip()
    if len(line) <= LINE_CHARS:
        return line
    at = max(line.casefold().find(word) - LINE_CHARS // 4, 0)
    piece = line[at : at + LINE_CHARS - 2]
    return ("…" if at > 0 else "") + piece + "…"


def _suffix(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""


# ---------------------------------------------------------------- read


async def _read(ctx: ToolContext[WorkspaceDeps], args: ReadFileArgs) -> FileText:
    deps = ctx.deps
    endpoint = deps.files()
    path = relative_path(args.path, endpoint)
    file_format(path)  # an unsupported suffix is refused before anything is sent
    cap = deps.settings.workspace_max_file_bytes
    async with DavSession.open(endpoint, transport=deps.transport) as dav:
        entry = await _stat(dav, endpoint, path)
        if entry.size is not None and entry.size > cap:
            raise too_large(path, entry.size, cap, _MAX_SETTING)
        answer = await dav.send("GET", endpoint.url_for(path), max_bytes=cap, what=path, limit_setting=_MAX_SETTING)
    read = await asyncio.to_thread(to_text, path, answer.body)
    total = len(read.text)
    piece = read.text[args.offset : args.offset + args.max_chars]
    end = args.offset + len(piece)
    truncated = end < total
    note = None
    if truncated:
        note = (
            f"Cut to characters {args.offset:,}–{end:,} of {total:,}; call files.read again with offset={end} "
            f"to read on (max_chars up to 200,000)."
        )
    elif args.offset >= total and total:
        note = f"offset {args.offset:,} is past the end of the text ({total:,} characters)."
    return FileText(
        path=path,
        format="pdf" if read.format == "pdf" else "text",
        size=len(answer.body),
        modified=entry.modified,
        pages=read.pages,
        text=piece,
        offset=args.offset,
        total_chars=total,
        truncated=truncated,
        note=note,
        warnings=read.warnings,
    )


async def _stat(dav: DavSession, endpoint: DavEndpoint, path: str) -> DavEntry:
    try:
        entries = await dav.propfind(endpoint.url_for(path), _PROPS, depth="0", what=path)
    except NotFoundError:
        raise NotFoundError(
            f"No file {path!r} in the shared folder; files.search finds files by name or content."
        ) from None
    if not entries:
        raise NotFoundError(f"No file {path!r} in the shared folder; files.search finds files by name or content.")
    if entries[0].is_collection:
        raise NotFoundError(f"{path!r} is a folder, not a file; files.search with folder={path!r} lists what it holds.")
    return entries[0]


def specs(deps: WorkspaceDeps) -> list[ToolSpec[Any, Any]]:
    settings = deps.settings
    readable = ", ".join(sorted(READABLE_SUFFIXES))
    return [
        ToolSpec(
            name="files.search",
            description=(
                "Search the clinic's shared folder: files whose path holds every word of the query, then text "
                "files with a line holding every word (that line is returned). Each match: path (give it to "
                "files.read), size, modified. Read only."
            ),
            args_model=FileSearchArgs,
            result_model=FileSearchResult,
            handler=_search,
            category="workspace",
            requires_phi=True,  # a clinic's files name patients
            timeout_s=settings.tool_ehr_timeout_s,
            rate_limit=settings.tool_ehr_rate_limit,
            deps=deps,
        ),
        ToolSpec(
            name="files.read",
            description=(
                f"Read one file of the clinic's shared folder into the conversation ({readable}; a PDF's text "
                "layer, with [page N] lines). The text is cut to max_chars characters; `note` says how to read on "
                "with offset. Paths stay inside the shared folder. Read only: there is no tool that writes files."
            ),
            args_model=ReadFileArgs,
            result_model=FileText,
            handler=_read,
            category="workspace",
            requires_phi=True,
            timeout_s=settings.tool_ehr_timeout_s,
            rate_limit=settings.tool_ehr_rate_limit,
            deps=deps,
        ),
    ]
