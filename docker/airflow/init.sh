#!/bin/sh
# One-off job before the Airflow services start: migrate Airflow's metadata database, give the
# simple auth manager the admin password from the environment (it would otherwise generate one), and
# with PERFDB_DEMO=1 publish the demo warehouse on the first start.
set -eu

: "${AIRFLOW_ADMIN_PASSWORD:?AIRFLOW_ADMIN_PASSWORD is empty; refusing to start}"

airflow db migrate

python - <<'PY'
import json
import os
from pathlib import Path

path = Path(os.environ["AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE"])
path.parent.mkdir(parents=True, exist_ok=True)
user = os.environ.get("AIRFLOW_ADMIN_USERNAME") or "admin"
path.write_text(json.dumps({user: os.environ["AIRFLOW_ADMIN_PASSWORD"]}))
path.chmod(0o600)
PY

# PERFDB_DEMO=1: the demo data set, loaded and published on the first start only (the dashboards then
# have something to show before the first night)
if [ "${PERFDB_DEMO:-0}" = "1" ] && [ ! -e "$PERFDB_HOME/warehouse/serving.duckdb" ]; then
    perfdb --home "$PERFDB_HOME" demo
fi
