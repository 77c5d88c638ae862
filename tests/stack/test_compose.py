"""docker-compose.yml: valid against the Compose specification, complete, and free of secrets.

There is no Docker engine in CI, so the file is checked the way `docker compose config` would:
interpolated with the values of .env.example (Compose's ``${VAR}``, ``${VAR:-default}``,
``${VAR:?error}`` and ``$$`` rules), then validated against the Compose specification's JSON schema,
vendored in tests/stack/schemas/ (compose-spec/compose-spec, schema/compose-spec.json, Apache-2.0).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
COMPOSE = REPO / "docker-compose.yml"
ENV_EXAMPLE = REPO / ".env.example"
SCHEMA = Path(__file__).resolve().parent / "schemas" / "compose-spec.json"

SECRET_NAME = re.compile(r"(PASSWORD|SECRET|SECRET_KEY|FERNET_KEY|TOKEN)$", re.IGNORECASE)
# ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?message}, ${NAME?message}; $$ is a literal $
VARIABLE = re.compile(r"\$\$|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")
URI_CREDENTIALS = re.compile(r"://[^/:@\s]+:(?P<password>[^@\s]+)@")


class InterpolationError(Exception):
    pass


def interpolate(value, env: dict[str, str]):
    """Compose's variable interpolation over a loaded YAML tree."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(m: re.Match) -> str:
        if m.group(0) == "$$":
            return "$"
        name, op, arg = m.group("name"), m.group("op"), m.group("arg")
        current = env.get(name)
        unset_or_empty = not current
        if op in (":-", "-"):
            missing = unset_or_empty if op == ":-" else current is None
            return arg if missing else current
        if op in (":?", "?"):
            missing = unset_or_empty if op == ":?" else current is None
            if missing:
                raise InterpolationError(f"required variable {name} is missing a value: {arg}")
        return current or ""

    return VARIABLE.sub(one, value)


def read_env_file(path: Path) -> dict[str, str]:
    env = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    return env


@pytest.fixture(scope="module")
def raw() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


@pytest.fixture(scope="module")
def example_env() -> dict[str, str]:
    return read_env_file(ENV_EXAMPLE)


@pytest.fixture(scope="module")
def filled_env(example_env) -> dict[str, str]:
    """.env.example with every secret filled in, as a user's .env would be."""
    return {k: (v or f"test-{k.lower()}") for k, v in example_env.items()}


@pytest.fixture(scope="module")
def compose(raw, filled_env) -> dict:
    return interpolate(raw, filled_env)


def referenced_variables(text: str) -> set[str]:
    return {m.group("name") for m in VARIABLE.finditer(text) if m.group("name")}


def environment_items(service: dict) -> list[tuple[str, str]]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return [tuple(item.split("=", 1)) if "=" in item else (item, "") for item in env]
    return [(k, "" if v is None else str(v)) for k, v in env.items()]


def test_compose_file_validates_against_the_compose_specification(compose):
    schema = json.loads(SCHEMA.read_text())
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(compose), key=lambda e: list(e.path))
    assert not errors, [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors]


def test_the_vendored_schema_rejects_a_broken_file(compose):
    # the validation above means something only if the schema can fail
    broken = json.loads(json.dumps(compose))
    broken["services"]["superset"]["depends_on"]["postgres"]["condition"] = "service_ready"
    schema = json.loads(SCHEMA.read_text())
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(broken))


def test_the_stack_has_the_services_the_issue_asks_for(compose):
    services = compose["services"]
    assert set(services) == {
        "postgres", "airflow-init", "airflow-api-server", "airflow-scheduler", "airflow-dag-processor",
        "superset-init", "superset", "superset-warm",
    }
    for name in ("airflow-init", "airflow-api-server", "airflow-scheduler", "airflow-dag-processor"):
        assert dict(environment_items(services[name]))["AIRFLOW__CORE__EXECUTOR"] == "LocalExecutor"
    assert services["superset"]["command"][0] == "gunicorn"
    assert "--no-serve" in services["superset-init"]["command"]


def test_every_build_context_and_dockerfile_exists(compose):
    built = 0
    for name, service in compose["services"].items():
        build = service.get("build")
        if build is None:
            continue
        build = {"context": build} if isinstance(build, str) else build
        context = (REPO / build.get("context", ".")).resolve()
        assert context.is_dir(), f"{name}: build context {context} does not exist"
        dockerfile = context / build.get("dockerfile", "Dockerfile")
        assert dockerfile.is_file(), f"{name}: {dockerfile} does not exist"
        built += 1
    assert built >= 2


def test_every_file_a_dockerfile_copies_exists(compose):
    for name, service in compose["services"].items():
        build = service.get("build")
        if build is None:
            continue
        context = REPO / build.get("context", ".")
        dockerfile = context / build.get("dockerfile", "Dockerfile")
        for line in dockerfile.read_text().splitlines():
            parts = line.split()
            if parts and parts[0].upper() == "COPY" and not any(p.startswith("--from") for p in parts):
                for source in [p for p in parts[1:-1] if not p.startswith("--")]:
                    assert (context / source).exists(), f"{name}: {dockerfile.name} copies {source}, which does not exist"


def test_every_image_without_a_build_is_built_by_another_service_or_pulled(compose):
    built = {s["image"] for s in compose["services"].values() if "build" in s and "image" in s}
    for name, service in compose["services"].items():
        image = service.get("image", "")
        if "build" not in service and image.startswith("perfdb-"):
            assert image in built, f"{name} uses {image}, which no service builds"


def test_every_volume_is_declared_and_every_bind_mount_exists(compose):
    declared = set(compose.get("volumes") or {})
    used = set()
    for name, service in compose["services"].items():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0] if isinstance(volume, str) else volume.get("source")
            if source.startswith((".", "/")):
                assert (REPO / source).exists(), f"{name}: bind mount {source} does not exist"
            else:
                assert source in declared, f"{name}: volume {source} is not declared"
                used.add(source)
        for env_file in [service["env_file"]] if isinstance(service.get("env_file"), str) else service.get("env_file", []):
            path = env_file if isinstance(env_file, str) else env_file["path"]
            assert (REPO / path).exists(), f"{name}: env_file {path} does not exist"
    assert used == declared, f"declared but unused: {declared - used}"
    assert {"perfdb-landing", "perfdb-warehouse"} <= declared


def test_superset_mounts_the_warehouse_read_only(compose):
    for name in ("superset", "superset-init"):
        assert "perfdb-warehouse:/perfdb/warehouse:ro" in compose["services"][name]["volumes"]


def test_depends_on_conditions_can_be_met(compose):
    services = compose["services"]
    for name, service in services.items():
        for target, spec in (service.get("depends_on") or {}).items():
            assert target in services, f"{name} depends on unknown {target}"
            assert target != name
            if spec["condition"] == "service_healthy":
                assert "healthcheck" in services[target], f"{name} waits for {target} to be healthy; it has no healthcheck"
            if spec["condition"] == "service_completed_successfully":
                assert services[target].get("restart", "no") == "no", f"{target} is a job; it must not restart"
    for long_running in ("postgres", "airflow-api-server", "airflow-scheduler", "airflow-dag-processor", "superset"):
        assert "healthcheck" in services[long_running]


def test_no_service_has_a_hard_coded_secret(raw):
    for name, service in raw["services"].items():
        for key, value in environment_items(service):
            refs = referenced_variables(value)
            if SECRET_NAME.search(key):
                assert VARIABLE.fullmatch(value.strip()), f"{name}: {key} must come from a variable, not {value!r}"
                m = VARIABLE.fullmatch(value.strip())
                assert m.group("op") in (None, ":?", "?"), f"{name}: {key} must not have a default ({value!r})"
            for m in URI_CREDENTIALS.finditer(value):
                assert VARIABLE.fullmatch(m.group("password")), f"{name}: {key} has a literal password in its URI"
            for ref in refs:
                if SECRET_NAME.search(ref):
                    assert f"${{{ref}:?" in value, f"{name}: {key} uses {ref} without requiring it"


def test_env_example_lists_every_setting_and_no_usable_secret(raw, example_env):
    referenced = referenced_variables(COMPOSE.read_text()) - {"HOSTNAME"}  # $${HOSTNAME} is the container's
    assert referenced <= set(example_env), f"missing from .env.example: {sorted(referenced - set(example_env))}"
    secrets = {k for k in example_env if SECRET_NAME.search(k)}
    assert secrets == {
        "POSTGRES_PASSWORD", "AIRFLOW_DB_PASSWORD", "SUPERSET_DB_PASSWORD", "AIRFLOW_FERNET_KEY",
        "AIRFLOW_JWT_SECRET", "AIRFLOW_API_SECRET_KEY", "AIRFLOW_ADMIN_PASSWORD", "SUPERSET_SECRET_KEY",
        "SUPERSET_ADMIN_PASSWORD",
    }
    assert all(example_env[k] == "" for k in secrets)


@pytest.mark.parametrize("secret", ["SUPERSET_SECRET_KEY", "SUPERSET_ADMIN_PASSWORD", "AIRFLOW_FERNET_KEY", "POSTGRES_PASSWORD"])
def test_the_stack_refuses_to_start_with_an_empty_secret(raw, filled_env, secret):
    env = {**filled_env, secret: ""}
    with pytest.raises(InterpolationError, match=secret):
        interpolate(raw, env)


def test_an_unfilled_env_example_does_not_start(raw, example_env):
    with pytest.raises(InterpolationError):
        interpolate(raw, example_env)


def test_published_ports_default_to_localhost(compose):
    for name in ("superset", "airflow-api-server"):
        for port in compose["services"][name]["ports"]:
            assert port.startswith("127.0.0.1:"), f"{name} publishes {port} beyond localhost by default"


def test_the_demo_data_can_be_loaded_on_first_start(compose):
    services = compose["services"]
    assert dict(environment_items(services["airflow-init"]))["PERFDB_DEMO"] == "0"  # off unless asked
    init = (REPO / "docker" / "airflow" / "init.sh").read_text()
    assert ('if [ "${PERFDB_DEMO:-0}" = "1" ] && [ ! -e "$PERFDB_HOME/warehouse/serving.duckdb" ]; then\n'
            '    perfdb --home "$PERFDB_HOME" demo\nfi') in init
    # Superset imports its dashboards after the demo warehouse is published
    assert services["superset-init"]["depends_on"]["airflow-init"] == {"condition": "service_completed_successfully"}


def test_the_compose_file_says_how_files_land(raw):
    header = COMPOSE.read_text().split("\nname: perfdb", 1)[0]
    assert "Docker Compose v2" in header
    # the DAG's convention: one folder per day, complete once its _SUCCESS marker is there
    assert "airflow-scheduler:/perfdb/landing/2026-01-05" in header
    assert "touch /perfdb/landing/2026-01-05/_SUCCESS" in header


def test_superset_keeps_its_chart_cache_on_a_volume_and_it_is_warmed(compose):
    services = compose["services"]
    dockerfile = (REPO / "docker" / "superset" / "Dockerfile").read_text()
    [home] = re.findall(r"SUPERSET_HOME=(\S+)", dockerfile)
    # the folder DATA_CACHE_CONFIG names (dashboards/superset_config.py), made in the image for the volume
    assert f"install -d -o superset {home}/chart_data_cache" in dockerfile
    assert f"superset-chart-cache:{home}/chart_data_cache" in services["superset"]["volumes"]
    # the scheduler runs the DAG's tasks (LocalExecutor), warm_dashboards among them
    env = dict(environment_items(services["airflow-scheduler"]))
    assert env["PERFDB_SUPERSET_URL"] == "http://superset:8088"
    assert env["SUPERSET_ADMIN_PASSWORD"] == "test-superset_admin_password"
    # and once Superset is up after a start (superset-init's import changes the cache keys)
    warm = services["superset-warm"]
    assert warm["command"] == ["perfdb", "dashboards", "warm"]
    assert warm["depends_on"] == {"superset": {"condition": "service_healthy"}}
    assert dict(environment_items(warm))["PERFDB_SUPERSET_URL"] == env["PERFDB_SUPERSET_URL"]
