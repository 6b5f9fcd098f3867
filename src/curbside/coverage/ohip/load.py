"""Load the Schedule of Benefits text: parse all of it, swap the tables, index the passages.

The steps, their idempotence and their failure handling are every
single-file source's (``curbside.coverage.edition_load``): the same file again
reports ``unchanged``, a file that fails to parse changes nothing. Passage
documents of sections that left the Schedule are taken out of search.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from curbside.coverage.edition_load import EditionLoader
from curbside.coverage.ohip.dense_titles import store_title_vectors, title_embedder
from curbside.coverage.ohip.layout import iso_date
from curbside.coverage.ohip.parse import ParsedSchedule, parse_schedule
from curbside.coverage.ohip.passages import DOC_PREFIX, NAMESPACE, SOURCE_TYPE, build_documents
from curbside.coverage.ohip.store import EditionRecord, current_edition, replace_edition
from curbside.coverage.source_load import PassageIndex
from curbside.errors import CurbsideError, DocumentParseError
from curbside.kb.ingest import PreparedDocument

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore, LoadProgress, SourceReport
    from curbside.store.database import Database

__all__ = ["OhipLoader", "load_ohip", "report_counts"]

PATTERN = "ohip*schedule*benefits*.txt"


def report_counts(parsed: ParsedSchedule) -> dict[str, int]:
    """The parse report's figures, as the load report's row counts (``coverage load`` prints them)."""
    r = parsed.report
    return {
        "codes_found": r.codes_found,
        "codes_with_fee": r.codes_with_fee,
        "codes_fee_unknown": r.codes_fee_unknown,
        "codes_fee_read": r.codes_fee_read,
        "codes_no_fee": r.codes_no_fee,
        "listings": r.listings,
        "listings_with_fee": r.listings_with_fee,
        "listings_fee_unknown": r.listings_fee_unknown,
        "sections": r.sections,
        "rule_blocks": r.rule_blocks,
    }


class OhipLoader(EditionLoader[ParsedSchedule, EditionRecord]):
    name = "ohip"
    parser_version = (  # 2: definition headings stop governing titles; 3: fees realigned, special visit cells;
        "13"  # 4: their tables; 5: more layouts read (one-column pages, stacked codes), fee statuses; 6: titles
    )  # from governing headings only, T/P component codes, index boxes as confirmations, 'no_fee' listings;
    # 7: appendices without sections read (Appendix F), premium cells only in their tables, headings defining
    # one service govern only the listings naming it; 8: codes printed with their role or modality letter
    # (E401B, K300A) read as listings; 9: a sentence ending in a colon over a code ends the heading above it;
    # 10: sub-headings of 90-119 characters that read as one noun phrase (G804, G805, G236); 11: a sub-heading
    # carried on to a second lower-case line right above its codes (Z084, Z085, E317, X323, G443); 12: a code that is
    # one component keeps its one value on a page of H and P columns (G414); 13: a dash add-on to several codes
    # hangs under the heading over them, not under the last code listed (E440 'to G246, G117, G119 or G918')
    pattern = PATTERN
    passages = PassageIndex(NAMESPACE, SOURCE_TYPE, DOC_PREFIX)

    def edition_date(self, path: Path) -> str:
        """The effective date from the file's first lines (only the edition is read here)."""
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
        match = re.search(r"\(effective ([A-Z][a-z]+ \d{1,2}, \d{4})\)", head)
        if match is None:
            raise DocumentParseError(
                f"{path.name} does not name its effective date in its first lines; is it the Schedule?"
            )
        return iso_date(match.group(1))

    def parse(self, path: Path, on_bytes: Callable[[int], None] | None) -> ParsedSchedule:
        return parse_schedule(path, on_bytes=on_bytes)

    def current(self, db: Database) -> EditionRecord | None:
        return current_edition(db)

    def replace(self, db: Database, parsed: ParsedSchedule, source_name: str, source_sha256: str) -> EditionRecord:
        return replace_edition(db, parsed, source_name=source_name, source_sha256=source_sha256)

    def counts(self, parsed: ParsedSchedule) -> dict[str, int]:
        return report_counts(parsed)

    def documents(self, parsed: ParsedSchedule, edition: EditionRecord) -> list[PreparedDocument]:
        return build_documents(parsed)

    def load_file(self, store: CoverageStore, path: Path, progress: LoadProgress | None = None) -> SourceReport:
        """Load one file, then give the loaded edition its title vectors (``dense_titles``): also when the file
        was already loaded, so a home loaded before them gains them by loading again."""
        report = super().load_file(store, path, progress)
        if report.status in ("loaded", "unchanged"):
            started = time.perf_counter()
            edition = current_edition(store.db)
            assert edition is not None  # the load just stored (or found) it
            try:
                report.counts["title_vectors_embedded"] = store_title_vectors(store.db, edition.id, title_embedder())
            except CurbsideError as exc:  # the model would not load: codes are still found by their words
                report.message += f"; codes cannot be found by meaning: {exc.message}"
            report.seconds += time.perf_counter() - started
        return report

    def loaded_message(self, parsed: ParsedSchedule) -> str:
        r = parsed.report
        return (
            f"{r.codes_found:,} codes, {r.codes_with_fee:,} with an aligned fee ({r.aligned_share:.1%}: "
            f"{r.codes_fee_read:,} read, {r.codes_no_fee:,} I.C or no fee of their own), "
            f"{r.codes_fee_unknown:,} fee unknown"
        )


def load_ohip(store: CoverageStore, path: Path, progress: LoadProgress | None = None) -> SourceReport:
    """Load one text file; failures come back in the report (status 'failed'), never half-applied."""
    return OhipLoader().load_file(store, path, progress)
