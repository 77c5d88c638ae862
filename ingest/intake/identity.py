"""A file's identity and its parser: what the manifest knows it by, and what reads it (sniffed or named).

The identity is the sha256 of the file's bytes, so that the same bytes load once on either target (the
DuckDB manifest's ``raw.ingest_files.sha256``, the lake's claim ``<lake>/_claims/<sha256>``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ingest.formats import registry
from ingest.formats.base import SNIFF_BYTES, UTF8_BOM, Parser


def sha256_of(path: Path) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def identify(path: Path, format_name: str | None = None) -> tuple[str, int, bytes, Parser | None]:
    """What the manifest knows a file by (``raw.ingest_files.sha256``), its size, its first bytes as read
    and its parser (named, or sniffed from those bytes less a byte order mark). The identity is the sha256
    of the bytes; for a file whose records take their time from its name (``Parser.name_identity``: byte
    for byte the same captures of an idle host), the sha256 of those bytes' sha256 and that time."""
    sha, size = sha256_of(path)
    with path.open("rb") as f:
        head = f.read(SNIFF_BYTES)
    text = head.removeprefix(UTF8_BOM)
    parser = registry.by_format(format_name) if format_name else registry.sniff(text, path.name)
    name_identity = getattr(parser, "name_identity", None)
    from_name = name_identity(text, path.name) if name_identity else None
    if from_name is not None:
        sha = hashlib.sha256(f"{sha} {from_name}".encode()).hexdigest()
    return sha, size, head, parser
