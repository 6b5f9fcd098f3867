"""The loaded Schedule's words, for routing: is a name the question uses a service the Schedule lists?

A word English does not use reads as a drug when nothing else routes ("is Contrave covered?",
``odb.unlisted``); but "is haemorrhoidectomy insured?" names a surgery, and the Schedule's own code
index (``schedule.get``'s, built at warm-up) says so: H. haemorrhoidectomy titles two of its codes.
Reading it costs one small query for the current edition.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import apsw

from curbside.errors import CurbsideError

if TYPE_CHECKING:
    from curbside.coverage.ohip.service import OhipService

__all__ = ["ServiceWords", "schedule_words"]

log = logging.getLogger("curbside.coverage.answer")

# whether a word names something the loaded Schedule lists
ServiceWords = Callable[[str], bool]


def schedule_words(service: OhipService) -> ServiceWords | None:
    """Whether a word is one of the loaded edition's code titles or listings, or None when none is loaded.

    Blocks on SQLite (and on building the index the first time): call it from a worker thread.
    """
    from curbside.coverage.ohip.query import stem

    service.parts.open_store()
    reader = service.reader
    try:
        with reader.snapshot():
            words = service.index.get(reader, reader.edition()).words
    except (CurbsideError, apsw.Error) as exc:  # no edition loaded, or the store is busy: route by words alone
        log.debug("schedule words unavailable for routing: %s", exc)
        return None

    def lists(word: str) -> bool:
        return stem(word) in words.by_word

    return lists
