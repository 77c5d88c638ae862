"""``perfdb``: the command line of the warehouse.

    perfdb ingest PATH...            load files (format sniffed from content) into raw.*
    perfdb remove PATH|--file-id N   un-ingest files (to load a corrected one, or drop a bad day)
    perfdb build                     dbt build: staging -> intermediate -> marts, with dbt tests
    perfdb check                     Great Expectations suites on raw tables and marts
    perfdb publish                   atomically replace warehouse/serving.duckdb
    perfdb run                       ingest landing/ -> build -> check -> publish
    perfdb report {threshold,trend,...}
    perfdb sql "select ..."          ad-hoc SQL on serving.duckdb (read-only)
    perfdb generate {measure,...}    realistic synthetic data
    perfdb demo                      generate, run, print the threshold report of the busiest day

Sub-commands of ``generate`` and ``report`` are discovered from the modules in ``ingest.generate`` and
``ingest.reports`` (each has ``add_parser(subparsers)``), so a new family never edits this file. Each
command imports what it runs on (DuckDB, the parsers, dbt, Great Expectations) when it runs, so that
``perfdb --help`` and ``perfdb generate`` start without them.
Exit status: 0 when everything loaded and passed, 1 when something was rejected or failed, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ingest import serve
from ingest.cli_options import add_format, add_seed, home_of, subcommand
from ingest.home import Home
from ingest.lake import cli as lake_cli
from ingest.plugins import GENERATORS, REPORTS, public_modules


def _home_to_write(args) -> Home:
    """Commands that write create the home's folders first; readers (report, sql, serve) leave them be."""
    return home_of(args).create()


def _emit(args, summary: dict, lines: list[str]) -> None:
    if args.json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        for line in lines:
            print(line)


def _print_progress(done: int, total: int, res) -> None:
    print(
        f"[{done}/{total}] {res.path.name}: {res.status} ({res.format or '-'}) "
        f"records read={res.records_read} loaded={res.records_loaded} rejected={res.rows_rejected} "
        f"skipped={res.rows_skipped}; rows written={res.rows_loaded}",
        file=sys.stderr,
    )
    for msg in res.messages[:20]:
        print(f"    {msg}", file=sys.stderr)
    if len(res.messages) > 20:
        print(f"    ... {len(res.messages) - 20} more (see raw.rejects)", file=sys.stderr)


# -- ingest / remove ---------------------------------------------------------------------------------

def cmd_ingest(args) -> int:
    from ingest import pipeline

    if args.target == "spark":
        return lake_cli.cmd_ingest(args, _print_progress)

    home = _home_to_write(args)
    paths = [Path(p) for p in args.paths] or [home.landing]
    options = pipeline.ingest_options(home, args.ddl)
    results = pipeline.ingest_paths(
        home, paths, format_name=args.format, options=options, on_file=None if args.json else _print_progress
    )
    summary = pipeline.ingest_summary(results)
    _emit(args, summary, [pipeline.ingest_line(summary)])
    return 0 if all(r.ok for r in results) else 1


def cmd_remove(args) -> int:
    from ingest.warehouse.database import connect, remove_files

    if not args.paths and not args.file_id:
        print("perfdb remove: name files (paths) or --file-id N", file=sys.stderr)
        return 2
    con = connect(_home_to_write(args))
    try:
        removed = remove_files(con, file_ids=args.file_id or [], paths=args.paths)
    finally:
        con.close()
    _emit(args, {"removed": removed}, [
        *(f"removed file {r['file_id']} {r['path']}: {r['rows']} rows" for r in removed),
        f"{len(removed)} files removed; run `perfdb build` so that the models follow"
        if removed else "nothing removed: no ingested file matches",
    ])
    return 0 if removed else 1


# -- build / check / publish / run -------------------------------------------------------------------

def cmd_build(args) -> int:
    from ingest import dbt_runner
    from ingest.warehouse.database import connect

    if args.target == "spark":
        return lake_cli.cmd_build(args)

    home = _home_to_write(args)
    connect(home).close()  # raw schema and manifest exist even before the first ingest
    return dbt_runner.build(home, select=args.select, quiet=args.json)


def cmd_check(args) -> int:
    from quality.runner import run_checks

    if args.target == "spark":
        return lake_cli.cmd_check(args)

    return 0 if run_checks(_home_to_write(args), quiet=args.json) else 1


def cmd_publish(args) -> int:
    from ingest.warehouse.serving import publish

    if args.target == "spark":
        return lake_cli.cmd_publish(args)

    path = publish(_home_to_write(args))
    _emit(args, {"published": str(path)}, [f"published {path}"])
    return 0


def cmd_run(args) -> int:
    """Every step as ``perfdb ingest``, ``build``, ``check`` and ``publish`` print it."""
    from ingest import pipeline

    def tell(step: pipeline.Step, result: pipeline.PipelineResult) -> None:
        if step.name == "build" and step.status == pipeline.FAILED:
            print("perfdb run: dbt build failed; serving.duckdb left as it was", file=sys.stderr)
        elif step.name == "check" and result.validation is not None:
            from quality.runner import print_report

            print_report(result.validation, quiet=args.json)
            if step.status == pipeline.FAILED:
                print("perfdb run: validation failed; serving.duckdb left as it was", file=sys.stderr)
        elif step.name == "publish":
            print(step.summary, file=sys.stderr)

    if args.target == "spark":
        return lake_cli.cmd_run(args, _print_progress, tell)
    result = pipeline.run(_home_to_write(args), check=not args.skip_check, quiet=args.json,
                          on_file=None if args.json else _print_progress, on_step=tell)
    return 0 if result.ok else 1


def cmd_demo(args) -> int:
    """The whole pipeline on generated data, told in a few lines (``perfdb run`` shows every step)."""
    from ingest import pipeline

    home = _home_to_write(args)

    def tell(step: pipeline.Step, result: pipeline.PipelineResult) -> None:
        failed = step.status == pipeline.FAILED
        if step.name == "generate":
            print(step.summary)
        elif step.name == "ingest":
            print(
                f"ingested {len(result.files)} files: {sum(r.records_loaded for r in result.files):,} records, "
                f"{sum(r.rows_loaded for r in result.files):,} rows into {home.db_path}"
            )
            if failed:
                print("\n".join(step.problems[:20]), file=sys.stderr)
        elif step.name == "build":
            print("perfdb demo: dbt build failed (output above)" if failed else step.summary,
                  file=sys.stderr if failed else sys.stdout)
        elif step.name == "check" and result.validation is not None:
            result.validation.print(sys.stdout)
        elif step.name == "publish":
            print(f"{step.summary}\n")

    if not pipeline.demo(home, args.seed, check=not args.skip_check, on_step=tell).ok:
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
    s.add_argument("--format", help="skip sniffing and use this format (e.g. measure.binary)")
    s.add_argument("--ddl", action="append", help="DDL file describing binary MEASURE records (repeatable)")
    lake_cli.add_target_options(s)

    s = subcommand(sub, "remove", cmd_remove, help="un-ingest files: their rows, rejects and manifest rows")
    s.add_argument("paths", nargs="*", help="files (matched by content while they exist, else by recorded path)")
    s.add_argument("--file-id", type=int, action="append", help="raw.ingest_files.file_id (repeatable)")

    s = subcommand(sub, "build", cmd_build, help="run dbt build on the warehouse")
    s.add_argument("--select", help="dbt selection (default: everything)")
    lake_cli.add_target_options(s)

    lake_cli.add_target_options(subcommand(sub, "check", cmd_check, help="run the Great Expectations suites"))
    lake_cli.add_target_options(subcommand(sub, "publish", cmd_publish, help="replace serving.duckdb atomically"))
    s = subcommand(sub, "run", cmd_run, help="ingest landing/, build, check, publish")
    _add_skip_check(s)
    lake_cli.add_target_options(s)

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

    serve.add_parser(sub)

    s = subcommand(sub, "demo", cmd_demo, help="generate demo data, run the pipeline, print the threshold report")
    add_seed(s)
    _add_skip_check(s)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except FileNotFoundError as e:  # a path named, or a warehouse not built or published yet: the message says which
        print(f"perfdb {args.command}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
