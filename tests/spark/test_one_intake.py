"""One intake for both targets: the same files through the DuckDB loader and through Spark tasks into the lake
give the same rows in every raw table, the same rejects (reason, line or offset, bytes) and the same results.

The files are the three kinds of damage the intake tells: a MEASURE CSV with a bad line (one reject naming
line 4), an SMF dump with four damaged records among good ones (rejects naming their offsets) and a netstat
capture with a NUL byte inside a line (kept as an unreadable line, the rest loads)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from ingest.home import Home
from ingest.intake.listing import iter_input_files
from ingest.lake import job
from ingest.lake.layout import Lake
from ingest.warehouse import database, loading
from smf.smf_dumps import load_hex, patched

TESTS = Path(__file__).parents[1]
MEASURE_CSV = TESTS / "fixtures" / "measure" / "cpu_expand.csv"  # line 4: CPU-BUSY-TIME 'n/a'
LINUX_S = TESTS / "golden" / "commands" / "linux" / "devbox__netstat-s__20261121T063246.out"
REJECT_COLUMNS = "byte_offset, line_number, record_ordinal, reason, raw_bytes"


def _damaged_smf() -> bytes:
    """As in the SMF ingest tests: a bad date, 21 unreadable bytes, a triplet beyond its record, a cut last record."""
    smf70, smf119 = load_hex("fixture1_smf70_1_two_cps.hex"), load_hex("fixture2_smf119_70_ftp_stor.hex")
    bad_date = patched(smf119, 10, bytes.fromhex("0124999F"))
    bad_triplet = patched(smf119, 52, (400).to_bytes(4, "big"))
    return (smf70 + bad_date + smf119 + bytes([0xFF]) * 21 + smf119 + bad_triplet + smf70 + smf119[:100])


def _landing(root: Path) -> Path:
    landing = root / "landing"
    landing.mkdir()
    shutil.copy(MEASURE_CSV, landing / "cpu_expand.csv")
    (landing / "damaged.smf").write_bytes(_damaged_smf())
    (landing / LINUX_S.name).write_bytes(LINUX_S.read_bytes().replace(b" segments received", b" segments re\x00ceived", 1))
    return landing


def _rows(con, relation: str, columns: list[str]) -> list[tuple]:
    return con.execute(f"select {', '.join(columns)} from {relation} order by all").fetchall()


def test_one_intake_gives_both_targets_the_same_rows_and_rejects(spark, tmp_path):
    landing = _landing(tmp_path)
    lake = Lake(tmp_path / "lake")
    lake_results, _ = job.ingest(lake, [landing], spark=spark)
    con = database.connect(Home(tmp_path / "home").create())
    duck_results = list(loading.ingest_files(con, iter_input_files([landing])))

    def told(results):
        return [(r.path.name, r.status, r.format, r.records_read, r.records_loaded, r.rows_loaded, r.rows_rejected,
                 r.rows_skipped, r.messages) for r in results]

    assert told(lake_results) == told(duck_results)
    assert [(r.path.name, r.status, r.records_read, r.rows_rejected) for r in duck_results] == [
        ("cpu_expand.csv", "loaded_with_rejects", 4, 1),
        ("damaged.smf", "loaded_with_rejects", 8, 4),
        (LINUX_S.name, "loaded", 2, 0)]

    tables = sorted(p.name for p in lake.raw.iterdir() if p not in lake.manifest_dirs)
    assert tables == [t for t in database.raw_data_tables(con) if con.execute(f"select count(*) from raw.{t}").fetchone()[0]]
    lake_con = duckdb.connect()
    for table in tables:
        columns = [c for (c,) in con.execute(
            "select column_name from duckdb_columns() where schema_name = 'raw' and table_name = ? "
            "and column_name <> 'source_file_id'", [table]).fetchall()]
        files = f"read_parquet('{lake.raw / table}/**/*.parquet', hive_partitioning = false, union_by_name = true)"
        assert _rows(lake_con, files, columns) == _rows(con, f"raw.{table}", columns), table
    unreadable = con.execute("select line_text from raw.command_unparsed_lines where reason like '%NUL byte%'").fetchall()
    assert [text.endswith("segments re\x00ceived") for (text,) in unreadable] == [True]

    duck_rejects = con.execute(f"select regexp_extract(path, '[^/]+$'), {REJECT_COLUMNS} from raw.rejects "
                               "order by all").fetchall()
    lake_rejects = lake_con.execute(f"select regexp_extract(path, '[^/]+$'), {REJECT_COLUMNS} "
                                    f"from read_parquet('{lake.rejects_dir}/*.parquet') order by all").fetchall()
    assert lake_rejects == duck_rejects
    assert [(name, offset, line, reason) for name, offset, line, _, reason, _ in duck_rejects] == [
        ("cpu_expand.csv", None, 4, "line 4: CPU-BUSY-TIME: expected an integer, found 'n/a'"),
        ("damaged.smf", 672, None, "record at offset 672 (type 119.70): header date SMFxxDTE at record offset 10 is "
                                   "X'0124999F', not a packed date 0cyydddF"),
        ("damaged.smf", 1432, None, "offset 1432: expected an RDW (length >= 18, segment code 0-3, X'00'), found "
                                    "X'FFFFFFFF'; 21 unreadable bytes skipped, resynchronised at offset 1453"),
        ("damaged.smf", 1833, None, "record at offset 1833 (type 119.70): triplet SMF119S3Off at record offset 52 points "
                                    "to 1 section(s) of 18 bytes at offset 400, ending at 418, outside the record "
                                    "(data from 28 to 380)"),
        ("damaged.smf", 2885, None, "record at offset 2885: its RDW says 380 bytes but only 100 bytes are left in the "
                                    "file (truncated transfer?)"),
    ]
