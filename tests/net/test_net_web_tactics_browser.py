"""WoS Tactics in real Chromium against a real `suite serve`: whole battles played by
clicks on the field against the server's bots, on the shipped pack's flat map and on a
generated bumpy map, watched by a spectator and replayed step by step; a pack with a cut
skin and a cut sound shows what is broken in the page with no console error; screenshots
of a battle at 390x844 and 1920x1080."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from suite.tactics.rules.packs import default_pack_dir

from .browser import Pages, server_process, state, stop
from .processes import ServerProcess

BROKEN = "broken"
"""A server pack: the shipped one with its archer's skin and its hit sound cut short."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    data = tmp_path_factory.mktemp("web-tactics")
    broken = data / "packs" / BROKEN
    shutil.copytree(default_pack_dir(), broken)
    for name, keep in (("skins/archer.bmp", 300), ("sounds/hit.wav", 30)):
        path = broken / name
        path.write_bytes(path.read_bytes()[:keep])
    (data / "serve.toml").write_text("show_after = 1.0\n")  # the waiting timer, soon
    running = server_process(data, "--config", str(data / "serve.toml"))
    yield running
    stop(running)


def create_battle(
    page: Any, settings: dict[str, str], armies: dict[int, list[int]] | None = None
) -> str:
    """Fill the lobby's Tactics form by hand (seat 2 a normal bot) and create the room."""
    page.fill("#name", "tia")
    page.press("#name", "Tab")
    page.wait_for_selector("#game")
    page.select_option("#game", "tactics")
    if "pack" in settings:
        page.wait_for_selector(f"#tactics-pack option[value={settings['pack']}]", state="attached")
        page.select_option("#tactics-pack", settings["pack"])
        page.wait_for_selector(f"#tactics-form[data-pack={settings['pack']}]")
    page.wait_for_selector("#tactics-map")
    for select in ("tactics-map", "army-size", "pieces-per-turn"):
        if select in settings:
            page.select_option(f"#{select}", settings[select])
    page.fill("#max-rounds", settings.get("rounds", "3"))
    page.select_option("#seat-1", "normal")
    for seat, slots in (armies or {}).items():
        page.select_option(f"#army-{seat}", "chosen")
        for i, piece in enumerate(slots):  # the 3x3 picker: a slot, then its piece
            page.click(f"#slot-{seat}-{i}")
            page.click(f".piece-menu [data-piece='{piece}']")
    page.click("#create-room")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("canvas.tactics-field")
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


SHOWN = """() => {
  const room = document.querySelector("main.room");
  const field = document.querySelector("canvas.tactics-field");
  if (room === null || field === null) return null;
  if (field.dataset.picksFor !== room.dataset.state) return null;
  return [field.dataset.phase || "wait", field.dataset.picks || ""];
}"""
"""Read in one go in the page, once the field drew the state the room shows: the phase and
the picks (the state may move on between two separate reads, as the bots play)."""


def picks(page: Any) -> tuple[str, list[tuple[str, float, float]]]:
    """The phase and the cells a click may pick now, once the field drew the state shown."""
    phase, text = page.wait_for_function(SHOWN).json_value()
    spots = []
    for item in text.split():
        label, where = item.split("@")
        x, y = where.split(",")
        spots.append((label, float(x), float(y)))
    return str(phase), spots


def click_and_wait(page: Any, selector: str, position: dict[str, float] | None = None) -> None:
    """Click `selector` (at `position` inside it) and wait for the view that follows."""
    before = state(page)
    if position is None:
        page.click(selector)
    else:
        page.locator(selector).click(position=position)
    page.wait_for_selector(f"main.room:not([data-state='{before}']), .end")


def nearest_first(spots: list[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """The picks, those nearest an enemy ("foe") first: walk towards the fight."""
    foes = [(x, y) for kind, x, y in spots if kind == "foe"]

    def distance(spot: tuple[str, float, float]) -> float:
        return min(((spot[1] - x) ** 2 + (spot[2] - y) ** 2 for x, y in foes), default=0.0)

    return sorted(spots, key=distance)


WANTED = {"select": ("attack", "select"), "move": ("attack", "move"), "attack": ("attack",)}


def play_by_clicks(page: Any, limit: float = 50.0, shots: Path | None = None) -> int:
    """Play this page's seat by clicks on the field (attack when it can, else walk towards
    the enemy, else stay or end the turn) until the battle is over; how many clicks on
    the field. With `shots`, the first move and the first attack offered are saved there
    as screenshots."""
    clicks = 0
    shot: set[str] = set()
    end = time.monotonic() + limit
    while not page.locator(".end").count():
        assert time.monotonic() < end, "the battle did not end in time"
        phase, spots = picks(page)
        if phase == "wait":
            page.wait_for_timeout(40)
            continue
        spots = nearest_first(spots)
        chosen = next((s for kind in WANTED.get(phase, ()) for s in spots if s[0] == kind), None)
        if chosen is not None:
            if shots is not None and chosen[0] in ("move", "attack") and chosen[0] not in shot:
                shot.add(chosen[0])
                page.screenshot(path=str(shots / f"web-tactics-{chosen[0]}-desktop.png"))
            click_and_wait(page, "canvas.tactics-field", {"x": chosen[1], "y": chosen[2]})
            clicks += 1
            continue
        button = next(
            (
                f"[data-kind={k}]"
                for k in ("skip_attack", "skip_move", "end_turn")
                if page.locator(f"[data-kind={k}]").count()
            ),
            None,
        )
        if button is not None:
            click_and_wait(page, button)
        else:
            page.wait_for_timeout(40)
    return clicks


def test_a_battle_on_the_shipped_pack_is_played_by_clicks_watched_and_replayed(
    pages: Pages, artifacts: Path
) -> None:
    page = pages.open("/", "desktop")
    code = create_battle(page, {"tactics-map": "1", "army-size": "2", "rounds": "6"})
    watcher = pages.open(f"/r/{code}/watch", "phone")
    watcher.wait_for_selector("canvas.tactics-field")
    page.click("#ready")
    page.wait_for_selector("#room-actions h2")
    # The field is drawn with the pack's own pictures, served content-addressed.
    doc = page.request.get(pages.base + "/pack/" + "0" * 64 + ".json")
    assert doc.status == 404
    page.screenshot(path=str(artifacts / "web-tactics-battle-desktop.png"))
    clicks = play_by_clicks(page, shots=artifacts)
    assert clicks >= 3
    watcher.wait_for_selector(".end")
    # The end: places, then what the battle changed on the server's ladder.
    for seen in (page, watcher):
        ladder = seen.locator("#ladder")
        ladder.locator("li").nth(1).wait_for()
        assert "tia: rating" in ladder.inner_text() and "war points" in ladder.inner_text()
        assert "normal bot: a bot: not rated" in ladder.inner_text()
    assert "watching" in watcher.locator("#room-status").inner_text()
    assert watcher.locator("#room-actions *").count() == 0
    assert " HP" in watcher.locator("#tactics-scores").inner_text()
    # The finished battle, step by step from the server.
    page.click("#replay-open")
    page.wait_for_selector("#replay-step:text('The start')")
    page.click("#replay-forward")
    page.wait_for_selector("#replay-step:text('Step 1 of')")
    assert page.locator("canvas.tactics-field").count() == 1
    page.screenshot(path=str(artifacts / "web-tactics-end-desktop.png"))


def test_a_battle_on_a_generated_bumpy_map(pages: Pages, artifacts: Path) -> None:
    page = pages.open("/", "phone")
    create_battle(page, {"tactics-map": "3", "army-size": "1", "rounds": "2"}, {0: [2]})
    page.click("#ready")
    page.wait_for_selector("#room-actions h2")
    # the waiting timer shows once the turn has waited past the server's show_after
    page.wait_for_selector("#clock:text('Waiting for you')")
    page.screenshot(path=str(artifacts / "web-tactics-battle-phone.png"), full_page=True)
    # played turned a quarter and zoomed in: the clicks go through the turned field
    page.click("#rotate")
    page.click("#zoom-in")
    assert play_by_clicks(page) >= 1
    assert page.locator(".places li").count() >= 1


def test_a_pack_with_a_cut_skin_and_sound_says_so(pages: Pages) -> None:
    page = pages.open("/", "laptop")
    create_battle(page, {"pack": BROKEN, "tactics-map": "1", "army-size": "1"}, {0: [2]})
    notes = page.locator("#pack-problems")
    notes.locator("li").first.wait_for()
    text = notes.inner_text()
    assert "skins/archer.bmp" in text and "sounds/hit.wav" in text
    assert "placeholders" in text
    page.click("#ready")  # sounds may play from here on: the cut one stays silent
    page.wait_for_selector("#room-actions h2")
    page.wait_for_timeout(300)
