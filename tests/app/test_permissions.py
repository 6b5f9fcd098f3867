"""What Curbside writes to disk is the owner's alone: clinical text, keys and the trail's anchors."""

from __future__ import annotations

import stat
from pathlib import Path

from curbside.app import Curbside
from curbside.settings import Settings


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_home_and_everything_in_it_are_owner_only(tmp_path: Path) -> None:
    home = tmp_path / "home"
    core = Curbside(Settings(home=home))
    try:
        note = tmp_path / "note.md"
        note.write_text("# Potassium\n\nRecheck potassium within one week of starting spironolactone.\n")
        note.chmod(0o644)
        assert not core.ingestor.ingest([note]).failed
        core.users.add("dr-perm", "clinician")
        core.audit.key  # noqa: B018 - creates the key file
    finally:
        core.close()
    assert mode(home) == 0o700
    for name in ("curbside.sqlite3", "audit.key", "audit.head", "users.anchor"):
        assert mode(home / name) == 0o600, (name, oct(mode(home / name)))
    originals = home / "originals"
    folders = [originals, *(p for p in originals.rglob("*") if p.is_dir())]
    files = [p for p in originals.rglob("*") if p.is_file()]
    assert files and all(mode(p) == 0o600 for p in files)
    assert all(mode(p) == 0o700 for p in folders), [(p, oct(mode(p))) for p in folders]
