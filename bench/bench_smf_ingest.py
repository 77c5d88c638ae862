"""SMF ingest benchmark: decode rate of a realistic 70/30/119 mix beside DuckDB's CSV reader, flat memory.

    .venv/bin/python bench/bench_smf_ingest.py                  # ~200 MB of SMF (VB), one core
    .venv/bin/python bench/bench_smf_ingest.py --size-mb 800    # memory flatness on a bigger dump

What it does, in one run on one machine:

1. generates two weeks of two systems (``perfdb generate smf``; SYSA and SYSB, every record type the
   generator writes) and concatenates copies of that dump until it reaches ``--size-mb`` (the decoder
   does not care that days repeat; the dump stays realistic record by record);
2. in a child process per measurement (so each peak RSS, ``resource.getrusage``, is its own):
   framing alone, the full decode (``smf.binary`` parser to Arrow batches, no database), at 1/4 of the
   size and at the full size, and the real ingest (``ingest.warehouse.loading.ingest_file``: decode + DuckDB
   inserts, one transaction);
3. writes the decoded rows as CSV (one file per raw table) and loads them with DuckDB's ``read_csv``
   into a persistent database with ``threads = 1``: the yardstick "same rows as CSV, same machine";
4. prints MB/s (wall and per CPU-second: on a shared machine the CPU figure is the one-core rate), SMF
   records/s, rows/s and peak RSS, and checks the targets: decode at least 50 MB per CPU-second, peak
   RSS of the full size within 64 MB of the quarter size (memory does not grow with the file).

Inputs go under a temporary directory (``--workdir`` to choose it, ``--keep`` to keep it). Not a test:
nothing here runs in ``make test``.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

MIB = 1024 * 1024
TARGET_MB_PER_S = 50
FLAT_RSS_MB = 64


def _make_dump(workdir: Path, size_mb: int) -> tuple[Path, Path]:
    """(full dump, quarter dump): two generated weeks of SYSA and SYSB, repeated to the size asked for."""
    from ingest.generate import smf as gen

    parts = gen.generate(workdir / "gen", ["SYSA", "SYSB"], gen.DEMO_START, 14, seed=2026,
                         forms={"SYSA": "vb", "SYSB": "vb"}, days_per_file=14)
    unit = b"".join(p.read_bytes() for p in parts)
    full, quarter = workdir / f"smf_{size_mb}mb.vb", workdir / f"smf_{size_mb // 4}mb.vb"
    for path, target in ((full, size_mb * MIB), (quarter, size_mb * MIB // 4)):
        with path.open("wb") as f:
            for _ in range(max(1, round(target / len(unit)))):
                f.write(unit)
    return full, quarter


# -- child measurements ------------------------------------------------------------------------------------

def _child(kind: str, path: Path, out: Path | None) -> dict:
    import pandas  # noqa: F401  pyarrow imports it on first use; keep that one-off cost out of the timing

    from ingest.formats.base import ParseContext
    from ingest.formats.smf.parser import PARSER
    from ingest.formats.smf.records import Framer, detect_form

    size = path.stat().st_size
    cpu0, t0 = time.process_time(), time.perf_counter()
    result: dict = {"kind": kind, "bytes": size}
    if kind == "frame":
        with path.open("rb") as f:
            form = detect_form(f.read(65536))
            f.seek(0)
            result["records"] = sum(len(batch) for batch, _ in Framer(form).frame(f))
    elif kind == "decode":
        ctx, rows, tables = ParseContext(path), 0, {}
        for batch in PARSER.parse(path, ctx):
            rows += batch.rows.num_rows
            if out is not None:  # keep the rows for the CSV yardstick (not timed: see below)
                tables.setdefault(batch.table, []).append(batch.rows)
        result.update(rows=rows, rejects=len(ctx.rejects))
        if out is not None:
            elapsed = time.perf_counter() - t0
            _write_csv(tables, out)
            result["seconds"], result["cpu_seconds"] = elapsed, time.process_time() - cpu0
    elif kind == "ingest":
        from ingest.home import Home
        from ingest.warehouse import database, loading

        home = Home(path.parent / "ingest_home").create()
        con = database.connect(home)
        res = loading.ingest_file(con, path)
        con.close()
        result.update(rows=res.rows_loaded + res.rows_skipped, status=res.status, error=res.error)
    result.setdefault("seconds", time.perf_counter() - t0)
    result.setdefault("cpu_seconds", time.process_time() - cpu0)
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def _write_csv(tables: dict, out: Path) -> None:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    out.mkdir(parents=True, exist_ok=True)
    for name, parts in tables.items():
        table = pa.concat_tables(parts)
        keep = [f.name for f in table.schema if not pa.types.is_binary(f.type)]  # the verbatim blob is not CSV material
        pacsv.write_csv(table.select(keep), out / f"{name}.csv")


def _read_csv(csv_dir: Path, db: Path) -> dict:
    import duckdb

    con = duckdb.connect(str(db))
    con.execute("set threads = 1")
    files = sorted(csv_dir.glob("*.csv"))
    t0, cpu0 = time.perf_counter(), time.process_time()
    rows = 0
    for f in files:
        con.execute(f"create table {f.stem} as select * from read_csv('{f}')")
        rows += con.execute(f"select count(*) from {f.stem}").fetchall()[0][0]
    con.close()
    return {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - cpu0, "rows": rows,
            "bytes": sum(f.stat().st_size for f in files)}


def _run_child(kind: str, path: Path, out: Path | None = None) -> dict:
    cmd = [sys.executable, __file__, "--child", kind, str(path)] + (["--csv-out", str(out)] if out else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"child {kind} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.splitlines()[-1])


# -- report ------------------------------------------------------------------------------------------------

def _line(label: str, r: dict, records: int) -> str:
    mb = r["bytes"] / MIB
    cpu = f"{r['cpu_seconds']:7.2f} cpu-s {mb / r['cpu_seconds']:7.1f} MB/cpu-s" if "cpu_seconds" in r else " " * 29
    rate = f"{mb / r['seconds']:7.1f} MB/s {records / r['seconds'] / 1e3:7.1f} k rec/s"
    rows = f" {r['rows'] / r['seconds'] / 1e3:7.1f} k rows/s" if "rows" in r else " " * 17
    rss = f"  peak RSS {r['peak_rss_mb']:6.1f} MB" if "peak_rss_mb" in r else ""
    return f"{label:<34}{mb:7.1f} MB {r['seconds']:6.2f} s {cpu} {rate}{rows}{rss}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size-mb", type=int, default=200)
    p.add_argument("--workdir")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--child", choices=["frame", "decode", "ingest"], help=argparse.SUPPRESS)
    p.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    p.add_argument("--csv-out", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, Path(args.path), Path(args.csv_out) if args.csv_out else None)))
        return 0

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="perfdb_bench_smf_"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.perf_counter()
        full, quarter = _make_dump(workdir, args.size_mb)
        print(f"generated {full.stat().st_size / MIB:.0f} MB of SMF (two weeks of SYSA and SYSB, repeated) "
              f"in {time.perf_counter() - t0:.1f} s under {workdir}")
        frame = _run_child("frame", full)
        records = frame["records"]
        decode_q = _run_child("decode", quarter)
        decode = _run_child("decode", full)
        ingest = _run_child("ingest", full)
        # the CSV yardstick: the rows of the quarter dump (its CSV is large already), loaded by DuckDB
        csv_rows = _run_child("decode", quarter, workdir / "csv")
        csv = _read_csv(workdir / "csv", workdir / "csv.duckdb")
        quarter_records = round(records * quarter.stat().st_size / full.stat().st_size)
        print()
        print(_line("framing only (VB)", frame, records))
        print(_line("decode, quarter size", decode_q, quarter_records))
        print(_line("decode (smf.binary -> Arrow)", decode, records))
        print(_line("ingest (decode + DuckDB, 1 txn)", ingest, records))
        print(_line("DuckDB read_csv, same rows as CSV", csv, quarter_records))
        print(f"\nSMF records {records:,}; rows decoded {decode['rows']:,} ({decode['rows'] / records:.2f} per record); "
              f"CSV of the quarter dump {csv['bytes'] / MIB:.0f} MB, {csv['rows']:,} rows "
              f"(check: {csv_rows['rows']:,} decoded)")
        mb_s = decode["bytes"] / MIB / decode["seconds"]
        mb_per_cpu_s = decode["bytes"] / MIB / decode["cpu_seconds"]
        growth = decode["peak_rss_mb"] - decode_q["peak_rss_mb"]
        ok_rate, ok_rss = mb_per_cpu_s >= TARGET_MB_PER_S, growth <= FLAT_RSS_MB
        print(f"decode: {mb_s:.1f} MB/s wall, {mb_per_cpu_s:.1f} MB per CPU-second (target >= {TARGET_MB_PER_S}): "
              f"{'OK' if ok_rate else 'MISSED'}")
        print(f"decode rows per CPU-second vs DuckDB read_csv (1 thread): "
              f"{decode['rows'] / decode['cpu_seconds'] / (csv['rows'] / csv['cpu_seconds']):.2f}x")
        print(f"peak RSS grows {growth:+.1f} MB from 1/4 to full size (target <= {FLAT_RSS_MB} MB): {'OK' if ok_rss else 'MISSED'}")
        return 0 if ok_rate and ok_rss else 1
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
