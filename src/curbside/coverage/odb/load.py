"""Load the ODB formulary extract: parse all of it, swap the tables, index the passages.

The steps, their idempotence and their failure handling are every
single-file source's (``curbside.coverage.edition_load``): the same file again
reports ``unchanged``, a file that fails to parse changes nothing. Passage
documents of classes that left the formulary are taken out of search.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from curbside.coverage.edition_load import EditionLoader
from curbside.coverage.odb.parse import ParsedFormulary, parse_formulary, read_edition
from curbside.coverage.odb.passages import DOC_PREFIX, NAMESPACE, SOURCE_TYPE, build_documents
from curbside.coverage.odb.store import EditionRecord, current_edition, replace_edition
from curbside.coverage.source_load import PassageIndex
from curbside.kb.ingest import PreparedDocument

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore, LoadProgress, SourceReport
    from curbside.store.database import Database

__all__ = ["OdbLoader", "load_odb"]

PATTERN = "odb*formulary*.xml"


class OdbLoader(EditionLoader[ParsedFormulary, EditionRecord]):
    name = "odb"
    parser_version = "1"
    pattern = PATTERN
    passages = PassageIndex(NAMESPACE, SOURCE_TYPE, DOC_PREFIX)

    def edition_date(self, path: Path) -> str:
        return read_edition(path).formulary_date

    def parse(self, path: Path, on_bytes: Callable[[int], None] | None) -> ParsedFormulary:
        return parse_formulary(path, on_bytes=on_bytes)

    def current(self, db: Database) -> EditionRecord | None:
        return current_edition(db)

    def replace(self, db: Database, parsed: ParsedFormulary, source_name: str, source_sha256: str) -> EditionRecord:
        return replace_edition(db, parsed, source_name=source_name, source_sha256=source_sha256)

    def counts(self, parsed: ParsedFormulary) -> dict[str, int]:
        return parsed.counts()

    def documents(self, parsed: ParsedFormulary, edition: EditionRecord) -> list[PreparedDocument]:
        return build_documents(parsed, edition.label)

    def loaded_message(self, parsed: ParsedFormulary) -> str:
        return f"{len(parsed.drugs)} drugs"


def load_odb(store: CoverageStore, path: Path, progress: LoadProgress | None = None) -> SourceReport:
    """Load one extract; failures come back in the report (status 'failed'), never half-applied."""
    return OdbLoader().load_file(store, path, progress)
