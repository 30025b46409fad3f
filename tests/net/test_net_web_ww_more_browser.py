"""More of World War in real Chromium against a real `suite serve`, by clicks and keys:
a finished match's replay stepped by buttons and arrow keys (and a forgotten room's,
after a restart), public rooms kept across a restart, a Domination map picked by its own
index image, card sets (turned in, kept, forced), the defender choosing its dice, secret
missions (each seen only by its holder: checked on the websocket frames too), capitals,
and the turn clock running out.

Settings the browser's form does not offer (a short turn clock, more cards per conquest)
come from a desktop `RemoteSession` that hosts the room and plays its own seat with the
easy bot; the browser takes the other seat through the room's link."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from suite.core.bots import make_bot
from suite.core.match import game_spec
from suite.core.rng import Rng
from suite.net.client.client import ServerError
from suite.net.client.session import RemoteSession
from suite.net.server.boardshapes import index_png

from .browser import (
    Pages,
    act,
    create_room,
    my_turn,
    play_to_the_end,
    server_process,
    shoot,
    state,
    stop,
)
from .processes import ServerProcess
from .test_net_web import png

ARCHIPELAGO = Path(__file__).resolve().parents[1] / "worldwar" / "data" / "archipelago.map"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    running = server_process(tmp_path_factory.mktemp("web-more"))
    yield running
    stop(running)


# -- a desktop host ------------------------------------------------------------------------


class DeskHost:
    """A desktop client that opens a room with `config` and plays seat 0 with the bot
    `bot` in a thread, once the browser took seat 1 and said it is ready."""

    def __init__(self, url: str, config: dict[str, Any], bot: str = "easy") -> None:
        self.bot = bot
        self.session = RemoteSession.connect(url, "desk")
        self.session.create("worldwar", config)
        self.code = self.session.code
        assert self.code is not None
        self.failures: list[BaseException] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _play(self) -> None:
        try:
            desk = self.session
            while not self.done.is_set():
                room = desk.room
                if room is not None and room.seats[1].kind == "human":
                    break
                desk.poll()
                time.sleep(0.05)
            desk.ready()
            bot = make_bot(game_spec("worldwar"), self.bot)
            rng = Rng(7)
            while not self.done.is_set() and desk.ended is None:
                desk.poll()
                if 0 in desk.awaiting():
                    try:
                        legal = desk.legal(0)
                    except ServerError:  # asked of a state the match has left: ask again
                        continue
                    if legal:
                        desk.act(0, bot.choose(desk.view(0), legal, rng))
                time.sleep(0.01)
        except BaseException as exc:  # reported by `close`
            self.failures.append(exc)

    def close(self) -> None:
        self.done.set()
        self.thread.join(timeout=30)
        self.session.close()
        assert self.failures == []


def take_seat(pages: Pages, code: str, name: str) -> Any:
    """A browser that opens the room's link, names itself, takes the free seat, is ready."""
    page = pages.open("/")
    page.fill("#name", name)
    page.press("#name", "Tab")
    page.goto(f"{pages.base}/r/{code}")
    page.wait_for_selector(".take")
    page.click(".take")
    page.click("#ready")
    page.wait_for_selector("svg.board .territory")
    return page


def frames(page: Any) -> list[dict[str, Any]]:
    """Every websocket message the page receives from now on (parsed), kept in a list."""
    seen: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda data: seen.append(json.loads(data)))

    page.on("websocket", on_socket)
    return seen


# -- the replay ----------------------------------------------------------------------------


def replay_step(page: Any) -> str:
    return str(page.locator("#replay-step").inner_text())


def step_to(page: Any, press: str | None = None, click: str | None = None) -> int:
    """Press a key or click a control of the replay; the step shown after."""
    before = page.get_attribute("main.room", "data-replay")
    if press is not None:
        page.keyboard.press(press)
    else:
        assert click is not None
        page.click(click)
    page.wait_for_selector(f"main.room:not([data-replay='{before}'])")
    return int(page.get_attribute("main.room", "data-replay") or "-1")


def armies(page: Any) -> list[str]:
    return [str(t) for t in page.locator(".territory .count").all_text_contents()]


def test_a_finished_match_replays_step_by_step_by_buttons_and_keys(
    pages: Pages, artifacts: Path
) -> None:
    page = pages.open("/")
    code = create_room(
        page,
        "rae",
        {"map": "random", "territories": "12", "continents": "2", "deploy": "auto"}
        | {"max-turns": "2", "cards": "none"},
        {1: "easy"},
    )
    page.click("#ready")
    page.wait_for_selector("#room-actions h2")
    play_to_the_end(page)
    end = armies(page)
    page.click("#replay-open")
    page.wait_for_selector("#replay-step")
    assert replay_step(page).startswith("The start")
    steps = int(replay_step(page).split("·")[1].split()[0])
    assert steps > 5
    start = armies(page)
    assert start != end  # the board shows the start again
    assert "watching" not in page.locator("#room-status").inner_text()
    assert page.locator("#room-actions h2").count() == 0  # nothing to play in a replay
    assert step_to(page, press="ArrowRight") == 1
    assert replay_step(page) == f"Step 1 of {steps}"
    assert step_to(page, click="#replay-forward") == 2
    assert page.locator("#room-log li").count() >= 1  # that step's events
    assert step_to(page, press="ArrowLeft") == 1
    assert step_to(page, click="#replay-back") == 0
    assert armies(page) == start
    assert page.locator("#replay-back").is_disabled()
    assert step_to(page, press="End") == steps
    assert armies(page) == end
    assert page.locator(".replay .places li").count() >= 1
    assert page.locator("#replay-forward").is_disabled()
    shoot(page, artifacts, "replay")
    assert step_to(page, click="#replay-first") == 0
    assert step_to(page, press="End") == steps
    page.click("#replay-close")
    page.wait_for_selector(".end #replay-open")
    assert armies(page) == end
    # A page opened after the end offers the replay too.
    late = pages.open(f"/r/{code}/watch")
    late.click(".end #replay-open")
    late.wait_for_selector("#replay-step")
    assert step_to(late, press="End") == steps
    assert armies(late) == end


# -- a restart: public rooms stay listed, a forgotten room still replays ------------------


def listed(page: Any) -> set[str]:
    """The codes the lobby lists as public rooms (after a refresh)."""
    page.click("#public-rooms button:text('Refresh')")
    page.wait_for_timeout(300)
    titles = page.locator(".public-room .title").all_inner_texts()
    return {str(t).rsplit("·", 1)[1].strip() for t in titles}


def test_public_rooms_and_a_finished_match_outlive_a_restart(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    data = tmp_path_factory.mktemp("web-public")
    first = server_process(data)
    port = first.port
    pages = Pages(browser, f"http://127.0.0.1:{port}")
    second: ServerProcess | None = None
    try:
        # Listed when created, then unlisted by its host.
        ann = pages.open("/")
        ann.fill("#name", "ann")
        ann.press("#name", "Tab")
        ann.wait_for_selector("#create-room")
        ann.check("#public")
        unlisted = create_room(ann, "ann", {"map": "random", "territories": "12"}, {1: "human"})
        # Created unlisted, then listed by its host.
        bob = pages.open("/")
        kept = create_room(bob, "bob", {"map": "random", "territories": "12"}, {1: "human"})
        bob.click("#room-hostbar #public")
        bob.wait_for_selector("#room-hostbar #public:text('Make private')")
        ann.click("#room-hostbar #public")
        ann.wait_for_selector("#room-hostbar #public:text('Make public')")
        # A match played to its end.
        cyd = pages.open("/")
        over = create_room(
            cyd,
            "cyd",
            {"map": "random", "territories": "12", "deploy": "auto", "max-turns": "1"},
            {1: "easy"},
        )
        cyd.click("#ready")
        play_to_the_end(cyd)
        looker = pages.open("/")
        looker.wait_for_selector("#public-rooms")
        assert kept in listed(looker) and unlisted not in listed(looker)
        pages.close()
        stop(first)
        second = server_process(data, "--port", str(port))
        looker = pages.open("/")
        looker.wait_for_selector("#public-rooms")
        assert kept in listed(looker) and unlisted not in listed(looker)
        # The finished room is not run any more: its page offers the stored replay.
        watcher = pages.open(f"/r/{over}/watch")
        watcher.wait_for_selector("#replay-open")
        watcher.click("#replay-open")
        watcher.wait_for_selector("#replay-step")
        watcher.wait_for_selector("svg.board .territory")
        steps = int(replay_step(watcher).split("·")[1].split()[0])
        assert step_to(watcher, press="End") == steps
        assert step_to(watcher, press="ArrowLeft") == steps - 1
        assert "cyd" in watcher.locator("#room-seats").inner_text()
    finally:
        pages.close()
        stop(first)
        if second is not None:
            stop(second)
    # While the server was down, Chromium itself logs the refused connections.
    assert pages.errors(lambda text: "ERR_CONNECTION_REFUSED" in text) == []


# -- a Domination map with its own index image ---------------------------------------------


LONELY_NEIGHBOUR = 13
"""Coral Point: no band of its own (see `archipelago_index`)."""
SIZE = (400, 420)
"""The archipelago's artwork: its countries' points lie within 340 x 380."""


def archipelago_points() -> dict[int, tuple[int, int]]:
    points = {}
    section = ""
    for raw in ARCHIPELAGO.read_text().splitlines():
        line = raw.split(";", 1)[0].strip()
        if line.startswith("["):
            section = line
        elif section == "[countries]" and line:
            cid, _name, _continent, x, y = line.split()
            points[int(cid)] = (int(x), int(y))
    return points


def band_of(cid: int, points: dict[int, tuple[int, int]]) -> tuple[int, int, int, int]:
    """Where country `cid` has a strip of pixels inside the next country's cell (x0, x1,
    y0, y1): only the index image says it is `cid`'s."""
    host = points[cid % len(points) + 1]
    return host[0] + 8, host[0] + 26, host[1] - 18, host[1] - 10


def archipelago_index() -> np.ndarray:
    """Per pixel (x, y): the country there (255: sea). Cells by the nearest point within
    48 pixels, a black (0) border line between countries, and each country's band
    (`band_of`) but Coral Point's: it and Lonely Rock, neighbours by the file, do not
    touch (the board draws a link between them)."""
    points = archipelago_points()
    w, h = SIZE
    xs, ys = np.meshgrid(np.arange(w), np.arange(h), indexing="ij")
    ids = np.array(sorted(points))
    dist = np.stack([np.hypot(xs - points[c][0], ys - points[c][1]) for c in ids])
    nearest = ids[dist.argmin(0)]
    values = np.where(dist.min(0) < 48, nearest, 255).astype(np.int32)
    edge = np.zeros_like(values, dtype=bool)
    edge[1:, :] |= (values[1:, :] != values[:-1, :]) & (values[:-1, :] != 255)
    edge[:, 1:] |= (values[:, 1:] != values[:, :-1]) & (values[:, :-1] != 255)
    values[edge & (values != 255)] = 0
    for cid in points:
        if cid == LONELY_NEIGHBOUR:
            continue
        x0, x1, y0, y1 = band_of(cid, points)
        values[x0:x1, y0:y1] = cid
    return values


def install_archipelago(server: ServerProcess) -> None:
    folder = server.data / "maps" / "worldwar"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "archipelago.map").write_text(ARCHIPELAGO.read_text())
    (folder / "archipelago_pic.png").write_bytes(png(*SIZE))
    # Domination's index images are GIFs; what is read is the image's bytes (a PNG here).
    (folder / "archipelago_map.gif").write_bytes(index_png(archipelago_index()))


def click_pixel(page: Any, x: float, y: float) -> None:
    """Click the board where its picture's pixel (x, y) is shown."""
    box = page.locator("svg.board").bounding_box()
    w, h = SIZE
    scale = min(box["width"] / w, box["height"] / h)
    left = box["x"] + (box["width"] - w * scale) / 2
    top = box["y"] + (box["height"] - h * scale) / 2
    page.mouse.click(left + (x + 0.5) * scale, top + (y + 0.5) * scale)


def test_a_domination_map_is_picked_by_its_index_image(
    pages: Pages, server: ServerProcess, artifacts: Path
) -> None:
    install_archipelago(server)
    page = pages.open("/")
    page.wait_for_selector("#map option[value=archipelago]", state="attached")
    create_room(page, "ida", {"map": "archipelago", "deploy": "auto"}, {1: "easy"})
    index_url = page.locator("svg.board image.tint").count()
    assert index_url == 1
    page.wait_for_selector("svg.board.index-ready")  # read by the canvas, under the CSP
    page.click("#ready")
    page.wait_for_selector("#place-amount")
    page.select_option("#place-amount", "1")
    points = archipelago_points()
    ids = [page.locator(".territory").nth(i).get_attribute("data-id") for i in range(14)]
    mine = [
        int(str(ids[i]))
        for i in range(14)
        if "pickable" in (page.locator(".territory").nth(i).get_attribute("class") or "")
    ]
    assert mine
    cid = next(c for c in mine if c != LONELY_NEIGHBOUR)
    count = page.locator(f".territory[data-id='{cid}'] .count")
    before = int(count.text_content() or 0)
    x0, x1, y0, y1 = band_of(cid, points)
    seen = state(page)
    click_pixel(page, (x0 + x1) / 2, (y0 + y1) / 2)  # inside another country's cell
    page.wait_for_selector(f"main.room:not([data-state='{seen}'])")
    assert int(count.text_content() or 0) == before + 1
    # The keyboard still picks: the next pickable territory, focused, and Enter.
    if page.locator("#place-amount").count():
        other = page.locator(".territory.pickable").first
        other_count = other.locator(".count")
        had = int(other_count.text_content() or 0)
        other.focus()
        seen = state(page)
        page.keyboard.press("Enter")
        page.wait_for_selector(f"main.room:not([data-state='{seen}'])")
        assert int(other_count.text_content() or 0) == had + 1
    # Links: neighbours of the file whose pixels do not touch are joined by a line.
    assert page.locator("svg.board .links line.dash").count() == 1
    shoot(page, artifacts, "domination-index")


# -- cards, defending by hand ---------------------------------------------------------------


def counts(locator: Any) -> list[int]:
    return [int(t or 0) for t in locator.locator(".count").all_text_contents()]


def strong_turn(page: Any, attacked: set[str], seat: int) -> None:
    """A turn by clicks and keys that keeps winning without reinforcements: once a turn,
    the largest stack with a weaker enemy neighbour attacks the weakest of them, to the
    end (a stack with none is clicked and let go; a move to a territory of its own is
    offered too: not taken)."""
    if page.locator("#occupy").count():
        act(page, "#occupy")
        return
    turn = page.get_attribute("main.room", "data-turn") or ""
    sources = page.locator(".territory.pickable")
    if turn not in attacked and page.locator("[data-kind=end_attack]").count():
        attacked.add(turn)
        # Many attacks come in `legal_page`s after the view: let them come.
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_selector(".territory.pickable", timeout=2_000)
        armies = counts(sources)
        for _, index in sorted(((-n, i) for i, n in enumerate(armies)))[:4]:
            if attack_the_weakest_enemy(page, sources.nth(index), armies[index], seat):
                return
    if page.locator("#place-amount").count():
        act(page, ".territory.pickable .disc")
        return
    for kind in ("end_attack", "end_turn"):
        if page.locator(f"[data-kind={kind}]").count():
            act(page, f"[data-kind={kind}]")
            return


def attack_the_weakest_enemy(page: Any, source: Any, strength: int, seat: int) -> bool:
    """Click `source`; if an enemy neighbour is weaker by more than two, blitz the
    weakest (True); otherwise let the source go (Escape) and say False."""
    source.locator(".disc").click()
    targets = page.locator(".territory.pickable")
    labels = [str(targets.nth(i).get_attribute("aria-label")) for i in range(targets.count())]
    enemies = [
        (n, i)
        for i, (n, label) in enumerate(zip(counts(targets), labels, strict=True))
        if not label.endswith(f"seat {seat + 1}")
    ]
    if enemies and min(enemies)[0] + 2 < strength:
        targets.nth(min(enemies)[1]).focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".odds")
        act(page, "[data-kind=blitz]")
        return True
    page.keyboard.press("Escape")
    return False


def test_card_sets_are_kept_turned_in_and_forced_and_the_defender_picks_dice(
    pages: Pages, server: ServerProcess, artifacts: Path
) -> None:
    """No reinforcements (large starting armies instead) but cards: a turn starts with
    the choice of a set when the hand holds one ("Keep my cards" or a turn-in), and a
    hand of five must be turned in; the desk's attacks ask the seat for its dice."""
    desk = DeskHost(
        server.url,
        {
            "players": 2,
            "map": "random:18:2",
            "cards": "increasing",
            "defender": "ask",
            "auto_place": True,
            "max_turns": 1000,  # the cards it needs may take many turns: the test ends when seen
            "rules": {
                "cards": {"draw_per_turn": 2, "hand_limit": 5},  # two a conquest: hands fill fast
                "reinforcements": {"minimum": 0, "divisor": 100},
                "setup": {"starting_armies": {"2": 100}},  # enough to fight for long
            },
        },
        bot="random",  # it attacks at random: the seat lives long enough to hold cards
    )
    try:
        assert desk.code is not None
        page = take_seat(pages, desk.code, "kim")
        seen: set[str] = set()
        attacked: set[str] = set()
        wanted = {"kept", "forced", "defended"}
        end = time.monotonic() + 150
        while not wanted <= seen and not page.locator(".end").count():
            assert time.monotonic() < end, f"only {seen} in time"
            if not my_turn(page):
                page.wait_for_timeout(50)
                continue
            defend = page.locator("#room-actions button:has-text('Defend with')")
            keep = page.locator("[data-kind=skip_turn_in]")
            turn_in = page.locator("#room-actions .turn-in")
            if defend.count():
                act(page, "#room-actions button:has-text('Defend with') >> nth=-1")  # most dice
                seen.add("defended")
            elif keep.count() and turn_in.count() and not {"kept", "forced"} <= seen:
                # Kept while it may: the hand grows to the five that must be turned in.
                assert not page.locator("#room-actions .must-turn-in").count()
                assert page.locator("#room-hand .card").count() >= 3
                act(page, "[data-kind=skip_turn_in]")
                seen.add("kept")
            elif turn_in.count():
                forced = page.locator("#room-actions .must-turn-in").count() > 0
                if forced and "forced" not in seen:
                    shoot(page, artifacts, "cards-forced")
                cards = page.locator("#room-hand .card").count()
                act(page, "#room-actions .turn-in >> nth=0")
                if forced:
                    assert cards >= 5
                    seen.add("forced")
                page.wait_for_selector("#room-log li:has-text('turned in a set')")
            else:
                strong_turn(page, attacked, 1)
        assert wanted <= seen, f"{seen} " + page.locator("#room-seats").inner_text()
    finally:
        desk.close()


# -- missions, capitals ----------------------------------------------------------------------


def missions_in(messages: list[dict[str, Any]]) -> list[tuple[int | None, Any]]:
    """(seat of the view, its mission) of every view among `messages`."""
    return [
        (m["view"].get("seat"), m["view"].get("mission"))
        for m in messages
        if m.get("type") == "view" and isinstance(m.get("view"), dict)
    ]


def test_a_secret_mission_is_shown_to_its_holder_only(pages: Pages) -> None:
    heard: dict[str, list[dict[str, Any]]] = {}

    def recorded(name: str) -> Any:
        def listen(page: Any) -> None:
            heard[name] = frames(page)

        return listen

    ann = pages.open("/", before=recorded("ann"))
    code = create_room(
        ann, "ann", {"map": "classic", "mode": "mission", "deploy": "auto"}, {1: "human"}
    )
    bob = pages.open(f"/r/{code}", before=recorded("bob"))
    bob.click(".take")
    bob.wait_for_selector("#ready")
    watcher = pages.open(f"/r/{code}/watch", before=recorded("watcher"))
    watcher.wait_for_selector("svg.board .territory")
    ann.click("#ready")
    bob.click("#ready")
    for page in (ann, bob):
        page.wait_for_selector("#room-status .mission")
        assert page.locator("#room-status .mission").inner_text().startswith("Your mission: ")
    watcher.wait_for_selector("#room-status :text('Turn 1')")
    assert watcher.locator(".mission").count() == 0
    mine = {name: missions_in(heard[name]) for name in heard}
    own = {
        name: {json.dumps(m) for seat, m in mine[name] if m is not None} for name in ("ann", "bob")
    }
    assert len(own["ann"]) == 1 and len(own["bob"]) == 1  # its own, always the same
    assert {seat for seat, m in mine["ann"] if m is not None} == {0}
    assert {seat for seat, m in mine["bob"] if m is not None} == {1}
    assert mine["watcher"] and all(m is None for _, m in mine["watcher"])
    # Nothing else carries a mission: not another seat's frames, not a spectator's.
    ann_mission = next(iter(own["ann"]))
    bob_mission = next(iter(own["bob"]))
    for name, other in (("bob", ann_mission), ("ann", bob_mission)):
        if other not in own[name]:
            assert all(other not in json.dumps(m) for m in heard[name])
    assert all('"mission": {' not in json.dumps(m) for m in heard["watcher"])


def test_capitals_are_shown(pages: Pages) -> None:
    page = pages.open("/")
    create_room(
        page,
        "cap",
        {"map": "random", "territories": "12", "mode": "capital", "deploy": "auto"},
        {1: "easy"},
    )
    page.click("#ready")
    page.wait_for_selector("#room-status :text('Your capital: ')")
    assert page.locator("svg.board .territory.capital").count() == 2
    capital = page.locator("#room-status :text('Your capital: ')").inner_text()
    name = capital.removeprefix("Your capital: ").strip()
    marked = page.locator(f"svg.board .territory.capital[aria-label^='{name}:']")
    assert marked.count() == 1
    assert "capital" in (marked.get_attribute("aria-label") or "")


# -- the turn clock ------------------------------------------------------------------------


def test_the_turn_clock_runs_out(pages: Pages, server: ServerProcess) -> None:
    """A turn of 3 s: the seat does nothing, the server plays its time-up, the desk plays."""
    desk = DeskHost(
        server.url,
        {
            "players": 2,
            "map": "random:12:2",
            "auto_place": True,
            "clock": 3,
            "max_turns": 5,
            "rules": {"clock": {"choices": [0, 3], "default": 0}},
        },
    )
    try:
        assert desk.code is not None
        page = take_seat(pages, desk.code, "tim")
        page.wait_for_selector("#room-actions h2")  # its turn: nothing is done
        assert page.locator("#clock").inner_text().endswith(" s left")
        page.wait_for_selector('#room-log li:has-text("tim\'s time ran out.")', timeout=15_000)
        page.wait_for_selector('#room-status :text("desk\'s turn"), #room-actions h2')
    finally:
        desk.close()
