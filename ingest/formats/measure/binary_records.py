"""Binary MEASURE structured records (``LIST ... REPORT FORMAT STRUCTURED``), decoded from DDL layouts.

Measure writes one Enscribe entry-sequenced file per entity type (CPU, PROCESS, DISC, ...): fixed-length
big-endian records with raw counter values and no record-type field. A ZMS-style record starts with the
80-byte common header. The first 112 bytes of a ``zmscpu`` record (``xxd``) -- LOADID ``DT0381``, system
``\\TAHITI``, CPU 2, OS G06, FROM/TO-TIMESTAMP 1997-02-07 12:03:32 and 12:04:15.6 as Julian µs,
DELTA-TIME 43 600 000 µs, then cpu-busy-time 1 530 360 µs (3.51 %), cpu-qtime 1 744 000, cpu-qlen-max 23:

    00000000: 4454 3033 3831 2020 5c54 4148 4954 4920  DT0381  \\TAHITI
    00000010: 0002 4706 0000 0000 2020 2020 2020 2020  ..G.....
    00000020: 2020 2020 2020 2020 02f0 301b 7768 7d00          ..0.wh}.
    00000030: 02f0 301b 7a01 c580 0000 0000 0299 4880  ..0.z.........H.
    00000040: 0000 0000 0000 0000 2000 2000 0000 0000  ........ . .....
    00000050: 0000 0000 0017 59f8 0000 0000 001a 9c80  ......Y.........
    00000060: 0000 0000 0000 0017 0000 0000 0000 0000  ................

(written by ``write_records`` from the DDL below; no structured file of a real system is public).

Nothing here knows an offset: the layout of every record comes from DDL (``ddl.py``) -- the shipped
records, then ``ctx.options["ddl_paths"]`` (``perfdb ingest --ddl FILE``) and ``*.ddl`` in
``ctx.options["home_ddl_dir"]``, a record of the same name overriding the shipped one.

Which layout a file holds is read from its content. Every offset of the first 256 KiB where the time
items read as a consistent header (Julian FROM/TO-TIMESTAMP between 1975 and 2200, DELTA-TIME > 0 and
= TO - FROM within a second) marks a record start; a layout fits when those starts fall on (nearly) every
multiple of its record length and (nearly) nowhere else, and the last records of a larger file have headers
too. Among fitting layouts one whose length divides the file size wins; only between layouts that are
still equal does the file name decide (``cpu``, ``zmscpu``, ``cpu-0107.dat`` ...).

Output: one batch per chunk of ``BATCH_ROWS`` records into ``raw.measure_<entity>`` with the columns of
docs/measure_raw_contract.md (``source_form`` = ``binary``) plus every other decoded item. Bad input: a
trailing partial record is rejected ("truncated record at offset N: expected L bytes, found M"); a record
whose header is implausible is rejected with its offset; the other records load. A file that fits no
layout is rejected as a whole; the message says how far apart its record headers are, so the user knows
which record length their DDL must describe.

Writer API (used by the generator; keep stable):

    LAYOUT_FOR_TABLE = {"measure_cpu": "zmscpu", ...}         raw table -> shipped record name
    write_records(path, layout, records: Iterable[dict]) -> int
        ``layout`` is a ``ddl.Layout`` or a record name; records are keyed by contract columns in raw
        units (timestamps as datetime); returns the number of records written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from ingest.formats.base import BATCH_ROWS, Batch, FormatError, ParseContext
from ingest.formats.measure import julian, normalize
from ingest.formats.measure import tables as measure_tables
from ingest.formats.measure.ddl import DdlError, Layout, header_layout, load_layouts

LAYOUT_FOR_TABLE = {
    "measure_cpu": "zmscpu",
    "measure_process": "zmsproc",
    "measure_disc": "zmsdisc",
    "measure_line": "zmsline",
    "measure_userdef": "zmsudef",
    "measure_file": "zmsfile",
    "measure_discopen": "zmsdopen",
    "measure_terminal": "zmsterm",
}

TIME_ITEMS = ("from_timestamp", "to_timestamp", "delta_time")
DELTA_SLACK_US = 1_000_000  # identification: DELTA-TIME agrees with TO - FROM within a second
FIT_SHARE = 0.75  # share of record starts that must hold a header (bad records are rejected, not fatal)
SAMPLE_BYTES = 256 * 1024
TAIL_RECORDS = 16  # records read at the end of a file larger than the sample
CHUNK_BYTES = 16 * 1024 * 1024  # bound on one read, whatever the record length


def _times(layout: Layout, buf, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    fields = [layout.by_name[name] for name in TIME_ITEMS]
    dtype = np.dtype(
        {
            "names": list(TIME_ITEMS),
            "formats": [f.numpy_type for f in fields],
            "offsets": [f.offset for f in fields],
            "itemsize": layout.record_length,
        }
    )
    arr = np.frombuffer(buf, dtype=dtype, count=n)
    return tuple(arr[name].astype(np.int64) for name in TIME_ITEMS)  # type: ignore[return-value]


def _plausible(frm: np.ndarray, to: np.ndarray, delta: np.ndarray) -> np.ndarray:
    return julian.plausible(frm) & julian.plausible(to) & (delta > 0) & (to >= frm)


def _consistent(frm: np.ndarray, to: np.ndarray, delta: np.ndarray) -> np.ndarray:
    return _plausible(frm, to, delta) & (np.abs((to - frm) - delta) <= DELTA_SLACK_US)


def _implausible_reason(layout: Layout, offset: int, frm: int, to: int, delta: int) -> str:
    problems = []
    if not julian.plausible(np.int64(frm)):
        problems.append(f"from-timestamp {frm} is not a Julian timestamp between 1975 and 2200")
    if not julian.plausible(np.int64(to)):
        problems.append(f"to-timestamp {to} is not a Julian timestamp between 1975 and 2200")
    if delta <= 0:
        problems.append(f"delta-time {delta} µs is not positive")
    if to < frm and not problems:
        problems.append("to-timestamp is earlier than from-timestamp")
    return f"record at offset {offset}: implausible {layout.name} header: " + "; ".join(problems)


def _has_times(layout: Layout) -> bool:
    return all(name in layout.by_name and layout.by_name[name].kind != "char" for name in TIME_ITEMS)


def _name_aliases(layout: Layout) -> set[str]:
    stem = layout.name[3:] if layout.name.startswith("zms") else layout.name
    return {layout.name, layout.file_name, stem, layout.table.removeprefix("measure_")}


def _name_tokens(file_name: str) -> set[str]:
    tokens = set()
    for token in re.split(r"[^a-z0-9]+", file_name.lower()):
        tokens.add(token)
        tokens.add(re.sub(r"\d+$", "", token))  # cpu0107 -> cpu
    return tokens - {""}


def _header_starts(sample: bytes, layout: Layout) -> tuple[np.ndarray, int]:
    """Every byte offset of ``sample`` where ``layout``'s time items read as a consistent header, and how
    many offsets were examined. Record boundaries show up as these offsets, whatever the record length."""
    fields = [layout.by_name[name] for name in TIME_ITEMS]
    scanned = len(sample) - max(f.offset + f.size for f in fields) + 1
    if scanned <= 0:
        return np.zeros(0, dtype=np.int64), 0
    raw = np.frombuffer(sample, dtype=np.uint8)
    columns = []
    for f in fields:
        windows = np.lib.stride_tricks.sliding_window_view(raw, f.size)[f.offset : f.offset + scanned]
        columns.append(np.ascontiguousarray(windows).view(f.numpy_type).ravel().astype(np.int64))
    return np.flatnonzero(_consistent(*columns)), scanned


def _fits(layout: Layout, starts: np.ndarray, scanned: int) -> bool:
    """Headers sit at (nearly) every multiple of the record length and (nearly) nowhere else."""
    length = layout.record_length
    found = np.isin(np.arange(0, scanned, length), starts)
    stray = np.count_nonzero(starts % length)
    return bool(found[0]) and float(found.mean()) >= FIT_SHARE and stray <= (1 - FIT_SHARE) * len(starts)


def choose_layout(path: Path, sample: bytes, size: int, layouts: dict[str, Layout], read_at) -> Layout:
    """The layout that explains the file (see the module docstring); FormatError if none does."""
    fitting: list[Layout] = []
    tail_misfits: list[tuple[Layout, int]] = []  # fitted the sample, not the end of the file
    starts_by_header: dict[tuple, tuple[np.ndarray, int]] = {}
    for layout in layouts.values():
        length = layout.record_length
        if not _has_times(layout) or length > len(sample):
            continue
        key = tuple((f.offset, f.size, f.kind) for f in (layout.by_name[n] for n in TIME_ITEMS))
        if key not in starts_by_header:
            starts_by_header[key] = _header_starts(sample, layout)
        fits = _fits(layout, *starts_by_header[key])
        if fits and size > len(sample):  # the sample did not reach the end: the last records must fit too
            whole = size // length
            k = min(whole, TAIL_RECORDS)
            tail = read_at((whole - k) * length, k * length)
            fits = float(_consistent(*_times(layout, tail, k)).mean()) >= FIT_SHARE
            if not fits:
                tail_misfits.append((layout, (whole - k) * length))
        if fits:
            fitting.append(layout)
    if not fitting and tail_misfits:
        layout, offset = tail_misfits[0]
        raise FormatError(
            f"no MEASURE record layout fits this {size}-byte file: it starts with {layout.record_length}-byte "
            f"{layout.name} records, but the records from offset {offset} on have no plausible headers at that "
            "length (several files joined, or a damaged file?)",
            offset=offset,
        )
    if not fitting:
        raise _no_layout_error(size, sample, layouts)
    # one record and a partial one fit several lengths: a length that divides the file size wins
    exact = [layout for layout in fitting if size % layout.record_length == 0]
    candidates = exact or fitting
    if len(candidates) > 1:
        tokens = _name_tokens(path.name)
        named = [layout for layout in candidates if _name_aliases(layout) & tokens]
        if len(named) != 1:
            names = ", ".join(sorted(layout.name for layout in candidates))
            raise FormatError(
                f"the content fits several MEASURE record layouts equally well ({names}) and the file name "
                f"{path.name!r} does not say which; rename the file after its entity (e.g. cpu.dat) or pass --ddl",
                offset=0,
            )
        return named[0]
    return candidates[0]


def _no_layout_error(size: int, sample: bytes, layouts: dict[str, Layout]) -> FormatError:
    known = ", ".join(f"{l.name} {l.record_length}" for l in sorted(layouts.values(), key=lambda l: l.name))
    advice = f"known layouts (record bytes): {known}; pass the DDL of your Measure version with --ddl"
    starts, _ = _header_starts(sample, header_layout())
    if len(starts) >= 2:
        step = int(np.bincount(np.diff(starts)).argmax())
        return FormatError(
            f"no MEASURE record layout fits this {size}-byte file: record headers appear every {step} bytes "
            f"(offsets {', '.join(str(int(s)) for s in starts[:3])}, ...) but no known layout is {step} bytes long; "
            + advice,
            offset=int(starts[1]),
        )
    return FormatError(
        f"no MEASURE record layout fits this {size}-byte file: no second record header was found; {advice}",
        offset=int(starts[0]) if len(starts) else 0,
    )


def _layouts_for(ctx: ParseContext) -> dict[str, Layout]:
    paths = [Path(p) for p in ctx.options.get("ddl_paths") or []]
    home_ddl = ctx.options.get("home_ddl_dir")
    if home_ddl and Path(home_ddl).is_dir():
        paths += sorted(Path(home_ddl).glob("*.ddl"))
    try:
        return load_layouts(paths)
    except DdlError as e:
        raise FormatError(f"cannot use the DDL: {e}") from None


class BinaryRecordsParser:
    format = "measure.binary"
    version = "1"
    priority = 20  # binary before text
    tables = measure_tables.ENTITY_TABLES
    declare_table = staticmethod(measure_tables.table_for)  # records of a DDL beyond the contract

    def sniff(self, head: bytes, name: str) -> bool:
        header = header_layout()
        if len(head) < header.record_length:
            return False
        return bool(_consistent(*_times(header, head, 1))[0])

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        size = path.stat().st_size
        if size == 0:
            raise FormatError("empty file: expected fixed-length MEASURE structured records", offset=0)
        layouts = _layouts_for(ctx)
        with path.open("rb") as f:

            def read_at(offset: int, length: int) -> bytes:
                f.seek(offset)
                return f.read(length)

            layout = choose_layout(path, f.read(SAMPLE_BYTES), size, layouts, read_at)
            length = layout.record_length
            per_chunk = max(1, min(BATCH_ROWS, CHUNK_BYTES // length))
            ctx.place = lambda ordinal: (ordinal * length, None)
            f.seek(0)
            ordinal = 0
            while chunk := f.read(per_chunk * length):
                n = len(chunk) // length
                if n:
                    ctx.read(n)
                    batch = self._decode(layout, chunk, n, ordinal, ctx)
                    if batch is not None:
                        yield batch
                if len(chunk) > n * length:  # only the last read can be short: a partial record
                    offset = ordinal * length + n * length
                    ctx.read()
                    found = len(chunk) - n * length
                    ctx.reject(
                        f"truncated record at offset {offset}: expected {length} bytes, found {found}",
                        chunk[n * length :],
                        offset=offset,
                        record_ordinal=ordinal + n,
                    )
                ordinal += n

    def _decode(self, layout: Layout, chunk: bytes, n: int, first: int, ctx: ParseContext) -> Batch | None:
        frm, to, delta = _times(layout, chunk, n)
        ok = _plausible(frm, to, delta)
        length = layout.record_length
        for i in np.flatnonzero(~ok):
            offset = (first + int(i)) * length
            ctx.reject(
                _implausible_reason(layout, offset, int(frm[i]), int(to[i]), int(delta[i])),
                chunk[int(i) * length : (int(i) + 1) * length],
                offset=offset,
                record_ordinal=first + int(i),
            )
        ordinals = np.arange(first, first + n, dtype=np.int64)
        if not ok.all():
            kept = np.flatnonzero(ok)
            if not len(kept):
                return None
            records = np.frombuffer(chunk, dtype=np.dtype((np.void, length)), count=n)[kept]
            chunk, n, ordinals = records.tobytes(), len(kept), ordinals[kept]
        columns = layout.decode_columns(chunk, n)
        rows = normalize.to_contract(layout.table, columns, source_form="binary", record_ordinal=ordinals)
        return Batch(layout.table, rows)


PARSER = BinaryRecordsParser()


def write_records(path: Path, layout: Layout | str, records: Iterable[dict]) -> int:
    """Write contract-keyed records as binary structured records; returns how many were written."""
    if isinstance(layout, str):
        layout = load_layouts()[layout]
    written = 0
    with Path(path).open("wb") as f:
        chunk: list[dict] = []
        for record in records:
            chunk.append(record)
            if len(chunk) == BATCH_ROWS:
                f.write(layout.pack(normalize.to_items(layout, chunk), len(chunk)))
                written += len(chunk)
                chunk = []
        if chunk:
            f.write(layout.pack(normalize.to_items(layout, chunk), len(chunk)))
            written += len(chunk)
    return written
