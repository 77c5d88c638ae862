"""The reference library: the five documents' published results as dbt seeds, with document and lines.

Golden values are recomputed from the seeds' own printed figures with the documents' formulas: seed 001's
400 CPU ms and 1.5 transactions per second per CPU (L3487-L3491); seed 000's Appendix A throughputs from
bytes and seconds (L999-L1022); seed 003's CPU seconds per byte from engines, CPU % and throughput (Tables
T1-T3); seed 004's TN3270 capacity example (L4377-L4415) and Delta/ITRR (L4236-L4256). The provenance test
finds each printed figure on the seed line the row cites.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from ingest.capacity import sizing
from ingest.warehouse import serving

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "dbt_project/seeds/reference"
DOCUMENTS = ("000", "001", "002", "003", "004")
# the lines of the five documents that the library cites, as "<line number>\t<text>" (tests/fixtures/seeds/README.md)
CITED_LINES = Path(__file__).resolve().parents[1] / "fixtures" / "seeds"


def load_runs() -> list[dict]:
    rows = []
    for path in sorted(REFERENCE.glob("reference_runs_*.csv")):
        with path.open(newline="") as f:
            rows += list(csv.DictReader(f))
    return rows


RUNS = load_runs()


def num(row: dict, column: str) -> float:
    return float(row[column])


def extra(row: dict, name: str):
    return json.loads(row["extra_json"])[name]["value"]


def find(document: str, run_label: str, role: str = "", doc_table: str | None = None) -> dict:
    (row,) = [r for r in RUNS if r["document"] == document and r["run_label"] == run_label and r["role"] == role
              and (doc_table is None or r["doc_table"].startswith(doc_table))]
    return row


def test_every_document_is_in_the_library_with_lines():
    assert {r["document"] for r in RUNS} == set(DOCUMENTS)
    counts = {d: sum(r["document"] == d for r in RUNS) for d in DOCUMENTS}
    assert counts == {"000": 14, "001": 60, "002": 70, "003": 191, "004": 68}
    for r in RUNS:
        assert 1 <= int(r["line_start"]) <= int(r["line_end"]), r["run_label"]


def test_seed_001_transaction_resource():
    row = find("001", "worked-example")
    cpu_ms = sizing.cpu_ms_per_transaction(int(row["sut_engines"]), num(row, "cpu_pct") / 100,
                                           num(row, "elapsed_s"), num(row, "transactions"))
    assert cpu_ms == num(row, "cpu_ms_per_transaction") == 400.0
    assert sizing.transactions_per_s_per_cpu(num(row, "cpu_pct") / 100, cpu_ms) == extra(row, "transactions_per_s_per_cpu") == 1.5


@pytest.mark.parametrize("label, printed", [
    ("nsdos-base", "0.0258"), ("os2-base", "1.25"), ("rs6000-base", "0.924"),
    ("nsdos-tuned", "1.51"), ("os2-tuned", "1.57"), ("rs6000-tuned", "1.69"),
])
def test_seed_000_appc_throughput_from_bytes_and_seconds(label, printed):
    row = find("000", label)
    mbit = sizing.throughput_mbit_per_s(num(row, "bytes_per_transaction"), num(row, "elapsed_s"))
    decimals = len(printed.split(".")[1])
    assert f"{mbit:.{decimals}f}" == printed
    assert extra(row, "printed_throughput") == float(printed)


def test_seed_000_time_reductions():
    for tuned, base, printed in (("nsdos-tuned", "nsdos-base", 98), ("os2-tuned", "os2-base", 20),
                                 ("rs6000-tuned", "rs6000-base", 45)):
        t, b = num(find("000", tuned), "elapsed_s"), num(find("000", base), "elapsed_s")
        assert round(100 * (b - t) / b) == printed == extra(find("000", tuned), "reduction_in_transfer_time")


@pytest.mark.parametrize("label, role, printed", [
    ("44-hpr-4000000", "client", "3.175E-08"),  # T1 L291-L295
    ("43-hpr-1000", "server", "3.227E-06"),  # T1 L266-L270 (T2 prints it again)
    ("44-subarea-mpc-512000", "client", "4.686E-08"),  # T3 L349-L353
    ("44-hpr-no-mpc-64000", "server", "9.251E-08"),  # T2 L312-L316
])
def test_seed_003_cpu_seconds_per_byte_from_cpu_and_throughput(label, role, printed):
    row = find("003", label, role, doc_table="Table T1" if label.startswith("43") else "Table T")
    computed = sizing.cpu_s_per_unit(3, num(row, "cpu_pct"), num(row, "throughput_bytes_per_s"))
    assert f"{computed:.3E}" == printed
    assert num(row, "cpu_s_per_byte") == float(printed)


def test_seed_003_identity_holds_on_every_row_with_three_engines():
    checked = 0
    for r in RUNS:
        if r["document"] == "003" and r["cpu_s_per_byte"]:
            computed = sizing.cpu_s_per_unit(int(r["sut_engines"]), num(r, "cpu_pct"), num(r, "throughput_bytes_per_s"))
            assert computed == pytest.approx(num(r, "cpu_s_per_byte"), rel=1e-3), (r["doc_table"], r["run_label"], r["role"])
            checked += 1
        if r["document"] == "003" and r["cpu_ms_per_transaction"] and r["transactions_per_s"]:
            computed = 1000 * sizing.cpu_s_per_unit(int(r["sut_engines"]), num(r, "cpu_pct"), num(r, "transactions_per_s"))
            assert computed == pytest.approx(num(r, "cpu_ms_per_transaction"), rel=1e-3)
            checked += 1
    assert checked == 130  # the notes' 130 role-row checks (§3.0)


def test_seed_004_tn3270_capacity_figures():
    native = find("004", "native")
    pathlength = sizing.pathlength_ki(num(native, "cpu_pct") / 100, num(native, "sut_mips_per_engine"),
                                      num(native, "transactions_per_s"))
    assert pathlength == extra(native, "pathlength") == 600
    assert round(sizing.tn3270_overhead_utilization(10, 24) * 100) == extra(native, "tcpip_overhead_utilization") == 12
    guest = find("004", "vm-guest")
    assert sizing.tn3270_overhead_mips(10, tv_ratio=1.2) == pytest.approx(extra(guest, "tcpip_overhead"))  # 3.36 MIPS
    # TY1 at Service Pack K (L4253): Delta = CPUT - the SNA base TV1 (20.81 ms); ITRR = 20.81 / CPUT
    ty1k, tv1 = find("004", "ty1-k"), find("004", "tv1")
    assert round(num(ty1k, "cpu_ms_per_transaction") - num(tv1, "cpu_ms_per_transaction"), 2) == extra(ty1k, "delta_cpu_per_transaction") == 24.82
    assert round(num(tv1, "cpu_ms_per_transaction") / num(ty1k, "cpu_ms_per_transaction"), 2) == extra(ty1k, "itrr") == 0.46


def cited_lines(document: str) -> dict[int, str]:
    text = (CITED_LINES / f"{document}_cited_lines.tsv").read_text(encoding="utf-8")
    return {int(number): line for number, line in (row.split("\t", 1) for row in text.splitlines())}


def test_printed_figures_are_on_the_cited_lines():
    seeds = {d: cited_lines(d) for d in DOCUMENTS}

    def on_lines(row: dict, text: str) -> bool:
        lines = seeds[row["document"]]
        return any(text in lines.get(n, "") for n in range(int(row["line_start"]), int(row["line_end"]) + 1))

    checked = 0
    for r in RUNS:
        doc, table = r["document"], r["doc_table"]
        if doc == "000":
            needle = f"{extra(r, 'printed_throughput'):g}".lstrip("0") if table.startswith("Figure") else f"{num(r, 'elapsed_s'):g}".lstrip("0")
        elif doc == "003" and table.startswith(("Table T", "Table S", "Table A")):
            needle = f"{num(r, 'cpu_pct'):.2f}%"
        elif doc == "004" and table.startswith("F.3"):
            needle = f"{num(r, 'cpu_ms_per_transaction'):.2f}"
        elif doc == "001" and table.startswith("Disk"):
            needle = f"{num(r, 'transactions_per_s'):.2f}"
        else:
            continue
        assert on_lines(r, needle), (doc, table, r["run_label"], r["role"], needle)
        checked += 1
    assert checked == 14 + 130 + 19 + 24  # seed 000, seed 003's NetMarks and ATM tables, TN3270, disk tests


def test_known_exceptions_are_the_rows_the_notes_flag():
    flagged = {(r["document"], r["doc_table"], r["run_label"]): r["known_exception"] for r in RUNS if r["known_exception"]}
    relations = {key: set(value.split(";")) for key, value in flagged.items()}
    assert relations[("001", "Table 4", "txp-application")] == {"atm_utilization"}
    assert relations[("001", "Table 1", "txp-application")] == {"duplicate_printing_agrees"}
    assert relations[("001", "VLX performance, Tables 1 and 2", "txp-structured-no-tmf")] == {"records_rate_elapsed"}
    assert relations[("001", "6600 vs TCC6820, Equations Used", "snax6600-2-terminals-1920-bytes")] == {"elapsed_from_timestamps"}
    assert relations[("002", "B.1.4", "sockets-over-sna")] == {"csaix_data_rate"}
    assert relations[("004", "F.3 TN3270 results", "sy1-e")] == {"tn3270_itrr", "tn3270_utilization"}
    assert relations[("004", "G.21 (virtual disk, single stream)", "ftpbatch-1-way-virtual-disk")] == {"ftp_ki_per_kb"}
    tn1 = {k[2] for k, v in relations.items() if "tn3270_itrr" in v}
    assert tn1 == {"tn1-e", "tn1-g", "tn1-j", "sy1-e"}
    for key in flagged:
        assert next(r for r in RUNS if (r["document"], r["doc_table"], r["run_label"]) == key)["exception_note"]


@pytest.mark.slow
def test_dbt_relation_checks_hold_except_the_known_exceptions(demo_home):
    con = serving.connect_serving(demo_home)
    try:
        summary = {row[0]: row[1:] for row in con.execute(
            "select relation, count(*), count(*) filter (where holds), count(*) filter (where is_known_exception), "
            "count(*) filter (where holds = is_known_exception) from marts.rpt_benchmark_relation_checks group by 1"
        ).fetchall()}
        staged = dict(con.execute("select source_kind, count(*) from staging.stg_benchmark__runs group by 1").fetchall())
    finally:
        con.close()
    # (rows checked, rows that hold, known exceptions, rows where a flag and the data disagree)
    assert summary["appc_throughput"] == (14, 14, 0, 0)
    assert summary["vtam_cpu_per_byte"] == (118, 118, 0, 0)
    assert summary["vtam_cpu_per_transaction"] == (12, 12, 0, 0)
    assert summary["transaction_resource"] == (1, 1, 0, 0)
    assert summary["atm_utilization"] == (9, 6, 3, 0)
    assert summary["tn3270_itrr"] == (16, 12, 4, 0)
    assert summary["tn3270_delta"] == (14, 14, 0, 0)
    assert summary["interactive_response_law"] == (16, 16, 0, 0)
    assert all(disagreements == 0 for *_, disagreements in summary.values()), summary
    # the published results come through the same staging as the user's runs
    assert staged["reference"] == len(RUNS)
    # the benchmark demo: 3 days x (3 JSON lines + 12 CSV rows + 3 APING runs), and 20 TCP/IP for VSE runs on the first
    assert staged["user"] == 54 + 20
