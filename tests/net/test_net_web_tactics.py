"""What the web client needs for WoS Tactics (issue 34), without a browser: a battle's art
over HTTP (the map as the engine loaded it, PNG tiles and recoloured skins, checked WAVs,
content-addressed and immutable, nothing else reachable), the Book of Tactics' choices,
a pack with a cut skin and a cut sound (placeholders, silence and the problems listed),
finished matches step by step, and the server's ladder at the end of a battle."""

from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path

import msgspec
import numpy as np

from suite.net import protocol as P
from suite.net.client.client import play_bot
from suite.net.server.ladder import Ladder, entrant_names
from suite.tactics.assets.png import encode_png
from suite.tactics.assets.wav import read_wav
from suite.tactics.rules.packs import default_pack_dir

from .helpers import close_all, connect, run, seated_room, serving, until
from .test_net_web import answers, get


def cut_pack(folder: Path) -> Path:
    """The shipped pack with its archer's skin and its hit sound cut short."""
    shutil.copytree(default_pack_dir(), folder)
    for name, keep in (("skins/archer.bmp", 300), ("sounds/hit.wav", 30)):
        path = folder / name
        path.write_bytes(path.read_bytes()[:keep])
    return folder


def test_png_files_are_plain_rgba_pngs() -> None:
    image = np.zeros((2, 3, 4), dtype=np.uint8)
    image[0, 0] = (255, 0, 0, 255)
    data = encode_png(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")
    assert int.from_bytes(data[16:20], "big") == 3 and int.from_bytes(data[20:24], "big") == 2
    assert encode_png(image) == data  # the same pixels, the same bytes (and URL)


def test_a_battles_art_is_served_content_addressed_as_the_engine_loaded_it(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with serving(tmp_path / "data") as server:
            host = await connect(server, "ann")
            await host.create("tactics", {"players": 2, "map": 3, "army_size": 3})
            assert host.code is not None
            got = await answers(host, P.TacticsArtRequest(code=host.code), P.TacticsArtMsg)
            art = got[0]
            assert isinstance(art, P.TacticsArtMsg) and art.problems == ()
            status, headers, body = await get(server, art.url)
            assert status == 200 and headers["content-type"] == "application/json"
            assert headers["cache-control"] == "public, max-age=31536000, immutable"
            assert art.url == f"/pack/{hashlib.sha256(body).hexdigest()}.json"
            doc = msgspec.json.decode(body, type=P.TacticsArt)
            state = server.rooms[host.code].state
            grid = state.pack.grids[state.map_id]  # type: ignore[attr-defined]
            size = doc.size
            assert size == grid.size and doc.name == "Lava Keep"
            tiles = np.frombuffer(base64.b64decode(doc.tiles), dtype=np.uint8).reshape(size, size)
            heights = np.frombuffer(base64.b64decode(doc.heights), dtype=np.uint8)
            assert (tiles == grid.tiles).all()
            assert (heights.reshape(size, size) == grid.elevation).all()
            assert heights.max() > 0  # a generated bumpy map
            used = {int(i) for i in np.unique(grid.tiles)} - {0}
            assert {t.index for t in doc.tile_table} == used
            on_field = {(u.kind, state.colours[u.seat]) for u in state.units}  # type: ignore[attr-defined]
            assert {(s.piece, s.army) for s in doc.skins} == on_field
            for url in [t.url for t in doc.tile_table] + [s.url for s in doc.skins]:
                status, headers, png = await get(server, url)
                assert status == 200 and headers["content-type"] == "image/png"
                assert png.startswith(b"\x89PNG") and url.endswith(
                    hashlib.sha256(png).hexdigest() + ".png"
                )
            sounds = [u for s in doc.sound_sets for u in s.urls]
            assert sounds and doc.named_sets.keys() >= {"turn", "win", "lose"}
            status, headers, wav = await get(server, sounds[0])
            assert headers["content-type"] == "audio/wav" and read_wav(wav, "x").frames > 0
            # the same battle is built once; nothing else is reachable under /pack/
            again = await answers(host, P.TacticsArtRequest(code=host.code), P.TacticsArtMsg)
            assert again[0] == art
            missing = "/pack/" + "0" * 64 + ".png"
            for path in (missing, "/pack/../tactics_ini.txt", "/pack/x.png", art.url + "x"):
                assert (await get(server, path))[0] == 404
            assert (await get(server, art.url, "HEAD"))[2] == b""
            refused = await answers(host, P.TacticsArtRequest(code="NOPE"), P.TacticsArtMsg)
            assert isinstance(refused[0], P.Error) and refused[0].code == "no_room"
            await close_all([host])

    run(main())


def test_the_book_of_tactics_choices_come_from_the_pack(tmp_path: Path) -> None:
    async def main() -> None:
        cut_pack(tmp_path / "data" / "packs" / "broken")
        async with serving(tmp_path / "data") as server:
            host = await connect(server, "ann")
            got = await answers(host, P.TacticsSetupRequest(), P.TacticsSetup)
            setup = got[0]
            assert isinstance(setup, P.TacticsSetup) and setup.pack is None
            assert setup.packs == ("broken",) and setup.formation_side == 3
            kinds = {m.name: m.elevation for m in setup.maps}
            assert kinds["Green Meadow"] == "flat" and kinds["Lava Keep"].startswith("bumpy")
            assert kinds["Great Field"] == "elevation bitmap"
            assert 0 in setup.pieces_per_turn and setup.max_pieces == 9
            archer = next(p for p in setup.pieces if p.name == "Archer")
            assert archer.short == "17/7" and setup.problems == ()
            assert len(P.encode(setup)) < P.MAX_MESSAGE
            broken = await answers(host, P.TacticsSetupRequest(pack="broken"), P.TacticsSetup)
            assert any("skins/archer.bmp" in p for p in broken[0].problems)
            too_long = await answers(host, P.TacticsSetupRequest(pack="x" * 65), P.TacticsSetup)
            assert isinstance(too_long[0], P.Error) and too_long[0].code == "bad_message"
            for name in ("../broken", "/etc", "nope", "a/b"):
                refused = await answers(host, P.TacticsSetupRequest(pack=name), P.TacticsSetup)
                assert isinstance(refused[0], P.Error) and refused[0].code == "no_pack"
                assert str(tmp_path) not in refused[0].message
            await close_all([host])

    run(main())


def test_a_cut_skin_is_a_placeholder_and_a_cut_sound_stays_silent(tmp_path: Path) -> None:
    async def main() -> None:
        cut_pack(tmp_path / "data" / "packs" / "broken")
        async with serving(tmp_path / "data") as server:
            host = await connect(server, "ann")
            armies = [[2, 0, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0, 0]]
            await host.create("tactics", {"players": 2, "pack": "broken", "armies": armies})
            assert host.code is not None
            got = await answers(host, P.TacticsArtRequest(code=host.code), P.TacticsArtMsg)
            art = got[0]
            assert isinstance(art, P.TacticsArtMsg)
            assert any(p.startswith("skins/archer.bmp: ") for p in art.problems)
            assert any(p.startswith("sounds/hit.wav: ") for p in art.problems)
            assert all(str(tmp_path) not in p for p in art.problems)
            doc = msgspec.json.decode((await get(server, art.url))[2], type=P.TacticsArt)
            archer = next(s for s in doc.skins if s.piece == 2)
            status, _, png = await get(server, archer.url)
            assert status == 200 and png.startswith(b"\x89PNG")  # the placeholder
            hit = next(s for s in doc.sound_sets if s.name == "hit")
            assert hit.urls == ()  # its only sound is cut: silent, never served
            await close_all([host])

    run(main())


def test_a_finished_battle_goes_on_the_ladder_and_is_drawn_for_its_replay(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with serving(tmp_path / "data") as server:
            config = {"players": 2, "map": 1, "army_size": 1, "max_rounds": 2}
            clients = await seated_room(server, "tactics", config, humans=1, bots={1: "normal"})
            host = clients[0]
            code = host.code
            assert code is not None
            told: list[P.TacticsResult] = []
            host.listeners.append(
                lambda m: told.append(m) if isinstance(m, P.TacticsResult) else None
            )
            await play_bot(host)
            await until(lambda: host.room is not None and host.room.phase == "over")
            # the end put the battle on the server's ladder: the room is told, and anyone
            # who asks later
            await until(lambda: bool(told))
            got = await answers(host, P.TacticsResultRequest(code=code), P.TacticsResult)
            result = got[0]
            assert isinstance(result, P.TacticsResult) and result == told[0]
            assert [line.human for line in result.lines] == [True, False]
            assert result.lines[0].rating is not None and result.lines[1].rating is None
            unknown = await answers(host, P.TacticsResultRequest(code="ZZZZ"), P.TacticsResult)
            assert unknown[0] == P.TacticsResult(code="ZZZZ", lines=())
            art = await answers(host, P.TacticsArtRequest(code=code), P.TacticsArtMsg)
            assert isinstance(art[0], P.TacticsArtMsg)
            # a replay's step (the room's shared replay) and, once the room is forgotten,
            # its art from the stored match
            step = await answers(host, P.ReplayStepRequest(code=code, step=1), P.ReplayView)
            assert isinstance(step[0], P.ReplayView) and step[0].game == "tactics"
            server.tick()
            server._forget_room(server.rooms[code])
            again = await answers(host, P.TacticsArtRequest(code=code), P.TacticsArtMsg)
            assert again[0] == art[0]
            await close_all(clients)

    run(main())


def test_the_ladder_rates_the_people_of_a_battle(tmp_path: Path) -> None:
    ladder = Ladder(tmp_path)
    outcome = {"winners": [1], "places": [[1], [0], [2]], "reason": "one army left"}
    result = ladder.record("ABC", ["ann", "bea", "bot"], [True, True, False], [2, 0, 2], outcome)
    by_name = {line.name: line for line in result.lines}
    assert by_name["bea"].change == 16.0 and by_name["ann"].change == -16.0
    assert by_name["bea"].wins == 1 and by_name["ann"].losses == 1
    assert by_name["bot"].rating is None and by_name["bot"].change == 0.0
    assert (tmp_path / "tactics_ladder.sqlite").is_file()
    assert entrant_names(["x", "y", "x"]) == ["x (seat 1)", "y", "x (seat 3)"]
