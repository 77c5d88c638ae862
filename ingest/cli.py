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
``ingest.reports`` (each has ``add_parser(subparsers)``), so a new family never edits this file.
Exit status: 0 when everything loaded and passed, 1 when something was rejected or failed, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from pathlib import Path

from ingest import dbt_runner, serve, warehouse
from ingest.output import print_rows
from ingest.warehouse import Home


def _home(args) -> Home:
    return Home.from_args(args)


def _emit(args, summary: dict, lines: list[str]) -> None:
    if args.json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        for line in lines:
            print(line)


# -- ingest -----------------------------------------------------------------------------------------

def ingest_options(home: Home, ddl: list[str] | None = None) -> dict:
    """Options every parser may read: user DDL files (--ddl) and the home's ddl/ folder."""
    return {"ddl_paths": [Path(p) for p in ddl or []], "home_ddl_dir": home.root / "ddl"}


def ingest_paths(home: Home, paths: list[Path], *, format_name=None, options=None, quiet=False) -> list[warehouse.FileResult]:
    files = warehouse.iter_input_files(paths)
    options = options if options is not None else ingest_options(home)
    con = warehouse.connect(home)
    results = []
    try:
        for i, res in enumerate(warehouse.ingest_files(con, files, format_name=format_name, options=options), 1):
            path = res.path
            results.append(res)
            if not quiet:
                print(
                    f"[{i}/{len(files)}] {path.name}: {res.status} ({res.format or '-'}) "
                    f"records read={res.records_read} loaded={res.records_loaded} rejected={res.rows_rejected} "
                    f"skipped={res.rows_skipped}; rows written={res.rows_loaded}",
                    file=sys.stderr,
                )
                for msg in res.messages[:20]:
                    print(f"    {msg}", file=sys.stderr)
                if len(res.messages) > 20:
                    print(f"    ... {len(res.messages) - 20} more (see raw.rejects)", file=sys.stderr)
    finally:
        con.close()
    return results


def cmd_ingest(args) -> int:
    home = _home(args)
    paths = [Path(p) for p in args.paths] or [home.landing]
    options = ingest_options(home, args.ddl)
    try:
        results = ingest_paths(home, paths, format_name=args.format, options=options, quiet=args.json)
    except FileNotFoundError as e:
        print(f"perfdb ingest: {e}", file=sys.stderr)
        return 1
    summary = {
        "files": len(results),
        "loaded": sum(r.status == "loaded" for r in results),
        "duplicates": sum(r.status == "duplicate" for r in results),
        "with_rejects": sum(r.status == "loaded_with_rejects" for r in results),
        "rejected": sum(r.status == "rejected" for r in results),
        "failed": sum(r.status == "failed" for r in results),
        "records_read": sum(r.records_read for r in results),
        "records_loaded": sum(r.records_loaded for r in results),
        "rows_loaded": sum(r.rows_loaded for r in results),
        "rows_rejected": sum(r.rows_rejected for r in results),
        "rows_skipped": sum(r.rows_skipped for r in results),
        "results": [
            {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(r).items()} for r in results
        ],
    }
    _emit(args, summary, [
        f"{summary['files']} files: {summary['loaded']} loaded, {summary['with_rejects']} with rejects, "
        f"{summary['rejected']} rejected, {summary['failed']} failed, {summary['duplicates']} already ingested; "
        f"{summary['rows_loaded']} rows loaded, {summary['rows_rejected']} rejected, {summary['rows_skipped']} skipped"
    ])
    return 0 if all(r.ok for r in results) else 1


def cmd_remove(args) -> int:
    home = _home(args)
    if not args.paths and not args.file_id:
        print("perfdb remove: name files (paths) or --file-id N", file=sys.stderr)
        return 2
    con = warehouse.connect(home)
    try:
        removed = warehouse.remove_files(con, file_ids=args.file_id or [], paths=args.paths)
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
    home = _home(args)
    warehouse.connect(home).close()  # raw schema and manifest exist even before the first ingest
    return dbt_runner.build(home, select=args.select, quiet=args.json)


def cmd_check(args) -> int:
    home = _home(args)
    from quality.runner import run_checks  # GX is heavy: import only when checking

    ok = run_checks(home, quiet=args.json)
    return 0 if ok else 1


def cmd_publish(args) -> int:
    home = _home(args)
    try:
        path = warehouse.publish(home)
    except FileNotFoundError as e:
        print(f"perfdb publish: {e}", file=sys.stderr)
        return 1
    _emit(args, {"published": str(path)}, [f"published {path}"])
    return 0


def cmd_run(args) -> int:
    home = _home(args)
    results = ingest_paths(home, [home.landing], quiet=args.json)
    ingest_ok = all(r.ok for r in results)
    if dbt_runner.build(home, quiet=args.json) != 0:
        print("perfdb run: dbt build failed; serving.duckdb left as it was", file=sys.stderr)
        return 1
    if not args.skip_check:
        from quality.runner import run_checks

        if not run_checks(home, quiet=args.json):
            print("perfdb run: validation failed; serving.duckdb left as it was", file=sys.stderr)
            return 1
    warehouse.publish(home)
    print(f"published {home.serving_path}", file=sys.stderr)
    return 0 if ingest_ok else 1


# -- sql ---------------------------------------------------------------------------------------------

def cmd_sql(args) -> int:
    home = _home(args)
    try:
        con = warehouse.connect_serving(home)
    except FileNotFoundError as e:
        print(f"perfdb sql: {e}", file=sys.stderr)
        return 1
    import duckdb

    try:
        cur = con.execute(args.query)
        cols = [d[0] for d in cur.description or []]
        rows = cur.fetchall() if cols else []
    except duckdb.Error as e:
        print(f"perfdb sql: {e}", file=sys.stderr)
        return 1
    finally:
        con.close()
    print_rows(cols, rows, args.format)
    return 0


# -- demo ----------------------------------------------------------------------------------------------

def _plugin_modules(package: str):
    pkg = importlib.import_module(package)
    for mod in pkgutil.iter_modules(pkg.__path__):
        if not mod.name.startswith("_"):
            yield importlib.import_module(f"{package}.{mod.name}")


def write_demo_landing(home: Home, seed: int) -> list[Path]:
    """Every generator that offers a demo data set writes it into landing/."""
    written: list[Path] = []
    for module in _plugin_modules("ingest.generate"):
        demo = getattr(module, "demo", None)
        if demo is not None:
            written.extend(demo(home, seed=seed))
    return written


def cmd_demo(args) -> int:
    """The whole pipeline on generated data, told in a few lines (``perfdb run`` shows every step)."""
    home = _home(args)
    files = write_demo_landing(home, args.seed)
    print(f"generated {len(files)} demo files in {home.landing}")
    results = ingest_paths(home, [home.landing], quiet=True)
    print(
        f"ingested {len(results)} files: {sum(r.records_loaded for r in results):,} records, "
        f"{sum(r.rows_loaded for r in results):,} rows into {home.db_path}"
    )
    problems = [m for r in results if not r.ok for m in r.messages]
    if problems:
        print("\n".join(problems[:20]), file=sys.stderr)
        return 1
    if dbt_runner.build(home, quiet=True) != 0:
        print("perfdb demo: dbt build failed (output above)", file=sys.stderr)
        return 1
    print(dbt_runner.last_run_summary(home))
    if not args.skip_check:
        from quality.runner import validate_warehouse

        report = validate_warehouse(home)
        report.print(sys.stdout)
        if not report.success:
            return 1
    warehouse.publish(home)
    print(f"published {home.serving_path}\n")
    from ingest.reports import threshold

    return threshold.print_busiest_day(home, fmt="table")


# -- parser ----------------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="perfdb", description="Performance-measurement data warehouse.")
    p.add_argument("--home", help="directory holding landing/ and warehouse/ (default $PERFDB_HOME or ./perfdb_home)")
    p.add_argument("--json", action="store_true", help="machine-readable summaries")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("ingest", help="load files into the raw schema")
    s.add_argument("paths", nargs="*", help="files or directories (default: landing/)")
    s.add_argument("--format", help="skip sniffing and use this format (e.g. measure.binary)")
    s.add_argument("--ddl", action="append", help="DDL file describing binary MEASURE records (repeatable)")
    s.set_defaults(func=cmd_ingest)

    s = sub.add_parser("remove", help="un-ingest files: their rows, rejects and manifest rows")
    s.add_argument("paths", nargs="*", help="files (matched by content while they exist, else by recorded path)")
    s.add_argument("--file-id", type=int, action="append", help="raw.ingest_files.file_id (repeatable)")
    s.set_defaults(func=cmd_remove)

    s = sub.add_parser("build", help="run dbt build on the warehouse")
    s.add_argument("--select", help="dbt selection (default: everything)")
    s.set_defaults(func=cmd_build)

    s = sub.add_parser("check", help="run the Great Expectations suites")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("publish", help="replace serving.duckdb atomically")
    s.set_defaults(func=cmd_publish)

    s = sub.add_parser("run", help="ingest landing/, build, check, publish")
    s.add_argument("--skip-check", action="store_true", help="publish without the GX suites")
    s.set_defaults(func=cmd_run)

    s = sub.add_parser("sql", help="ad-hoc SQL on serving.duckdb (read-only)")
    s.add_argument("query")
    s.add_argument("--format", choices=["table", "csv", "json"], default="table")
    s.set_defaults(func=cmd_sql)

    gen = sub.add_parser("generate", help="write realistic synthetic data")
    gen_sub = gen.add_subparsers(dest="family", required=True)
    rep = sub.add_parser("report", help="print a report from serving.duckdb")
    rep_sub = rep.add_subparsers(dest="report", required=True)
    for module in _plugin_modules("ingest.generate"):
        module.add_parser(gen_sub)
    for module in _plugin_modules("ingest.reports"):
        module.add_parser(rep_sub)

    serve.add_parser(sub)

    s = sub.add_parser("demo", help="generate demo data, run the pipeline, print the threshold report")
    s.add_argument("--seed", type=int, default=1986)
    s.add_argument("--skip-check", action="store_true", help="publish without the GX suites")
    s.set_defaults(func=cmd_demo)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
