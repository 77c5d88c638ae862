#!/bin/bash
# Runs once, when the postgres-data volume is new: one role and one database each for Airflow's and
# Superset's metadata, with the passwords from .env (never stored in this repository).
set -euo pipefail

: "${AIRFLOW_DB_PASSWORD:?AIRFLOW_DB_PASSWORD is empty}"
: "${SUPERSET_DB_PASSWORD:?SUPERSET_DB_PASSWORD is empty}"

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v airflow_password="$AIRFLOW_DB_PASSWORD" \
    -v superset_password="$SUPERSET_DB_PASSWORD" <<'SQL'
create role airflow login password :'airflow_password';
create database airflow owner airflow;
create role superset login password :'superset_password';
create database superset owner superset;
SQL
