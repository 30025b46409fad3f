"""A whole online game of each kind between bot clients over loopback."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from suite.core.match import game_spec
from suite.net.client.client import play_bot

from .helpers import close_all, run, seated_room, serving

GAMES = {
    "worldwar": ({"players": 3, "map": "classic", "cards": "increasing"}, "easy"),
    "wok": ({"players": 3, "variant": "skirmish", "max_turns": 12}, "general"),
    "tactics": ({"players": 2}, "normal"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_whole_game_between_bot_clients(game: str, tmp_path: Path) -> None:
    config, bot = GAMES[game]

    async def main() -> None:
        async with serving(tmp_path) as server:
            clients = await seated_room(server, game, config, humans=config["players"])
            factory = game_spec(game).bots[bot]
            await asyncio.gather(*(play_bot(c, factory(), seed=i) for i, c in enumerate(clients)))
            outcomes = {str(c.game_over) for c in clients}
            assert len(outcomes) == 1
            over = clients[0].game_over
            assert over is not None and over.outcome is not None
            room = server.rooms[clients[0].code or ""]
            assert room.phase == "over"
            assert room.state.outcome() is not None
            assert await server.store.log_length(room.code) == room.state_id > 0
            await close_all(clients)

    run(main())
