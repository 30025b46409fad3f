"""The pack validator behind `suite tactics check DIR`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from suite.tactics.assets.model import Pack
from suite.tactics.assets.pack import load_pack


def summary(pack: Pack) -> str:
    """One line counting what the pack defines and loaded."""
    version = "none" if pack.version is None else f"{pack.version:g}"
    return (
        f"{pack.root}: version {version}: {len(pack.grids)}/{len(pack.maps)} maps, "
        f"{len(pack.pieces)} pieces, {len(pack.weapons)} weapons, {len(pack.tiles)} tiles, "
        f"{len(pack.sounds)} sounds, {len(pack.sound_sets)} sound sets"
    )


def check_pack(root: Path, emit: Callable[[str], None] = print) -> int:
    """Load the pack at `root`, emit every problem as `file:line: severity: message` in
    file order, then the summary. Returns 1 when there are errors, else 0."""
    pack = load_pack(root)
    for problem in sorted(pack.problems, key=lambda p: (p.file, p.line)):
        emit(str(problem))
    emit(summary(pack))
    errors, warnings = len(pack.errors), len(pack.warnings)
    emit(f"{errors} error(s), {warnings} warning(s), {len(pack.placeholders)} placeholder(s)")
    return 1 if errors else 0
