"""The input files of an ingest: every file named, and every file below a folder named, in one stable order.

Both targets list with it (the DuckDB loader; the Spark driver, whose tasks read what it lists), and both
tell a listed path that cannot be read (``unreadable``) the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

COMPLETE_MARKER = "_SUCCESS"  # written last into a landing folder by whoever fills it (docs/stack.md)


def iter_input_files(paths: list[Path]) -> list[Path]:
    """Files named, and every file below directories named, in a stable order (by path); hidden files and the
    ``_SUCCESS`` markers that say a landing folder is complete (they hold no data) skipped.

    Symbolic links are followed (a day folder linked into landing/ from another disc is read), except a link
    back to a folder that holds it (a loop): that link is listed itself, as is a link that leads nowhere, so
    that the reader reports it (``unreadable``) instead of the listing skipping it without a word."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            _list_folder(p, {p.resolve()}, out)
        elif p.exists() or p.is_symlink():
            out.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or directory")
    return out


def _list_folder(folder: Path, holding: set[Path], out: list[Path]) -> None:
    """``folder``'s files into ``out``, depth first by name (the order of sorted paths); ``holding``: the real
    folders on the way down, which a link must not lead back to."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except FileNotFoundError:  # removed while listed: nothing of it to load, nothing to report
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith(".") or entry.name == COMPLETE_MARKER:
            continue
        if entry.is_dir() and path.resolve() not in holding:
            _list_folder(path, holding | {path.resolve()}, out)
        elif entry.is_file() or entry.is_symlink():  # a loop or a dangling link: told by ``unreadable``
            out.append(path)


def unreadable(path: Path) -> str | None:
    """Why a listed ``path`` cannot be read, or None: it vanished (renamed or removed since it was listed), it
    is a symbolic link that leads nowhere, or one back to a folder that holds it. Not recorded in the manifest
    (there are no bytes to record); the other files load."""
    if path.is_symlink() and not path.exists():
        return f"a symbolic link to {os.readlink(path)}, which does not exist: not loaded"
    if not path.exists():
        return "vanished (renamed or removed) after it was listed: not loaded"
    if path.is_dir():
        return f"a symbolic link to {path.resolve()}, a folder that holds it (a loop): not followed"
    return None
