"""Every Superset dashboard is a dbt exposure that names exactly the models its charts and filters read.

What a dashboard reads comes from the bundle in dashboards/: its charts and native filters name datasets
by uuid, and a dataset reads its `schema.table_name`, or the `schema.table` names in its SQL. The
exposures in dbt_project/models/_superset__exposures.yml must list the same models in depends_on (each
a model file of the layer the dataset reads it from) and the tables dbt does not build in
meta.reads_outside_dbt, so the two cannot drift apart.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
BUNDLE = REPO / "dashboards"
MODELS = REPO / "dbt_project" / "models"
EXPOSURES = MODELS / "_superset__exposures.yml"
DBT_SCHEMAS = ("staging", "intermediate", "marts")
QUALIFIED_TABLE = re.compile(r"\b(raw|audit|seeds|staging|intermediate|marts)\.(\w+)")
REF = re.compile(r"^ref\('(\w+)'\)$")


def _load(folder: str) -> list[dict]:
    return [yaml.safe_load(p.read_text()) for p in sorted((BUNDLE / folder).rglob("*.yaml"))]


def dataset_tables(dataset: dict) -> set[str]:
    """`schema.table` of every table a dataset reads."""
    if dataset.get("sql"):
        return {f"{schema}.{table}" for schema, table in QUALIFIED_TABLE.findall(dataset["sql"])}
    return {f"{dataset['schema']}.{dataset['table_name']}"}


def tables_read_by_dashboards() -> dict[str, set[str]]:
    """Per dashboard slug, the tables its charts and native filters read."""
    datasets = {d["uuid"]: d for d in _load("datasets")}
    charts = {c["uuid"]: c for c in _load("charts")}
    read: dict[str, set[str]] = {}
    for dashboard in _load("dashboards"):
        used = {
            charts[node["meta"]["uuid"]]["dataset_uuid"]
            for node in dashboard["position"].values()
            if isinstance(node, dict) and node.get("type") == "CHART"
        }
        used |= {
            target["datasetUuid"]
            for native_filter in dashboard["metadata"]["native_filter_configuration"]
            for target in native_filter.get("targets", [])
            if "datasetUuid" in target
        }
        read[dashboard["slug"]] = set().union(*(dataset_tables(datasets[uuid]) for uuid in used))
    return read


def model_layers() -> dict[str, str]:
    """Model name -> the layer folder (and so the schema) it is built in."""
    return {path.stem: path.relative_to(MODELS).parts[0] for path in MODELS.rglob("*.sql")}


def exposures_by_slug() -> dict[str, dict]:
    exposures = yaml.safe_load(EXPOSURES.read_text())["exposures"]
    by_slug = {e["meta"]["superset_slug"]: e for e in exposures}
    assert len(by_slug) == len(exposures), "two exposures name the same dashboard"
    return by_slug


def test_the_bundle_has_the_ten_dashboards_each_with_an_exposure():
    read = tables_read_by_dashboards()
    assert len(read) == 10
    assert set(exposures_by_slug()) == set(read)
    titles = {d["slug"]: d["dashboard_title"] for d in _load("dashboards")}
    assert {slug: e["label"] for slug, e in exposures_by_slug().items()} == titles


@pytest.mark.parametrize("slug", sorted(tables_read_by_dashboards()))
def test_each_exposure_names_exactly_what_its_dashboard_reads(slug):
    tables = tables_read_by_dashboards()[slug]
    exposure = exposures_by_slug()[slug]
    refs = [REF.match(entry) for entry in exposure.get("depends_on", [])]
    assert all(refs), f"{exposure['name']}: depends_on holds something other than ref('model'): {exposure['depends_on']}"
    layers = model_layers()
    from_dbt = {table for table in tables if table.split(".")[0] in DBT_SCHEMAS}
    assert {f"{layers.get(m.group(1), '?')}.{m.group(1)}" for m in refs} == from_dbt
    assert set(exposure["meta"].get("reads_outside_dbt", [])) == tables - from_dbt


def test_the_capacity_outlook_dataset_reads_its_tested_model():
    [dataset] = [d for d in _load("datasets") if d["uuid"] == "e76a3898-07d1-469a-9d84-653396357fe2"]
    assert dataset_tables(dataset) == {"marts.rpt_capacity_outlook"}
    assert dataset["sql"] is None  # the modelling lives in dbt, where it is tested
