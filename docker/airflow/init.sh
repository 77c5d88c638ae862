#!/bin/sh
# One-off job before the Airflow services start: migrate Airflow's metadata database and give the
# simple auth manager the admin password from the environment (it would otherwise generate one).
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

