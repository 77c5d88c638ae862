"""What a parser reads of a file: the file itself, or a copy less the byte order mark a Windows editor writes.

A file that starts ``EF BB BF`` followed by ``"Date","Time","System",...`` is sniffed and parsed from the
``"Date"``: the mark is no part of the data, and the parsers read every text as UTF-8 without one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ingest.formats.base import UTF8_BOM


def text_source(path: Path, head: bytes, scratch: Path) -> tuple[bytes, Path]:
    """The bytes to sniff and the file the parser reads: ``path`` itself, or, when it starts with the byte
    order mark a Windows editor writes (no part of the data), a copy without it in the folder ``scratch``
    (the caller removes the folder after the parse)."""
    if not head.startswith(UTF8_BOM):
        return head, path
    return head[len(UTF8_BOM):], without_bom(path, scratch / path.name)


def without_bom(path: Path, copy: Path) -> Path:
    """A copy of ``path`` less its first three bytes (a UTF-8 byte order mark), under the same name and with the
    same times, for the parsers, which read every text as UTF-8 without one: lines keep their numbers, byte
    offsets are 3 less than in the file."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    with path.open("rb") as f, copy.open("wb") as out:
        f.seek(len(UTF8_BOM))
        shutil.copyfileobj(f, out, 1 << 20)
    shutil.copystat(path, copy)
    return copy
