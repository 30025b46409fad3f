"""What `GET /metrics` reports, in the Prometheus text format (prometheus_client).

Each server has its own registry (tests run several servers in one process). Counters
and the latency histogram are updated by the server and its rooms; the gauges (rooms by
phase, connections) are read when the page is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""Seconds from an action's arrival to its broadcast being queued."""

PHASES = ("lobby", "playing", "paused", "over")


def _count_of(counts: Callable[[], Mapping[str, int]], key: str) -> int:
    return counts().get(key, 0)


class Metrics:
    """The server's counters; `render()` is the /metrics page."""

    def __init__(
        self,
        rooms_by_phase: Callable[[], Mapping[str, int]],
        connections: Callable[[], int],
        owned: Callable[[], int] = lambda: 0,
        loop_stall: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        rooms = Gauge("suite_rooms", "Rooms in memory by phase", ["phase"], registry=self.registry)
        for phase in PHASES:
            rooms.labels(phase).set_function(functools.partial(_count_of, rooms_by_phase, phase))
        Gauge(
            "suite_connections", "Open websocket connections", registry=self.registry
        ).set_function(connections)
        self.actions = Counter(
            "suite_actions", "Actions accepted, by game", ["game"], registry=self.registry
        )
        self._actions_of: dict[str, Any] = {}
        """The action counter's child per game (a labels() lookup costs as much as the
        count itself, on every action)."""
        self.refusals = Counter(
            "suite_refusals", "Messages refused, by error code", ["reason"], registry=self.registry
        )
        self.latency = Histogram(
            "suite_action_latency_seconds",
            "Seconds from an action's arrival to its broadcast",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        Gauge(
            "suite_rooms_owned",
            "Rooms this process runs (holds the lease of)",
            registry=self.registry,
        ).set_function(owned)
        Gauge(
            "suite_loop_stall_seconds",
            "The event loop's longest delay in the last 5 seconds",
            registry=self.registry,
        ).set_function(loop_stall)
        self.takeovers = Counter(
            "suite_takeovers",
            "Rooms adopted from the store after their owner went away",
            registry=self.registry,
        )
        self.lease_renewals = Counter(
            "suite_lease_renewals", "Room leases renewed in the presence", registry=self.registry
        )
        self.rooms_created = Counter("suite_rooms_created", "Rooms opened", registry=self.registry)
        self.pruned = Counter(
            "suite_matches_pruned", "Finished matches pruned from the store", registry=self.registry
        )

    def accepted(self, game: str) -> None:
        """Count an action of `game`."""
        child = self._actions_of.get(game)
        if child is None:
            child = self._actions_of[game] = self.actions.labels(game)
        child.inc()

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)
