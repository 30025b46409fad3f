"""Match server figures (printed with `make bench`; nothing asserts on time).

Issue 14: 100 rooms with 4 bot clients each on loopback; actions per second sustained and
action-to-broadcast latency p50 and p99 (target: at least 2,000 actions/s, p99 within
25 ms on the 2-core machine). The server runs as its own `suite serve` process; the 400
clients run in two client processes (their own cost, ~0.5 ms of CPU per action for
four Python websocket clients, competes with the server for the same two cores). Each
client plays World War at random from the legal actions its view carries (fetching the
first page when they did not fit). World War is used because its views are the
cheapest to build (~7 us a seat; Tactics views cost ~0.25 ms a seat, which alone caps a
core near 1,000 actions/s with four seats). Latency is from the moment the acting client sends an
action to the moment the last of the room's four clients has the view it produced.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import random
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from suite.net import protocol as P
from suite.net.server.app import event_loop_factory
from suite.net.server.loopwatch import LoopWatch
from tests.bench.leanclient import LeanSocket, lean_connect
from tests.net.processes import ServerProcess

ROOMS = int(os.environ.get("BENCH_NET_ROOMS", "100"))
SEATS = 4
GAME = os.environ.get("BENCH_NET_GAME", "worldwar")
CLIENT_PROCS = int(os.environ.get("BENCH_NET_CLIENT_PROCS", "2"))
THINK = 0.035
ROUNDS = 2
"""The capacity bench's 100-room lines run this many times, the set-ups in turn: this
machine's speed drifts by up to half within a quarter of an hour, so the CPU ratios come
from each set-up's mean over the rounds (every round's figures print)."""
WARMUP = 2.0
MEASURE = 8.0


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}
        self.seen: dict[tuple[str, int], int] = {}
        self.latencies: list[float] = []
        self.actions = 0
        self.measuring = False
        self.cpu = 0.0
        self.stall = 0.0
        """The client process's longest event-loop stall over the window, seconds."""
        """The client process's CPU seconds over the measuring window."""


async def _hello(url: str, name: str) -> LeanSocket:
    """A load client that said hello as the suite's own clients do (lean views: the
    map comes once, in `room_data`)."""
    ws = await lean_connect(url, 2 * P.MAX_MESSAGE)
    ws.send(P.encode(P.Hello(name=name, follows=True, lean=True)))
    await _expect(ws, P.Welcome)
    return ws


async def _join(url: str, name: str, code: str, seat: int) -> tuple[LeanSocket, str]:
    """Join `seat` of room `code` through `url`, following a `moved` to the room's owner."""
    ws = await _hello(url, name)
    ws.send(P.encode(P.Join(code=code, seat=seat)))
    while True:
        m = P.decode_server(await ws.recv())
        if isinstance(m, P.Moved):
            ws.close()
            ws = await _hello(m.url, name)
            ws.send(P.encode(P.Join(code=code, seat=seat)))
        elif isinstance(m, P.Seated):
            return ws, m.token
        elif isinstance(m, P.Error):
            raise RuntimeError(m)


async def _expect(ws: LeanSocket, kind: type[P.Message]) -> P.ServerMessage:
    while True:
        m = P.decode_server(await ws.recv())
        if isinstance(m, kind):
            return m
        if isinstance(m, P.Error):
            raise RuntimeError(m)


async def _room(urls: list[str], index: int) -> list[tuple[LeanSocket, str]]:
    """Room `index`: opened through the first process of `urls` that is its turn, its
    seats spread over all of them (as a load balancer without stickiness would)."""
    url = urls[index % len(urls)]
    host = await _hello(url, f"h{index}")
    host.send(P.encode(P.Create(game=GAME, config={"players": SEATS})))
    seated = await _expect(host, P.Seated)
    assert isinstance(seated, P.Seated)
    players = [(host, seated.token)]
    for seat in range(1, SEATS):
        where = urls[(index + seat) % len(urls)]
        players.append(await _join(where, f"p{index}.{seat}", seated.code, seat))
    return players


class _Seen(msgspec.Struct):
    """What a load client reads of a server message (the rest is skipped undecoded: the
    load generator shares the server's two cores, so it decodes no more than it uses)."""

    type: str
    code: str = ""
    seat: int | None = None
    state_id: int = -1
    awaiting: tuple[int, ...] = ()
    legal: msgspec.Raw = P.NULL
    actions: msgspec.Raw = P.NULL


_read = msgspec.json.Decoder(_Seen).decode
_options = msgspec.json.Decoder(list[msgspec.Raw]).decode
"""A legal list as the actions' undecoded JSON (one is picked and sent back as it came)."""


class _Player:
    """One seat played at random from the legal actions its view carries (asking for the
    first page when they did not fit), `think` seconds after its turn comes; it notes in
    `stats` when the last of a room's seats has the view an action produced."""

    def __init__(
        self, ws: LeanSocket, token: str, stats: Stats, rng: random.Random, think: float
    ) -> None:
        self.ws, self.token, self.stats, self.rng, self.think = ws, token, stats, rng, think
        self.acted = -1
        self.code = ""
        self.playing = True
        ws.on_message = self.message

    def message(self, data: bytes) -> None:
        m = _read(data)
        if m.type == "game_over":
            self.playing = False
        if not self.playing:
            return
        if m.type == "legal_page":
            if m.state_id == self.acted:
                self.act(m.state_id, _options(m.actions))
            return
        if m.type != "view":
            return
        stats, key = self.stats, (m.code, m.state_id)
        if key in stats.sent:
            stats.seen[key] = stats.seen.get(key, 0) + 1
            if stats.seen[key] == SEATS:
                sent = stats.sent.pop(key)
                del stats.seen[key]
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent)
                    stats.actions += 1
        if m.seat not in m.awaiting or m.state_id == self.acted:
            return
        self.acted, self.code = m.state_id, m.code
        if self.think:
            asyncio.get_running_loop().call_later(self.think, self.turn, m)
        else:
            self.turn(m)

    def turn(self, m: _Seen) -> None:
        if not self.playing:
            return
        if P.present(m.legal):
            self.act(m.state_id, _options(m.legal))
        else:
            self.ws.send(P.encode(P.LegalRequest(token=self.token, state_id=m.state_id, page=0)))

    def act(self, state_id: int, options: list[msgspec.Raw]) -> None:
        action = self.rng.choice(options)
        self.stats.sent[(self.code, state_id + 1)] = time.perf_counter()
        act = P.Act(token=self.token, state_id=state_id, action=action)  # type: ignore[arg-type]
        self.ws.send(P.encode(act))


DIRECT = ("--advertise", "ws://127.0.0.1:{port}")
"""Each bench process tells the others where clients reach it (so they are sent there)."""
LOOPBACK_LIMITS = """
# every bench client connects from 127.0.0.1: the per-address caps are raised
max_connections_per_address = 1000
max_lobbies_per_address = 1000
"""


def _start_server(data: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """A `suite serve` process for the bench (loopback limits raised), and its port."""
    data.mkdir(parents=True, exist_ok=True)
    (data / "serve.toml").write_text(LOOPBACK_LIMITS)
    limits = ("--rate", "10000", "--max-rooms", str(ROOMS + 10))
    server = ServerProcess(data, *limits, "--config", str(data / "serve.toml"), *extra)
    return server.proc, server.port


def _clients(ports: list[int], first: int, count: int, think: float, out: Any) -> None:
    """One client process: rooms first..first+count-1; puts (actions, elapsed, latencies).

    The load generator's own garbage collection is made rare, so its pauses do not count
    as server latency."""
    gc.freeze()
    gc.set_threshold(200_000, 100, 100)
    urls = [f"ws://127.0.0.1:{port}" for port in ports]
    stats = Stats()

    async def main() -> float:
        rooms = [await _room(urls, i) for i in range(first, first + count)]
        rng = random.Random(first)
        players = [
            _Player(ws, token, stats, random.Random(rng.random()), think)
            for seats in rooms
            for ws, token in seats
        ]
        for player in players:
            player.ws.send(P.encode(P.Ready(token=player.token)))
        await asyncio.sleep(WARMUP)
        watch = LoopWatch(window=MEASURE + 1)
        watching = asyncio.ensure_future(watch.run())
        stats.measuring = True
        t0, cpu0 = time.perf_counter(), time.process_time()
        await asyncio.sleep(MEASURE)
        stats.measuring = False
        elapsed, stats.cpu = time.perf_counter() - t0, time.process_time() - cpu0
        stats.stall = watch.longest()
        watching.cancel()
        for player in players:
            player.playing = False
            player.ws.close()
        return elapsed

    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        elapsed = runner.run(main())
    out.put((stats.actions, elapsed, stats.latencies, stats.cpu, stats.stall))


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _actions_so_far(port: int) -> float:
    """The server's own count of accepted actions (its /metrics page)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as page:
        text = page.read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("suite_actions_total{")
    )


def _metric(port: int, name: str) -> float:
    """One unlabelled value of a server's /metrics page (0.0 when absent)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as page:
        for line in page.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return 0.0


def _server_cost(procs: list[subprocess.Popen[str]], ports: list[int]) -> tuple[float, float]:
    """The servers' CPU milliseconds per accepted action over the measuring window (all
    processes' CPU over the actions their rooms' owners accepted), and the longest stall
    of any server's event loop meanwhile (ms; each reports its last 5 s, read every
    second)."""

    def actions() -> float:
        return sum(_actions_so_far(port) for port in ports)

    def cpu() -> float:
        return sum(_cpu_seconds(proc.pid) for proc in procs)

    deadline = time.monotonic() + 60
    while actions() == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(WARMUP)
    cpu0, actions0 = cpu(), actions()
    stall = 0.0
    for _ in range(int(MEASURE / 2)):
        time.sleep(1.0)
        stall = max([stall] + [_metric(port, "suite_loop_stall_seconds") for port in ports])
    cpu1, actions1 = cpu(), actions()
    return (cpu1 - cpu0) * 1000 / max(1.0, actions1 - actions0), stall * 1000


class Run(NamedTuple):
    """One load's figures."""

    rate: float
    """Acknowledged actions per second."""
    p50: float
    p99: float
    """Action-to-broadcast latency, ms."""
    actions: int
    """Actions measured."""
    cost: float
    """The servers' CPU ms per acknowledged action."""
    stall: float
    """The longest event-loop stall of any server, ms."""
    clients: float
    """The load clients' CPU ms per measured action (they share the machine's cores)."""
    client_stall: float
    """The longest event-loop stall of a load client process, ms (it adds to latency)."""

    def line(self) -> str:
        return (
            f"{self.cost:.3f} ms CPU per action, {self.rate:.0f} actions/s, p50 "
            f"{self.p50:.1f} ms, p99 {self.p99:.1f} ms, loop stall {self.stall:.1f} ms "
            f"({self.actions} actions measured; load clients {self.clients:.3f} ms CPU "
            f"per action, loop stall {self.client_stall:.1f} ms)"
        )


def _run(
    data: Path,
    think: float,
    cluster: tuple[str, ...] = (),
    processes: int = 1,
    rooms: int | None = None,
) -> Run:
    """Paced (`think` s before each action) or saturated load of `rooms` rooms on
    `processes` server processes (`cluster`: their --store/--presence flags)."""
    rooms = ROOMS if rooms is None else rooms
    started = [_start_server(data / f"p{i}", *cluster) for i in range(processes)]
    procs = [proc for proc, _ in started]
    ports = [port for _, port in started]
    queue: Any = multiprocessing.get_context("fork").Queue()
    share = [rooms // CLIENT_PROCS + (i < rooms % CLIENT_PROCS) for i in range(CLIENT_PROCS)]
    starts = [sum(share[:i]) for i in range(CLIENT_PROCS)]
    workers = [
        multiprocessing.get_context("fork").Process(
            target=_clients, args=(ports, start, n, think, queue)
        )
        for start, n in zip(starts, share, strict=True)
    ]
    try:
        for w in workers:
            w.start()
        cost, stall = _server_cost(procs, ports)
        results = [queue.get(timeout=300) for _ in workers]
        for w in workers:
            w.join(timeout=30)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
    lat = sorted(x for _, _, part, _, _ in results for x in part)
    assert lat, "no action completed"
    rate = sum(n / elapsed for n, elapsed, *_ in results)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    clients = sum(cpu for _, _, _, cpu, _ in results) * 1000 / max(1, sum(n for n, *_ in results))
    client_stall = max(part for *_, part in results) * 1000
    return Run(rate, p50, p99, len(lat), cost, stall, clients, client_stall)


def test_bench_capacity_of_one_and_three_processes(tmp_path: Path) -> None:
    """Issue 31.3, side by side in one run, paced (offered ~2,000 actions/s at 100 rooms):
    the servers' CPU per acknowledged action, actions/s, p50/p99 and the longest loop
    stall for one SQLite process, one PostgreSQL process and three processes on
    PostgreSQL and Redis (each room's seats spread over all three, as a load balancer
    without stickiness sends them; clients follow `moved` to the room's process, and a
    last line forwards them instead, as behind one address), at 100 rooms (`ROUNDS`
    times, the set-ups in turn) and at half that; then the capacity that three machines
    would carry, from the CPU each action costs. The saturated
    SQLite line shows one process's ceiling here."""
    from tests.net.servers import Postgres, Redis

    folder = Path(tempfile.mkdtemp(prefix="warsuite-bench-"))
    folder.chmod(0o755)
    pg, rd = Postgres(folder / "pg"), Redis(folder / "redis")
    runs: dict[str, Run] = {}
    try:
        loads = [(ROOMS, f" #{n + 1}") for n in range(ROUNDS)] + [(ROOMS // 2, "")]
        for rooms, tag in loads:
            where = tmp_path / f"{rooms}{tag.replace(' #', '-')}"
            runs[f"sqlite {rooms}{tag}"] = _run(where / "s", THINK, rooms=rooms)
            flags: tuple[str, ...] = ("--store", pg.database())
            runs[f"pg {rooms}{tag}"] = _run(where / "p", THINK, flags, rooms=rooms)
            flags = ("--store", pg.database(), "--presence", rd.fresh(), *DIRECT)
            runs[f"cluster {rooms}{tag}"] = _run(where / "c", THINK, flags, 3, rooms)
        flags = ("--store", pg.database(), "--presence", rd.fresh())
        half = ROOMS // 2  # forwarding costs two to three times as much: half the load
        runs[f"forwarded {half}"] = _run(tmp_path / "f", THINK, flags, 3, half)
        runs["sqlite saturated"] = _run(tmp_path / "sat", 0.0)
    finally:
        pg.stop()
        rd.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"\nnet capacity: {GAME}, {SEATS} bot clients a room, loopback, paced (think "
        f"{THINK * 1000:.0f} ms) unless saturated"
    )
    names = {
        "sqlite": "1 process, SQLite",
        "pg": "1 process, PostgreSQL",
        "cluster": "3 processes, PostgreSQL + Redis",
        "forwarded": "3 processes, forwarded",
    }
    for key, run in runs.items():
        kind, load, *round_no = key.split(" ")
        rooms_text = "saturated, " + str(ROOMS) if load == "saturated" else load
        print(f"  {names[kind]:32} {rooms_text:>14} rooms{''.join(round_no):>3}: {run.line()}")

    def cost(kind: str, n: int) -> float:
        return runs[f"{kind} {ROOMS} #{n + 1}"].cost

    costs = {
        k: statistics.mean(cost(k, n) for n in range(ROUNDS)) for k in ("sqlite", "pg", "cluster")
    }
    rounds = ", ".join(
        f"{cost('pg', n) / cost('sqlite', n):.2f}x and {cost('cluster', n) / cost('pg', n):.2f}x"
        for n in range(ROUNDS)
    )
    print(
        f"  CPU per action at {ROOMS} rooms, the mean of {ROUNDS} rounds: PostgreSQL "
        f"{costs['pg'] / costs['sqlite']:.2f}x SQLite's (target at most 1.5x); three "
        f"processes {costs['cluster'] / costs['pg']:.2f}x one PostgreSQL process's (target "
        f"at most 1.25x); round by round: {rounds}"
    )
    print(
        f"  three machines would carry {3 * costs['pg'] / costs['cluster']:.2f}x one "
        f"PostgreSQL machine (target at least 2.4x) and "
        f"{3 * costs['sqlite'] / costs['cluster']:.2f}x one SQLite machine; p99 targets: "
        f"SQLite at {ROOMS} rooms 25 ms (every round), PostgreSQL and the cluster at "
        f"{ROOMS // 2} rooms 50 ms"
    )


def test_bench_largest_online_configs(tmp_path: Path) -> None:
    """Issue 20.3: the largest config each game allows online, created by the server
    (target under 50 ms), and its largest view (limit 64 KiB)."""
    from suite.core.match import new_game
    from tests.net.test_net_hardening import LARGEST

    for game, config in sorted(LARGEST.items()):
        new_game(game, config, 1)  # warm: rules data, caches
        times = []
        for seed in range(5):
            t0 = time.perf_counter()
            state = new_game(game, config, 2**127 + seed)
            times.append(time.perf_counter() - t0)
        largest = max(
            len(msgspec.json.encode(state.view(seat))) for seat in [None, *range(config["players"])]
        )
        print(
            f"\nnet: largest online {game} config creates in {min(times) * 1000:.1f} ms best, "
            f"{statistics.median(times) * 1000:.1f} ms median (target 50); "
            f"largest view {largest / 1024:.1f} KiB (limit 64)"
        )


def test_bench_takeover(tmp_path: Path) -> None:
    """Issue 21: the takeover time after a SIGKILL and after a SIGTERM of a process of two
    on PostgreSQL and Redis."""
    from tests.net.servers import Postgres, Redis

    folder = Path(tempfile.mkdtemp(prefix="warsuite-bench-"))
    folder.chmod(0o755)
    pg, rd = Postgres(folder / "pg"), Redis(folder / "redis")
    try:
        for how in (signal.SIGKILL, signal.SIGTERM):
            flags = ("--store", pg.database(), "--presence", rd.fresh())
            rooms, seconds = _takeover(tmp_path / f"t{how.name}", flags, how)
            print(
                f"\nnet: takeover after {how.name} of the owner of {rooms} rooms (lease "
                f"{LEASE:g} s): all adopted by the other process {seconds:.2f} s after it"
            )
    finally:
        pg.stop()
        rd.stop()
        shutil.rmtree(folder, ignore_errors=True)


LEASE = 3.0
TAKEOVER_ROOMS = 20


def _owned(port: int) -> float:
    return _metric(port, "suite_rooms_owned")


def _takeover(data: Path, flags: tuple[str, ...], how: signal.Signals) -> tuple[int, float]:
    """Rooms of server bots on process A; A stops (`how`); seconds until process B owns
    them all."""
    lease = ("--lease-seconds", str(LEASE), "--bot-delay", "0.2")
    a, a_port = _start_server(data / "a", *flags, *lease)
    b, b_port = _start_server(data / "b", *flags, *lease)
    try:

        async def rooms() -> None:
            url = f"ws://127.0.0.1:{a_port}"
            for i in range(TAKEOVER_ROOMS):
                host = await _hello(url, f"h{i}")
                host.send(P.encode(P.Create(game=GAME, config={"players": 3})))
                seated = await _expect(host, P.Seated)
                assert isinstance(seated, P.Seated)
                for seat in (1, 2):
                    bot = P.SeatBot(token=seated.token, seat=seat, bot="random")
                    host.send(P.encode(bot))
                host.send(P.encode(P.Ready(token=seated.token)))
                await asyncio.sleep(0.05)

        asyncio.run(rooms())
        deadline = time.monotonic() + 30
        while _owned(a_port) < TAKEOVER_ROOMS and time.monotonic() < deadline:
            time.sleep(0.1)
        a.send_signal(how)
        stopped = time.monotonic()
        while _owned(b_port) < TAKEOVER_ROOMS and time.monotonic() < stopped + 60:
            time.sleep(0.05)
        return TAKEOVER_ROOMS, time.monotonic() - stopped
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.terminate()
            proc.wait(timeout=30)


def test_bench_wok_bytes_per_turn_per_seat(tmp_path: Path) -> None:
    """Issue 33.2: what one WoK seat receives per turn, before (every view whole) and after
    (the map and rules once in `room_data`, views without them), for each rule set, on
    the fake server (no sockets: the bytes the server queues for the seat). Both seats
    play the general bot's orders."""
    from suite.core.match import game_spec
    from suite.core.rng import Rng
    from tests.net.fakes import FakeConn, make_server

    turns = 6
    general = game_spec("wok").bots["general"]
    for ruleset in ("standard", "intermediate", "wok4"):
        sizes = {}
        for lean in (False, True):
            server = make_server(tmp_path / f"{ruleset}-{lean}")
            host, guest = FakeConn(server, "h", lean=lean), FakeConn(server, "g", lean=lean)
            host.say(P.Hello(name="h"))
            variant = "duel" if ruleset == "standard" else "skirmish"  # each one's own
            config = {"players": 2, "variant": variant, "ruleset": ruleset, "max_turns": turns}
            host.say(P.Create(game="wok", config=config))
            code = host.last(P.Room).code
            guest.say(P.Hello(name="g"))
            guest.say(P.Join(code=code, seat=1))
            for conn in (host, guest):
                conn.say(P.Ready(token=conn.token))
            room = server.rooms[code]
            bots, rng = [general(), general()], Rng(5)
            while room.phase == "playing" and room.state.turn <= turns:
                for seat in sorted(room.state.awaiting()):
                    conn = (host, guest)[seat]
                    action = bots[seat].choose(room.state.view(seat), room.state.legal(seat), rng)
                    conn.say(
                        P.Act(
                            token=conn.token,
                            state_id=room.state_id,
                            action=msgspec.to_builtins(action),
                        )
                    )
            played = max(1, room.state.turn - 1)
            sizes[lean] = sum(len(data) for data in guest.raw) / played
        print(
            f"\nnet: WoK {ruleset}, 2 players, one seat receives {sizes[False] / 1024:.1f} KiB a "
            f"turn with whole views, {sizes[True] / 1024:.1f} KiB with the map and rules "
            f"sent once ({sizes[True] / sizes[False]:.0%})"
        )
