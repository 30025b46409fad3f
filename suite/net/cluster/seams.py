"""Which seams a server gets: the cluster's on a shared presence, else a process alone's."""

from __future__ import annotations

from typing import Protocol

from suite.net.backends.presence import Presence
from suite.net.backends.store import MatchStore
from suite.net.cluster.ownership import LeasedOwnership, RoomHost
from suite.net.cluster.routing import ForwardingRouting, MessageHost
from suite.net.server.seams import DirectRouting, Ownership, Routing, SoleOwnership


class ServerHost(RoomHost, MessageHost, Protocol):
    """What the seams need of their server (`MatchServer` is one)."""


def seams_for(
    host: ServerHost, store: MatchStore, presence: Presence | None, lease: float
) -> tuple[Ownership, Routing]:
    """The ownership and routing of a server on `store`: leased and forwarding on a
    shared `presence`, sole and direct without one (a process alone)."""
    if presence is None:
        return SoleOwnership(host, store), DirectRouting()
    ownership = LeasedOwnership(host, store, presence, lease)
    return ownership, ForwardingRouting(host, ownership, presence)
