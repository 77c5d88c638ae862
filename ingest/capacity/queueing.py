"""Open queueing models for one resource: M/M/1 and M/M/c.

Seed 001 (Evans, "Capacity Planning Concepts") names response time as what a model predicts but gives no
queueing formula; these are the textbook ones (Kleinrock, *Queueing Systems* vol. 1, 1975, §3.2 and §3.5):

    M/M/1:  R = S / (1 - U)
    M/M/c:  R = S * (1 + C(c, a) / (c * (1 - U))),   a = c * U (offered load in Erlangs)

where S is the service time, U the utilization of each server and C(c, a) the Erlang C probability
that an arrival has to wait. The response factor R / S says how much queueing stretches service.
"""

from __future__ import annotations

import math


def _check_utilization(utilization: float) -> None:
    if not 0.0 <= utilization < 1.0:
        raise ValueError(f"utilization must be in [0, 1), got {utilization}: a saturated server has no steady state")


def _check_servers(servers: int) -> None:
    if int(servers) != servers or servers < 1:
        raise ValueError(f"servers must be a whole number >= 1, got {servers}")


def erlang_b(servers: int, offered_load: float) -> float:
    """Blocking probability of an M/M/c/c system, by the stable recurrence B(k) = aB(k-1) / (k + aB(k-1))."""
    _check_servers(servers)
    if offered_load < 0:
        raise ValueError(f"offered load must be >= 0, got {offered_load}")
    b = 1.0
    for k in range(1, int(servers) + 1):
        b = offered_load * b / (k + offered_load * b)
    return b


def erlang_c(servers: int, offered_load: float) -> float:
    """Probability that an arrival waits in an M/M/c queue (offered_load = c * utilization < c)."""
    _check_servers(servers)
    if not 0.0 <= offered_load < servers:
        raise ValueError(f"offered load must be in [0, {servers}) Erlangs for {servers} servers, got {offered_load}")
    b = erlang_b(servers, offered_load)
    return servers * b / (servers - offered_load * (1.0 - b))


def response_factor(utilization: float, servers: int = 1) -> float:
    """R / S: response time in units of the service time at this utilization of each server."""
    _check_utilization(utilization)
    _check_servers(servers)
    if servers == 1:
        return 1.0 / (1.0 - utilization)
    return 1.0 + erlang_c(servers, servers * utilization) / (servers * (1.0 - utilization))


def mm1_response_time(service_time: float, utilization: float) -> float:
    """M/M/1 response time: R = S / (1 - U)."""
    return service_time * response_factor(utilization, 1)


def mmc_response_time(service_time: float, utilization: float, servers: int) -> float:
    """M/M/c response time with Erlang C; equals the M/M/1 time when servers = 1."""
    return service_time * response_factor(utilization, servers)


def utilization_at_response_factor(servers: int = 1, factor: float = 2.0, tolerance: float = 1e-10) -> float:
    """The utilization of each server at which response time reaches `factor` x the service time.

    The response factor rises monotonically from 1 at U = 0 to infinity at U = 1, so bisection finds
    it; for one server the answer is exact: U = 1 - 1 / factor (0.5 for a doubling).
    """
    _check_servers(servers)
    if factor <= 1.0:
        raise ValueError(f"the response factor is at least 1 (no queueing); got {factor}")
    if servers == 1:
        return 1.0 - 1.0 / factor
    low, high = 0.0, 1.0 - 1e-12
    while high - low > tolerance:
        mid = (low + high) / 2
        if response_factor(mid, servers) < factor:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def grown_utilization(utilization: float, growth: float) -> float:
    """Utilization after the workload grows by `growth` (0.10 = +10 %), service demand per unit unchanged."""
    if growth <= -1.0:
        raise ValueError(f"growth must be above -100 %, got {growth:+.0%}")
    return utilization * (1.0 + growth)


def what_if(utilization: float, growth: float, servers: int = 1) -> dict:
    """Projected utilization and response factors for a growth factor; saturation is said, not divided by zero."""
    projected = grown_utilization(utilization, growth)
    now = response_factor(utilization, servers) if utilization < 1.0 else math.inf
    then = response_factor(projected, servers) if projected < 1.0 else math.inf
    return {
        "utilization": utilization,
        "growth": growth,
        "projected_utilization": projected,
        "response_factor": now,
        "projected_response_factor": then,
        "saturated": projected >= 1.0,
        "doubling_utilization": utilization_at_response_factor(servers, 2.0),
    }
