"""Every golden pair: a capture file (``*.out``) read by the real parser gives exactly its ``*.json``.

The ``*.json`` is written by ``regenerate.py`` only when someone runs it (README.md); a missing or
different ``*.json`` fails here, so a parser change that alters any row is seen in review.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden.capture_rows import golden_form

GOLDEN = Path(__file__).resolve().parent
CASES = sorted(GOLDEN.rglob("*.out"))


def test_there_are_golden_cases_and_each_has_its_json():
    assert len(CASES) >= 40
    missing = [str(c.relative_to(GOLDEN)) for c in CASES if not c.with_suffix(".json").exists()]
    assert not missing, f"no expected parse for {missing}: run tests/golden/regenerate.py on them and review it"


@pytest.mark.parametrize("case", CASES, ids=lambda c: str(c.relative_to(GOLDEN)))
def test_parse_equals_the_golden_json(case: Path):
    expected = case.with_suffix(".json")
    if not expected.exists():
        pytest.fail(f"{expected.name} is missing: run tests/golden/regenerate.py {case.relative_to(GOLDEN.parents[1])}")
    assert golden_form(case) == json.loads(expected.read_text())
