"""The loaded formulary's drug names, for routing: the name index ``odb.get`` already keeps.

``OdbService.names`` caches one index per loaded edition (built in ``odb.get``'s
warm-up); reading it costs one small query for the current edition. Exact names
only: a close spelling is ``odb.get``'s business once the question reaches it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import apsw

from curbside.coverage.answer.intent import DrugLookup
from curbside.errors import CurbsideError

if TYPE_CHECKING:
    from curbside.coverage.odb.service import OdbService

__all__ = ["formulary_lookup"]

log = logging.getLogger("curbside.coverage.answer")


def formulary_lookup(service: OdbService) -> DrugLookup | None:
    """A lookup over the loaded edition's brand and ingredient names, or None when none is loaded.

    Blocks on SQLite (and on building the index the first time): call it from a worker thread.
    """
    service.parts.open_store()  # the home and its migrations exist before the reader opens the file
    reader = service.reader
    try:
        with reader.snapshot():
            index = service.names.get(reader, reader.edition())
    except (CurbsideError, apsw.Error) as exc:  # no edition loaded, or the store is busy: route by words alone
        log.debug("formulary names unavailable for routing: %s", exc)
        return None

    def lookup(text: str) -> str | None:
        found = index.resolve(text, fuzzy=False)
        return found.matched if found.kind in ("brand", "ingredient") else None

    return lookup
