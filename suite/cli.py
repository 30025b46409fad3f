"""The `suite` command: the launcher by default, plus `sim`, `serve` and game tools."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from suite.core.match import (
    GameSpec,
    UnknownGame,
    load_game,
    registered_games,
    unavailable_games,
)

if TYPE_CHECKING:
    SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # the class is not subscriptable at run time on Python 3.11
    SubParsers = argparse._SubParsersAction
CommandHook = Callable[[SubParsers], None]
_EXTRA_COMMANDS: list[CommandHook] = []


def add_command(hook: CommandHook) -> None:
    """Let a game or the net layer add its own sub-command (called before parsing)."""
    _EXTRA_COMMANDS.append(hook)


def _cmd_play(args: argparse.Namespace) -> int:
    from suite.ui.launcher import run_launcher

    return int(run_launcher(fullscreen=args.fullscreen))


def _cmd_sim(args: argparse.Namespace) -> int:
    from suite.sim import simulate

    console = Console()
    options = {
        "map": args.map,
        "variant": args.variant,
        "cards": args.cards,
        "max_turns": args.max_turns,
    }
    try:
        options.update(_game_sim_options(args.game, args))
        options.update(parse_settings(args.set or []))
    except (UnknownGame, ValueError) as exc:
        Console(stderr=True).print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        return 2
    bot_names = args.bots.split(",") if args.bots else None
    players = _sim_players(args.game, args.players, options)
    run = functools.partial(
        simulate,
        args.game,
        players,
        args.seed,
        args.games,
        options=options,
        bot_names=bot_names,
    )
    try:
        if args.games <= 10:
            report = run()
        else:
            # The bar moves in steps of about 1 % (and redraws twice a second): updating
            # it after every game cost fast games a tenth of their speed.
            step = max(1, args.games // 100)
            with Progress(console=console, transient=True, refresh_per_second=2) as bar:
                task = bar.add_task(f"{args.game}: playing", total=args.games)

                def progress(done: int) -> None:
                    if done % step == 0 or done == args.games:
                        bar.update(task, completed=done)

                report = run(progress=progress)
    except (UnknownGame, ValueError) as exc:
        Console(stderr=True).print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        return 2
    bots = args.bots or "random"
    seats = report.seats or report.players
    of = f" for {report.players} players" if seats != report.players else ""
    plural = "s" if seats != 1 else ""
    console.print(f"{args.game}: {report.games} games, {seats} seat{plural}{of}, bots: {bots}")
    table = Table()
    table.add_column("winner")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    for who, count in sorted(report.wins.items()):
        table.add_row(who, str(count), f"{100 * count / report.games:.1f}%")
    console.print(table)
    endings = ", ".join(f"{reason} ({n})" for reason, n in report.reasons.most_common())
    console.print(f"how games ended: {escape(endings)}", highlight=False)
    if options.get("max_turns") is not None:
        console.print(f"games that reached the turn limit: {report.capped} of {report.games}")
    length = f"mean length: {report.mean_steps:.1f} actions per game"
    if report.mean_turns is not None:
        length += f", {report.mean_turns:.1f} turns"
    console.print(length)
    speed = f"speed: {report.games_per_second:.2f} games per second"
    if report.ms_per_turn is not None:
        speed += f", {report.ms_per_turn:.2f} ms of engine time per turn"
    console.print(speed)
    return 0


def _sim_players(game: str, players: int | None, options: dict[str, Any]) -> int:
    """`--players`, else `--set players=N`, else the count the config implies (a WoK
    variant made for one number of players), else 2."""
    from suite.core.match import game_spec, parse_config

    if players is not None:
        return players
    if isinstance(options.get("players"), int):
        return int(options["players"])
    try:
        spec = game_spec(game)
        if spec.config_type is None:
            return 2
        record = parse_config(spec, {k: v for k, v in options.items() if v is not None})
    except (UnknownGame, ValueError):
        return 2  # simulate() names the problem
    count = getattr(record, "player_count", None)
    return int(count()) if callable(count) else 2


def _add_game_sim_options(sim: argparse.ArgumentParser, specs: Sequence[GameSpec]) -> None:
    """Add the sim flags of `specs` (each flag once, stored under its key)."""
    added: set[str] = set()
    for spec in specs:
        for opt in spec.sim_options:
            if opt.flag in added:
                continue
            added.add(opt.flag)
            sim.add_argument(
                opt.flag,
                dest=f"game_option_{opt.key}",
                metavar=opt.flag.lstrip("-").upper().replace("-", "_"),
                type=opt.type,
                help=f"{spec.title}: {opt.help}",
            )


def _game_sim_options(game: str, args: argparse.Namespace) -> dict[str, Any]:
    """The game-specific flags given on the command line, refusing flags of other games."""
    from suite.core.match import game_spec

    given = {
        key.removeprefix("game_option_"): value
        for key, value in vars(args).items()
        if key.startswith("game_option_") and value is not None
    }
    own = {opt.key for opt in game_spec(game).sim_options}
    foreign = sorted(set(given) - own)
    if foreign:
        raise ValueError(f"{game} has no option for {', '.join(foreign)}")
    return given


def parse_settings(items: Sequence[str]) -> dict[str, Any]:
    """`KEY=VALUE` strings as config entries; VALUE is JSON when it parses, else a string."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set takes KEY=VALUE, not {item!r}")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip()] = value
    return out


def build_parser(
    sim_games: Sequence[GameSpec] | None = None, prog: str = "suite"
) -> argparse.ArgumentParser:
    """The `suite` command's parser; `sim` knows the flags of `sim_games` (default: every
    installed game, all loaded); `prog` names the command in help and usage (`warsuite`
    in the bundled app)."""
    specs = list(registered_games().values()) if sim_games is None else list(sim_games)
    parser = argparse.ArgumentParser(
        prog=prog,
        description="The war-games suite: World War, WoK and WoS Tactics. "
        "With no command it opens the launcher.",
    )
    parser.add_argument("--fullscreen", action="store_true", help="start in fullscreen")
    parser.set_defaults(func=_cmd_play)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="open the launcher (the default)")
    play.add_argument("--fullscreen", action="store_true", help="start in fullscreen")
    play.set_defaults(func=_cmd_play)

    games = sorted(spec.name for spec in specs)
    sim = sub.add_parser("sim", help="play games between random bots and print statistics")
    sim.add_argument("game", help=f"the game to play ({', '.join(games) or 'none installed'})")
    sim.add_argument(
        "--players",
        type=int,
        help="number of players (default: the variant's own count, else 2)",
    )
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sim.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    sim.add_argument("--map", help="map name or file (.tmx, .json, Domination .map)")
    sim.add_argument("--variant", help="game variant (WoK: skirmish, duel, trinity)")
    sim.add_argument("--cards", help="card mode (World War: increasing, royalty, poker, none)")
    sim.add_argument("--max-turns", type=int, help="end a game by its tie rule after N turns")
    sim.add_argument("--bots", help="comma-separated bot names, one per seat or one for all")
    _add_game_sim_options(sim, specs)
    sim.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="any other config key of the game (repeatable; VALUE is read as JSON when it "
        "can be, e.g. --set pieces_per_turn=2 --set pack=DIR)",
    )
    sim.set_defaults(func=_cmd_sim)

    for hook in _EXTRA_COMMANDS:
        hook(sub)
    return parser


def _load_command_plugins() -> None:
    """Import the modules that add sub-commands; a missing one is simply absent."""
    import importlib

    plugins = ("suite.net.server.cli", "suite.tactics.cli", "suite.worldwar.cli", "suite.wok.cli")
    for module in plugins:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def _one_game_sim(argv: list[str], prog: str = "suite") -> argparse.Namespace | None:
    """`suite sim GAME ...` parsed with GAME alone loaded: importing the other games and
    the other commands' modules took a third of a second of every `suite sim`. None when
    the command is another one, asks for help, names no loadable game or gives a flag
    GAME does not know: the full parser (every game loaded) then reads it as before."""
    if len(argv) < 2 or argv[0] != "sim" or argv[1].startswith("-"):
        return None
    if "-h" in argv or "--help" in argv:
        return None
    spec = load_game(argv[1])
    if spec is None:
        return None
    args, unknown = build_parser([spec], prog).parse_known_args(argv)
    return None if unknown else args


def main(argv: Sequence[str] | None = None, prog: str = "suite") -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = _one_game_sim(words, prog)
    if args is None:
        _load_command_plugins()
        parser = build_parser(prog=prog)
        args = parser.parse_args(words)
        broken = unavailable_games()
        if broken and args.command == "sim" and args.game in broken:
            print(
                f"error: game {args.game!r} is not available: {broken[args.game]}",
                file=sys.stderr,
            )
            return 2
    result: int = args.func(args)
    return result
