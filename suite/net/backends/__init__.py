"""The server's cross-process backends, each an interface with a local default.

- The store (`store.MatchStore`): `sqlite.SqliteStore` (default, one process per data
  folder) or `postgres.PgStore` (`--store postgresql://...`, shared by several processes).
- The presence (`presence.Presence`): `presence.LocalPresence` (default, in memory) or
  `redis.RedisPresence` (`--presence redis://...`).

`factory.open_store` and `factory.open_presence` pick one from the settings; PostgreSQL
and Redis are imported only when named, so nothing else needs psycopg or redis installed.
"""
