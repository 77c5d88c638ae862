"""The benchmark log (JSON lines and CSV), APING output, the JSON Schema and the benchmark generator.

Golden runs are seed 000's Appendix A (IBM "Getting the most from APPC", 1994, L1004 and L1022): an
RS/6000 sending 1,000,000 bytes in 8.66 s = 0.924 Mbit/s before tuning and in 4.74 s = 1.69 Mbit/s after,
and the APING sample output of the vendor manual ("Sample Output for APING", IBM Communications Server).
"""

from __future__ import annotations

import csv
import io
import json
import re
import textwrap
from pathlib import Path

import duckdb
import jsonschema
import pytest

from ingest import pipeline
from ingest.formats.benchmark import aping, record, run_schema
from ingest.generate import benchmark as generate_benchmark
from ingest.home import Home
from ingest.warehouse import database, loading

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "ingest/formats/benchmark/schema/benchmark-run.v1.json").read_text())


def run(label: str, **overrides) -> dict:
    """Seed 000 L1022: the tuned RS/6000 run, as a benchmark-log record."""
    base = {
        "format": "perfdb-benchmark-run", "version": 1, "study": "APPC tuning", "run_label": label,
        "run_date": "2026-02-03",
        "system_under_test": {"platform": "AIX 3.2.4", "product": "SNA Services/6000", "release": "1.2", "engines": 1},
        "parameters": {"ru_size": {"value": 3840, "unit": "bytes"}, "pacing_window": {"value": 63, "unit": "RUs"}},
        "workload": {"transaction_type": "file_transfer", "bytes_per_transaction": {"value": 1000000, "unit": "bytes"}},
        "results": {"elapsed": {"value": 4.74, "unit": "s"}, "transactions": 1,
                    "throughput": {"value": 1.69, "unit": "Mbit/s"}},
    }
    base.update(overrides)
    return base


GOOD_2 = run("rs6000-base", results={"elapsed": {"value": 8660, "unit": "ms"}, "transactions": 1,
                                     "throughput": {"value": 0.924, "unit": "Mbit/s"}})
BAD_VERSION = run("v2", version=2)
MISSING_LABEL = {k: v for k, v in run("x").items() if k != "run_label"}
WRONG_UNIT = run("bad-unit", results={"throughput": {"value": 1.69, "unit": "s"}})
UNKNOWN_FIELD = run("typo", results={"thruput": {"value": 1.69, "unit": "Mbit/s"}})



def docstring_sample(module) -> str:
    """The sample input of a parser's docstring: the indented block after its first '::'."""
    lines = module.__doc__.split("::\n", 1)[1].split("\n")
    end = next(i for i, line in enumerate(lines) if line and not line.startswith(" "))
    return textwrap.dedent("\n".join(lines[:end])).strip("\n") + "\n"


# the vendor manual's sample output (IBM Communications Server, "Sample Output for APING"), as the parser's
# docstring shows it
APING_SAMPLE = docstring_sample(aping)
APING_FAILED = """\
# captured: 2026-02-03T10:20:00 host: os2a
$ aping HOSTDOWN
Allocate duration: 5 ms
Allocate failed: partner LU not available (primary return code 0003)
"""


def ingest(tmp_path: Path, name: str, text: str, format_name: str | None = None):
    home = Home(tmp_path / "home").create()
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    con = database.connect(home)
    try:
        result = loading.ingest_file(con, path, format_name=format_name)
        runs = []
        if result.rows_loaded:
            cur = con.execute("select * from raw.benchmark_runs order by record_ordinal")
            columns = [d[0] for d in cur.description]
            runs = [dict(zip(columns, row)) for row in cur.fetchall()]
        rejects = con.execute("select line_number, reason from raw.rejects order by line_number").fetchall()
    finally:
        con.close()
    return result, runs, rejects


def test_jsonl_loads_good_runs_and_rejects_bad_ones_by_line_and_field(tmp_path):
    lines = [run("rs6000-tuned"), BAD_VERSION, GOOD_2, MISSING_LABEL, WRONG_UNIT, UNKNOWN_FIELD]
    text = "".join(json.dumps(r) + "\n" for r in lines) + "not json at all\n"
    result, runs, rejects = ingest(tmp_path, "appc.jsonl", text)

    assert result.format == "benchmark.jsonl"
    assert result.status == "loaded_with_rejects"
    assert (result.records_read, result.rows_loaded, result.rows_rejected) == (7, 2, 5)
    assert rejects == [
        (2, "field 'version': unknown version 2; this loader reads version 1"),
        (4, "field 'run_label': missing required field"),
        (5, "field 'results.throughput.unit': unit 's' is not a byte rate unit; expected one of bytes/s, KB/s, "
            "MB/s, GB/s, bit/s, kbit/s, Mbit/s, Gbit/s"),
        (6, "field 'results.thruput': unknown field"),
        (7, "field '(record)': expected a JSON object: Expecting value at column 1"),
    ]
    tuned, base = runs
    assert (tuned["line_number"], base["line_number"]) == (1, 3)
    # 1.69 Mbit/s = 1.69 x 10**6 / 8 bytes/s (seed 000 computes Mbit/sec as bytes x 8 / 10**6)
    assert tuned["throughput_bytes_per_s"] == pytest.approx(211_250.0)
    assert tuned["elapsed_s"] == pytest.approx(4.74)
    assert base["elapsed_s"] == pytest.approx(8.66)  # 8660 ms
    assert base["throughput_bytes_per_s"] == pytest.approx(115_500.0)
    assert tuned["bytes_per_transaction"] == 1_000_000
    assert json.loads(tuned["parameters_json"]) == {"pacing_window": {"unit": "RUs", "value": 63},
                                                   "ru_size": {"unit": "bytes", "value": 3840}}
    assert tuned["source_format"] == "jsonl"


def test_csv_has_the_same_fields_as_columns(tmp_path):
    header = ["format", "version", "study", "run_label", "run_date", "system_under_test.engines",
              "parameters.ru_size.value", "parameters.ru_size.unit", "workload.transaction_type",
              "workload.bytes_per_transaction.value", "workload.bytes_per_transaction.unit",
              "results.elapsed.value", "results.elapsed.unit", "results.transactions",
              "results.throughput.value", "results.throughput.unit"]
    rows = [
        ["perfdb-benchmark-run", "1", "APPC tuning", "nsdos-base", "2026-02-02", "1", "960", "bytes", "file_transfer",
         "100000", "bytes", "31", "s", "1", "0.0258", "Mbit/s"],
        ["perfdb-benchmark-run", "1", "APPC tuning", "", "2026-02-02", "1", "", "", "file_transfer",
         "100000", "bytes", "0.53", "s", "1", "1.51", "Mbit/s"],
        ["perfdb-benchmark-run", "1", "APPC tuning", "nsdos-tuned", "2026-02-03", "1", "", "", "file_transfer",
         "100000", "bytes", "0.53", "furlongs", "1", "1.51", "Mbit/s"],
        ["perfdb-benchmark-run", "3", "APPC tuning", "future", "2026-02-03", "1", "", "", "file_transfer",
         "100000", "bytes", "0.53", "s", "1", "1.51", "Mbit/s"],
        ["perfdb-benchmark-run", "1", "APPC tuning", "nsdos-tuned", "2026-02-03", "1", "", "", "file_transfer",
         "100000", "bytes", "0.53", "s", "1", "1.51", "Mbit/s"],
    ]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    result, runs, rejects = ingest(tmp_path, "appc.csv", out.getvalue())

    assert result.format == "benchmark.csv"
    assert (result.records_read, result.rows_loaded, result.rows_rejected) == (5, 2, 3)
    assert rejects == [
        (3, "field 'run_label': missing required field"),
        (4, "field 'results.elapsed.unit': unit 'furlongs' is not a time unit; expected one of s, ms, us, min, h"),
        (5, "field 'version': unknown version 3; this loader reads version 1"),
    ]
    assert [r["run_label"] for r in runs] == ["nsdos-base", "nsdos-tuned"]
    assert [r["line_number"] for r in runs] == [2, 6]
    # seed 000 L999 and L1010: 0.0258 and 1.51 Mbit/s
    assert [r["throughput_bytes_per_s"] for r in runs] == pytest.approx([3225.0, 188_750.0])
    assert json.loads(runs[0]["parameters_json"]) == {"ru_size": {"unit": "bytes", "value": 960}}
    assert runs[1]["parameters_json"] is None


def test_csv_without_format_and_version_columns_is_not_a_benchmark_log(tmp_path):
    text = "format,run_label,study,run_date\nperfdb-benchmark-run,a,b,2026-01-01\n"
    # as `perfdb ingest --format benchmark.csv` would read it; sniffing would not take it for one
    result, runs, rejects = ingest(tmp_path, "runs.csv", text, format_name="benchmark.csv")
    assert result.format == "benchmark.csv"
    assert result.status == "rejected"
    assert rejects == [(1, "the header lacks the column(s) version: expected a perfdb benchmark CSV "
                           "(docs/benchmark_format.md) (at line 1)")]


@pytest.mark.parametrize("spacing", ["as printed", "collapsed"])
def test_aping_sample_becomes_one_run_with_the_printed_rates(tmp_path, spacing):
    sample = APING_SAMPLE if spacing == "as printed" else re.sub(" +", " ", APING_SAMPLE)
    result, runs, rejects = ingest(tmp_path, "aping.txt", sample + APING_FAILED)

    assert result.format == "benchmark.aping"
    assert (result.records_read, result.rows_loaded, result.rows_rejected) == (2, 1, 1)
    assert rejects[0][0] == 16  # the error text, in the run that starts with the command on line 14
    assert "APING run starting at line 14" in rejects[0][1]
    assert "Allocate failed: partner LU not available" in rejects[0][1]
    (aping,) = runs
    assert aping["run_label"] == "aping os2a -> HOSTVTAM 2026-02-03T10:15:00"
    assert aping["started_at"].isoformat() == "2026-02-03T10:15:00"
    assert (aping["elapsed_s"], aping["transactions"], aping["repetitions"]) == (0.09, 2.0, 2)
    assert aping["response_time_s"] == pytest.approx(0.045)  # Ave = 45
    # the printed Totals 1388.9 KB/s is 128000 bytes / 90 ms in 1024-byte KB (aping.md §4)
    assert aping["throughput_bytes_per_s"] / 1024 == pytest.approx(1388.9, abs=0.05)
    assert aping["bytes_per_transaction"] == 64000
    extra = json.loads(aping["extra_json"])
    assert extra["startup_confirm_duration"] == {"unit": "ms", "value": 720}
    assert extra["iteration_durations"]["value"] == [60, 30]
    # iteration 1 carries the partner's start-up: steady state is 64000 bytes in 30 ms
    assert extra["steady_state_throughput"]["value"] / 1024 == pytest.approx(2083.3, abs=0.05)
    assert json.loads(aping["parameters_json"]) == {
        "consecutive_packets": {"value": 4}, "iterations": {"value": 2},
        "packet_size": {"unit": "bytes", "value": 10000}, "partner": {"value": "HOSTVTAM"}}


def test_aping_spacing_preserved_copy_and_file_name_time(tmp_path):
    # aping.md §2.1: the spaced copy, truncated after the Totals rate; time and host from the file name
    text = (
        "Allocate duration:                                  0 ms\n"
        "Program startup and Confirm duration:             720 ms\n\n"
        "       Duration         Data Sent           Data Rate         Data Rate\n"
        "        (msec)           (bytes)             (KB/s)            (mb/s)\n"
        "       --------         ---------           ---------         ---------\n"
        "          60              64000              1041.7             8.333\n"
        "          30              64000              2083.3            16.667\n"
        "Totals:   90             128000              1388.9            \n"
    )
    result, runs, _ = ingest(tmp_path, "os2b__aping__20260204T080000.txt", text)
    assert (result.status, result.rows_loaded) == ("loaded", 1)
    assert runs[0]["run_label"] == "aping os2b -> ? 2026-02-04T08:00:00"
    assert runs[0]["response_time_s"] == pytest.approx(0.045)


def test_aping_without_time_or_host_is_rejected_saying_how_to_fix(tmp_path):
    result, _, rejects = ingest(tmp_path, "aping.txt", APING_SAMPLE.split("\n", 1)[1])
    assert result.status == "rejected"
    assert "no APING run in the file has a capture time and host" in rejects[0][1]
    assert "# captured:" in rejects[0][1]


def test_the_schema_declares_the_loader_fields_and_units():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for good in (run("rs6000-tuned"), GOOD_2):
        assert not list(validator.iter_errors(good))
        record.validate(good)
    for bad in (BAD_VERSION, MISSING_LABEL, WRONG_UNIT, UNKNOWN_FIELD):
        assert list(validator.iter_errors(bad)), bad
        with pytest.raises(record.RecordError):
            record.validate(bad)
    # every column of raw.benchmark_runs comes from one field of the schema, but what the loader adds
    columns = [f.column for f in run_schema.FIELDS]
    assert len(columns) == len(set(columns))
    loaded = record.RunSink("jsonl").table().column_names
    assert sorted(loaded) == sorted(columns + ["record_ordinal", "line_number", "source_format"])
    # each list of units has a factor per unit, and the loader converts with them: 1.69 Mbit/s in bytes/s
    units = {name: d for name, d in SCHEMA["$defs"].items() if "x-perfdb-factors" in d}
    assert len(units) == 8
    assert all(list(d["x-perfdb-factors"]) == d["enum"] for d in units.values())
    assert run_schema.FIELD_BY_PATH["results.throughput"].units["Mbit/s"] == 1e6 / 8
    assert run_schema.FIELD_BY_PATH["results.cpu_per_transaction"].units["s"] == 1e3  # the column is in ms
    assert {f.path for f in run_schema.FIELDS if f.required} | {"format", "results"} == set(SCHEMA["required"])


def test_docs_tables_are_the_schema():
    """docs/benchmark_format.md shows the fields and units as the schema declares them (regenerate the
    tables with ``python -m ingest.formats.benchmark.run_schema``)."""
    docs = (REPO / "docs/benchmark_format.md").read_text()
    assert run_schema.field_table() in docs
    assert run_schema.unit_table() in docs


@pytest.mark.parametrize("bad, reason", [
    ({"results": {"elapsed": {"value": 5}}}, "field 'results.elapsed.unit': missing unit; expected one of s, ms, "
                                             "us, min, h"),
    ({"results": {"elapsed": 5}}, 'field \'results.elapsed\': expected {"value": <number>, "unit": <unit>}, '
                                  'found 5'),
    ({"results": {"cpu_utilization": {"value": 101, "unit": "%"}}}, "field 'results.cpu_utilization.value': 101 is "
                                                                     "above the maximum 100"),
    ({"results": {"extra": {"retries": 2}}}, "field 'results': expected at least one measured result (elapsed, "
                                             "transactions_per_s, throughput, cpu_utilization, response_time, ...)"),
    ({"system_under_test": {"engines": 1.5}}, "field 'system_under_test.engines': expected a whole number, found 1.5"),
    ({"run_date": "2026-02-30"}, "field 'run_date': expected a date YYYY-MM-DD, found \"2026-02-30\""),
    ({"study": " "}, "field 'study': expected a non-empty text, found \" \""),
    ({"parameters": {"ru_size": {"size": 3840}}}, "field 'parameters.ru_size': expected {\"value\": ..., \"unit\": "
                                                  "...} or a bare value"),
    # two problems: the version is named first, as the loader always did
    ({"version": "1", "bogus": True}, "field 'version': expected a whole number, found \"1\""),
])
def test_schema_errors_read_as_the_loader_messages(bad, reason):
    with pytest.raises(record.RecordError) as error:
        record.validate(run("x", **bad))
    assert str(error.value) == reason


def test_generator_is_deterministic_and_its_files_load_cleanly(tmp_path):
    first = generate_benchmark.generate(tmp_path / "a", generate_benchmark.DEMO_START, 2, 7, list(generate_benchmark.FORMS))
    second = generate_benchmark.generate(tmp_path / "b", generate_benchmark.DEMO_START, 2, 7, list(generate_benchmark.FORMS))
    assert [p.name for p in first] == [p.name for p in second] == [
        "appc_tuning.jsonl", "os2lab__aping__20260202T160000.txt", "os2lab__aping__20260203T160000.txt",
        "tn3270.jsonl", "vse_tcpip.jsonl", "vtam_bulk.csv"]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(first, second))

    home = Home(tmp_path / "home").create()
    results = pipeline.ingest_paths(home, [tmp_path / "a"])
    assert all(r.status == "loaded" for r in results), [m for r in results for m in r.messages]
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        counts = dict(con.execute("select source_format, count(*) from raw.benchmark_runs group by 1").fetchall())
        # per day: 2 APPC + 1 TN3270 (jsonl), 6 file sizes x 2 ends (csv), 3 APING invocations; once, the 20
        # paired TCP/IP for VSE runs (jsonl)
        assert counts == {"jsonl": 6 + 20, "csv": 24, "aping": 6}
        # seed 003's identity holds for the generated VTAM runs: CPU s/byte = 3 x CPU % / throughput
        worst = con.execute(
            "select max(abs(cpu_s_per_byte / (sut_engines * cpu_pct / 100 / throughput_bytes_per_s) - 1)) "
            "from raw.benchmark_runs where source_format = 'csv'").fetchone()[0]
        assert worst < 5e-4
        tuned, base = con.execute(
            "select throughput_bytes_per_s from raw.benchmark_runs where run_label in ('os2-tuned', 'os2-baseline') "
            "and run_date = '2026-02-02' order by run_label desc").fetchall()
        assert tuned[0] > 2 * base[0]  # RU 16384 / window 63 against RU 1920 / window 3
    finally:
        con.close()
