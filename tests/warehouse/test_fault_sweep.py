"""A seeded fault-injection sweep over every input format: each sample input the repository holds, damaged
in many deterministic ways, through the real loader into a real warehouse home (``perfdb ingest``'s path).

Inputs: every ``*.out`` under ``tests/golden/commands/`` and every input under ``tests/fixtures/`` that a
parser recognises, assigned to the format the loader sniffs for it. Formats the repository holds no file of
are written by the project's own writers: the SMF hex listings decoded (and the three concatenated into one
dump of four records), a MEASURE structured file (``write_records``), a day of benchmark runs in each form
(``perfdb generate benchmark``), the ``QUERY IPSTATS`` capture of the VSE console log on its own.
``test_every_registered_format_has_a_sample`` keeps the list complete.

Mutations (``random.Random`` seeded per input and mutation, so every run damages the same bytes):
truncation (inside the last line or record, at a line or record boundary, at a random byte, to one byte),
a run of bytes overwritten (garbage, 0x00, 0xFF, EBCDIC blanks 0x40; for text inside one line), a line or
record duplicated or deleted, a chunk duplicated or deleted; for text CRLF line ends, a UTF-8 BOM, a line
tab-expanded (or, without tabs, blanks made a tab), a 1 MB line, an undocumented line, a non-UTF-8 byte;
for SMF an RDW length set to 0, to X'FFFF' or past the end of the file. MEASURE structured records are
fixed-length and carry no length field: they get no length mutation.

The contract every case is held to:

* ingest returns (nothing escapes), the file is ``loaded``, ``loaded_with_rejects`` or ``rejected`` (``failed``
  is a parser bug), its manifest row says the same, records read = loaded + rejected + skipped;
* every reject names its line or byte offset, every message the file; ``raw.rejects`` holds one row per
  rejected record;
* what is stored is plausible (the rows pass the plausibility screen again) and no more than the damage can
  explain (no more records loaded than the clean file plus those the mutation added);
* exact where the damage is known: records before the one a truncation cut load exactly as in the clean
  file; CRLF line ends and a BOM change nothing; a line or byte range damaged, inserted or deleted changes
  only the records it touches (the others load exactly, their lines or offsets moved by the insertion);
* the same damaged files ingested again add nothing: loaded ones are duplicates (not a success when they had
  rejects), rejected ones are tried again and stay one manifest row.

The first input of each format gets every mutation, the others a seeded draw of ``SAMPLED``. All damaged files
are ingested together (one ``ingest_files`` run, as ``perfdb ingest DIR``), then again; each test case checks
one (format, input, mutation). A handful of cases also go through the command line. About 45 s in all.
"""

from __future__ import annotations

import atexit
import datetime as dt
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pyarrow as pa
import pytest

from ingest.formats import registry
from ingest.formats.base import SNIFF_BYTES
from ingest.formats.measure.binary_records import write_records
from ingest.generate import benchmark as generate_benchmark
from ingest.home import Home
from ingest.intake import plausibility
from ingest.intake.result import FileResult
from ingest.warehouse import database, loading

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
SEED = 20261128
SAMPLED = 4  # mutations drawn for each input of a format but its first (which gets them all)
MB = 1 << 20


# -- the inputs ------------------------------------------------------------------------------------------

def _hex_listing(path: Path) -> bytes:
    lines = (ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#"))
    return b"".join(bytes.fromhex("".join(ln.split(")", 1)[1].split())) for ln in lines)


def _measure_structured() -> bytes:
    t0 = dt.datetime(2026, 1, 5, 10)
    record = dict(system_name="\\TAHITI", loadid="DT0381", from_timestamp=t0, to_timestamp=t0 + dt.timedelta(seconds=43.6),
                  delta_time=43_600_000, error=0, os_version="G06", memory_pages=8192, pcbs=1800, cpu_busy_time=1_530_360,
                  cpu_qtime=1_744_000, cpu_qlen_max=23, dispatches=3876, intr_busy_time=444_720, ending_free_mem=4856)
    path = _scratch() / "ZMSCPU"
    write_records(path, "zmscpu", [dict(record, cpu_num=cpu, cpu_busy_time=1_000_000 + cpu) for cpu in range(4)])
    return path.read_bytes()


def _benchmark(name: str) -> bytes:
    out = _scratch() / "benchmark"
    if not out.exists():
        generate_benchmark.generate(out, generate_benchmark.DEMO_START, 1, 7, list(generate_benchmark.FORMS))
    return next(p for p in sorted(out.iterdir()) if p.name.endswith(name)).read_bytes()


def _vse_ipstats() -> bytes:
    console = (TESTS / "golden/commands/vse/vse1_console.out").read_bytes()
    return console[console.rindex(b"# captured:"):]


@lru_cache(maxsize=1)
def _scratch() -> Path:
    """Where the project's writers put the inputs they make (removed when the tests end)."""
    made = Path(tempfile.mkdtemp(prefix="fault_sweep_inputs_"))
    atexit.register(shutil.rmtree, made, True)
    return made


SMF = TESTS / "fixtures/smf"
# input id -> (file name, bytes) for formats the repository holds no file of
DERIVED = {
    "smf/fixture1_smf70_1_two_cps": ("SMF.SYSA.FIX1.dump", lambda: _hex_listing(SMF / "fixture1_smf70_1_two_cps.hex")),
    "smf/fixture2_smf119_70_ftp_stor": ("SMF.SYSA.FIX2.dump", lambda: _hex_listing(SMF / "fixture2_smf119_70_ftp_stor.hex")),
    "smf/fixture3_smf72_3_workload": ("SMF.SYSA.FIX3.dump", lambda: _hex_listing(SMF / "fixture3_smf72_3_workload.hex")),
    "smf/fixtures_1_2_3": ("SMF.SYSA.ALL.dump", lambda: b"".join(_hex_listing(SMF / n) for n in sorted(os.listdir(SMF))
                                                                 if n.endswith(".hex"))),
    "measure/zmscpu_4_records": ("ZMSCPU", _measure_structured),
    "benchmark/appc_tuning.jsonl": ("appc_tuning.jsonl", lambda: _benchmark("appc_tuning.jsonl")),
    "benchmark/vtam_bulk.csv": ("vtam_bulk.csv", lambda: _benchmark("vtam_bulk.csv")),
    "benchmark/os2lab__aping": ("os2lab__aping__20260202T160000.txt", lambda: _benchmark("T160000.txt")),
    "vse/vse1_ipstats": ("vse1_ipstats.out", _vse_ipstats),
}
DERIVED_FORMAT = {"smf": "smf.binary", "measure": "measure.binary", "benchmark/appc": "benchmark.jsonl",
                  "benchmark/vtam": "benchmark.csv", "benchmark/os2": "benchmark.aping", "vse": "vse.ipstats"}


def _repo_inputs() -> dict[str, Path]:
    found = sorted((TESTS / "golden/commands").rglob("*.out"))
    found += sorted(p for p in (TESTS / "listings/golden").iterdir() if p.suffix in (".csv", ".out"))
    found += sorted(p for p in (TESTS / "fixtures").rglob("*") if p.is_file() and p.suffix in (".csv", ".txt", ".out"))
    return {str(p.relative_to(TESTS)): p for p in found}


@lru_cache(maxsize=1)
def inputs() -> dict[str, tuple[str, str, bool]]:
    """Input id -> (format, file name, binary)."""
    out = {}
    for key, path in _repo_inputs().items():
        with path.open("rb") as f:
            parser = registry.sniff(f.read(SNIFF_BYTES), path.name)
        if parser is not None:  # a jc oracle of a form no parser reads (plain `netstat`) is no sample of a format
            out[key] = (parser.format, path.name, False)
    for key, (name, _) in DERIVED.items():
        fmt = next(v for k, v in DERIVED_FORMAT.items() if key.startswith(k))
        out[key] = (fmt, name, fmt in ("smf.binary", "measure.binary"))
    return out


@lru_cache(maxsize=None)
def input_bytes(key: str) -> bytes:
    return DERIVED[key][1]() if key in DERIVED else _repo_inputs()[key].read_bytes()


# -- the mutations ---------------------------------------------------------------------------------------

@dataclass
class Mutated:
    """Damaged bytes and what is known about the damage, in the clean file's coordinates: ``kind`` is
    prefix (a truncation), same (nothing a reader should notice), local (``damaged`` positions, nothing
    moved) or shift (``damaged`` positions; positions from ``moved_from`` on moved by ``moved_by``).
    Positions are lines (1-based) for text, byte offsets for binary."""

    data: bytes
    kind: str
    damaged: tuple[int, int] | None = None
    moved_from: int | None = None
    moved_by: int = 0
    added: int = 0  # records the mutation may add


TEXT_MUTATIONS = ("truncate_in_last_line", "truncate_at_line_end", "truncate_at_random_byte", "truncate_to_one_byte",
                  "garbage_in_a_line", "nul_bytes_in_a_line", "ff_bytes_in_a_line", "ebcdic_blanks_in_a_line",
                  "line_duplicated", "line_deleted", "chunk_duplicated", "chunk_deleted", "crlf_line_ends",
                  "utf8_bom", "line_tab_expanded", "line_of_1_mb", "undocumented_line", "non_utf8_byte")
BINARY_MUTATIONS = ("truncate_in_last_record", "truncate_at_record_boundary", "truncate_at_random_byte",
                    "truncate_to_one_byte", "garbage_run", "nul_run", "ff_run", "ebcdic_blank_run",
                    "record_duplicated", "record_deleted", "chunk_duplicated", "chunk_deleted")
RDW_MUTATIONS = ("rdw_length_zero", "rdw_length_huge", "rdw_length_past_end")
RUN_BYTE = {"nul": 0x00, "ff": 0xFF, "ebcdic": 0x40}


def mutations_of(fmt: str, binary: bool) -> tuple[str, ...]:
    if not binary:
        return TEXT_MUTATIONS
    return BINARY_MUTATIONS + (RDW_MUTATIONS if fmt == "smf.binary" else ())


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _garbage(rng: random.Random, n: int, text: bool) -> bytes:
    avoid = b"\r\n" if text else b""
    return bytes(rng.choice([b for b in range(256) if b not in avoid]) for _ in range(n))


def _run_byte(name: str) -> int | None:
    return next((v for k, v in RUN_BYTE.items() if name.startswith(k)), None)


def mutate_text(data: bytes, name: str, rng: random.Random) -> Mutated:
    lines = _lines(data)
    n = len(lines)
    middle = list(range(1, n)) or [0]  # a line after the first (the first often says what the file is)
    if name.startswith("truncate"):
        if name == "truncate_to_one_byte":
            cut = 1
        elif name == "truncate_in_last_line":
            last = max(i for i, ln in enumerate(lines) if ln.strip())
            start = sum(map(len, lines[:last]))
            cut = start + rng.randrange(1, max(2, len(lines[last].rstrip(b"\r\n"))))
        elif name == "truncate_at_line_end":
            cut = sum(map(len, lines[:rng.choice(middle)]))
        else:
            cut = rng.randrange(1, len(data))
        return Mutated(data[:cut], "prefix")
    if name.endswith("_in_a_line") or name in ("non_utf8_byte", "line_tab_expanded"):
        candidates = [i for i in middle if len(lines[i].strip()) >= 2] or [0]
        i = rng.choice(candidates)
        body = lines[i].rstrip(b"\r\n")
        end = lines[i][len(body):]
        if name == "non_utf8_byte":
            at = rng.randrange(len(body))
            body = body[:at] + b"\xe9" + body[at + 1:]
        elif name == "line_tab_expanded":
            tabbed = [k for k in middle if b"\t" in lines[k]]
            if tabbed:
                i = rng.choice(tabbed)
                body, end = lines[i].rstrip(b"\r\n"), lines[i][len(lines[i].rstrip(b"\r\n")):]
                body = body.expandtabs(8)
            else:  # no tab anywhere: the reverse, a run of blanks made a tab
                spaced = [k for k in candidates if re.search(rb"  +", lines[k])] or [i]
                i = rng.choice(spaced)
                body, end = lines[i].rstrip(b"\r\n"), lines[i][len(lines[i].rstrip(b"\r\n")):]
                body = re.sub(rb"  +", b"\t", body, count=1)
        else:
            size = min(len(body), rng.randrange(4, 17))
            at = rng.randrange(len(body) - size + 1)
            byte = _run_byte(name)
            run = bytes([byte]) * size if byte is not None else _garbage(rng, size, text=True)
            body = body[:at] + run + body[at + size:]
        return Mutated(b"".join(lines[:i] + [body + end] + lines[i + 1:]), "local", damaged=(i + 1, i + 1))
    if name == "crlf_line_ends":
        return Mutated(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), "same")
    if name == "utf8_bom":
        return Mutated(b"\xef\xbb\xbf" + data, "same")
    if name in ("line_duplicated", "chunk_duplicated", "line_deleted", "chunk_deleted"):
        i = rng.choice(middle)
        k = 1 if name.startswith("line") else rng.randrange(2, max(3, n // 3 + 1))
        k = max(1, min(k, n - i))
        if name.endswith("duplicated"):
            out = lines[:i + k] + lines[i:i + k] + lines[i + k:]
            return Mutated(b"".join(out), "shift", damaged=(i + 1, i + k + 1), moved_from=i + k + 1, moved_by=k, added=k)
        out = lines[:i] + lines[i + k:]
        return Mutated(b"".join(out), "shift", damaged=(i, i + k + 1), moved_from=i + k + 1, moved_by=-k)
    if name in ("line_of_1_mb", "undocumented_line"):
        i = rng.choice(middle)
        eol = b"\r\n" if lines[i - 1].endswith(b"\r\n") else b"\n"
        if not lines[i - 1].endswith(b"\n"):
            lines[i - 1] += eol
        new = (b"counters 4711 " * (MB // 14) if name == "line_of_1_mb"
               else b"Undocumented counter of a newer release: 4711") + eol
        return Mutated(b"".join(lines[:i] + [new] + lines[i:]), "shift", damaged=(i, i + 1), moved_from=i + 1,
                       moved_by=1, added=1)
    raise ValueError(name)


def smf_record_starts(data: bytes) -> list[int]:
    """Where the clean dump's records start (its RDW chain)."""
    starts, at = [], 0
    while at + 4 <= len(data):
        starts.append(at)
        at += int.from_bytes(data[at:at + 2], "big")
    return starts


def mutate_binary(data: bytes, name: str, rng: random.Random, starts: list[int]) -> Mutated:
    ends = starts[1:] + [len(data)]
    k = rng.randrange(len(starts))
    if name.startswith("truncate"):
        cut = {"truncate_to_one_byte": lambda: 1,
               "truncate_in_last_record": lambda: starts[-1] + rng.randrange(1, ends[-1] - starts[-1]),
               "truncate_at_record_boundary": lambda: starts[rng.randrange(1, len(starts))] if len(starts) > 1
               else rng.randrange(1, len(data)),
               "truncate_at_random_byte": lambda: rng.randrange(1, len(data))}[name]()
        return Mutated(data[:cut], "prefix")
    if name.endswith("_run"):
        size = rng.randrange(4, 17)
        at = rng.randrange(len(data) - size)
        byte = _run_byte(name)
        run = bytes([byte]) * size if byte is not None else _garbage(rng, size, text=False)
        return Mutated(data[:at] + run + data[at + size:], "local", damaged=(at, at + size))
    if name.startswith(("record", "chunk")):
        count = 1 if name.startswith("record") else rng.randrange(1, max(2, len(starts) - k + 1))
        a, b = starts[k], ends[min(len(starts), k + count) - 1]
        if name.endswith("duplicated"):
            return Mutated(data[:b] + data[a:b] + data[b:], "shift", damaged=(a, b), moved_from=b, moved_by=b - a,
                           added=count)
        return Mutated(data[:a] + data[b:], "shift", damaged=(a, b), moved_from=b, moved_by=a - b)
    if name.startswith("rdw"):
        length = {"rdw_length_zero": 0, "rdw_length_huge": 0xFFFF,
                  "rdw_length_past_end": len(data) - starts[k] + 1 + rng.randrange(64)}[name]
        return Mutated(data[:starts[k]] + min(length, 0xFFFF).to_bytes(2, "big") + data[starts[k] + 2:], "local",
                       damaged=(starts[k], ends[k]))
    raise ValueError(name)


def cases() -> list[tuple[str, str, str]]:
    """(format, input id, mutation): every mutation for the first input of a format, a seeded draw of
    ``SAMPLED`` for the others."""
    out, seen = [], Counter()
    for key, (fmt, _, binary) in sorted(inputs().items(), key=lambda kv: (kv[1][0], kv[0])):
        names = mutations_of(fmt, binary)
        seen[fmt] += 1
        if seen[fmt] > 1:
            names = tuple(sorted(random.Random(f"{SEED}:{key}").sample(names, SAMPLED)))
        out.extend((fmt, key, name) for name in names)
    return out


def mutated(key: str, name: str) -> Mutated:
    fmt, _, binary = inputs()[key]
    data = input_bytes(key)
    rng = random.Random(f"{SEED}:{key}:{name}")
    if not binary:
        return mutate_text(data, name, rng)
    if fmt == "smf.binary":
        starts = smf_record_starts(data)
    else:  # fixed-length records
        size = len(data) // 4
        starts = list(range(0, len(data), size))
    return mutate_binary(data, name, rng, starts)


# -- ingesting a format's cases --------------------------------------------------------------------------

@dataclass
class Loaded:
    """One file as the warehouse holds it after ingest."""

    path: Path
    result: FileResult | None = None
    error: str | None = None  # an exception that escaped ingest
    again: FileResult | None = None
    manifest: list[tuple] = field(default_factory=list)
    rejects: list[tuple] = field(default_factory=list)  # (byte_offset, line_number, record_ordinal, reason)
    rows: dict[str, list[dict]] = field(default_factory=dict)
    implausible: list[str] = field(default_factory=list)


def _ingest_all(con, paths: list[Path]) -> dict[Path, FileResult | str]:
    """Every file in one ``ingest_files`` run; should an exception escape, each file alone, to name it."""
    try:
        return {r.path: r for r in loading.ingest_files(con, paths)}
    except Exception:  # the contract is broken: find which files break it
        out: dict[Path, FileResult | str] = {}
        for path in paths:
            try:
                out[path] = loading.ingest_file(con, path)
            except Exception as e:  # noqa: BLE001 - recorded, and the case fails on it
                out[path] = f"{type(e).__name__}: {e}"
        return out


def _label_rows(rows: list[dict]) -> dict[tuple[int, int], tuple]:
    return {(r["source_file_id"], r["label_id"]): tuple(r[c] for c in ("section", "entity", "counter", "counter_name",
                                                                        "unit", "kind")) for r in rows}


def _stored(con, paths: list[Path]) -> dict[Path, Loaded]:
    """Each file's manifest row, rejects and rows (a value's label_id replaced by its label, which is numbered
    per file), and the rows that fail the plausibility screen again."""
    loaded = {p: Loaded(p) for p in paths}
    ids = {}
    for file_id, path, *rest in con.execute(
            "select file_id, path, status, records_read, records_loaded, rows_rejected, rows_skipped "
            "from raw.ingest_files").fetchall():
        if Path(path) in loaded:
            loaded[Path(path)].manifest.append((file_id, *rest))
            ids[file_id] = loaded[Path(path)]
    for file_id, *reject in con.execute(
            "select file_id, byte_offset, line_number, record_ordinal, reason from raw.rejects").fetchall():
        if file_id in ids:
            ids[file_id].rejects.append(tuple(reject))
    tables = database.raw_data_tables(con)
    labels = _label_rows(con.sql("select * from raw.command_counter_labels").to_arrow_table().to_pylist())
    declared = registry.raw_tables()
    latest = plausibility.latest_time(paths[0])  # every file was written by this test, a moment ago
    for name in tables:
        arrow = con.sql(f"select * from raw.{name}").to_arrow_table()
        if arrow.num_rows == 0:
            continue
        for row in arrow.to_pylist():
            owner = ids.get(row["source_file_id"])
            if owner is None:
                continue
            if name == "command_values":
                row["label_id"] = labels.get((row["source_file_id"], row["label_id"]))
            owner.rows.setdefault(name, []).append(row)
        table = declared.get(name)
        if table is None or not table.per_record:
            continue
        screen = plausibility.Screen(latest)
        screen.check(table, arrow.drop_columns(["source_file_id"]))
        if not screen.rejected:  # the usual case: nothing implausible stored in the whole table
            continue
        for file_id, owner in ids.items():  # which files hold it
            part = arrow.filter(pa.compute.equal(arrow.column("source_file_id"), file_id))
            if part.num_rows:
                screen.rejected.clear()
                screen.check(table, part.drop_columns(["source_file_id"]))
                owner.implausible += [r.reason for r in screen.rejected.values()]
    return loaded


@dataclass
class Sweep:
    clean: dict[str, Loaded]  # input id -> the clean file
    cases: dict[tuple[str, str], Loaded]  # (input id, mutation) -> the damaged file
    mutations: dict[tuple[str, str], Mutated]
    totals: tuple[tuple, tuple]  # rows per raw table and rejects, after the first and the second run


def _totals(con) -> tuple:
    counts = [con.execute(f"select count(*) from raw.{t}").fetchall()[0][0] for t in database.raw_data_tables(con)]
    return (*counts, *con.execute("select count(*), sum(rows_rejected) from raw.ingest_files").fetchall()[0],
            con.execute("select count(*) from raw.rejects").fetchall()[0][0])


@pytest.fixture(scope="module")
def sweep(tmp_path_factory) -> Sweep:
    """Every input clean into one home, every damaged file into another, twice (two ``ingest_files`` runs)."""
    root = tmp_path_factory.mktemp("fault_sweep")
    clean_paths = {}
    for n, key in enumerate(inputs()):
        path = root / "clean" / f"{n:03d}" / inputs()[key][1]
        path.parent.mkdir(parents=True)
        path.write_bytes(input_bytes(key))
        clean_paths[key] = path
    con = database.connect(Home(root / "clean_home"))
    try:
        _ingest_all(con, list(clean_paths.values()))
        clean = _stored(con, list(clean_paths.values()))
    finally:
        con.close()
    mutations, paths, written = {}, {}, {}
    for n, (_, key, name) in enumerate(cases()):
        mutations[key, name] = mutated(key, name)
        data = mutations[key, name].data
        if data in written:  # two mutations that made the same bytes (two inputs cut to one byte): one file
            paths[key, name] = written[data]
            continue
        path = root / "damaged" / f"{n:04d}" / inputs()[key][1]
        path.parent.mkdir(parents=True)
        path.write_bytes(data)
        paths[key, name] = written[data] = path
    con = database.connect(Home(root / "home"))
    try:
        first = _ingest_all(con, list(written.values()))
        after_first = _totals(con)
        second = _ingest_all(con, list(written.values()))
        after_second = _totals(con)
        stored = _stored(con, list(written.values()))
    finally:
        con.close()
    for path, loaded in stored.items():
        outcome = first.get(path)
        if isinstance(outcome, str) or outcome is None:
            loaded.error = outcome or "no result"
        else:
            loaded.result = outcome
        again = second.get(path)
        if isinstance(again, str):
            loaded.error = loaded.error or f"(second ingest) {again}"
        else:
            loaded.again = again
    return Sweep({k: clean[p] for k, p in clean_paths.items()}, {c: stored[p] for c, p in paths.items()}, mutations,
                 (after_first, after_second))


# -- the contract ----------------------------------------------------------------------------------------

POSITION = ("line_number", "byte_offset")
# a reject's position (``describe_reject``), or a whole file's (``FormatError.position``)
POSITION_RE = re.compile(r": (line \d+|offset \d+|record \d+)\b|\(at (line \d+|offset \d+|start of file)\)$")


def _key(row: dict, drop=("source_file_id",)) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in row.items() if v is not None and k not in drop))


def _all_rows(loaded: Loaded, drop=("source_file_id",)) -> Counter:
    return Counter((table, _key(row, drop)) for table, rows in loaded.rows.items() for row in rows)


def _starts(clean: Loaded, column: str) -> dict[int, int]:
    """Record ordinal -> where the record starts in the clean file (its first line or byte)."""
    starts: dict[int, int] = {}
    for rows in clean.rows.values():
        for row in rows:
            if row.get(column) is not None and row.get("record_ordinal") is not None:
                starts[row["record_ordinal"]] = min(starts.get(row["record_ordinal"], row[column]), row[column])
    return starts


def _untouched_rows(clean: Loaded, m: Mutated, column: str) -> Counter | None:
    """The clean rows of the records the damage does not touch, positions moved as the mutation moved them,
    without their ordinal (a record merged away before them renumbers them); None when the tables carry no
    position to tell."""
    starts = _starts(clean, column)
    if not starts:
        return None
    order = sorted(starts, key=lambda o: (starts[o], o))
    extent = {o: (starts[o], starts[order[i + 1]] if i + 1 < len(order) else float("inf")) for i, o in enumerate(order)}
    lo, hi = m.damaged
    untouched = {o for o, (a, b) in extent.items() if b < lo or a > hi}
    out = Counter()
    for table, rows in clean.rows.items():
        if table == "command_counter_labels":  # numbered per file: compared through the values that use them
            continue
        for row in rows:
            if row.get("record_ordinal") in untouched:
                moved = dict(row)
                if m.moved_from is not None and moved.get(column) is not None and moved[column] >= m.moved_from:
                    moved[column] += m.moved_by
                out[table, _key(moved, ("source_file_id", "record_ordinal"))] += 1
    return out


def _messages_name_the_file_and_position(loaded: Loaded) -> None:
    result = loaded.result
    if result.status == "loaded":
        return
    for message in result.messages:
        assert message.startswith(f"{loaded.path}: "), message
        assert POSITION_RE.search(message), f"no line or offset in: {message}"
    for offset, line, _, reason in loaded.rejects:
        assert offset is not None or line is not None or reason.endswith("(at start of file)"), \
            f"a reject without its line or offset: {reason}"


def _unrecognised_by_its_first_record(result, clean: Loaded, m: Mutated) -> bool:
    if not (result.status == "rejected" and (result.error or "").startswith("unrecognised format")) or m.damaged is None:
        return False
    starts = sorted(set(_starts(clean, "line_number").values()))
    return len(starts) < 2 or m.damaged[0] < starts[1]


def _same(got: Counter, expected: Counter) -> None:
    """Rows as expected; a difference shown in a few rows (pytest's own diff of large counters takes minutes)."""
    missing, extra = expected - got, got - expected
    assert not missing and not extra, f"missing {sorted(missing)[:3]}, not expected {sorted(extra)[:3]}"


@pytest.mark.parametrize("fmt,key,name", cases())
def test_damaged_input_keeps_the_contract(fmt, key, name, sweep):
    loaded, clean, m = sweep.cases[key, name], sweep.clean[key], sweep.mutations[key, name]
    assert loaded.error is None, loaded.error
    result = loaded.result
    assert result.status in ("loaded", "loaded_with_rejects", "rejected"), (result.status, result.error)
    assert result.records_read == result.records_loaded + result.rows_rejected + result.rows_skipped
    (file_id, status, read, records, rejected, skipped), = loaded.manifest
    assert (status, read, records, rejected, skipped) == (
        result.status, result.records_read, result.records_loaded, result.rows_rejected, result.rows_skipped)
    assert len(loaded.rejects) == rejected
    _messages_name_the_file_and_position(loaded)
    assert not loaded.implausible, loaded.implausible
    (_, _, _, clean_records, *_), = clean.manifest
    assert result.records_loaded <= clean_records + m.added, "more records loaded than the damage can explain"

    # exact where the damage is known
    if m.kind == "same":
        assert result.status == clean.manifest[0][1]
        _same(_all_rows(loaded, ("source_file_id", "byte_offset")), _all_rows(clean, ("source_file_id", "byte_offset")))
        assert sorted(r[1:3] for r in loaded.rejects) == sorted(r[1:3] for r in clean.rejects)
    elif m.kind == "prefix":
        # every record before the last one the damaged file has loads exactly as in the clean file; the last
        # may be cut at a field boundary and still read (a CSV line cut after a comma): nothing is claimed of it
        ordinals = [row["record_ordinal"] for rows in loaded.rows.values() for row in rows] + [
            r[2] for r in loaded.rejects if r[2] is not None]
        last = max(ordinals, default=-1)

        def earlier(rows: Loaded) -> Counter:
            return Counter((t, _key(r)) for t, rs in rows.rows.items() for r in rs
                           if r.get("record_ordinal") is not None and r["record_ordinal"] < last)

        _same(earlier(loaded), earlier(clean))
    elif _unrecognised_by_its_first_record(result, clean, m):
        # documented: the format is sniffed from the file's first bytes, so damage to the line that tells the
        # format of its first record rejects the whole file as unrecognised when nothing after it there tells
        # it (a one-record file, a log without '# captured:' lines); a log's later captures would
        # (tests/commands/test_damaged_first_capture.py)
        assert result.status == "rejected"
    else:
        column = "byte_offset" if inputs()[key][2] else "line_number"
        expected = _untouched_rows(clean, m, column)
        if expected is not None:
            missing = expected - _all_rows(loaded, ("source_file_id", "record_ordinal"))
            assert not missing, f"records the damage does not touch loaded differently: {sorted(missing)[:5]}"

    # the same damaged file again adds nothing
    again = loaded.again
    if result.status == "rejected":
        assert again.status == "rejected"
    else:
        assert again.status == "duplicate" and again.ok == (result.status == "loaded")


def test_ingesting_the_damaged_files_again_adds_nothing(sweep):
    first, second = sweep.totals
    assert second == first


def test_every_registered_format_has_a_sample():
    assert {p.format for p in registry.all_parsers()} <= {v[0] for v in inputs().values()}


# -- through the command line ----------------------------------------------------------------------------

CLI_CASES = [
    ("smf/fixtures_1_2_3", "rdw_length_huge"),
    ("fixtures/measure/cpu_expand.csv", "utf8_bom"),
    ("golden/commands/linux/devbox_netstat_s_log.out", "line_of_1_mb"),
    ("benchmark/vtam_bulk.csv", "line_of_1_mb"),
    ("fixtures/measure/userdef_buyer.csv", "non_utf8_byte"),
    ("golden/commands/zos/zos1_console__d-tcpip-netstat-dev__20260105T103000.out", "line_of_1_mb"),
    ("measure/zmscpu_4_records", "truncate_in_last_record"),
]


def test_the_command_line_names_the_damage_without_a_traceback(tmp_path):
    """Damaged files of several formats through ``perfdb ingest`` (one run: a process start costs seconds): exit 1
    (something was rejected), no traceback, each file that was not loaded cleanly named with a line or offset."""
    paths = []
    for n, (key, name) in enumerate(CLI_CASES):
        path = tmp_path / "in" / f"{n}" / inputs()[key][1]
        path.parent.mkdir(parents=True)
        path.write_bytes(mutated(key, name).data)
        paths.append(path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-m", "ingest.cli", "--home", str(tmp_path / "home"), "ingest",
                          *map(str, paths)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "Traceback" not in run.stderr + run.stdout
    assert run.returncode == 1, run.stderr
    reported = run.stderr.split("\n[")
    for path in paths:
        told = [block for block in reported if f"{path}: " in block]
        assert told, f"{path} not reported"
        if " loaded (" not in told[0]:
            assert any(POSITION_RE.search(line) for line in told[0].splitlines()[1:]), told[0]
