"""`perfdb generate smf`: deterministic, VB and VBS carry the same records, plans add up."""

from __future__ import annotations

import datetime as dt
import io

import pytest

from ingest import cli
from ingest.formats.smf import records
from ingest.formats.smf.records import Framer
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records

DAY = dt.date(2026, 1, 6)  # a Tuesday


@pytest.fixture(scope="module")
def plan():
    return smf_plan.plan_day("SYSA", DAY, seed=1986)


@pytest.fixture(scope="module")
def day(plan):
    return smf_records.day_records(plan)


def _frame(data: bytes, form: str) -> list[bytes]:
    return [b.record_bytes(i) for b, rejects in Framer(form).frame(io.BytesIO(data)) for i in range(len(b))]


def _segment_codes(data: bytes) -> set[int]:
    codes, pos = set(), 0
    while pos < len(data):
        end, q = pos + int.from_bytes(data[pos:pos + 2], "big"), pos + 4
        while q < end:
            codes.add(data[q + 2])
            q += int.from_bytes(data[q:q + 2], "big")
        pos = end
    return codes


def test_same_seed_same_bytes_other_seed_other_bytes(day):
    assert smf_records.day_records(smf_plan.plan_day("SYSA", DAY, seed=1986)) == day
    assert smf_records.day_records(smf_plan.plan_day("SYSA", DAY, seed=1987)) != day


def test_vb_and_vbs_dumps_hold_the_same_records(day):
    assert _frame(smf_records.vb_bytes(day), records.FORM_VB) == day
    small_blocks = smf_records.vbs_bytes(day, blksize=1024)  # 70.1 records (2.3 KB) span three blocks
    assert _segment_codes(small_blocks) == {0, 1, 2, 3}
    assert _frame(small_blocks, records.FORM_VBS) == day
    assert records.detect_form(small_blocks) == records.FORM_VBS
    assert _frame(smf_records.vbs_bytes(day), records.FORM_VBS) == day


def test_record_mix_of_a_working_day(plan, day):
    mix: dict[tuple[int, int], int] = {}
    for r in day:
        key = (r[5], int.from_bytes(r[22:24], "big"))
        mix[key] = mix.get(key, 0) + 1
    batch_jobs = [j for j in smf_plan.BATCH_JOBS if j.days in ("daily", "weekday")]
    assert mix[(70, 1)] == 48
    assert mix[(30, 2)] == 24 * len(smf_plan.STARTED_TASKS) + sum(1 for w in plan.work if w.subtype == 2 and w.work_type != "STC")
    assert mix[(30, 4)] == sum(len(j.steps) for j in batch_jobs) + len(smf_plan.TSO_USERS)
    assert mix[(30, 5)] == mix[(30, 1)] == len(batch_jobs) + len(smf_plan.TSO_USERS)
    assert mix[(119, 6)] == mix[(119, 5)] == 24
    assert mix[(119, 20)] == mix[(119, 21)] == 24
    assert mix[(72, 3)] == 48 * len(smf_plan.WLM_CLASSES)
    assert mix[(119, 2)] == len(plan.connections) and mix[(119, 70)] == len(plan.ftp)


def test_interval_records_add_up_to_their_step(plan):
    steps = {(w.job_id, w.step_number): w for w in plan.work if w.subtype == 4}
    pieces: dict[tuple[str, int], list[int]] = {}
    for w in plan.work:
        if w.subtype in (2, 3) and w.work_type != "STC":
            total = pieces.setdefault((w.job_id, w.step_number), [0, 0, 0])
            total[0] += w.cpu_tcb_cs
            total[1] += w.cpu_srb_cs
            total[2] += w.excp
    assert pieces  # some steps cross an SMF interval boundary
    for key, (tcb, srb, excp) in pieces.items():
        assert (tcb, srb, excp) == (steps[key].cpu_tcb_cs, steps[key].cpu_srb_cs, steps[key].excp)


@pytest.mark.parametrize("day, ipl", [
    (dt.date(2024, 12, 2), dt.datetime(2024, 9, 29, 6)),  # two years back: a quarterly IPL 65 weeks before
    (dt.date(2025, 12, 28), dt.datetime(2025, 9, 28, 6)),  # the anchor IPL's own day: its first hours ran before it
    (dt.date(2026, 11, 30), smf_plan.IPL),
])
def test_no_started_task_starts_after_its_records(day, ipl):
    """A fixed IPL date made every started task of a day before it start in the future (the plausibility
    rules rejected a year of SMF 30 in a two-year history)."""
    work = smf_plan.plan_day("SYSA", day, seed=1986).work
    stcs = [w for w in work if w.work_type == "STC"]
    assert stcs and {w.step_start for w in stcs} == {ipl}
    assert all(w.step_start <= (w.interval_start or w.step_start) < w.written for w in work)


def test_cpu_samples_hit_their_busy_target(plan):
    for interval in plan.rmf:
        for cpu in interval.cpus:
            interval_us = interval.interval_ms * 1000
            assert cpu.wait_us + cpu.parked_us <= interval_us
            assert cpu.effective_us <= cpu.dispatch_us <= cpu.online_us == interval_us


def test_cli_writes_one_dump_per_system_and_day(tmp_path, capsys):
    out = tmp_path / "dumps"
    rc = cli.main(["--home", str(tmp_path / "home"), "generate", "smf", "--systems", "SYSA,SYSB", "--days", "2",
                   "--start", "2026-01-10", "--form", "vbs", "--out", str(out)])
    assert rc == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["SMF.SYSA.D26010.D26010.VBS.dump", "SMF.SYSA.D26011.D26011.VBS.dump",
                     "SMF.SYSB.D26010.D26010.VBS.dump", "SMF.SYSB.D26011.D26011.VBS.dump"]
    assert capsys.readouterr().out.splitlines() == [str(out / n) for n in names]
    assert records.detect_form((out / names[0]).read_bytes()[:65536]) == records.FORM_VBS


def test_cli_rejects_a_long_system_id(tmp_path, capsys):
    assert cli.main(["--home", str(tmp_path), "generate", "smf", "--systems", "SYSTEMA"]) == 2
    assert "1 to 4 characters" in capsys.readouterr().err
