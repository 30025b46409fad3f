"""The match server: `app.MatchServer` (connections and messages), `room.Room` (one
match), the clock, configs, settings, packs and replays it serves, its HTTP side and its
bots. It reaches other processes only through the backends and the cluster's ownership
and routing (`suite.net.backends`, `suite.net.cluster`)."""
