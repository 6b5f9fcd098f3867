"""What a PDF may inflate to: a cap per stream (pypdf's own) and a budget for the whole file.

pypdf 7 caps every decoded stream (``pypdf.Configuration``: Flate, LZW, run-length, Brotli,
JBIG2 output, 75 MB each by default) and raises ``LimitReachedError`` past the cap;
``pypdf_limits`` lowers those caps to ``pdf_max_stream_bytes`` for one load. But pypdf keeps
every decoded stream on its object for the life of the reader, so pages of streams just
under the cap would pile up (five 70 MB pages: 650 MB). ``PageBudget`` therefore decodes,
before a page's text is extracted, what extraction reads (content streams, form XObjects,
font maps), counts each stream once against ``pdf_max_inflated_bytes``, and afterwards
drops pypdf's decoded copy of the page's own content (forms and fonts are shared between
pages and stay cached, counted). Embedded font programs, which pypdf reads only for some
fonts, are counted after the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pypdf import PageObject, apply_configuration
from pypdf.generic import ArrayObject, DictionaryObject, EncodedStreamObject, PdfObject, StreamObject

from curbside.errors import FileTooLargeError
from curbside.kb.loaders._limits import InflateLimits, size_text

_FONT_MAPS = ("/ToUnicode", "/Encoding")  # decoded for every font of a page's resources
_FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")  # decoded for some fonts only
_MAX_FORM_DEPTH = 12


@contextmanager
def pypdf_limits(limits: InflateLimits) -> Iterator[None]:
    """pypdf's per-stream caps (decoded bytes, parsed tokens) set from ``limits`` while loading."""
    cap = limits.pdf_max_stream_bytes
    with apply_configuration(
        stream_parsing_work_maximum_count=limits.pdf_max_stream_tokens,
        zlib_maximum_output_length=cap,
        lzw_maximum_output_length=cap,
        run_length_maximum_output_length=cap,
        brotli_maximum_output_length=cap,
        jbig2_maximum_output_length=cap,
        array_based_stream_maximum_output_length=cap,
        image_maximum_buffer_size=cap,
    ):
        yield


class PageBudget:
    """Decoded bytes of one PDF, counted page by page; over budget is ``FileTooLargeError``."""

    def __init__(self, name: str, limits: InflateLimits, file_size: int) -> None:
        self.name = name
        self.file_size = file_size
        self.limit = limits.pdf_max_inflated_bytes
        self.stream_limit = limits.pdf_max_stream_bytes
        self.used = 0
        self._counted: set[int] = set()  # id() of streams counted (pypdf keeps them alive)
        self._page_streams: list[StreamObject] = []
        self._font_files: list[StreamObject] = []

    def before(self, page: PageObject, number: int) -> None:
        """Decode what extracting ``page``'s text will read; may raise pypdf's ``LimitReachedError``."""
        self._page_streams = _content_streams(page)
        self._font_files = []
        for stream in self._page_streams:
            self._count(stream.get_data(), stream, number)
        for stream in self._resource_streams(page.get("/Resources"), set(), 0):
            self._count(stream.get_data(), stream, number)

    def after(self, number: int) -> None:
        """Count font programs pypdf decoded, and let the page's own decoded content go."""
        for stream in self._font_files:
            if isinstance(stream, EncodedStreamObject) and stream.decoded_self is not None:
                self._count(stream.decoded_self.get_data(), stream, number)
        for stream in self._page_streams:
            if isinstance(stream, EncodedStreamObject):
                stream.decoded_self = None
                self._counted.discard(id(stream))  # a page that shares it decodes it again
        self._page_streams = []

    def _count(self, data: bytes, stream: StreamObject, number: int) -> None:
        if not isinstance(stream, EncodedStreamObject) or id(stream) in self._counted:
            return  # an unfiltered stream is the file's own bytes
        self._counted.add(id(stream))
        self.used += len(data)
        if self.used > self.limit:
            raise FileTooLargeError(
                f"{self.name}: its page content inflates to more than {size_text(self.limit)} by page {number} "
                f"(from a {size_text(self.file_size)} file); refused as a likely decompression bomb. "
                "If the document is genuine, raise the limit"
            )

    def _resource_streams(self, resources: object, seen: set[int], depth: int) -> Iterator[StreamObject]:
        """Form XObjects (and their resources) and font maps a page's text extraction decodes."""
        resources = _resolve(resources)
        if not isinstance(resources, DictionaryObject) or id(resources) in seen or depth > _MAX_FORM_DEPTH:
            return
        seen.add(id(resources))
        for font in _values(resources.get("/Font")):
            if not isinstance(font, DictionaryObject):
                continue
            yield from (s for key in _FONT_MAPS if isinstance(s := _resolve(font.get(key)), StreamObject))
            for holder in (font, *_values(font.get("/DescendantFonts"))):
                descriptor = _resolve(holder.get("/FontDescriptor")) if isinstance(holder, DictionaryObject) else None
                if isinstance(descriptor, DictionaryObject):
                    self._font_files.extend(
                        s for key in _FONT_FILES if isinstance(s := _resolve(descriptor.get(key)), StreamObject)
                    )
        for xobject in _values(resources.get("/XObject")):
            if isinstance(xobject, StreamObject) and xobject.get("/Subtype") == "/Form":
                yield xobject
                yield from self._resource_streams(xobject.get("/Resources"), seen, depth + 1)


def _content_streams(page: PageObject) -> list[StreamObject]:
    contents = _resolve(page.get("/Contents"))
    if isinstance(contents, StreamObject):
        return [contents]
    return [s for s in _values(contents) if isinstance(s, StreamObject)]


def _values(container: object) -> list[object]:
    """The resolved members of a (possibly indirect) dictionary or array; [] for anything else."""
    container = _resolve(container)
    if isinstance(container, DictionaryObject):
        return [_resolve(v) for v in container.values()]
    if isinstance(container, ArrayObject):
        return [_resolve(v) for v in container]
    return []


def _resolve(value: object) -> object:
    return value.get_object() if isinstance(value, PdfObject) else value
