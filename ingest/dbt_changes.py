"""Which incremental models changed since the last build: they need ``perfdb build --full-refresh``.

An incremental day model rebuilds only the days touched since the last build, so after a change of its
SQL, of a model or seed it reads, or of a macro either uses, the days built before still follow the old
definition. dbt writes a manifest on every run, with a checksum of every model and seed and the text of
every macro; the manifest of the last successful build is kept beside it (``dbt_state/manifest.json``)
and compared with the new one, which costs no dbt run:

    stale_incremental_models(previous, current) == ["fct_cpu_shift"]   # after an edit of fct_cpu_shift.sql
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path


def _fingerprints(manifest: dict) -> dict[str, str]:
    """unique_id -> what a change of the node shows in: a model's or seed's checksum, a macro's text."""
    prints = {uid: node["checksum"]["checksum"] for uid, node in manifest["nodes"].items()
              if node["resource_type"] in ("model", "seed")}
    prints.update({uid: macro["macro_sql"] for uid, macro in manifest["macros"].items()})
    return prints


def _upstream(manifest: dict, uid: str, seen: set[str]) -> set[str]:
    """A node, the models, seeds and macros it depends on, and theirs."""
    if uid in seen:
        return seen
    seen.add(uid)
    node = manifest["nodes"].get(uid) or manifest["macros"].get(uid) or {}
    depends = node.get("depends_on", {})
    for parent in [*depends.get("nodes", []), *depends.get("macros", [])]:
        _upstream(manifest, parent, seen)
    return seen


def stale_incremental_models(previous: dict, current: dict) -> list[str]:
    """The incremental models of ``current`` of which something they depend on differs from ``previous``."""
    before, now = _fingerprints(previous), _fingerprints(current)
    stale = []
    for uid, node in current["nodes"].items():
        if node["resource_type"] == "model" and node["config"].get("materialized") == "incremental":
            if any(before.get(dep) != now.get(dep) for dep in _upstream(current, uid, set()) if dep in now):
                stale.append(node["name"])
    return sorted(stale)


def check_and_keep(warehouse_dir: Path, *, full_refresh: bool) -> list[str]:
    """After a successful build: the incremental models stale since the last one (none after a full
    refresh, none on the first build); the new manifest is kept as the state the next build compares to.
    A stale model stays stale until a full refresh: its state is not moved on by an incremental build."""
    current_path = warehouse_dir / "dbt_target" / "manifest.json"
    state = warehouse_dir / "dbt_state" / "manifest.json"
    if not current_path.exists():
        return []
    stale = []
    if state.exists() and not full_refresh:
        stale = stale_incremental_models(json.loads(state.read_text()), json.loads(current_path.read_text()))
    if not stale:
        state.parent.mkdir(exist_ok=True)
        shutil.copyfile(current_path, state)
    return stale
