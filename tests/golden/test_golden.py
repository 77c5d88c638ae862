"""Every golden pair of every family: an input file read by the real parser gives exactly its ``*.json``.

The sets (commands, MEASURE in three forms, SMF, benchmarks, listings) are listed once, in ``sets.py``.
The ``*.json`` is written by ``regenerate.py`` only when someone runs it (README.md); a missing or
different ``*.json`` fails here, so a parser change that alters any row is seen in review.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden.sets import SETS, TESTS, expected_path, golden_cases

CASES = golden_cases()


def test_every_family_has_golden_pairs():
    per_family: dict[str, int] = {}
    for golden_set, _ in CASES:
        per_family[golden_set.family] = per_family.get(golden_set.family, 0) + 1
    assert per_family.keys() == {"commands", "measure", "smf", "benchmark", "listings"}
    assert per_family["commands"] >= 40
    assert per_family["measure"] >= 11 and per_family["smf"] >= 4 and per_family["benchmark"] >= 3


@pytest.mark.parametrize("golden_set, case", CASES, ids=[str(c.relative_to(TESTS)) for _, c in CASES])
def test_parse_equals_the_golden_json(golden_set, case: Path):
    expected = expected_path(case)
    if not expected.exists():
        pytest.fail(f"{expected.name} is missing: run tests/golden/regenerate.py {case.relative_to(TESTS.parent)}")
    assert golden_set.form(case) == json.loads(expected.read_text())
