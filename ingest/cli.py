"""``perfdb``: the command line of the warehouse.

    perfdb ingest PATH...            load files (format sniffed from content) into raw.*
    perfdb remove PATH|--file-id N   un-ingest files (to load a corrected one, or drop a bad day)
    perfdb build                     dbt build: staging -> intermediate -> marts, with dbt tests
    perfdb check                     Great Expectations suites on raw tables and marts
    perfdb publish                   atomically replace warehouse/serving.duckdb
    perfdb run                       ingest landing/ -> build -> check -> publish
    perfdb report {threshold,trend,...}
    perfdb sql "select ..."          ad-hoc SQL on serving.duckdb (read-only)
    perfdb docs [--serve]            dbt's docs site (lineage graph) beside the GX Data Docs
    perfdb dashboards warm           fill Superset's chart cache after a publish
    perfdb generate {measure,...}    realistic synthetic data
    perfdb demo                      generate, run, print the threshold report of the busiest day

Sub-commands of ``generate`` and ``report`` are discovered from the modules in ``ingest.generate`` and
``ingest.reports`` (each has ``add_parser(subparsers)``), so a new family never edits this file. Each
command imports what it runs on (DuckDB, the parsers, dbt, Great Expectations) when it runs, so that
``perfdb --help`` and ``perfdb generate`` start without them.
Exit status: 0 when everything loaded and passed, 1 when something was rejected or failed (or a report's date
has no data), 2 on usage errors. No traceback reaches a user: bad options are argparse errors, a reader that
closes the pipe (``| head``) ends perfdb quietly, and every expected failure is one line naming what to fix.
``--json`` means machine-readable output on every command (for reports and ``sql``: ``--format json``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

from ingest import dashboard_warmup, docs_site, rules, serve
from ingest.cli_options import add_format, add_seed, home_of, input_format, subcommand
from ingest.home import Home
from ingest.lake import cli as lake_cli
from ingest.output import emit, shown, tell_removed
from ingest.plugins import GENERATORS, REPORTS, public_modules
from ingest.target import Target, add_target_options


def _home_to_write(args) -> Home:
    """Commands that write create the home's folders first and take its writer lock (``main`` releases it);
    readers (report, sql, serve) leave them be."""
    from ingest.warehouse import lock

    home = home_of(args).create()
    note = lock.hold(home, args.command)
    if note:
        print(f"perfdb {args.command}: {note}", file=sys.stderr)
    return home


class FileProgress:
    """What ``perfdb ingest`` and ``run`` say per file: on a terminal a progress bar, with a line for each file
    that did not load cleanly; elsewhere one plain line per file. A file is named as the user named it
    (``perfdb ingest in/`` gives ``in/csv/PROD1/2026-01-05/cpu.csv``, not ``cpu.csv``), or below ``base``
    (``perfdb run``: below landing/)."""

    def __init__(self, base: Path | None = None):
        from ingest.output import progress_bar

        self.base = base
        self.bar = progress_bar("ingest")
        self.closed = False

    def __call__(self, done: int, total: int, res) -> None:
        if self.bar is not None and self.closed:  # the demo's next night: a new bar
            from ingest.output import progress_bar

            self.bar, self.closed = progress_bar("ingest"), False
        if self.bar is not None:
            self.bar.update(done, total)
            if res.ok and not res.copies:
                return
        print(self.line(done, total, res), file=sys.stderr)
        if res.status == "duplicate" and not (res.previously_rejected or "purged" in " ".join(res.messages)):
            return  # the line says it all; a file with rejects before, or purged, is told so
        for msg in res.copies:  # rows another file holds too: a few lines, one per other file and table
            print(f"    {msg}", file=sys.stderr)
        for msg in res.messages[:20]:
            print(f"    {msg}", file=sys.stderr)
        if len(res.messages) > 20:
            print(f"    ... {len(res.messages) - 20} more (see raw.rejects)", file=sys.stderr)

    def line(self, done: int, total: int, res) -> str:
        name = res.path.relative_to(self.base) if self.base and res.path.is_relative_to(self.base) else res.path
        return (f"[{done}/{total}] {name}: {res.status} ({res.format or '-'}) "
                f"records read={res.records_read} loaded={res.records_loaded} rejected={res.rows_rejected} "
                f"skipped={res.rows_skipped}; rows written={res.rows_loaded}")

    def close(self) -> None:
        if self.bar is not None and not self.closed:
            self.bar.close()
            self.closed = True


def _file_progress(args, base: Path | None = None) -> FileProgress | None:
    return None if args.json else FileProgress(base)


def _closing(progress: FileProgress | None, tell):
    """``tell`` for the pipeline's steps, the ingest bar closed first (before dbt draws its own)."""

    def on_step(step, result) -> None:
        if step.name == "ingest" and progress is not None:
            progress.close()
        tell(step, result)

    return on_step


# -- ingest / remove ---------------------------------------------------------------------------------

def _ingest(args, progress) -> int:
    from ingest import pipeline

    home = home_of(args)
    paths = [Path(p) for p in args.paths] or [home.landing]
    for path in paths:  # paths are read from the current directory, as a shell user expects; say so kindly
        if not path.exists() and not path.is_absolute() and (home.root / path).exists():
            print(f"perfdb ingest: {path}: no such file or directory in {Path.cwd()}; "
                  f"did you mean {shown(home.root / path)}?", file=sys.stderr)
            return 1
    home = _home_to_write(args)
    options = pipeline.ingest_options(home, args.ddl)
    progress = progress()
    try:
        results = pipeline.ingest_paths(home, paths, format_name=args.format, options=options, on_file=progress)
    finally:
        if progress is not None:
            progress.close()
    summary = pipeline.ingest_summary(results)
    emit(args.json, summary, [pipeline.ingest_line(summary)])
    return 0 if all(r.ok for r in results) else 1


def _remove(args) -> int:
    from ingest.warehouse.database import connect, remove_files

    con = connect(_home_to_write(args))
    try:
        removed = remove_files(con, file_ids=args.file_id or [], paths=args.paths)
    finally:
        con.close()
    return tell_removed(args.json, removed)


def cmd_remove(args) -> int:
    if not args.paths and not args.file_id:
        print("perfdb remove: name files (paths) or --file-id N", file=sys.stderr)
        return 2
    return TARGETS[args.target].remove(args)


# -- build / check / publish / run -------------------------------------------------------------------

def _build(args) -> int:
    from ingest import dbt_runner
    from ingest.warehouse.database import connect

    home = _home_to_write(args)
    connect(home).close()  # raw schema and manifest exist even before the first ingest
    status = dbt_runner.build(home, select=args.select, quiet=args.json, full_refresh=args.full_refresh,
                              unit_tests=args.unit_tests)
    retained = None
    if status == 0 and not args.select:  # old detail ages out after every complete build (seed `retention`)
        from ingest.warehouse.retention import apply_retention

        retained = apply_retention(home)
    _tell_build(args, home, retained=retained)
    return status


def _tell_build(args, home: Home, out=None, retained=None) -> None:
    """dbt's results by stage (nothing when dbt ended before it had any: its output's end is on stderr), and
    what retention purged after a complete build."""
    from ingest import dbt_runner

    try:
        summary = dbt_runner.stage_summary(home)
    except FileNotFoundError:
        return
    if args.json:
        print(json.dumps({**summary, **({"retention": vars(retained)} if retained else {})}, indent=2),
              file=out or sys.stdout)
    else:
        lines = dbt_runner.summary_lines(summary) + ([retained.line()] if retained else [])
        print("\n".join(lines), file=out or sys.stdout)


def _check(args) -> int:
    from quality.runner import run_checks

    return 0 if run_checks(_home_to_write(args), quiet=args.json, everything=args.everything) else 1


def _publish(args) -> int:
    from ingest.warehouse.serving import publish

    path = publish(_home_to_write(args))
    emit(args.json, {"published": str(path)}, [f"published {shown(path)}"])
    return 0


def cmd_run(args) -> int:
    """Every step as ``perfdb ingest``, ``build``, ``check`` and ``publish`` print it."""
    from ingest import pipeline

    def tell(step: pipeline.Step, result: pipeline.PipelineResult) -> None:
        if args.json:  # one JSON document at the end; only failures on the way, on stderr
            if step.status == pipeline.FAILED:
                print("\n".join([f"perfdb run: {step.name} failed: {step.summary}", *step.problems[:20]]),
                      file=sys.stderr)
        elif step.name == "ingest":
            print(step.summary, file=sys.stderr)
            if step.status == pipeline.FAILED:
                print("perfdb run: ingest rejected records or files (see raw.rejects); "
                      + ("building and publishing them as asked (--accept-rejects)" if args.accept_rejects
                         else "nothing built or published (--accept-rejects publishes anyway)"), file=sys.stderr)
        elif step.name == "build":
            _tell_build(args, home, out=sys.stderr)
            if step.status == pipeline.FAILED:
                print("perfdb run: dbt build failed; serving.duckdb left as it was", file=sys.stderr)
        elif step.name == "check" and result.validation is not None:
            result.validation.print(sys.stdout)
            if step.status == pipeline.FAILED:
                print("perfdb run: validation failed; serving.duckdb left as it was", file=sys.stderr)
        elif step.name == "publish":
            print(step.summary, file=sys.stderr)

    home = home_of(args)  # tell() reads it on both targets
    return TARGETS[args.target].run(args, lambda base=None: _file_progress(args, base), tell)


def _run(args, progress, tell) -> int:
    from ingest import pipeline

    home = home_of(args)
    nothing = _nothing_to_load(home)
    if nothing:
        print(f"perfdb run: nothing to load: {nothing}", file=sys.stderr)
        return 1
    progress = progress(home.landing)
    try:
        result = pipeline.run(home.create(), check=not args.skip_check, quiet=args.json, on_file=progress,
                              stop_on_rejects=not args.accept_rejects,
                              on_step=_closing(progress, tell))
    finally:
        if progress is not None:
            progress.close()
    if args.json:
        print(json.dumps({
            "ok": result.ok,
            "steps": [vars(step) for step in result.steps],
            "ingest": {k: v for k, v in pipeline.ingest_summary(result.files).items() if k != "results"},
            "check": result.validation.summary() if result.validation is not None else None,
        }, indent=2, default=str))
    return 0 if result.ok else 1


# the commands on the embedded warehouse; the Spark target's are ingest.lake.cli's
DUCKDB = Target(ingest=_ingest, build=_build, check=_check, publish=_publish, run=_run, remove=_remove)
TARGETS = {"duckdb": DUCKDB, "spark": lake_cli.SPARK}


def cmd_ingest(args) -> int:
    return TARGETS[args.target].ingest(args, lambda base=None: _file_progress(args, base))


def cmd_build(args) -> int:
    return TARGETS[args.target].build(args)


def cmd_check(args) -> int:
    return TARGETS[args.target].check(args)


def cmd_publish(args) -> int:
    return TARGETS[args.target].publish(args)


def _nothing_to_load(home: Home) -> str | None:
    """Why ``perfdb run`` has nothing to do (no home, or an empty landing/ and nothing ingested before), else
    None; so that a mistyped ``--home`` neither creates a home nor publishes an empty warehouse."""
    if not home.root.exists():
        return f"{home.root} does not exist (is --home or $PERFDB_HOME right?)"
    if home.landing.is_dir() and any(not p.name.startswith(".") for p in home.landing.rglob("*") if p.is_file()):
        return None
    if home.db_path.exists():
        import duckdb

        try:
            with duckdb.connect(str(home.db_path), read_only=True) as con:
                if con.execute("select count(*) from raw.ingest_files").fetchone()[0]:
                    return None  # files ingested earlier: rebuild and publish them
        except duckdb.Error:
            return None  # busy or older than the manifest: let the pipeline say what is wrong
    return f"{home.landing} holds no files and nothing was ingested before (copy files there, or `perfdb ingest PATH`)"


def cmd_demo(args) -> int:
    """The whole pipeline on generated data, told in a few lines (``perfdb run`` shows every step)."""
    from ingest import pipeline
    home = _home_to_write(args)

    def tell(step: pipeline.Step, result: pipeline.PipelineResult) -> None:
        failed = step.status == pipeline.FAILED
        if step.name == "generate":
            print(f"generated {len(result.generated)} demo files in {shown(home.landing)}")
        elif step.name == "ingest":
            print(
                f"night of {result.night}: ingested {len(result.files)} files that landed by then: "
                f"{sum(r.records_loaded for r in result.files):,} records, "
                f"{sum(r.rows_loaded for r in result.files):,} rows into {shown(home.db_path)}"
            )
            if failed:
                print("\n".join(step.problems[:20]), file=sys.stderr)
        elif step.name == "build":
            if failed:
                _tell_build(args, home, out=sys.stderr)
            print("perfdb demo: dbt build failed" if failed else step.summary,
                  file=sys.stderr if failed else sys.stdout)
        elif step.name == "check" and result.validation is not None:
            result.validation.print(sys.stdout)
        elif step.name == "publish":
            print(f"published {shown(home.serving_path)}\n")

    # on a terminal, progress bars for the ingest and the build (elsewhere the few lines above are all)
    progress = FileProgress(home.landing) if sys.stderr.isatty() else None
    try:
        result = pipeline.demo(home, args.seed, check=not args.skip_check, quiet=progress is None,
                               on_file=progress, on_step=_closing(progress, tell))
    finally:
        if progress is not None:
            progress.close()
    if not result.ok:
        return 1
    from ingest.reports import threshold

    return threshold.print_busiest_day(home, fmt="table")


# -- sql ---------------------------------------------------------------------------------------------

def cmd_sql(args) -> int:
    import duckdb

    from ingest.warehouse.serving import connect_serving

    con = connect_serving(home_of(args))
    try:
        cur = con.execute(args.query)
        cols = [d[0] for d in cur.description or []]
        rows = cur.fetchall() if cols else []
    except duckdb.Error as e:
        print(f"perfdb sql: {e}", file=sys.stderr)
        return 1
    finally:
        con.close()
    from ingest.output import print_rows

    print_rows(cols, rows, args.format)
    return 0


# -- parser ----------------------------------------------------------------------------------------------

def _add_skip_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("--skip-check", action="store_true", help="publish without the GX suites")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="perfdb", description="Performance-measurement data warehouse.")
    p.add_argument("--home", help="directory holding landing/ and warehouse/ (default $PERFDB_HOME or ./perfdb_home)")
    p.add_argument("--json", action="store_true", help="machine-readable summaries")
    sub = p.add_subparsers(dest="command", required=True)

    s = subcommand(sub, "ingest", cmd_ingest, help="load files into the raw schema")
    s.add_argument("paths", nargs="*", help="files or directories (default: landing/)")
    s.add_argument("--format", type=input_format, help="skip sniffing and use this format (e.g. measure.binary)")
    s.add_argument("--ddl", action="append", help="DDL file describing binary MEASURE records (repeatable)")
    add_target_options(s)

    s = subcommand(sub, "remove", cmd_remove, help="un-ingest files: their rows, rejects and manifest rows")
    s.add_argument("paths", nargs="*", help="files (matched by content while they exist, else by recorded path)")
    s.add_argument("--file-id", type=int, action="append", help="raw.ingest_files.file_id (repeatable)")
    add_target_options(s)

    s = subcommand(sub, "build", cmd_build, help="run dbt build on the warehouse")
    s.add_argument("--select", help="dbt selection (default: everything)")
    s.add_argument("--full-refresh", action="store_true",
                   help="rebuild every day model from all raw data kept (after a model or seed change), "
                        "not only the days loaded or removed since the last build")
    s.add_argument("--unit-tests", action="store_true",
                   help="also run dbt's unit tests (each model's logic on fixed inputs; nightly builds leave them "
                        "out)")
    add_target_options(s)

    s = subcommand(sub, "check", cmd_check, help="run the Great Expectations suites")
    s.add_argument("--all", dest="everything", action="store_true",
                   help="validate every row (default: the files and days loaded since the last passing check)")
    add_target_options(s)
    add_target_options(subcommand(sub, "publish", cmd_publish, help="replace serving.duckdb atomically"))
    s = subcommand(sub, "run", cmd_run, help="ingest landing/, build, check, publish")
    _add_skip_check(s)
    s.add_argument("--accept-rejects", action="store_true",
                   help="build and publish even when ingest rejected records or files (default: stop after ingest)")
    add_target_options(s)

    s = subcommand(sub, "sql", cmd_sql, help="ad-hoc SQL on serving.duckdb (read-only)")
    s.add_argument("query")
    add_format(s)

    gen = sub.add_parser("generate", help="write realistic synthetic data")
    gen_sub = gen.add_subparsers(dest="family", required=True)
    rep = sub.add_parser("report", help="print a report from serving.duckdb")
    rep_sub = rep.add_subparsers(dest="report", required=True)
    for module in public_modules(GENERATORS):
        module.add_parser(gen_sub)
    for module in public_modules(REPORTS):
        module.add_parser(rep_sub)

    rules.add_parser(sub)
    serve.add_parser(sub)
    dashboard_warmup.add_parser(sub)
    docs_site.add_parser(sub)

    s = subcommand(sub, "demo", cmd_demo, help="generate demo data, run the pipeline, print the threshold report")
    add_seed(s)
    _add_skip_check(s)
    return p


def main(argv: list[str] | None = None) -> int:
    from ingest.faults import WarehouseFault, translate
    from ingest.warehouse.lock import release_all

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.json and getattr(args, "takes_format", False):
        args.format = "json"  # `perfdb --json report ...` is `--format json`: --json means one thing everywhere
    try:
        status = args.func(args)
        sys.stdout.flush()  # inside the try: a reader that went away fails here, not in the interpreter's exit
        return status
    except FileNotFoundError as e:  # a path named, or a warehouse not built or published yet: the message says which
        print(f"perfdb {args.command}: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return _reader_went_away()
    except (WarehouseFault, OSError) as e:  # a full disc, another writer: one line, and still a summary for --json
        fault = translate(e, f"running `perfdb {args.command}`")  # a WarehouseFault is itself
        if fault is None:  # an OSError that is no fault of the machine's: a bug, with its traceback
            raise
        print(f"perfdb {args.command}: {fault}", file=sys.stderr)
        if args.json:
            print(json.dumps({"command": args.command, "ok": False, "fault": type(fault).__name__, "error": str(fault)},
                             indent=2))
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a DuckDB error no command expected: one line, not a traceback (duckdb not imported here)
        if type(e).__module__.split(".")[0] not in ("duckdb", "_duckdb"):
            raise
        print(f"perfdb {args.command}: {type(e).__name__}: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    finally:
        release_all()


def _reader_went_away() -> int:
    """``perfdb report ... | head``: the reader closed the pipe. Stop quietly, as ``cat`` does; stdout is pointed
    at /dev/null so that the interpreter's last flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
