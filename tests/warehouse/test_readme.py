"""The README's commands run as written in a fresh demo home.

The README marks the shell blocks a user runs from the folder that holds ``perfdb_home/`` after ``make demo``
with an HTML comment on the line before the fence (invisible on GitHub)::

    <!-- tested: runs as written in a fresh demo home (tests/warehouse/test_readme.py) -->
    ```bash
    perfdb --home perfdb_home report threshold --date 2026-01-20 --system PROD1   # Figure 1
    ```

Each line of a marked block is run by bash, in order, from a folder holding a copy of the session's demo
warehouse named ``perfdb_home`` (the commands write to it), with this environment's ``perfdb`` on PATH as
``source .venv/bin/activate`` puts it there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from ingest import dbt_runner, pipeline

REPO = Path(__file__).resolve().parents[2]

MARK = "<!-- tested:"
FENCE = re.compile(r"^```(?:bash|sh)\n(.*?)^```", re.S | re.M)


def command_blocks(readme: str) -> list[list[str]]:
    """The command lines of every block right after a ``<!-- tested: ... -->`` line."""
    blocks = []
    for part in readme.split(MARK)[1:]:
        fence = FENCE.search(part.split("\n", 1)[1])
        assert fence and part.split("\n", 1)[1].startswith("```"), "a tested mark must sit right above a ```bash fence"
        blocks.append([line for line in fence[1].splitlines() if line.strip() and not line.startswith("#")])
    return blocks


def test_the_readme_marks_its_command_blocks():
    blocks = command_blocks((REPO / "README.md").read_text())
    commands = [line.split()[:4] for block in blocks for line in block]
    assert len(blocks) == 2
    # every sub-command a user meets in the first hour is among them
    assert {words[3] if words[1] == "--home" and words[3] != "--json" else words[1] for words in commands} >= {
        "report", "sql", "ingest", "remove", "build", "check", "publish", "run", "docs", "generate"}


@pytest.fixture()
def readme_folder(demo_home, tmp_path) -> Path:
    shutil.copytree(demo_home.root, tmp_path / "perfdb_home", ignore=shutil.ignore_patterns("dbt_logs", "dbt_target"))
    return tmp_path


def run_line(line: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PERFDB_HOME"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True)


def test_every_readme_command_runs_as_written_in_the_demo_home(readme_folder):
    seen: dict[str, subprocess.CompletedProcess] = {}
    for line in [line for block in command_blocks((REPO / "README.md").read_text()) for line in block]:
        run = run_line(line, readme_folder)
        assert run.returncode == 0, f"{line}\nexited {run.returncode}:\n{run.stderr[-3000:]}"
        assert "Traceback" not in run.stderr, line
        assert "\x1b[" not in run.stdout + run.stderr, f"colour codes written to a pipe by: {line}"
        seen[line.split("#")[0].strip()] = run

    def output(start: str) -> str:
        """The output of the first command that starts so."""
        return next(run.stdout for command, run in seen.items() if command.startswith(start))

    home = "perfdb --home perfdb_home"
    assert " SYSTEM: \\PROD1" in output(f"{home} report threshold --date 2026-01-20 --system PROD1")
    assert "CPU TREND REPORT" in output(f"{home} report trend")
    assert {row["system_name"] for row in json.loads(output(f"{home} --json report threshold"))} == {"aix01"}
    landed = sum(1 for p in (readme_folder / "perfdb_home" / "landing").rglob("*") if p.is_file())
    assert output(f"{home} ingest perfdb_home/landing/").startswith(f"{landed} files: 0 loaded")  # all ingested before
    assert output(f"{home} remove").startswith("removed file ")
    assert output(f"{home} build").splitlines()[0].endswith("all passed")
    assert "perfdb_home/warehouse/dbt_docs/index.html" in output(f"{home} docs")
    docs = (readme_folder / "perfdb_home" / "warehouse" / "dbt_docs" / "index.html").read_text()
    assert "parent_map" in docs and "model.perfdb.fct_cpu_monthly" in docs  # the lineage graph's data is inside
    assert sorted(p.name for p in (readme_folder / "my_measure").iterdir())


def test_the_readme_shows_what_make_demo_prints(demo_home):
    """The sample after "It prints" states the demo's own figures (the seconds and the run id aside)."""
    readme = (REPO / "README.md").read_text()
    sample = readme.split("It prints", 1)[1].split("```", 2)[1]
    con = duckdb.connect(str(demo_home.db_path), read_only=True)
    try:
        loaded = {Path(path): (records, rows) for path, records, rows in con.sql(
            "select path, records_loaded, rows_loaded from raw.ingest_files").fetchall()}
        [(suites, skipped, expectations, failed)] = con.sql(
            "select suites_validated, suites_skipped, expectation_count, failed_count from audit.validation_runs "
            "order by started_at limit 1").fetchall()
    finally:
        con.close()
    generated = sorted(path for path in demo_home.landing.rglob("*") if path.is_file())
    assert f"generated {len(generated)} demo files in perfdb_home/landing\n" in sample
    for night, files in pipeline.demo_nights(generated):  # the files that landed in a month, one night
        records, rows = (sum(loaded[path][k] for path in files) for k in (0, 1))
        assert (f"night of {night}: ingested {len(files)} files that landed by then: {records:,} records, {rows:,} rows "
                "into perfdb_home/warehouse/perfdb.duckdb\n") in sample
    build = re.escape(re.sub(r" in \d+ s$", "", dbt_runner.last_run_summary(demo_home)))
    assert re.search(rf"^{build} in \d+ s; retention: 0 raw files purged \(0 rows\), ", sample, re.M), dbt_runner.last_run_summary(demo_home)
    assert "published perfdb_home/warehouse/serving.duckdb\n" in sample  # the link readers open, not its slot
    assert (f"perfdb check: {suites} suites validated, {skipped} skipped, {expectations} expectations, {failed} failed "
            "(run ") in sample
