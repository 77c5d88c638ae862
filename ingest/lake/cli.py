"""``--target spark`` of ``perfdb ingest|build|check|publish|run|remove``: the commands on the lake, as the
``Target`` ``SPARK`` that ``perfdb`` looks up by the option (``ingest.target``); the output has the DuckDB
path's form.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ingest.cli_options import home_of
from ingest.target import Target


def _context(args):
    from ingest.lake.layout import Lake
    from ingest.lake.pipeline import master_of

    home = home_of(args).create()
    return home, Lake.locate(home.root, args.lake), master_of(args.spark_master)


def cmd_ingest(args, progress) -> int:
    from ingest import pipeline
    from ingest.lake import pipeline as lake_pipeline

    home, lake, master = _context(args)
    paths = [Path(p) for p in args.paths] or [home.landing]
    results, _ = lake_pipeline.ingest(home, lake, paths, master=master, format_name=args.format,
                                      options=pipeline.ingest_options(home, args.ddl),
                                      on_file=progress())
    summary = pipeline.ingest_summary(results)
    if args.json:
        import json

        print(json.dumps(summary, indent=2, default=str))
    else:
        print(pipeline.ingest_line(summary))
    return 0 if all(r.ok for r in results) else 1


def cmd_build(args) -> int:
    from ingest.lake import pipeline as lake_pipeline

    home, lake, master = _context(args)
    return lake_pipeline.build(home, lake, master=master, select=args.select, quiet=args.json)


def cmd_check(args) -> int:
    from ingest.lake import pipeline as lake_pipeline
    from quality.runner import print_report

    home, lake, _ = _context(args)
    report = lake_pipeline.validate(home, lake, everything=args.everything)
    print_report(report, quiet=args.json)
    return 0 if report.success else 1


def cmd_publish(args) -> int:
    from ingest.lake import pipeline as lake_pipeline

    home, lake, _ = _context(args)
    path = lake_pipeline.publish(home, lake)
    print(f"published {path}")
    return 0


def cmd_run(args, progress, tell) -> int:
    from ingest.lake import pipeline as lake_pipeline

    home, lake, master = _context(args)
    result = lake_pipeline.run(home, lake, master=master, check=not args.skip_check, quiet=args.json,
                               on_file=progress(), on_step=tell)
    if not result.ok:
        print(f"perfdb run --target spark: {result.failed.name} failed", file=sys.stderr)
    return 0 if result.ok else 1


def cmd_remove(args) -> int:
    from ingest.lake.remove import remove_files
    from ingest.output import tell_removed

    _, lake, _ = _context(args)
    return tell_removed(args.json, remove_files(lake, file_ids=args.file_id or [], paths=args.paths))


SPARK = Target(ingest=cmd_ingest, build=cmd_build, check=cmd_check, publish=cmd_publish, run=cmd_run,
               remove=cmd_remove)
