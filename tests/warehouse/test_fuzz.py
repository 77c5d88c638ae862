"""Property-based fuzzing of ingest: one valid file per family, mutated (bytes flipped, numbers made huge or
negative, lines duplicated, cut or made long, the file truncated), then ingested. Whatever the bytes:

- no exception escapes, and no file fails for want of a position (status ``failed`` is a parser bug),
- the accounting holds (records read = loaded + rejected + skipped), in the result and the manifest,
- nothing implausible is stored (the stored rows pass the plausibility screen again),
- a file rejected in whole or in part, sent again, is not a success ("already ingested" exit 0).

Deterministic (``derandomize``): the same examples every run, so a failure here is reproducible.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.formats import registry
from ingest.formats.base import table_of
from ingest.formats.measure import csv_records
from ingest.formats.measure.binary_records import write_records
from ingest.generate import benchmark as generate_benchmark
from ingest.home import Home
from ingest.intake import plausibility
from ingest.warehouse import database, loading

TESTS = Path(__file__).parents[1]
JULIAN_2026_01_05_10H = 210866760000000000 + 1767607200 * 1_000_000
HOUR_US = 3_600_000_000


def _measure_csv(out: Path) -> Path:
    path = out / "cpu.csv"
    rows = "".join(f"\\PROD1,{cpu},DT00510,{JULIAN_2026_01_05_10H},{JULIAN_2026_01_05_10H + HOUR_US},{HOUR_US},0,"
                   f"{1_000_000 + cpu},1800,7\n" for cpu in range(3))
    path.write_text("system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime,swaps\n"
                    + rows)
    return path


def _measure_binary(out: Path) -> Path:
    t0 = dt.datetime(2026, 1, 5, 10)
    record = dict(system_name="\\TAHITI", loadid="DT0381", from_timestamp=t0, to_timestamp=t0 + dt.timedelta(seconds=43.6),
                  delta_time=43_600_000, error=0, os_version="G06", memory_pages=8192, pcbs=1800, cpu_busy_time=1_530_360,
                  cpu_qtime=1_744_000, cpu_qlen_max=23, dispatches=3876, intr_busy_time=444_720, ending_free_mem=4856)
    path = out / "ZMSCPU"
    write_records(path, "zmscpu", [dict(record, cpu_num=cpu) for cpu in range(3)])
    return path


def _smf(out: Path) -> Path:
    """Fixture 1 (an SMF 70.1 record of two logical CPs), from its hex listing."""
    listing = (TESTS / "fixtures/smf/fixture1_smf70_1_two_cps.hex").read_text().splitlines()
    path = out / "SMF.SYSA.D26005.D26005.VB.dump"
    path.write_bytes(b"".join(bytes.fromhex("".join(line.split(")", 1)[1].split()))
                              for line in listing if line and not line.startswith("#")))
    return path


def _benchmark_json(out: Path) -> Path:
    written = generate_benchmark.generate(out / "benchmark", generate_benchmark.DEMO_START, 1, 7, ["jsonl"])
    return next(p for p in written if p.suffix == ".jsonl")


SEEDS = {
    "measure.csv": _measure_csv,
    "measure.binary": _measure_binary,
    "measure.meascom": lambda out: TESTS / "fixtures/measure/meascom/cpu_rate_on.txt",
    "smf.binary": _smf,
    "netstat.linux_s": lambda out: TESTS / "golden/commands/linux/devbox__netstat-s__20261121T063246.out",
    "netstat.aix_v": lambda out: TESTS / "golden/commands/aix/snapper_ent22_sea__netstat-v__20151225T000000.out",
    "benchmark.jsonl": _benchmark_json,
}


# -- mutations -----------------------------------------------------------------------------------------

def _numbers(data: bytes) -> list[re.Match]:
    return list(re.finditer(rb"\d+", data))


def _pick(items: list, k: int):
    return items[k % len(items)] if items else None


def _huge(data: bytes, k: int, digits: int) -> bytes:
    m = _pick(_numbers(data), k)
    return data if m is None else data[:m.start()] + b"9" * digits + data[m.end():]


def _negative(data: bytes, k: int) -> bytes:
    m = _pick(_numbers(data), k)
    return data if m is None else data[:m.start()] + b"-" + data[m.start():]


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _duplicate_line(data: bytes, k: int) -> bytes:
    lines = _lines(data)
    i = k % max(1, len(lines))
    return b"".join(lines[:i + 1] + lines[i:i + 1] + lines[i + 1:])


def _drop_line(data: bytes, k: int) -> bytes:
    lines = _lines(data)
    i = k % max(1, len(lines))
    return b"".join(lines[:i] + lines[i + 1:])


def _long_line(data: bytes, k: int, size: int) -> bytes:
    lines = _lines(data)
    i = k % max(1, len(lines))
    return b"".join(lines[:i] + [b"7" * size + b"\n"] + lines[i:])


def _flip(data: bytes, k: int, value: int) -> bytes:
    i = k % max(1, len(data))
    return data[:i] + bytes([value]) + data[i + 1:]


def _truncate(data: bytes, k: int) -> bytes:
    return data[: k % max(1, len(data))]


MUTATION = st.one_of(
    st.tuples(st.just("huge"), st.integers(0, 10_000), st.sampled_from([19, 20, 39, 400, 5000])),
    st.tuples(st.just("negative"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("duplicate"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("drop"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("long"), st.integers(0, 10_000), st.sampled_from([4096, 1 << 20])),
    st.tuples(st.just("flip"), st.integers(0, 100_000), st.integers(0, 255)),
    st.tuples(st.just("truncate"), st.integers(0, 100_000), st.just(0)),
)


def mutate(data: bytes, mutations: list[tuple[str, int, int]]) -> bytes:
    for kind, k, arg in mutations:
        data = {
            "huge": lambda: _huge(data, k, arg),
            "negative": lambda: _negative(data, k),
            "duplicate": lambda: _duplicate_line(data, k),
            "drop": lambda: _drop_line(data, k),
            "long": lambda: _long_line(data, k, arg),
            "flip": lambda: _flip(data, k, arg),
            "truncate": lambda: _truncate(data, k),
        }[kind]()
    return data


# -- the properties --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def seeds(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("seeds")
    return {name: make(out) for name, make in SEEDS.items()}


def _stored_rows_are_plausible(con, file_id: int, format_name: str, path: Path) -> None:
    parser = registry.by_format(format_name)
    screen = plausibility.Screen(plausibility.latest_time(path))
    tables = {r[0] for r in con.execute("select table_name from duckdb_tables() where schema_name = 'raw'").fetchall()}
    for table in parser.tables:
        if table.name in tables:
            rows = con.sql(f"select * from raw.{table.name} where source_file_id = ?", params=[file_id]).to_arrow_table()
            screen.check(table_of(parser, table.name), rows.drop_columns(["source_file_id"]))
    assert not screen.rejected, [r.reason for r in screen.rejected.values()]


def _check(con, path: Path) -> None:
    result = loading.ingest_file(con, path)
    assert result.status != "failed", result.error  # a parser bug: bad input must be a reject with its position
    if result.status == "duplicate":
        return
    assert result.records_read == result.records_loaded + result.rows_rejected + result.rows_skipped
    (file_id, read, loaded, rejected, skipped, status), = con.execute(
        "select file_id, records_read, records_loaded, rows_rejected, rows_skipped, status from raw.ingest_files "
        "where path = ?", [str(path)]).fetchall()
    assert (read, loaded + rejected + skipped, status) == (result.records_read, read, result.status)
    assert con.execute("select count(*) from raw.rejects where file_id = ?", [file_id]).fetchall() == [(rejected,)]
    if result.format is not None:
        _stored_rows_are_plausible(con, file_id, result.format, path)
    again = loading.ingest_file(con, path)
    assert again.ok == (result.status == "loaded"), (result.status, again.status, again.messages)


@pytest.mark.parametrize("family", list(SEEDS))
def test_mutated_files_never_escape_the_accounting(family, seeds, tmp_path):
    con = database.connect(Home(tmp_path / "home"))
    seed = seeds[family]
    data = seed.read_bytes()
    counter = iter(range(10**6))

    @settings(max_examples=30, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.lists(MUTATION, min_size=1, max_size=3))
    def ingest_mutated(mutations):
        path = tmp_path / f"{next(counter):04d}" / seed.name  # a fresh path: the manifest finds a file by it
        path.parent.mkdir()
        path.write_bytes(mutate(data, mutations))
        _check(con, path)

    try:
        ingest_mutated()
    finally:
        con.close()


@pytest.mark.parametrize("family", ["measure.csv", "netstat.linux_s", "benchmark.jsonl"])
def test_a_100_mb_line_is_a_reject_or_a_kept_line_with_its_position(family, seeds, tmp_path):
    """A 100 MB line of digits in the middle of a valid file: a reject naming its line (the CSV reader steps
    past it and reads the rest; a JSON line's run is rejected alone), or, in a command capture, a line kept
    as unreadable (skipped); never an exception without a position."""
    con = database.connect(Home(tmp_path / "home"))
    lines = seeds[family].read_bytes().splitlines(keepends=True)
    path = tmp_path / seeds[family].name
    path.write_bytes(b"".join(lines[:2] + [b"7" * (100 << 20) + b"\n"] + lines[2:]))
    try:
        result = loading.ingest_file(con, path)
        unparsed = con.execute("select line_number, length(line_text) from raw.command_unparsed_lines").fetchall()
    finally:
        con.close()
    assert result.records_read == result.records_loaded + result.rows_rejected + result.rows_skipped
    if family == "netstat.linux_s":
        assert (result.status, result.rows_skipped, unparsed) == ("loaded", 1, [(3, 100 << 20)])
    elif family == "measure.csv":
        good = len(lines) - 1  # every data line of the seed loads
        assert (result.status, result.records_loaded, result.rows_rejected) == ("loaded_with_rejects", good, 1)
        assert result.messages == [f"{path}: line 3: line 3: a line of {100 << 20:,} bytes, longer than the "
                                   f"{csv_records.LINE_LIMIT:,} a record may have (stepped past; the first bytes are kept)"]
    else:
        assert (result.status, result.rows_rejected) == ("loaded_with_rejects", 1)
        assert result.messages[0].startswith(f"{path}: line 3: field '(record)': expected a JSON object of readable numbers")
