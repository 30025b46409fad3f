"""The downloadable app (issue 36): built by tools/build_bundle.py into build/bundle, then
used from the bundle alone, from a clean environment (no .venv on PATH, no PYTHONPATH, a
new HOME and XDG folders), as a new player would.

The window tests run the app on a real X server (Xvfb) and click with xdotool; a headless
harness of the same code (`Mirror`) says where the buttons are and which moves the game
expects, and the app's own autosave says what the app did. Screenshots go to
tests/artifacts/bundle_*.png.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import shutil
import socket
import subprocess
import tarfile
import time
import urllib.request
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pygame
import pytest

import suite.paths
from suite.core.match import game_spec
from suite.net.client.client import Client, play_bot
from suite.ui.harness import Harness
from suite.ui.launcher import LauncherScene
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.setup import SetupScene

from .app import (
    WINDOW,
    Bundle,
    Mirror,
    XServer,
    built_bundle,
    clean_env,
    require_x_tools,
    running_app,
    user_data,
    wait_for,
)

DOMINATION_MAP = Path(__file__).resolve().parents[1] / "worldwar" / "data" / "archipelago.map"
MB = 1024 * 1024
MAX_UNPACKED = 200 * MB
MAX_PACKED = 80 * MB
LEFT_OUT = ("pytest", "_pytest", "hypothesis", "mypy", "setuptools", "pkg_resources",
            "psycopg", "psycopg_pool", "redis", "PyInstaller", "pip", "tkinter")  # fmt: skip


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    return built_bundle()


@pytest.fixture(scope="module")
def xserver() -> Iterator[XServer]:
    require_x_tools()
    server = XServer()
    try:
        yield server
    finally:
        server.stop()


def run_app(
    bundle: Bundle, env: dict[str, str], *args: str, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bundle.executable), *args],
        cwd=env["HOME"],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def packed_modules(bundle: Bundle) -> set[str]:
    """The Python modules inside the executable's PYZ archive."""
    from PyInstaller.archive.readers import CArchiveReader

    return set(CArchiveReader(str(bundle.executable)).open_embedded_archive("PYZ.pyz").toc)


# -- what the folder and the archive hold ------------------------------------------------------


def test_the_archive_is_named_by_version_and_platform_and_within_size(bundle: Bundle) -> None:
    machine = platform.machine().lower()
    assert bundle.archive.name == f"warsuite-{version('warsuite')}-linux-{machine}.tar.gz"
    unpacked, packed = bundle.record["unpacked_bytes"], bundle.record["packed_bytes"]
    print(f"bundle: {unpacked / MB:.0f} MB unpacked, {packed / MB:.0f} MB packed")
    assert unpacked <= MAX_UNPACKED and packed <= MAX_PACKED
    assert packed == bundle.archive.stat().st_size


def test_the_archive_unpacks_to_an_app_that_runs(bundle: Bundle, tmp_path: Path) -> None:
    with tarfile.open(bundle.archive) as archive:
        archive.extractall(tmp_path / "unpacked", filter="tar")
    app = tmp_path / "unpacked" / "warsuite"
    assert (app / "warsuite.png").is_file()
    desktop = (app / "warsuite.desktop").read_text(encoding="utf-8")
    assert desktop.startswith("[Desktop Entry]\n") and "Name=War Suite" in desktop
    assert "Icon=warsuite" in desktop and "%k" in desktop
    env = clean_env(tmp_path / "home")
    result = subprocess.run(
        [str(app / "warsuite"), "--help"], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: warsuite")
    assert "sim" in result.stdout and "serve" in result.stdout and "desktop" in result.stdout


def test_the_folder_holds_every_asset_the_entry_points_and_the_compiled_engine(
    bundle: Bundle,
) -> None:
    internal = bundle.folder / "_internal"
    shipped = internal / "suite" / "assets"
    source = Path(__file__).resolve().parents[2] / "assets"

    def files(folder: Path) -> set[str]:
        return {
            p.relative_to(folder).as_posix()
            for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }

    assert files(shipped) == files(source)
    # The package's metadata: a dist-info, or the egg-info an editable install leaves.
    (entry_points,) = internal.glob("warsuite[-.]*-info/entry_points.txt")
    text = entry_points.read_text(encoding="utf-8")
    assert "[warsuite.games]" in text
    assert all(f"{game} = suite." in text for game in ("worldwar", "wok", "tactics"))
    modules = packed_modules(bundle)
    assert "suite.worldwar.screens.game" in modules and "suite.net.server.app" in modules
    left_in = sorted({m.split(".")[0] for m in modules} & set(LEFT_OUT))
    assert not left_in, f"the app carries {left_in}"
    assert not [name for name in LEFT_OUT if (internal / name).exists()]
    compiled = sorted(p.name for p in (internal / "suite" / "worldwar" / "rules").glob("*.so"))
    if os.environ.get("SUITE_PURE_PYTHON", "") not in ("", "0") or not shutil.which("cc"):
        pytest.skip("no compiled engine to ship here")
    assert [n for n in compiled if n.startswith("engine.")], compiled
    assert "suite.worldwar.rules.engine" not in modules  # the compiled one is the one loaded
    assert list((internal / "suite").glob("compiled__mypyc*.so"))


# -- the command line --------------------------------------------------------------------------

SIMS = {
    "worldwar": ["--players", "3", "--games", "1", "--bots", "expert,hard,easy"],
    "wok": ["--players", "3", "--games", "1", "--bots", "general,robot,robot"],
    "tactics": ["--players", "2", "--games", "1", "--bots", "normal"],
}


@pytest.mark.parametrize("game", sorted(SIMS))
def test_sim_runs_every_game_from_the_bundle(bundle: Bundle, tmp_path: Path, game: str) -> None:
    started = time.monotonic()
    result = run_app(bundle, clean_env(tmp_path), "sim", game, *SIMS[game])
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"{game}: " in result.stdout and "how games ended" in result.stdout
    assert "Traceback" not in result.stderr
    print(f"bundle sim {game}: {time.monotonic() - started:.1f} s")


def test_a_tactics_pack_of_the_players_own_is_checked_and_played(
    bundle: Bundle, tmp_path: Path
) -> None:
    pack = tmp_path / "home" / "my pack"
    shutil.copytree(Path(__file__).resolve().parents[2] / "assets" / "tactics", pack)
    env = clean_env(tmp_path / "home")
    check = run_app(bundle, env, "tactics", "check", str(pack))
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
    sim = run_app(bundle, env, "sim", "tactics", "--games", "1", "--set", f"pack={pack}")
    assert sim.returncode == 0, sim.stderr[-2000:]
    assert "tactics: 1 games" in sim.stdout


def test_missing_pieces_are_named_in_one_sentence(bundle: Bundle, tmp_path: Path) -> None:
    env = clean_env(tmp_path / "home")
    no_display = run_app(bundle, env)
    assert no_display.returncode == 1
    assert "No display found" in no_display.stderr and "Traceback" not in no_display.stderr

    no_window = run_app(bundle, {**env, "DISPLAY": ":4999"})
    assert no_window.returncode == 1
    assert "could not open its window" in no_window.stderr
    assert "Traceback" not in no_window.stderr

    cluster = run_app(bundle, env, "serve", "--store", "postgresql://nobody@127.0.0.1:1/x",
                      "--port", "0", "--data", str(tmp_path / "data"))  # fmt: skip
    assert cluster.returncode == 2, cluster.stderr
    assert "does not include PostgreSQL" in cluster.stderr and "Traceback" not in cluster.stderr

    # A copy without its assets folder (hard links: the built app is left as it is).
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-al", str(bundle.folder), str(copy)], check=True)
    shutil.rmtree(copy / "_internal" / "suite" / "assets")
    no_assets = subprocess.run(
        [str(copy / "warsuite"), "sim", "worldwar"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert no_assets.returncode == 1
    assert "assets folder is missing" in no_assets.stderr
    assert "Traceback" not in no_assets.stderr


def test_desktop_puts_the_app_in_the_menu(bundle: Bundle, tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    result = run_app(bundle, env, "desktop")
    assert result.returncode == 0, result.stderr
    data = Path(env["XDG_DATA_HOME"])
    entry = (data / "applications" / "warsuite.desktop").read_text(encoding="utf-8")
    assert f'Exec="{bundle.executable.resolve()}"' in entry
    icon = data / "icons" / "hicolor" / "256x256" / "apps" / "warsuite.png"
    assert pygame.image.load(str(icon)).get_size() == (256, 256)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthz(port: int) -> str | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return str(answer.read().decode())
    except OSError:
        return None


def bot_workers(pid: int) -> list[list[str]]:
    """The command lines of `pid`'s children started as multiprocessing workers."""
    import psutil

    out = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            line = child.cmdline()
        except psutil.Error:
            continue
        if "--multiprocessing-fork" in line:
            out.append(line)
    return out


def test_serve_hosts_a_room_that_clients_join_and_its_expert_thinks_in_workers(
    bundle: Bundle, tmp_path: Path
) -> None:
    port = free_port()
    env = clean_env(tmp_path / "home")
    args = ["serve", "--port", str(port), "--data", str(tmp_path / "data"), "--bot-delay", "0"]
    server = subprocess.Popen(
        [str(bundle.executable), *args],
        cwd=env["HOME"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for("the server's /healthz", lambda: server.poll() is not None or healthz(port), 30)
        assert server.poll() is None, server.stderr.read() if server.stderr else ""

        async def match() -> tuple[Any, Any]:
            url = f"ws://127.0.0.1:{port}"
            host = await Client.connect(url, "host")
            await host.create("worldwar", {"players": 3, "map": "random:12:3"})
            assert host.code is not None and host.seat == 0
            guest = await Client.connect(url, "guest")
            await guest.join(host.code, 1)
            assert guest.seat == 1
            await host.seat_bot(2, "expert")
            for client in (host, guest):
                await client.ready()
            hard = game_spec("worldwar").bots["hard"]
            async with asyncio.timeout(150):
                await asyncio.gather(play_bot(host, hard()), play_bot(guest, hard(), seed=1))
            assert host.room is not None
            seats = [seat.bot for seat in host.room.seats]
            over = (host.game_over, guest.game_over)
            await host.close()
            await guest.close()
            return seats, over

        seats, over = asyncio.run(match())
        assert seats[2] == "expert" and all(o is not None for o in over)
        assert bot_workers(server.pid), "the server's expert did not think in a worker process"
        assert "ok" in (healthz(port) or "")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert page.status == 200 and b"<script" in page.read()  # the web client too
    finally:
        server.terminate()
        code = server.wait(20)
        errors = server.stderr.read() if server.stderr else ""
    assert code == 0, errors[-3000:]
    assert "Traceback" not in errors


# -- the window ----------------------------------------------------------------------------


def autosave_replay(env: dict[str, str]) -> dict[str, Any] | None:
    """The replay in the app's World War autosave (None before it is written)."""
    saves = sorted((user_data(env) / "worldwar" / "saves").glob("autosave*.json"))
    if not saves:
        return None
    try:
        document = json.loads(saves[-1].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # being written
    return dict(document["data"]["replay"])


def autosave(env: dict[str, str]) -> list[dict[str, Any]] | None:
    """The actions in the app's World War autosave (None before it is written)."""
    replay = autosave_replay(env)
    return None if replay is None else list(replay["actions"])


def harness_actions(game: GameScene) -> list[dict[str, Any]]:
    import msgspec

    return list(msgspec.to_builtins(game.match.replay)["actions"])


def human_moves_match(
    h: Harness, game: GameScene, env: dict[str, str], timeout: float = 120
) -> list[dict[str, Any]]:
    """Let the bots of both copies play until the human is awaited; the app's autosave
    (written before every human turn) then holds the harness's very actions."""
    deadline = time.monotonic() + timeout
    while game.human_turn() is None:
        assert time.monotonic() < deadline, "the harness's bots never handed over"
        h.frames(1)
    expected = harness_actions(game)

    def saved() -> list[dict[str, Any]] | None:
        actions = autosave(env)
        return actions if actions == expected else None

    wait_for(f"the app's autosave with the harness's {len(expected)} actions", saved, timeout)
    return expected


def colours(path: Path) -> int:
    """How many different colours a screenshot has (a blank window has one or two)."""
    picture = pygame.image.load(str(path))
    small = pygame.transform.scale(picture, (160, 100))
    return len({tuple(small.get_at((x, y)))[:3] for x in range(160) for y in range(100)})


def test_the_launcher_opens_and_a_world_war_turn_is_played_against_the_expert(
    bundle: Bundle, xserver: XServer, tmp_path: Path, artifacts: Path
) -> None:
    env = clean_env(tmp_path / "home")
    # A Domination map dropped where the README says, for the app and for the harness.
    for maps in (user_data(env) / "maps", suite.paths.user_data_dir() / "maps"):
        maps.mkdir(parents=True, exist_ok=True)
        shutil.copy2(DOMINATION_MAP, maps)
    with (
        running_app(bundle.executable, xserver.display, env) as app,
        Harness(size=WINDOW, root=LauncherScene) as h,
    ):
        assert app.size() == WINDOW
        time.sleep(1.0)  # the first frames
        shot = app.screenshot(artifacts / "bundle_launcher.png")
        assert colours(shot) > 200, "the launcher drew nothing"
        mirror = Mirror(h, app)
        launcher = h.scene
        assert isinstance(launcher, LauncherScene)
        card = next(c for c in launcher.cards if c.info.key == "worldwar")
        mirror.click(card.rect, pause=1.0)
        setup = h.scene
        assert isinstance(setup, SetupScene)
        mirror.click_until(setup.map_choice, lambda: setup.map_choice.value.endswith(".map"))
        assert Path(setup.map_choice.value).name == DOMINATION_MAP.name
        mirror.click_until(setup.rows[1].kind, lambda: setup.rows[1].kind.value == "expert")
        mirror.click_until(setup.deployment, lambda: setup.deployment.value is True)
        mirror.click_until(setup.speed, lambda: setup.speed.value == 0.0)
        assert setup.seed_entry is not None
        mirror.click(setup.seed_entry)
        h.type_text("7")
        app.type("7")
        h.frames(2)
        app.screenshot(artifacts / "bundle_ww_setup.png")
        mirror.click(setup.start_button, pause=0.5)
        game = h.scene
        assert isinstance(game, GameScene) and game.match.seed == 7
        assert [s.kind for s in game.match.seats] == ["human", "expert"]

        before = human_moves_match(h, game, env)
        replay = autosave_replay(env)
        assert replay is not None
        assert replay["config"]["map"] == str(user_data(env) / "maps" / DOMINATION_MAP.name)
        seat = game.human_turn()
        assert seat is not None and game.v.phase == "place"
        # The human's turn, by clicks: every army on the strongest border, then End turn.
        st = game.match.local.state
        border = [
            t for t in range(len(st.owner))
            if st.owner[t] == seat and any(st.owner[n] != seat for n in st.topo.adj[t])
        ]  # fmt: skip
        target = max(border, key=lambda t: (st.armies[t], -t))
        point = game.map.point_in(target)
        assert point is not None
        while game.v.phase == "place" and game.human_turn() == seat:
            mirror.click(point)
        assert game.v.phase == "attack"
        mirror.click(game.end_button, pause=0.5)
        after = human_moves_match(h, game, env)
        mine = [a for a in after[len(before) :] if a["seat"] == seat]
        theirs = [a for a in after[len(before) :] if a["seat"] == 1]
        assert mine and mine[-1]["action"]["kind"] == "end_turn", mine[-3:]
        assert theirs, "the expert did not play"
        workers = app.children()
        assert any("--multiprocessing-fork" in line for line in workers), workers
        time.sleep(0.5)
        app.screenshot(artifacts / "bundle_ww_after_expert.png")
        assert app.close() == 0, app.output()
    assert "Traceback" not in app.output()


def test_the_online_screen_hosts_a_server_inside_the_app_that_a_client_joins(
    bundle: Bundle, xserver: XServer, tmp_path: Path, artifacts: Path
) -> None:
    from suite.net.screens.hosting import HostOnlineScene
    from suite.net.screens.lobby import OnlineScene

    env = clean_env(tmp_path / "home")
    with (
        running_app(bundle.executable, xserver.display, env) as app,
        Harness(size=WINDOW, root=LauncherScene) as h,
    ):
        launcher = h.scene
        assert isinstance(launcher, LauncherScene)
        time.sleep(0.5)
        mirror = Mirror(h, app)
        mirror.click(launcher.online_button, pause=1.0)
        online = h.scene
        assert isinstance(online, OnlineScene)
        mirror.click_until(online.game, lambda: online.game.value == "worldwar")
        mirror.click(online.set_up, pause=1.0)  # World War's own set-up
        setup = h.scene
        second = setup.rows[1].kind  # type: ignore[attr-defined]
        mirror.click_until(second, lambda: second.value == "human")  # open for a player
        mirror.click(setup.host_button, pause=1.0)  # type: ignore[attr-defined]
        hosting = h.scene
        assert isinstance(hosting, HostOnlineScene)
        mirror.click_until(hosting.public, lambda: hosting.public.value is True)
        app.click(hosting.host_here.rect.center, pause=1.0)  # the harness hosts nothing
        ports = wait_for("the app's local server", app.listening_ports, 20)
        (port,) = ports
        assert (user_data(env) / "server-local").is_dir()

        async def join() -> tuple[str, int | None]:
            guest = await Client.connect(f"ws://127.0.0.1:{port}", "guest")
            rooms = await guest.list_rooms()
            assert len(rooms) == 1, rooms
            await guest.join(rooms[0].code, 1)
            await guest.wait(lambda c: c.room is not None and c.room.seats[1].kind == "human")
            seat = guest.seat
            await asyncio.sleep(1.0)  # the host's lobby shows the guest
            shot = app.screenshot(artifacts / "bundle_online_lobby.png")
            assert colours(shot) > 50
            code = rooms[0].code
            await guest.close()
            return code, seat

        code, seat = asyncio.run(join())
        assert seat == 1
        assert "rooms=1" in (healthz(port) or "")
        assert code
        assert app.close() == 0, app.output()
    assert "Traceback" not in app.output()
