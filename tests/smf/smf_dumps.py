"""What the SMF tests share: the hex dumps of ``tests/fixtures/smf`` and the SMF parser run over bytes.

A fixture is printed as in formats/smf/README.md: ``offset (hex) (offset (dec))  words`` lines, ``#`` comments;
the start of fixture 4::

    # offset (dec)  bytes
    0000 (   0)  01AC0000 DE4A0038 4E740126 005FE2E8
    0010 (  16)  E2C1D9D4 C6400001 00030000 00000034
"""

from __future__ import annotations

from pathlib import Path

from ingest.formats.base import ParseContext
from ingest.formats.smf.parser import PARSER
from ingest.generate import _smf_records as smf_records

FIXTURES = Path(__file__).parents[1] / "fixtures" / "smf"


def load_hex(name: str) -> bytes:
    """The bytes of the hex dump ``tests/fixtures/smf/<name>``."""
    lines = (line for line in (FIXTURES / name).read_text().splitlines() if line.strip() and not line.startswith("#"))
    return b"".join(bytes.fromhex("".join(line.split(")", 1)[1].split())) for line in lines)


def parse(tmp_path: Path, data: bytes) -> tuple[dict[str, list[dict]], ParseContext]:
    """Every table's rows (in file order) and the context (records read, rejects) of parsing ``data`` as one
    SMF dump."""
    path = tmp_path / "dump.smf"
    path.write_bytes(data)
    ctx = ParseContext(path)
    tables: dict[str, list[dict]] = {}
    for batch in PARSER.parse(path, ctx):
        tables.setdefault(batch.table, []).extend(batch.rows.to_pylist())
    return tables, ctx


def parse_table(tmp_path: Path, data: bytes, table: str) -> tuple[list[dict], ParseContext]:
    """The rows of one table, and the context, of parsing ``data`` (no rows: an empty list)."""
    tables, ctx = parse(tmp_path, data)
    return tables.get(table, []), ctx


def interval_records(sections: list, encode) -> bytes:
    """A VBS dump of one record per RMF interval (``encode(sections of that interval)``), as the generator writes
    a day's 73.1 or 74.1 records."""
    by_interval: dict = {}
    for s in sections:
        by_interval.setdefault(s.start, []).append(s)
    return smf_records.vbs_bytes([encode(ss) for ss in by_interval.values()])


def rejects(ctx: ParseContext) -> list[tuple[int, str]]:
    """The rejects of a parse as (byte offset, reason), in file order."""
    return [(r.offset, r.reason) for r in ctx.rejects]


def patched(record: bytes, offset: int, value: bytes) -> bytes:
    """``record`` with ``value`` written over its bytes from ``offset``: a damaged copy of a good record."""
    return record[:offset] + value + record[offset + len(value):]
