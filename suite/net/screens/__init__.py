"""The suite's online screens (pygame): Host/Join and the lobby (`lobby`), the public
rooms (`public`) and the games' own screens over a `RemoteSession` (`games`). The only
part of `suite.net` that imports pygame or `suite.ui`."""
