"""`make up` as a user runs it: settings exported in the shell win over the .env file, which fills in the
rest; the admin password is set when the admin is created and kept by every later start; Superset runs
on gunicorn. Two real starts of `make up` on a free port, each stopped through its own process group.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pytest
import requests

import superset_stack
from ingest import serve
from ingest.home import Home

REPO = Path(__file__).resolve().parents[2]
# make's own steps come first (uv sync of both environments, a no-op once they are in step), then
# Superset's migrations and the import
START_TIMEOUT_S = 600


def start_make_up(home: Home, env_file: Path, env: dict[str, str], log: Path) -> tuple[subprocess.Popen, str]:
    superset_stack.superset_python()  # fails with instructions when Superset's virtualenv is missing
    port = superset_stack.free_port()
    with log.open("ab") as out:
        process = subprocess.Popen(
            ["make", "--no-print-directory", "-C", str(REPO), "up", f"HOME_DIR={home.root}", f"ENV_FILE={env_file}",
             f"PORT={port}"],
            env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(f"make up exited with {process.returncode}:\n{log.read_text()[-4000:]}")
            try:
                if requests.get(f"{url}/health", timeout=10).status_code == 200:
                    return process, url
            except (requests.ConnectionError, requests.Timeout):  # not up yet, or busy starting
                pass
            time.sleep(0.5)  # polling a starting server, bounded by the deadline
        pytest.fail(f"make up did not answer on {url}/health:\n{log.read_text()[-4000:]}")
    except BaseException:
        stop(process)  # whatever went wrong, nothing of this start outlives the test
        raise


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)  # make, perfdb serve and gunicorn: the group this test started
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def logs_in(url: str, username: str, password: str) -> bool:
    r = requests.post(f"{url}/api/v1/security/login", timeout=60,
                      json={"username": username, "password": password, "provider": "db", "refresh": False})
    assert r.status_code in (200, 401), r.text[:500]
    return r.status_code == 200


def test_make_up_prefers_the_environment_to_env_file_and_keeps_the_admin_password(tmp_path):
    home = Home(tmp_path / "home").create()
    home.serving_path.parent.mkdir(parents=True, exist_ok=True)
    duckdb.connect(str(home.serving_path)).close()  # an empty published warehouse is enough to start
    from_file, exported, changed = (secrets.token_urlsafe(12) for _ in range(3))
    env_file = tmp_path / "dotenv"
    env_file.write_text(
        "# settings for make up\n"
        f"SUPERSET_SECRET_KEY={secrets.token_urlsafe(42)}\n"
        f"export SUPERSET_ADMIN_PASSWORD='{from_file}'\n"
        "SUPERSET_ADMIN_USERNAME=analyst\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUPERSET_")}
    env.update(SUPERSET_HOME=str(tmp_path / "superset_home"), SUPERSET_ADMIN_PASSWORD=exported, SUPERSET_WORKERS="1",
               PERFDB_SUPERSET_VENV=str(serve.superset_venv()))
    log = tmp_path / "make_up.log"

    process, url = start_make_up(home, env_file, env, log)
    try:
        assert logs_in(url, "analyst", exported)  # the user name from the file, the password from the shell
        assert not logs_in(url, "analyst", from_file)
    finally:
        stop(process)
    output = log.read_text()
    assert "from " + str(env_file) + ": SUPERSET_SECRET_KEY, SUPERSET_ADMIN_USERNAME\n" in output
    assert "created admin user 'analyst'" in output
    assert "Booting worker with pid" in output and "[INFO] Using worker: gthread" in output  # gunicorn

    # a second start with another password in the environment keeps the one set at creation
    process, url = start_make_up(home, env_file, {**env, "SUPERSET_ADMIN_PASSWORD": changed}, log)
    try:
        assert logs_in(url, "analyst", exported)
        assert not logs_in(url, "analyst", changed)
    finally:
        stop(process)
    assert "admin user 'analyst' exists; its password is kept" in log.read_text()


def test_an_env_file_line_that_is_no_setting_is_named(tmp_path, monkeypatch, capsys):
    env_file = tmp_path / "dotenv"
    env_file.write_text("SUPERSET_SECRET_KEY=x\nthis is not a setting\n")
    monkeypatch.delenv("SUPERSET_SECRET_KEY", raising=False)
    assert serve.serve(Home(tmp_path / "home"), env_file=env_file) == 1
    assert capsys.readouterr().err == (
        f"perfdb serve: {env_file}, line 2: expected NAME=value, found 'this is not a setting'\n"
    )
