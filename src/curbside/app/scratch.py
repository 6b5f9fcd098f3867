"""A ``Curbside`` over a scratch home, for evaluations (``curbside eval retrieval``).

The evaluation prunes its home to exactly the corpus it scores, so it runs only on a home it
made itself (marked ``.curbside-eval``) or on a new, empty one — never on a real knowledge base.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from curbside.app import Curbside
from curbside.errors import ModelMismatchError, ValidationError
from curbside.settings import Settings

__all__ = ["open_scratch"]

_MARKER = ".curbside-eval"  # marks a scratch home, so a real knowledge base is never pruned to a corpus


@contextmanager
def open_scratch(settings: Settings, home: Path | None) -> Iterator[Curbside]:
    """A ``Curbside`` on ``home`` (or a temporary directory removed afterwards) with ``settings`` otherwise.

    A given ``home`` must be new, empty, or a scratch home made here before.
    """
    with tempfile.TemporaryDirectory(prefix="curbside-eval-") as tmp:
        path = Path(home) if home is not None else Path(tmp)
        if path.exists() and any(path.iterdir()) and not (path / _MARKER).exists():
            raise ValidationError(
                f"{path} is not empty and is not a scratch home made by `curbside eval`; evaluation removes every "
                "document outside the corpus, so pass a new or empty directory."
            )
        path.mkdir(parents=True, exist_ok=True)
        (path / _MARKER).touch()
        core = Curbside(settings.model_copy(update={"home": path}))
        try:
            yield core
        except ModelMismatchError as exc:
            raise ModelMismatchError(
                f"The scratch home {path} was indexed with another embedder ({exc.message.split('. Run')[0]}); "
                "pass another --home for this embedder, or delete that directory."
            ) from exc
        finally:
            core.close()
