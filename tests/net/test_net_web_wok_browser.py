"""WoK in the web client, in real Chromium against a real `suite serve` (issue 33): a whole
match of each rule set played by clicks and keys against the server's generals, with the
order form checked by the server; a seat's draft orders never reach another seat's or a
spectator's page or websocket; a reload mid-turn keeps the draft; two seats in two tabs of
one browser do not see each other's orders; the turn clock's poke and run-now by the host
(the server's time moved on by its test clock file, not waited for); a page opened late
reads a past turn's report from the server; WoK IV's covert operations and a mutual
alliance entered by clicks in two pages; screenshots of the order form, a report, a past
turn and the end at 390x844 and 1920x1080."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from suite.wok.rules.ruleset import load_ruleset

from .browser import Pages, server_process, state, stop
from .processes import ServerProcess

SHOTS = {"phone": (390, 844), "desktop": (1920, 1080)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The module's server, its time moved on by `advance` (its `test_clock_file`)."""
    data = tmp_path_factory.mktemp("web-wok")
    config = data.parent / f"{data.name}-serve.toml"
    config.write_text(f"test_clock_file = {json.dumps(str(data / 'clock-offset'))}\n")
    running = server_process(data, "--config", str(config))
    yield running
    stop(running)


def advance(server: ServerProcess, seconds: float) -> None:
    """Move the server's time `seconds` on (it reads its clock file every 0.1 s)."""
    path = server.data / "clock-offset"
    now = float(path.read_text()) if path.exists() else 0.0
    path.write_text(str(now + seconds))


def frames(page: Any) -> list[str]:
    """Every websocket frame the page receives from now on (a live list)."""
    seen: list[str] = []

    def socket(ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: seen.append(payload if isinstance(payload, str) else ""),
        )

    page.on("websocket", socket)
    return seen


def open_tab(pages: Pages, path: str, context: Any = None) -> tuple[Any, list[str]]:
    """A page at `path` (a new tab of `context`, else of a new context) and the frames
    its websockets receive from its first connection on."""
    if context is None:
        context = pages.browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("console", lambda m: pages.messages.append((m.type, m.text)))
    page.on("pageerror", lambda e: pages.messages.append(("pageerror", str(e))))
    seen = frames(page)
    page.goto(pages.base + path)
    pages.pages.append(page)
    return page, seen


def shoot(page: Any, artifacts: Path, name: str) -> None:
    for size, (width, height) in SHOTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(
            path=str(artifacts / f"web-wok-{name}-{size}.png"), full_page=size == "phone"
        )
    page.set_viewport_size({"width": 1280, "height": 800})


def create_wok(page: Any, name: str, settings: dict[str, str], seats: dict[int, str]) -> str:
    """Fill the lobby's WoK form by hand and create the room; its code."""
    page.fill("#name", name)
    page.press("#name", "Tab")
    page.wait_for_selector("#create-room")
    page.select_option("#game", "wok")
    page.wait_for_selector("#wok-ruleset")
    for select in ("wok-ruleset", "wok-variant", "map", "players", "clock"):
        if select in settings:
            page.select_option(f"#{select}", settings[select])
    for text in ("provinces", "max-turns", "headhunting"):
        if text in settings:
            page.fill(f"#{text}", settings[text])
    for seat, kind in seats.items():
        page.select_option(f"#seat-{seat}", kind)
    page.click("#create-room")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("svg.board .province")
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def form_ready(page: Any) -> None:
    """Wait until the order form shows the server's answer to its latest question (or
    the game is over, or the seat is ready)."""
    page.wait_for_selector("#wok-orders[data-fresh=true] #wok-add, .end, #wok-unready")


def skip_guide(page: Any) -> None:
    if page.locator("#guide-skip").count():
        page.click("#guide-skip")


def enter_order(page: Any, phase: str, *, target: bool) -> bool:
    """Enter one order of `phase` by clicks: its tab, a source on the map, a target (the
    first one outlined, picked with the keyboard), then Add. Whether one went in."""
    page.click(f"[data-phase={phase}]")
    page.wait_for_selector(f"[data-phase={phase}].chosen")
    form_ready(page)
    sources = page.locator(".province.pickable")
    if not sources.count():
        return False
    entered = page.locator("#wok-orders .entered li").count()
    sources.first.click()
    page.wait_for_selector(".province.source")
    form_ready(page)
    if target:
        targets = page.locator(".province.pickable, .province.far")
        if not targets.count():
            page.keyboard.press("Escape")
            return False
        targets.first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".province.target")
        form_ready(page)
    if page.locator("#wok-add[disabled]").count():
        page.keyboard.press("Escape")
        return False
    page.click("#wok-add")
    page.wait_for_selector(f"#wok-orders .entered li:nth-child({entered + 1})")
    return True


def play_turn(page: Any) -> None:
    """One turn of this seat: an attack and an aim change where it can, then Ready."""
    form_ready(page)
    if page.locator(".end").count() or page.locator("#wok-unready").count():
        return
    skip_guide(page)
    enter_order(page, "attacks", target=True)
    enter_order(page, "aims", target=False)
    before = state(page)
    page.click("#wok-ready")
    page.wait_for_selector(f"main.room:not([data-state='{before}'])")


def play_to_the_end(page: Any, limit: float = 60.0) -> None:
    end = time.monotonic() + limit
    while not page.locator(".end").count():
        assert time.monotonic() < end, "the match did not end in time"
        if page.locator("#wok-add").count():
            play_turn(page)
        else:
            page.wait_for_timeout(50)


@pytest.mark.parametrize(
    ("ruleset", "provinces"), [("standard", "10"), ("intermediate", "10"), ("wok4", "10")]
)
def test_a_whole_match_by_clicks_against_generals(
    pages: Pages, artifacts: Path, ruleset: str, provinces: str
) -> None:
    page, seen = open_tab(pages, "/")
    code = create_wok(
        page,
        "ann",
        {"wok-ruleset": ruleset, "map": "random", "provinces": provinces, "players": "2"}
        | {"max-turns": "3"},
        {1: "general"},
    )
    watcher, watched = open_tab(pages, f"/r/{code}/watch")
    watcher.wait_for_selector("svg.board .province")
    page.click("#ready")
    form_ready(page)
    assert page.locator("#wok-orders .tab").count() >= 5
    if ruleset == "standard":
        # The guided first turn: each phase in the rule set's own words, its tab opened.
        guide = page.locator("#wok-guide")
        assert "first turn" in guide.inner_text().lower()
        page.click("#guide-next")
        page.wait_for_selector("[data-phase=bombs].chosen")
        help_text = guide.inner_text()
        page.click("#guide-next")
        page.wait_for_selector("[data-phase=attacks].chosen")
        assert guide.inner_text() != help_text
    if ruleset == "intermediate":
        assert page.locator(".province .terrain").first.text_content() != ""
        assert page.locator("[data-phase=troops]").count() == 1
    if ruleset == "wok4":
        assert page.locator("[data-phase=trades]").count() == 1
    skip_guide(page)
    if ruleset == "intermediate":
        assert enter_order(page, "troops", target=False)
    if ruleset == "wok4":
        # A tech trade: no province, a kind, Add (the warning says the points are short).
        page.click("[data-phase=trades]")
        page.wait_for_selector("[data-phase=trades].chosen")
        form_ready(page)
        page.click("#wok-add")
        page.wait_for_selector("#wok-orders .entered li")
    assert enter_order(page, "attacks", target=True)
    assert page.locator("#wok-orders .odds").count() >= 1  # the server's win chance
    if ruleset == "standard":
        shoot(page, artifacts, "orders")
    assert enter_order(page, "aims", target=False)
    assert page.locator("#wok-orders .after li").count() >= 1
    before = state(page)
    page.click("#wok-ready")
    page.wait_for_selector(f"main.room:not([data-state='{before}'])")
    page.wait_for_selector("#wok-report h2")
    if ruleset == "standard":
        shoot(page, artifacts, "report")
        # The history of the turns (from the server) is all there after a reload.
        turns = page.locator("#wok-history option").count()
        assert turns >= 2
        page.reload()
        form_ready(page)
        page.wait_for_selector("#wok-history")
        assert page.locator("#wok-history option").count() == turns
    play_to_the_end(page)
    watcher.wait_for_selector(".end")
    if ruleset == "standard":
        # A spectator who comes late reads a past turn's public part: its Top Ten only.
        late, late_frames = open_tab(pages, f"/r/{code}/watch")
        late.wait_for_selector("#wok-history")
        late.select_option("#wok-history", "1")
        late.wait_for_selector("#wok-report h3:has-text('Top Ten after turn 1')")
        told = [json.loads(f) for f in late_frames if '"wok_history_turn"' in f]
        assert [(t["turn"], t["seat"], t["reports"]) for t in told][-1] == (1, None, [])
    assert page.locator(".top-ten.final li").count() >= 1
    if ruleset == "standard":
        shoot(page, artifacts, "end")
    # The spectator saw no order form, no report and no draft, in its page or its frames.
    assert watcher.locator("#wok-orders *").count() == 0
    assert watcher.locator("#wok-report .battles, #wok-report .report-lines").count() == 0
    assert "before" not in watcher.locator("#wok-report").inner_text()
    assert any('"draft_report"' in f for f in seen)
    assert not any("draft" in f for f in watched)
    assert not any('"aims":[{' in f or '"attacks":[{' in f for f in watched)


def test_drafts_stay_with_their_seat_the_host_pokes_and_runs_the_turn_a_late_page_reads_it(
    pages: Pages, server: ServerProcess, artifacts: Path
) -> None:
    """Two seats in two tabs of one browser context, and a spectator: each seat's draft
    goes to its own tab only; a reload mid-turn brings the draft back. Then the turn clock
    (the live preset): the host is ready, seat 2 is not; past the deadline the host pokes
    (seat 2's page hears of it), after the poke's wait the host runs the turn now. Once
    the match is over, a page opened late reads turn 1's report from the server."""
    clock = load_ruleset("standard").clock["live"]
    host, host_frames = open_tab(pages, "/")
    code = create_wok(
        host,
        "ann",
        {"map": "random", "provinces": "12", "players": "3", "max-turns": "2", "clock": "live"},
        {1: "human", 2: "general"},
    )
    # A second tab of the same browser context takes seat 2.
    other, other_frames = open_tab(pages, f"/r/{code}/watch", host.context)
    other.wait_for_selector(".take")
    other.click(".take")
    other.wait_for_selector("#ready")
    watcher, watched = open_tab(pages, f"/r/{code}/watch")
    other.click("#ready")
    host.click("#ready")
    form_ready(host)
    form_ready(other)
    host.bring_to_front()  # a background tab's frames are throttled: clicks wait for them
    skip_guide(host)
    assert enter_order(host, "transforms", target=False)
    assert enter_order(host, "aims", target=False)
    text = host.locator("#wok-orders .entered").inner_text()
    assert "aim" in text
    # Seat 2's tab and the spectator never got a byte of it.
    host_mine = [f for f in host_frames if '"draft_report"' in f]
    assert host_mine
    drafts = [json.loads(f)["draft"] for f in host_mine]
    assert drafts[-1]["sets"][0]["aims"]
    for stream in (other_frames, watched):
        assert not any('"aims":[{' in f for f in stream)
        for f in stream:
            if '"draft_report"' in f:
                assert (
                    json.loads(f)["draft"]["sets"][0]["colour"] != drafts[-1]["sets"][0]["colour"]
                )
    assert other.locator("#wok-orders .entered li").count() == 0
    assert watcher.locator("#wok-orders *").count() == 0
    # A reload mid-turn: the draft comes back from the server.
    host.reload()
    form_ready(host)
    skip_guide(host)
    host.click("[data-phase=aims]")
    host.wait_for_selector("[data-phase=aims].chosen")
    host.wait_for_selector("#wok-orders .entered li")
    assert "aim" in host.locator("#wok-orders .entered").inner_text()
    # The host is ready, seat 2 is not: past the deadline the host pokes it.
    host.click("#wok-ready")
    host.wait_for_selector("#wok-unready")
    assert host.locator("#wok-poke").count() == 0
    advance(server, clock.deadline + 1)
    host.click("#wok-poke")
    other.wait_for_selector("#room-log li:has-text('poked the late players')")
    assert host.locator("#wok-run-now").count() == 0
    # Once the poke has waited, the host runs the turn without seat 2.
    advance(server, clock.run_now_after_poke + 1)
    host.click("#wok-run-now")
    host.wait_for_selector("#wok-history option:has-text('Turn 1 (latest)')", state="attached")
    other.wait_for_selector("#room-log li:has-text('Turn 1 ran.')")
    # The last turn: both seats ready, then the match is over.
    form_ready(other)
    other.click("#wok-ready")
    form_ready(host)
    host.click("#wok-ready")
    host.wait_for_selector(".end")
    # A page opened late (a new tab of the browser, taking its seat back) reads turn 1's
    # report from the server.
    context = host.context
    host.close()
    other.close()
    late, late_frames = open_tab(pages, f"/r/{code}", context)
    late.wait_for_selector("#wok-history option:has-text('Turn 2 (latest)')", state="attached")
    assert late.locator("#wok-history option").count() == 3
    late.select_option("#wok-history", "1")
    late.wait_for_selector("#wok-report h3:has-text('Top Ten after turn 1')")
    assert "Turn 1:" in late.locator("#wok-report").inner_text()
    answers = [json.loads(f) for f in late_frames if '"wok_history_turn"' in f]
    (seated,) = [json.loads(f) for f in late_frames if '"type":"seated"' in f]
    assert {a["turn"] for a in answers} >= {1, 2}
    assert {a["seat"] for a in answers} == {seated["seat"]}
    assert late.locator("#wok-charts svg").count() == 2  # turns 0 to 2, from the server
    shoot(late, artifacts, "history")


def test_a_duel_seat_gives_orders_for_each_of_its_colours(pages: Pages) -> None:
    """Duel: each seat plays three colours (robots play four more); the form has a tab
    per colour, and the kingdoms are named as the host typed them."""
    page, _ = open_tab(pages, "/")
    page.fill("#name", "cy")
    page.press("#name", "Tab")
    page.wait_for_selector("#create-room")
    page.select_option("#game", "wok")
    page.select_option("#wok-variant", "duel")
    page.select_option("#map", "random")
    page.fill("#provinces", "30")
    page.fill("#max-turns", "1")
    page.fill("#kingdom-0", "Avalon")
    page.select_option("#seat-1", "general")
    page.click("#create-room")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("svg.board .province")
    page.click("#ready")
    form_ready(page)
    skip_guide(page)
    tabs = page.locator("#wok-orders .colour-tab")
    assert tabs.count() == 3
    assert "Avalon" in page.locator("#wok-mine").inner_text()
    second = tabs.nth(1).inner_text()
    tabs.nth(1).click()
    form_ready(page)
    assert page.locator("#wok-orders .colour-tab.chosen").inner_text() == second
    assert enter_order(page, "aims", target=False)
    before = state(page)
    page.click("#wok-ready")
    page.wait_for_selector(f"main.room:not([data-state='{before}'])")
    page.wait_for_selector(".end")


def enter_covert(page: Any, ops: tuple[str, ...]) -> str:
    """Enter a covert operation of the spying phase by clicks: its tab, the first of `ops`
    the kind list offers that has a target (a source on the map, then a target picked
    with the keyboard), Add. The operation entered."""
    page.click("[data-phase=spies]")
    page.wait_for_selector("[data-phase=spies].chosen")
    form_ready(page)
    offered = page.locator("#wok-kind option").evaluate_all("(os) => os.map((o) => o.value)")
    for op in (op for op in ops if op in offered):
        page.select_option("#wok-kind", op)
        form_ready(page)
        page.locator(".province.pickable").first.click()
        page.wait_for_selector(".province.source")
        form_ready(page)
        targets = page.locator(".province.pickable, .province.far")
        if targets.count():
            targets.first.focus()
            page.keyboard.press("Enter")
            page.wait_for_selector(".province.target")
            form_ready(page)
            if not page.locator("#wok-add[disabled]").count():
                page.click("#wok-add")
                page.wait_for_selector("#wok-orders .entered li")
                return op
        page.keyboard.press("Escape")
        form_ready(page)
    raise AssertionError(f"no covert operation of {ops} could be entered (offered {offered})")


def declare_ally(page: Any, partner: str) -> None:
    """Declare the kingdom named `partner` this seat's ally, by clicks."""
    pick = page.locator(".ally-pick")
    value = pick.locator(f"option:has-text('{partner}')").get_attribute("value")
    pick.select_option(value)
    before = state(page)
    page.click(".declare-ally")
    page.wait_for_selector(f"main.room:not([data-state='{before}'])")


def test_covert_operations_and_a_mutual_alliance_in_two_pages(
    pages: Pages, artifacts: Path
) -> None:
    """WoK IV, the Standard variant of six (it records alliances, W13), two human seats in
    two pages: one enters a covert operation in the spying phase by clicks; the two declare
    each other allies, and both see the alliance mutual. The other page and the spectator
    never receive the operation, nor a one-sided declaration."""
    page, page_frames = open_tab(pages, "/")
    code = create_wok(
        page,
        "dee",
        {"wok-ruleset": "wok4", "wok-variant": "standard", "map": "random", "provinces": "24"}
        | {"players": "6", "max-turns": "1"},
        {1: "human"} | dict.fromkeys(range(2, 6), "general"),
    )
    other, other_frames = open_tab(pages, f"/r/{code}/watch")
    other.wait_for_selector(".take")
    other.click(".take")
    other.wait_for_selector("#ready")
    watcher, watched = open_tab(pages, f"/r/{code}/watch")
    other.click("#ready")
    page.click("#ready")
    form_ready(page)
    form_ready(other)
    skip_guide(page)
    skip_guide(other)
    op = enter_covert(page, ("SABOTAGE_MIS", "STEAL_POP", "SPY_PROVINCE"))
    mine = [json.loads(f) for f in page_frames if '"draft_report"' in f]
    assert mine[-1]["draft"]["sets"][0]["spies"][0]["op"] == op
    # The alliance: declared by one (its own secret), then by the other (mutual, public).
    mine_name = page.locator("#wok-mine b").first.inner_text()
    other_name = other.locator("#wok-mine b").first.inner_text()
    declare_ally(page, other_name)
    assert "(declared)" in page.locator("#wok-extras").inner_text()
    assert "none" in other.locator("#wok-extras").inner_text()
    declare_ally(other, mine_name)
    for seen in (page, other):
        seen.wait_for_selector("#wok-extras :text('(mutual)')")
    watcher.wait_for_selector("#room-log li:has-text('are allies')")
    page.click("[data-phase=spies]")
    shoot(page, artifacts, "covert-ally")
    colour = mine[-1]["draft"]["sets"][0]["colour"]
    for stream in (other_frames, watched):
        assert not any(f'"op":"{op}"' in f or '"spies":[{' in f for f in stream)
        for f in stream:
            if '"draft_report"' in f:
                assert json.loads(f)["draft"]["sets"][0]["colour"] != colour
    assert not any('"kind":"ally"' in f for f in watched)
