"""The client of `suite serve`: `client.Client` (asyncio, one connection), `session.
RemoteSession` (a game `Session` over it, for the screens), pack sync's cache and replay
documents. It imports nothing of the server, pygame or `suite.ui`."""
