"""The suite registry: every module in this package that exports ``SUITES`` contributes its suites.

A new source family adds ``quality/suites/<family>.py`` with ``SUITES = [...]`` and edits nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from quality.suite import Suite


@lru_cache(maxsize=1)
def all_suites() -> tuple[Suite, ...]:
    found: list[Suite] = []
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        found.extend(getattr(module, "SUITES", ()))
    names = [s.name for s in found]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise ValueError(f"suite names must be unique; defined more than once: {', '.join(duplicated)}")
    return tuple(sorted(found, key=lambda s: s.name))


def by_name(name: str) -> Suite:
    for suite in all_suites():
        if suite.name == name:
            return suite
    raise KeyError(f"unknown suite {name!r}; known suites: {', '.join(s.name for s in all_suites())}")
