"""ingest -> build -> check -> publish, written once: ``perfdb run``, ``perfdb demo`` and the tests' shared
warehouse all go through ``run`` (the demo through ``demo``, which first writes every generator's demo data,
then runs it night by night as it would have landed).

    result = pipeline.run(home)
    result.steps == [Step("ingest", "passed", "195 files: 195 loaded, 0 with rejects, ..."),
                     Step("build", "passed", "dbt build: 299 nodes (205 pass, 94 success) in 8 s"),
                     Step("check", "passed", "21 suites validated, 0 skipped, 228 expectations, 0 failed"),
                     Step("publish", "passed", "published /srv/perfdb_home/warehouse/serving.duckdb")]

Nothing is printed here (dbt's own output aside, unless ``quiet``): each caller tells the steps its own way,
as they finish (``on_step``) or from the result. ``serving.duckdb`` is replaced only when the build and the
checks passed (or the checks were skipped); files with rejects do not stop a run unless
``stop_on_rejects`` (the demo's data must load cleanly).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ingest import dbt_runner
from ingest.generate._landing import landing_day
from ingest.home import Home
from ingest.intake.listing import iter_input_files
from ingest.intake.result import FileResult
from ingest.plugins import GENERATORS, public_modules
from ingest.warehouse.database import close, connect
from ingest.warehouse.loading import ingest_files
from ingest.warehouse.retention import apply_retention
from ingest.warehouse.serving import publish

if TYPE_CHECKING:
    from quality.report import RunReport

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


@dataclass
class Step:
    name: str  # generate (demo only) | ingest | build | check | publish
    status: str  # passed | failed | skipped
    summary: str  # one line: what the step did, or that it failed
    problems: list[str] = field(default_factory=list)  # why it failed: rejected files, failed expectations


@dataclass
class PipelineResult:
    steps: list[Step] = field(default_factory=list)  # the steps that ran, in order
    files: list[FileResult] = field(default_factory=list)  # the ingest step's, one per file
    validation: RunReport | None = None  # the check step's
    generated: list[Path] = field(default_factory=list)  # the demo's files, written into landing/
    night: dt.date | None = None  # the demo's night whose files the steps take in (demo_nights)

    @property
    def ok(self) -> bool:
        return all(step.status != FAILED for step in self.steps)

    @property
    def failed(self) -> Step | None:
        return next((step for step in self.steps if step.status == FAILED), None)

    def step(self, name: str) -> Step | None:
        return next((step for step in self.steps if step.name == name), None)


OnStep = Callable[[Step, PipelineResult], None]
OnFile = Callable[[int, int, FileResult], None]  # (files done, files in all, the file's result)


# -- ingest ------------------------------------------------------------------------------------------

def ingest_options(home: Home, ddl: list[str] | None = None) -> dict:
    """Options every parser may read: user DDL files (--ddl) and the home's ddl/ folder."""
    return {"ddl_paths": [Path(p) for p in ddl or []], "home_ddl_dir": home.root / "ddl"}


def ingest_paths(home: Home, paths: list[Path], *, format_name: str | None = None, options: dict | None = None,
                 on_file: OnFile | None = None) -> list[FileResult]:
    """Every file named or below a folder named, each all or nothing; a missing path raises FileNotFoundError
    before anything loads."""
    files = iter_input_files(paths)
    options = options if options is not None else ingest_options(home)
    con = connect(home)
    results: list[FileResult] = []
    try:
        for result in ingest_files(con, files, format_name=format_name, options=options):
            results.append(result)
            if on_file is not None:
                on_file(len(results), len(files), result)
    finally:
        close(con, "closing the warehouse after ingest")
    return results


def ingest_summary(results: list[FileResult]) -> dict:
    """What ``perfdb --json ingest`` prints: counts by status, records and rows, and every file's result."""
    return {
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
        "duplicate_rows": sum(r.duplicate_rows for r in results),
        "conflicting_rows": sum(r.conflicting_rows for r in results),
        "results": [
            {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(r).items()} for r in results
        ],
    }


def ingest_line(summary: dict) -> str:
    return (
        f"{summary['files']} files: {summary['loaded']} loaded, {summary['with_rejects']} with rejects, "
        f"{summary['rejected']} rejected, {summary['failed']} failed, {summary['duplicates']} already ingested; "
        f"{summary['rows_loaded']} rows loaded, {summary['rows_rejected']} rejected, {summary['rows_skipped']} skipped"
        + (f"; {summary['conflicting_rows']} rows contradict another file's copy, {summary['duplicate_rows']} "
           "duplicate one (see raw.key_conflicts)" if summary["conflicting_rows"] or summary["duplicate_rows"] else "")
    )


# -- the pipeline ------------------------------------------------------------------------------------

@dataclass
class Engine:
    """What the four steps do on one target: DuckDB here (``run``), Spark in ``ingest.lake.pipeline``."""
    ingest: Callable[[OnFile | None], list[FileResult]]  # landing/ loaded: one result per file
    build: Callable[[], str | None]  # the build's summary line; None when it failed
    validate: Callable[[], RunReport]
    publish: Callable[[bool], Path]  # (whether the check ran) -> the serving file
    build_failed: str = "dbt build failed"


def run_steps(engine: Engine, *, check: bool = True, stop_on_rejects: bool = False, build_only: bool = False,
              on_file: OnFile | None = None, on_step: OnStep | None = None,
              result: PipelineResult | None = None) -> PipelineResult:
    """Ingest, build, check (unless ``check`` is False), publish, told step by step; steps after a failed
    build or check do not run, nor any after rejects when ``stop_on_rejects``, nor any after the build when
    ``build_only`` (an earlier night of the demo: the last night's check covers what it loaded)."""
    result = result if result is not None else PipelineResult()

    def done(step: Step) -> bool:
        return _done(result, step, on_step)

    result.files = engine.ingest(on_file)
    rejected = [m for r in result.files if not r.ok for m in (*r.copies, *r.messages)]
    ingested = done(Step("ingest", FAILED if rejected else PASSED, ingest_line(ingest_summary(result.files)), rejected))
    if not ingested and stop_on_rejects:
        return result
    built = engine.build()
    if built is None:
        done(Step("build", FAILED, engine.build_failed))
        return result
    done(Step("build", PASSED, built))
    if build_only:
        return result
    if check:
        report = result.validation = engine.validate()
        problems = ([report.error] if report.error else []) + [o.headline() for o in report.failures]
        summary = (f"{len(report.suites_validated)} suites validated, {len(report.skipped)} skipped, "
                   f"{len(report.outcomes)} expectations, {len(report.failures)} failed")
        if not done(Step("check", FAILED if problems else PASSED, summary, problems)):
            return result
    else:
        done(Step("check", SKIPPED, "checks skipped"))
    done(Step("publish", PASSED, f"published {engine.publish(check)}"))
    return result


def run(home: Home, *, paths: list[Path] | None = None, check: bool = True, stop_on_rejects: bool = False,
        build_only: bool = False, quiet: bool = False, on_file: OnFile | None = None, on_step: OnStep | None = None,
        result: PipelineResult | None = None) -> PipelineResult:
    """Ingest ``paths`` (default landing/), build, check, publish on the home's DuckDB warehouse; ``quiet``
    keeps dbt's output back (it is printed on stderr when the build fails)."""

    def build() -> str | None:
        if dbt_runner.build(home, quiet=quiet) != 0:
            return None
        return f"{dbt_runner.last_run_summary(home)}; {apply_retention(home).line()}"

    def validate() -> RunReport:
        from quality.runner import validate_warehouse  # Great Expectations is heavy: imported only to check

        return validate_warehouse(home, everything=False)  # the slice loaded since the last pass

    engine = Engine(ingest=lambda on: ingest_paths(home, [home.landing] if paths is None else paths, on_file=on),
                    build=build, validate=validate, publish=lambda checked: publish(home))
    return run_steps(engine, check=check, stop_on_rejects=stop_on_rejects, build_only=build_only,
                     on_file=on_file, on_step=on_step, result=result)


def _done(result: PipelineResult, step: Step, on_step: OnStep | None) -> bool:
    """The step recorded and told to the caller; False when it failed."""
    result.steps.append(step)
    if on_step is not None:
        on_step(step, result)
    return step.status != FAILED


def write_demo_landing(home: Home, seed: int) -> list[Path]:
    """Every generator that offers a demo data set writes it into landing/."""
    written: list[Path] = []
    for module in public_modules(GENERATORS):
        demo_data = getattr(module, "demo", None)
        if demo_data is not None:
            written.extend(demo_data(home, seed=seed))
    return written


def demo_nights(paths: list[Path]) -> list[tuple[dt.date, list[Path]]]:
    """The demo's files by the night that takes them in: those that landed in one month (``landing_day``), on
    the last day one of them landed. So the demo's two months build as a site's nights would have built them,
    month by month as seed 001 reviews projected against actual growth (L1866-1872), and the forecasts of the
    earlier nights meet the peaks measured after them.

        demo_nights(files) == [(date(2026, 1, 26), [...]), (date(2026, 2, 23), [...]), (date(2026, 3, 6), [...])]
    """
    by_month: dict[tuple[int, int], list[tuple[dt.date, Path]]] = {}
    for path in paths:
        day = landing_day(path)
        by_month.setdefault((day.year, day.month), []).append((day, path))
    return [(max(day for day, _ in landed), sorted(path for _, path in landed))
            for _, landed in sorted(by_month.items())]


def demo(home: Home, seed: int, *, check: bool = True, quiet: bool = True, on_file: OnFile | None = None,
         on_step: OnStep | None = None) -> PipelineResult:
    """The demo data set generated into landing/, then ``run`` night by night (``demo_nights``): each night
    ingests and builds the files that landed by then (incrementally: what they touched), the last one also
    checks what every night loaded and publishes; it stops at the first rejected file."""
    result = PipelineResult(generated=write_demo_landing(home, seed))
    nights = demo_nights(result.generated)
    _done(result, Step("generate", PASSED, f"generated {len(result.generated)} demo files in {home.landing}, "
                       f"landing over {len(nights)} nights"), on_step)
    for n, (night, paths) in enumerate(nights, 1):
        result.night = night
        run(home, paths=paths, check=check, stop_on_rejects=True, build_only=n < len(nights), quiet=quiet,
            on_file=on_file, on_step=on_step, result=result)
        if not result.ok:
            break
    return result
