"""Every golden set: where its inputs lie and which form their ``*.json`` holds (README.md).

One list for the test that compares them (``test_golden.py``) and the step that writes them
(``regenerate.py``): a family gets golden pairs by a line here and its input files, no test code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, NamedTuple

from golden.capture_rows import dumps, golden_form
from golden.parsed_tables import dumps_tables, table_form
from listings.golden_rows import parse as listing_form

TESTS = Path(__file__).resolve().parents[1]


class GoldenSet(NamedTuple):
    family: str
    folder: Path
    patterns: tuple[str, ...]
    form: Callable[[Path], dict]  # what the parser makes of an input
    dumps: Callable[[dict], str]  # the text of its *.json

    def inputs(self) -> list[Path]:
        return sorted({p for pattern in self.patterns for p in self.folder.glob(pattern) if p.suffix != ".json"})


def _listing_dumps(form: dict) -> str:
    return json.dumps(form, indent=1) + "\n"


SETS = (
    GoldenSet("commands", TESTS / "golden" / "commands", ("**/*.out",), golden_form, dumps),
    # MEASURE in its three forms: CSV and MEASCOM fixtures of the parsers' own tests, binary records
    # written by the generator (4 hours of zmscpu and zmsproc)
    GoldenSet("measure", TESTS / "fixtures" / "measure", ("*.csv", "meascom/*.txt"), table_form, dumps_tables),
    GoldenSet("measure", TESTS / "golden" / "measure", ("gold1_*",), table_form, dumps_tables),
    # SMF 70.1, 72.3, 73.1, 74.1 and 119.70, each fixture explained byte by byte in tests/fixtures/smf/README.md
    GoldenSet("smf", TESTS / "fixtures" / "smf", ("*.hex",), table_form, dumps_tables),
    GoldenSet("benchmark", TESTS / "golden" / "benchmark", ("*.jsonl", "*.csv", "*.txt"), table_form, dumps_tables),
    GoldenSet("listings", TESTS / "listings" / "golden", ("*.csv", "*.out"), listing_form, _listing_dumps),
)


def golden_cases() -> list[tuple[GoldenSet, Path]]:
    return [(s, path) for s in SETS for path in s.inputs()]


def expected_path(path: Path) -> Path:
    return path.with_suffix(".json") if path.suffix else path.with_name(path.name + ".json")
