"""The template a new format starts from (docs/templates/) keeps working: its own tests run here, and its
parser, registered for the test, loads its golden sample through the real warehouse."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from ingest.formats import registry
from ingest.home import Home
from ingest.warehouse.database import connect
from ingest.warehouse.loading import ingest_file

TEMPLATES = Path(__file__).resolve().parents[2] / "docs" / "templates"


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, TEMPLATES / file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # the template's test imports the parser by this name
    spec.loader.exec_module(module)
    return module


template = _load("template_parser", "template_parser.py")
template_tests = _load("template_parser_tests", "test_template_parser.py")
# pytest collects the template's tests from this module's names
test_golden_sample_gives_one_row_per_sample = template_tests.test_golden_sample_gives_one_row_per_sample
test_a_bad_line_is_rejected_with_its_line_and_the_others_load = (
    template_tests.test_a_bad_line_is_rejected_with_its_line_and_the_others_load
)
test_sniff_takes_vmstat_t_output_only = template_tests.test_sniff_takes_vmstat_t_output_only
test_a_file_without_the_headings_is_not_vmstat = template_tests.test_a_file_without_the_headings_is_not_vmstat


@pytest.fixture
def registered(monkeypatch):
    """The template parser among the registry's parsers, for this test only."""
    parsers = registry.all_parsers()
    monkeypatch.setattr(registry, "all_parsers", lambda: tuple(sorted(
        (*parsers, template.PARSER), key=lambda p: (p.priority, p.format))))
    return template.PARSER


def test_the_template_parser_loads_its_sample_through_the_warehouse(tmp_path, registered):
    home = Home(tmp_path / "home").create()
    path = home.landing / "web01__vmstat.txt"
    path.write_bytes((TEMPLATES / "vmstat-t.out").read_bytes() + b" 5 0 0 1 2 3 4 garbled\n")
    con = connect(home)
    try:
        result = ingest_file(con, path)  # the format sniffed from the content, as `perfdb ingest` does
        rows = con.execute(
            "select record_ordinal, line_number, cast(sampled_at as varchar), time_zone, free_bytes, "
            "blocks_out_per_s, user_pct, system_pct, idle_pct from raw.linux_vmstat order by record_ordinal"
        ).fetchall()
        rejects = con.execute("select line_number, record_ordinal, reason from raw.rejects").fetchall()
        manifest = con.execute(
            "select format, status, records_read, rows_loaded, rows_rejected from raw.ingest_files"
        ).fetchone()
    finally:
        con.close()
    assert (result.format, result.status) == ("template.vmstat", "loaded_with_rejects")
    assert rows == [
        (0, 3, "2026-11-25 16:52:53", "UTC", 18_784_264 * 1024, 3446, 66, 8, 26),
        (1, 4, "2026-11-25 16:52:54", "UTC", 18_784_264 * 1024, 0, 92, 8, 0),
        (2, 5, "2026-11-25 16:52:55", "UTC", 18_784_264 * 1024, 5872, 82, 18, 0),
    ]
    assert rejects == [(6, 3, "line 6: expected 17 numbers and a time YYYY-MM-DD HH:MM:SS, found "
                              "'5 0 0 1 2 3 4 garbled'")]
    assert manifest == ("template.vmstat", "loaded_with_rejects", 4, 3, 1)
