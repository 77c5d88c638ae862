"""The command line's start: where the home is, which commands create it, the options every report and
generator shares, and what ``perfdb generate`` leaves unimported."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import duckdb
import pytest

from ingest import cli
from ingest.home import Home


def test_home_is_the_option_else_the_environment_else_the_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PERFDB_HOME", raising=False)
    assert Home.locate(None).root == tmp_path / "perfdb_home"
    monkeypatch.setenv("PERFDB_HOME", str(tmp_path / "env_home"))
    assert Home.locate(None).root == tmp_path / "env_home"
    assert Home.locate("given").root == tmp_path / "given"
    assert list(tmp_path.iterdir()) == []  # naming a home creates nothing


def test_readers_leave_a_missing_home_missing_and_writers_create_it(tmp_path, capsys):
    home = tmp_path / "nowhere"
    assert cli.main(["--home", str(home), "report", "threshold", "--date", "2026-01-05"]) == 1
    assert cli.main(["--home", str(home), "sql", "select 1"]) == 1
    assert cli.main(["--home", str(home), "report", "capacity"]) == 1
    assert cli.main(["--home", str(home), "run"]) == 1
    assert cli.main(["--home", str(home), "docs", "--no-generate"]) == 0
    assert capsys.readouterr().err.count("serving.duckdb does not exist yet") == 3
    assert not home.exists()
    assert cli.main(["--home", str(home), "publish"]) == 1  # nothing to publish, but a home to publish in
    assert "perfdb.duckdb does not exist: nothing to publish" in capsys.readouterr().err
    assert sorted(p.name for p in home.iterdir()) == ["landing", "reports", "warehouse"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["report", "trend", "--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["report", "capacity", "--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["sql", "select 1", "--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["ingest", "--format", "nope", "x.csv"], "argument --format: unknown format 'nope'; known: smf.binary,"),
        (["report", "trend", "--to", "1 Jan 1986"], "argument --to: expected a date as YYYY-MM-DD, got '1 Jan 1986'"),
        (["generate", "benchmark", "--start", "2026-13-01"], "argument --start: expected a date as YYYY-MM-DD, got '2026-13-01'"),
        (["generate", "smf", "--days", "0"], "argument --days: 0 must be a positive whole number"),
        (["generate", "commands", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ],
)
def test_shared_options_are_usage_errors_when_bad(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--home", str(tmp_path / "home"), *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


GENERATE = """
import sys
from ingest import cli
rc = cli.main(sys.argv[1:])
print(rc, sorted(m for m in ("duckdb", "ingest.formats.registry") if m in sys.modules))
"""


@pytest.mark.parametrize(
    "family, options",
    [
        ("measure", ["--days", "1", "--cpus", "2", "--processes", "4", "--discs", "1", "--forms", "csv,binary,meascom"]),
        ("smf", ["--days", "1", "--form", "vbs"]),
        ("commands", ["--days", "1"]),
        ("benchmark", []),
        ("appc-listings", []),
        ("vtam-sessions", []),
        ("peek", []),
    ],
)
def test_generate_imports_neither_duckdb_nor_the_parser_registry(tmp_path, family, options):
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-c", GENERATE, "--home", str(tmp_path / "home"), "generate", family, *options, "--out", str(out)],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "0 []"
    assert any(p.is_file() for p in out.rglob("*"))
    assert not (tmp_path / "home").exists()  # --out given: the home is not touched


PERFDB = str(Path(sys.executable).parent / "perfdb")


def test_a_reader_that_stops_reading_ends_perfdb_quietly(tmp_path):
    """``perfdb sql ... | head -1``: no BrokenPipeError traceback, the status of a process ended by SIGPIPE. The
    reading end is closed before perfdb writes, so that the broken pipe does not depend on the pipe's size."""
    home = Home(tmp_path / "home").create()
    duckdb.connect(str(home.serving_path)).close()
    reading, writing = os.pipe()
    os.close(reading)
    try:
        run = subprocess.run([PERFDB, "--home", str(home.root), "sql", "select * from range(300000)"],
                             stdout=writing, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(writing)
    assert (run.returncode, run.stderr) == (128 + signal.SIGPIPE, "")


def test_run_on_a_mistyped_home_creates_nothing(tmp_path, capsys):
    home = tmp_path / "perfdb_hmoe"
    assert cli.main(["--home", str(home), "run"]) == 1
    assert capsys.readouterr().err == f"perfdb run: nothing to load: {home} does not exist (is --home or $PERFDB_HOME right?)\n"
    assert not home.exists()


def test_run_on_an_empty_home_publishes_nothing(tmp_path, capsys):
    home = Home(tmp_path / "home").create()
    assert cli.main(["--home", str(home.root), "run"]) == 1
    assert capsys.readouterr().err == (
        f"perfdb run: nothing to load: {home.landing} holds no files and nothing was ingested before "
        "(copy files there, or `perfdb ingest PATH`)\n")
    assert not home.db_path.exists() and not home.serving_path.exists()


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _runs_dbt(pid: int) -> bool:
    try:
        return any(Path(arg.decode()).name == "dbt" for arg in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:2])
    except FileNotFoundError:
        return False


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _wait_for(condition, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from Linux's /proc")
def test_dbt_dies_with_perfdb_build(tmp_path):
    """kill -9 of `perfdb build` leaves no dbt writing the warehouse; dbt ran in a process group of its own."""
    perfdb = subprocess.Popen([PERFDB, "--home", str(tmp_path / "home"), "build"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # dbt's process takes its group between fork and exec: look once it runs dbt
        _wait_for(lambda: any(_runs_dbt(c) for c in _children(perfdb.pid)), "dbt to start")
        (dbt,) = _children(perfdb.pid)
        assert os.getpgid(dbt) == dbt != os.getpgid(perfdb.pid)
    finally:
        perfdb.kill()
        perfdb.wait()
    _wait_for(lambda: not _alive(dbt), "dbt to die with perfdb", timeout=10)


def test_ingest_names_each_file_as_the_user_passed_it_without_colour(tmp_path):
    """Two days' cpu.csv are two different lines; stderr is not a terminal, so plain lines and no escape codes."""
    env = {**os.environ, "PERFDB_HOME": "home"}
    gen = ["generate", "measure", "--days", "2", "--cpus", "2", "--processes", "4", "--discs", "1", "--forms", "csv",
           "--out", "in"]
    subprocess.run([PERFDB, *gen], cwd=tmp_path, env=env, check=True, capture_output=True)
    run = subprocess.run([PERFDB, "ingest", "in/csv/"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert [line.split(":")[0] for line in lines if "cpu.csv" in line] == [
        "[1/16] in/csv/PROD1/2026-01-05/cpu.csv", "[9/16] in/csv/PROD1/2026-01-06/cpu.csv"]
    assert "\x1b[" not in run.stderr + run.stdout
    assert run.stdout.startswith("16 files: 16 loaded, 0 with rejects")


def test_docs_serves_the_two_sites_and_nothing_else_of_the_home(tmp_path):
    home = Home(tmp_path / "home").create()
    for site, text in (("dbt_docs", b"lineage"), ("docs", b"validations")):
        (home.warehouse_dir / site).mkdir()
        (home.warehouse_dir / site / "index.html").write_bytes(text)
    home.db_path.write_bytes(b"not for the web")
    # Ctrl-C as on a terminal: a process started with SIGINT ignored (a pytest-xdist worker) passes that on,
    # and Python then never turns SIGINT into KeyboardInterrupt
    proc = subprocess.Popen([PERFDB, "--home", str(home.root), "docs", "--no-generate", "--serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        listed = [proc.stdout.readline() for _ in range(2)]
        assert [line.split(":", 1)[0] for line in listed] == [
            "dbt docs (models, columns, lineage graph)", "GX Data Docs (validation results)"]
        url = proc.stderr.readline().split("serving on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        assert urllib.request.urlopen(url + "dbt_docs/index.html").read() == b"lineage"
        assert urllib.request.urlopen(url + "docs/index.html").read() == b"validations"
        assert b'href="/dbt_docs/index.html"' in urllib.request.urlopen(url).read()
        for path in ("warehouse/perfdb.duckdb", "perfdb.duckdb", "dbt_docs/../perfdb.duckdb"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(url + path)
            assert refused.value.code == 404
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0


def test_a_path_relative_to_the_home_instead_of_here_gets_a_hint(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "perfdb_home" / "landing").mkdir(parents=True)
    assert cli.main(["--home", "perfdb_home", "ingest", "landing/"]) == 1
    assert capsys.readouterr().err == (f"perfdb ingest: landing: no such file or directory in {tmp_path}; "
                                       "did you mean perfdb_home/landing?\n")
    assert sorted(p.name for p in (tmp_path / "perfdb_home").iterdir()) == ["landing"]  # nothing created


def test_on_a_terminal_ingest_shows_a_progress_bar_instead_of_a_line_per_file(tmp_path):
    """stderr a terminal (a pseudo-terminal here): a bar that reaches 14/14, no line for a file that loaded."""
    import pty

    env = {**os.environ, "PERFDB_HOME": "home", "COLUMNS": "100", "TERM": "xterm"}
    gen = ["generate", "measure", "--days", "2", "--cpus", "2", "--processes", "4", "--discs", "1", "--forms", "csv",
           "--out", "in"]
    subprocess.run([PERFDB, *gen], cwd=tmp_path, env=env, check=True, capture_output=True)
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([PERFDB, "ingest", "in/"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal's other end closed: perfdb is done
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    assert proc.wait() == 0
    assert proc.stdout.read().decode().startswith("16 files: 16 loaded")
    assert b"16/16" in shown and b"ingest" in shown
    assert b"cpu.csv" not in shown


def test_run_with_json_prints_one_json_document(tmp_path, capsys):
    from test_warehouse import CSV_HEADER, _csv_row

    home = Home(tmp_path / "home").create()
    (home.landing / "cpu.csv").write_text(CSV_HEADER + _csv_row(0, 1_800_000_000) + _csv_row(1, 900_000_000))
    assert cli.main(["--home", str(home.root), "--json", "run", "--skip-check"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert (summary["ok"], summary["check"]) == (True, None)
    assert [(s["name"], s["status"]) for s in summary["steps"]] == [
        ("ingest", "passed"), ("build", "passed"), ("check", "skipped"), ("publish", "passed")]
    assert (summary["ingest"]["files"], summary["ingest"]["records_loaded"]) == (1, 2)
    assert err == ""


def test_build_summary_counts_by_stage_and_names_what_failed(tmp_path):
    """From dbt's run_results.json and manifest.json (the shapes dbt 1.11 writes, cut to what is read)."""
    from ingest import dbt_runner

    home = Home(tmp_path / "home")
    target = dbt_runner.target_dir(home)
    target.mkdir(parents=True)
    nodes = {
        "seed.perfdb.shifts": "seeds/shifts.csv",
        "model.perfdb.stg_measure__cpu": "models/staging/measure/stg_measure__cpu.sql",
        "test.perfdb.not_null_stg_measure__cpu_cpu_num.1": "models/staging/measure/_measure__models.yml",
        "model.perfdb.fct_cpu_shift": "models/marts/cpu/fct_cpu_shift.sql",
        "test.perfdb.unique_fct_cpu_shift_key.2": "models/marts/cpu/_cpu__models.yml",
        "exposure.perfdb.cpu_dashboard": "models/_superset__exposures.yml",
    }
    statuses = ["success", "success", "pass", "error", "skipped", "no-op"]
    (target / "manifest.json").write_text(json.dumps(
        {"nodes": {uid: {"original_file_path": path} for uid, path in nodes.items()}, "unit_tests": {}}))
    (target / "run_results.json").write_text(json.dumps({"elapsed_time": 12.3, "results": [
        {"unique_id": uid, "status": status,
         "message": "Binder Error: column busy_pct not found\n  LINE 3" if status == "error" else None}
        for uid, status in zip(nodes, statuses)]}))
    assert dbt_runner.summary_lines(dbt_runner.stage_summary(home)) == [
        "dbt build: 6 nodes in 12 s, 1 failed",
        "  seeds           1 built",
        "  staging         1 built         1 tests passed",
        "  marts           0 built, 1 error  0 tests passed, 1 skipped",
        "  ERROR model.perfdb.fct_cpu_shift: Binder Error: column busy_pct not found",
        f"full log: {home.warehouse_dir / 'dbt_logs' / 'dbt.log'}",
    ]


def _read_terminal(argv: list[str], env: dict, cwd: Path) -> tuple[int, str]:
    """Runs a command with stdout on a pseudo-terminal; its exit status and what the terminal showed."""
    import pty

    controller, terminal = pty.openpty()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=terminal, stderr=subprocess.DEVNULL)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    return proc.wait(), shown.decode().replace("\r\n", "\n")


def test_a_table_longer_than_the_terminal_goes_through_the_pager(tmp_path):
    home = Home(tmp_path / "home").create()
    duckdb.connect(str(home.serving_path)).close()
    env = {**os.environ, "PAGER": "sed s/^/paged:/", "LINES": "20", "COLUMNS": "80"}
    rc, shown = _read_terminal([PERFDB, "--home", str(home.root), "sql", "select * from range(30)"], env, tmp_path)
    assert rc == 0
    assert shown.splitlines()[:3] == ["paged:range", "paged:-----", "paged:    0"]
    rc, shown = _read_terminal([PERFDB, "--home", str(home.root), "sql", "select * from range(3)"], env, tmp_path)
    assert (rc, shown.splitlines()[0]) == (0, "range")  # a screenful prints as it is


def test_a_path_is_shown_from_the_current_folder_without_following_links(tmp_path, monkeypatch):
    from ingest.output import shown

    warehouse = tmp_path / "perfdb_home" / "warehouse"
    warehouse.mkdir(parents=True)
    (warehouse / "serving-a.duckdb").write_bytes(b"")
    (warehouse / "serving.duckdb").symlink_to("serving-a.duckdb")  # as `perfdb publish` leaves it
    monkeypatch.chdir(tmp_path)
    assert shown(warehouse / "serving.duckdb") == "perfdb_home/warehouse/serving.duckdb"
    assert shown(Path("perfdb_home/warehouse/serving.duckdb")) == "perfdb_home/warehouse/serving.duckdb"
    assert shown(Path("/elsewhere/serving.duckdb")) == "/elsewhere/serving.duckdb"


@pytest.mark.parametrize("target", ["duckdb", "spark"])
def test_the_pipeline_commands_run_on_the_target_the_option_names(tmp_path, monkeypatch, target):
    """The target is chosen once, from --target: each pipeline command calls that target's command with the
    parsed options (and ingest and run a per-file reporter that --json silences); none asks which target."""
    from ingest.target import Target

    calls = []

    def command(name):
        def call(args, *more):
            calls.append((name, args.target, [m() for m in more[:1]]))
            return 7
        return call

    monkeypatch.setitem(cli.TARGETS, target, Target(*(command(n) for n in Target._fields)))
    home = ["--home", str(tmp_path / "home")]
    assert cli.main([*home, "ingest", "--target", target, str(tmp_path)]) == 7
    assert cli.main([*home, "--json", "build", "--target", target]) == 7
    assert cli.main([*home, "check", "--target", target]) == 7
    assert cli.main([*home, "publish", "--target", target]) == 7
    assert cli.main([*home, "--json", "run", "--target", target]) == 7
    assert cli.main([*home, "remove", "--target", target, "--file-id", "1"]) == 7
    assert [(n, t) for n, t, _ in calls] == [(n, target) for n in Target._fields]
    assert isinstance(calls[0][2][0], cli.FileProgress) and calls[4][2] == [None]  # --json: no reporter
    assert set(cli.TARGETS) == {"duckdb", "spark"}
