"""Great Expectations, the pandas route: each suite's frame is one whole-dataframe batch.

The GX file context lives under the home (``warehouse/gx/``), never in the repository; its Data Docs
site is ``warehouse/docs/index.html``. Suites are rebuilt from code on every run, so the stored suite
always matches the code that validated. GX renders the docs from every stored validation result, so
only the last ``KEEP_RUNS`` runs are kept there; the full history is in ``audit.validation_results``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import great_expectations as gx
import pandas as pd
from great_expectations.core.run_identifier import RunIdentifier
from great_expectations.data_context.types.base import ProgressBarsConfig

from quality.suite import Suite

DATASOURCE = "perfdb_frames"
BATCH_DEFINITION = "whole_frame"
DOCS_SITE = "perfdb"
KEEP_RUNS = 30
RUN_NAME = re.compile(r"^\d{8}T\d{12}Z$")  # quality.runner.new_run_id(), e.g. 20260105T021500123456Z
EXAMPLES = 5  # failing values (and their row ids) kept per expectation


def file_context(gx_root: Path, docs_dir: Path):
    """The GX project under ``gx_root/gx`` with one Data Docs site, written to ``docs_dir``."""
    context = gx.get_context(mode="file", project_root_dir=str(gx_root))
    site = {
        "class_name": "SiteBuilder",
        "show_how_to_buttons": False,
        "store_backend": {"class_name": "TupleFilesystemStoreBackend", "base_directory": str(docs_dir)},
        "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
    }
    sites = dict(context.variables.data_docs_sites or {})
    if sites != {DOCS_SITE: site}:
        for name in sites:
            context.delete_data_docs_site(name)
        context.add_data_docs_site(site_name=DOCS_SITE, site_config=site)
    _quiet(context)
    return context


def ephemeral_context():
    """An in-memory context: validation without Data Docs or stored results."""
    context = gx.get_context(mode="ephemeral")
    _quiet(context)
    return context


def _quiet(context) -> None:
    # GX draws a progress bar per expectation batch; on a terminal that drowns the failures we print
    if context.variables.progress_bars != ProgressBarsConfig(globally=False):
        context.variables.progress_bars = ProgressBarsConfig(globally=False)
        context.variables.save()


def _batch_definition(context, name: str):
    try:
        datasource = context.data_sources.get(DATASOURCE)
    except (KeyError, LookupError, ValueError):
        datasource = context.data_sources.add_pandas(DATASOURCE)
    try:
        asset = datasource.get_asset(name)
    except LookupError:
        asset = datasource.add_dataframe_asset(name)
    try:
        return asset.get_batch_definition(BATCH_DEFINITION)
    except (KeyError, LookupError):
        return asset.add_batch_definition_whole_dataframe(BATCH_DEFINITION)


def validate_frame(context, suite: Suite, frame: pd.DataFrame, run_id: RunIdentifier):
    """Runs ``suite`` on ``frame``; the result is stored in the context's validation store."""
    batch_definition = _batch_definition(context, suite.name)
    gx_suite = context.suites.add_or_update(gx.ExpectationSuite(name=suite.name, expectations=suite.expectations()))
    definition = context.validation_definitions.add_or_update(
        gx.ValidationDefinition(name=suite.name, data=batch_definition, suite=gx_suite)
    )
    result_format = {"result_format": "SUMMARY", "partial_unexpected_count": EXAMPLES}
    row_id = [c for c in suite.row_id if c in frame.columns]
    if row_id:
        result_format["unexpected_index_column_names"] = row_id
    return definition.run(batch_parameters={"dataframe": frame}, result_format=result_format, run_id=run_id)


def build_docs(context, gx_root: Path, docs_dir: Path) -> Path:
    """Prunes stored results to the last KEEP_RUNS runs, then renders the site; returns its index page."""
    for root in (gx_root / "gx" / "uncommitted" / "validations", docs_dir / "validations"):
        _prune_runs(root, KEEP_RUNS)
    context.build_data_docs(site_names=[DOCS_SITE])
    return docs_dir / "index.html"


def _prune_runs(root: Path, keep: int) -> None:
    if not root.is_dir():
        return
    run_dirs = [p for p in root.rglob("*") if p.is_dir() and RUN_NAME.match(p.name)]
    names = sorted({p.name for p in run_dirs})
    stale = set(names[:-keep]) if len(names) > keep else set()
    for path in run_dirs:
        if path.name in stale:
            shutil.rmtree(path, ignore_errors=True)
