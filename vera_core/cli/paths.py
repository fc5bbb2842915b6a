"""Expanding the PATH arguments of `vera ingest`: files, folders (recursively) and globs."""

from __future__ import annotations

import glob
from pathlib import Path

from vera_core.ingest.source import FORMATS


def expand_paths(args: list[str]) -> tuple[list[Path], list[str]]:
    """Files to ingest, in a stable order, and the arguments that matched nothing.

    A named file is kept whatever its extension (so it fails with a clear message); folders and
    globs contribute only the formats VERA ingests."""
    files: list[Path] = []
    missing: list[str] = []
    for arg in args:
        path = Path(arg).expanduser()
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in FORMATS))
        else:
            matches = sorted(Path(m) for m in glob.glob(str(path), recursive=True))
            found = [m for m in matches if m.is_file() and m.suffix.lower() in FORMATS]
            files.extend(found) if found else missing.append(arg)
    unique: dict[Path, None] = {}
    for f in files:
        unique.setdefault(f.resolve(), None)
    return list(unique), missing
