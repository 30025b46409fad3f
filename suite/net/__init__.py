"""Online play: the match server, its backends, the cluster, the client and its screens.

The layers, each importing only those below it:

- `protocol` and `packsync`: the wire messages and the rules of pack sync both sides
  share (no I/O of their own).
- `backends`: the store (SQLite, PostgreSQL) and the presence (in memory, Redis), each an
  interface with a local default.
- `server`: `suite serve` (rooms, connections, clock, configs, packs, replays, HTTP).
- `cluster`: which process owns which room, and routing messages to it; the server builds
  it on its store and presence (one process alone owns every room).
- `client`: the asyncio client and `RemoteSession` (no server code, no pygame).
- `screens`: the suite's pygame screens for online play (the only part importing pygame).
"""
