"""The modules that plug sub-commands into ``perfdb``: every public module of ``ingest.generate`` and
``ingest.reports`` (a name not starting with ``_``) registers itself with ``add_parser(subparsers)``, and a
generator may offer ``demo(home, seed)``. Adding a module is all a new generator or report takes.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Iterator

GENERATORS = "ingest.generate"
REPORTS = "ingest.reports"


def public_modules(package: str) -> Iterator[ModuleType]:
    pkg = importlib.import_module(package)
    for mod in pkgutil.iter_modules(pkg.__path__):
        if not mod.name.startswith("_"):
            yield importlib.import_module(f"{package}.{mod.name}")
