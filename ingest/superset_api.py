"""Superset's REST API as its admin user: the one client of ``perfdb dashboards warm``, ``perfdb serve``'s
warm-up, ``dashboards/export.py`` and the stack tests.

The standard library only (no ``requests``), so that ``dashboards/export.py`` runs from Superset's own
virtualenv and the ``perfdb`` package adds no HTTP dependency. A login posts the admin's name and password
to ``/api/v1/security/login`` and sends the JWT it answers as a bearer token from then on::

    POST /api/v1/security/login  {"username": "admin", "password": "...", "provider": "db", "refresh": false}
    200  {"access_token": "eyJhbGciOiJIUzI1NiIs...", ...}

Chart-data and export requests need nothing more; the rest of the writing API (SQL Lab, saving) also needs
the CSRF token of ``/api/v1/security/csrf_token/`` (``csrf=True``) and the session cookie it belongs to.
"""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

TIMEOUT_S = 300  # one request; a chart query is bounded by PERFDB_QUERY_TIMEOUT_S on the server


class SupersetError(Exception):
    """Superset could not be reached, or refused a request; the message says which."""


@dataclass
class Reply:
    """One answer, whatever its status (``raise_for_status`` for the requests that must succeed)."""

    method: str
    path: str
    status_code: int
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode(errors="replace")

    def json(self):
        return json.loads(self.content)

    def raise_for_status(self) -> Reply:
        if self.status_code >= 400:
            raise SupersetError(f"{self.method} {self.path}: HTTP {self.status_code}: {self.text[:300]}")
        return self


class SupersetApi:
    """Superset at ``url``, logged in as ``username``."""

    def __init__(self, url: str, username: str, password: str, *, csrf: bool = False, timeout_s: float = TIMEOUT_S):
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        # the session cookie: Superset ties the CSRF token to it
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.headers: dict[str, str] = {}
        login = self.post("/api/v1/security/login", body={
            "username": username, "password": password, "provider": "db", "refresh": False})
        self.headers["Authorization"] = f"Bearer {login.raise_for_status().json()['access_token']}"
        if csrf:
            token = self.get("/api/v1/security/csrf_token/").raise_for_status().json()["result"]
            self.headers.update({"X-CSRFToken": token, "Referer": self.url})

    def request(self, method: str, path: str, body: dict | None = None, params: dict | None = None) -> Reply:
        """The answer to one request; an HTTP error status is an answer too, an unreachable server is not."""
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        # a JSON content type only with a body: Superset answers a GET that declares one with 400 Bad Request
        headers = self.headers if body is None else {**self.headers, "Content-Type": "application/json"}
        request = urllib.request.Request(f"{self.url}{path}{query}", method=method, headers=headers,
                                         data=None if body is None else json.dumps(body).encode())
        try:
            with self.opener.open(request, timeout=self.timeout_s) as response:  # the URL is the user's
                return Reply(method, path, response.status, response.read())
        except urllib.error.HTTPError as e:
            return Reply(method, path, e.code, e.read())
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            raise SupersetError(f"cannot reach Superset at {self.url}: {getattr(e, 'reason', e)}") from None

    def get(self, path: str, params: dict | None = None) -> Reply:
        return self.request("GET", path, params=params)

    def post(self, path: str, body: dict | None = None) -> Reply:
        return self.request("POST", path, body=body)

    def result(self, path: str, params: dict | None = None):
        """The ``result`` of a GET that must succeed."""
        return self.get(path, params).raise_for_status().json()["result"]

    def all(self, resource: str) -> list[dict]:
        """Every ``resource`` (``dashboard``, ``chart``, ``dataset``, ``database``), up to 100 of them."""
        return self.result(f"/api/v1/{resource}/", {"q": "(page_size:100)"})

    def data(self, query_context: dict) -> list[dict]:
        """The chart-data answer, one result per query (each says whether it came from the cache)."""
        return self.post("/api/v1/chart/data", body=query_context).raise_for_status().json()["result"]
