"""Seed 004's benchmark comparisons and part 2's repeated stack rules on the demo warehouse: a site's paired
TCP/IP for VSE runs against the changes the document publishes (rpt_vse_benchmark_pairs), its FTP rates
against the document's reading of them (rpt_vse_ftp_rates), and 004-bR1, bR2 and bR5 on the values VSE-R1,
R2 and R22 compare (rpt_vse_stack_repeats)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ingest.warehouse import serving
from read_only_db import dict_rows

DELTAS = Path(__file__).parents[2] / "dbt_project" / "seeds" / "reference" / "reference_vse_benchmark_deltas.csv"

PAIRS = """
004-bR13 tn3270-k-100 tn3270-k delta_cpu_per_transaction -0.046 holds
004-bR15 sna-sd sna-td cpu_ms_per_transaction 0.148 holds
004-bR16 tn3270-k tn3270-1.4 delta_cpu_per_transaction -0.008 fires
004-bR17 sna-td tn3270-1.4 response_time_s 0.01 fires
004-bR17 sna-td tn3270-k response_time_s 0.17 holds
004-bR28 libr-1.4a libr-1.4a-gateway ki_per_kb 0.662 holds
004-bR28 libr-1.4a libr-1.4a-gateway throughput_bytes_per_s -0.039 holds
004-bR30 batch-ftp-1-way batch-ftp-2-way cpu_s 0.04 holds
004-bR30 batch-ftp-1-way batch-ftp-2-way throughput_bytes_per_s -0.051 holds
004-bR30 ftpbatch-1-way ftpbatch-2-way cpu_s 0.317 fires
004-bR30 ftpbatch-1-way ftpbatch-2-way throughput_bytes_per_s 0.12 fires
004-bR31 batch-ftp-stat-stat batch-ftp-stat-dyn cpu_s 0.015 holds
004-bR31 ftpbatch-stat-stat ftpbatch-stat-dyn cpu_s 0.108 fires
004-bR33 libr-1.3i libr-1.4a ki_per_kb -0.26 holds
004-bR33 libr-1.3i libr-1.4a throughput_bytes_per_s 0.179 holds
004-bR34 libr-1.3e libr-1.3f nps -0.032 fires
"""


def test_the_documents_paired_figures_give_the_change_it_prints():
    # each pair the document prints both figures of reproduces its published change to the printed precision
    # (a whole percent: "5% lower data rate" is 495 -> 468, -5.45 %), but for the gateway's 14.0 -> 23.4 KI/KB,
    # +67 %, which the document prints as +65 % (and the seed row says so)
    with DELTAS.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["base_figure"]]
    assert len(rows) == 14
    for r in rows:
        change = float(r["variant_figure"]) / float(r["base_figure"]) - 1
        low, high = float(r["change_low"]), float(r["change_high"])
        inside = low - 0.005 - 1e-9 <= change <= high + 0.005 + 1e-9
        if r["case_name"] == "gateway vs single TCP/IP: CPU per KB":
            assert round(change, 3) == 0.671 and not inside and "+67 %" in r["printed"]
        else:
            assert inside or r["rule_id"] == "004-bR13" and change <= 0, r["case_name"]


@pytest.fixture(scope="module")
def db(demo_home):
    con = serving.connect_serving(demo_home)
    yield con
    con.close()


@pytest.mark.slow
class TestOnTheDemo:
    def test_the_sites_pairs_against_the_published_changes(self, db):
        rows = db.execute("select rule_id, base_run_label, run_label, measure, round(site_change, 3), fired "
                          "from marts.rpt_vse_benchmark_pairs order by all").fetchall()
        # rule, base run, variant run, measure, the site's change, fired: more terminals, lower overhead per
        # transaction (26.0 -> 24.8 msec); TD vs SD at 30 %: +15 % as published; the 1.4 overhead only 1 % below
        # Service Pack K's (published 7 to 13 %); TN3270 over SNA 0.17 s as published, 0.01 s on 1.4; the
        # gateway +66 % KI/KB at -4 % EDR; a 2nd engine as published for Batch FTP, +12 % EDR at +32 % CPU for
        # FTPBATCH (published +3 %, +17 %); a dynamic batch partition +1.5 % CPU for Batch FTP as published,
        # +10.8 % for FTPBATCH (published +0.6 %); 1.4 ServPack A over 1.3 ServPack I; Service Pack F's NPS 3 %
        # below E's (published about 35 %)
        assert rows == [tuple(word if i < 4 else float(word) if i == 4 else word == "fires"
                              for i, word in enumerate(line.split())) for line in PAIRS.strip().splitlines()]

    def test_the_sites_ftp_rates(self, db):
        rows = db.execute("select rule_id, run_label, round(metric_value, 2), fired from marts.rpt_vse_ftp_rates "
                          "order by all").fetchall()
        # File I/O 245 KB/s beside a 230 KB/s transfer and 400 beside 380: disk-bound; 690 beside 232: not.
        # IND$FILE at 25 KB/s is below the 30 KB/s customers report; LANRES/VSE at 150 KB/s is inside 100-200
        assert rows == [("004-bR25", "batch-ftp-stat-stat", 1.05, True), ("004-bR25", "libr-1.3e", 1.07, True),
                        ("004-bR25", "libr-1.3f", 2.97, False),
                        ("004-bR26", "ind-file", 0.83, True), ("004-bR26", "lanres", 1.5, False)]

    def test_part_twos_repeats_count_what_part_ones_rules_count_and_add_no_exception(self, db):
        status = {r["rule_id"]: (r["status"], r["evaluations"], r["systems"], r["findings"])
                  for r in dict_rows(db, "select * from marts.rpt_rule_status")}
        for repeat, rule in (("004-bR1", "VSE-R1"), ("004-bR2", "VSE-R2"), ("004-bR5", "VSE-R22")):
            assert status[repeat] == status[rule] and status[rule][0] == "evaluated" and status[rule][1] > 0
        assert db.execute("select count(*) from marts.rpt_threshold_exceptions "
                          "where rule_id in ('004-bR1', '004-bR2', '004-bR5')").fetchone() == (0,)
        evaluated = {rule_id: status[rule_id][1:] for rule_id in (
            "004-bR13", "004-bR15", "004-bR16", "004-bR17", "004-bR25", "004-bR26", "004-bR28", "004-bR30",
            "004-bR31", "004-bR33", "004-bR34", "004-aF10")}
        assert evaluated == {
            "004-bR13": (1, 1, 0), "004-bR15": (1, 1, 0), "004-bR16": (1, 1, 1), "004-bR17": (2, 1, 1),
            "004-bR25": (3, 2, 2), "004-bR26": (2, 1, 1), "004-bR28": (2, 1, 0), "004-bR30": (4, 1, 2),
            "004-bR31": (2, 1, 1), "004-bR33": (2, 1, 0), "004-bR34": (1, 1, 1), "004-aF10": (1, None, None)}
