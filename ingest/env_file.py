"""``--env-file``: the ``NAME=value`` settings ``perfdb serve`` and ``perfdb dashboards warm`` take from a file
(``make up`` passes ``.env``) for what the environment does not set. A file such as::

    # .env (git-ignored)
    SUPERSET_SECRET_KEY=3q2+7wLx...
    export SUPERSET_ADMIN_PASSWORD='correct horse'
"""

from __future__ import annotations

import os
from pathlib import Path


class SettingError(Exception):
    """A setting the user has to fix (a line of the file that is no setting, a value that must be set); the
    message says which."""


def load_env_file(path: Path) -> list[str]:
    """Sets the ``NAME=value`` settings of ``path`` that the environment does not already hold (an exported
    value wins); returns the names it set. Blank lines and ``#`` comments are skipped, ``export`` and one
    pair of surrounding quotes are taken off, nothing is expanded."""
    taken = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = line.removeprefix("export ").partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name.isidentifier():
            raise SettingError(f"{path}, line {number}: expected NAME=value, found {line[:60]!r}")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if name not in os.environ:
            os.environ[name] = value
            taken.append(name)
    return taken
