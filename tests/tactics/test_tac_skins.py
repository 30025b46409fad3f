"""Piece skins per army (suite.tactics.skins) and their Surfaces (suite.tactics.render)."""

from __future__ import annotations

import itertools
from pathlib import Path

import msgspec
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.paths import asset
from suite.tactics.assets.bmp import Bitmap
from suite.tactics.assets.model import (
    SKIN_FRAMES,
    TEAM_NAMES,
    TRANSPARENT_INDEX,
)
from suite.tactics.assets.pack import load_pack
from suite.tactics.assets.placeholders import placeholder_skin
from suite.tactics.skins import (
    ALT_STAND,
    ATTACK,
    CREDITS,
    FRAME_NAMES,
    PAIN,
    STAND,
    SkinCache,
    SkinError,
    SkinStyleError,
    army_ramp,
    default_style,
    footprint,
    frame_index,
    guide_mask,
    over,
    pick_frame,
    read_style,
    shadow_for,
    shadow_layer,
    skin_frames,
    team_palette,
    with_shadow,
)

U8 = npt.NDArray[np.uint8]
OUTLINE_INDEX = 7  # the pack tool's dark outline round every figure
TEAM = range(232, 248)  # a 16-shade team ramp, as the default pack names in teamColors
SIZE = 20


def gold_palette() -> U8:
    """Greys, with a golden ramp (dark to light) on the team indices and teal at 6."""
    palette = np.stack([np.arange(256)] * 3, axis=1).astype(np.uint8)
    for k, index in enumerate(TEAM):
        t = k / (len(TEAM) - 1)
        palette[index] = (round(70 + 185 * t), round(40 + 204 * t), round(150 * t))
    palette[TRANSPARENT_INDEX] = (0, 128, 128)
    return palette


def strip(frames: int = SKIN_FRAMES, size: int = SIZE) -> Bitmap:
    """Frame k is filled with index 20 + k; its lower half holds every team index in a
    row, a transparent column at x = 0 and a grey column at x = 1."""
    indices = np.zeros((size, size * frames), dtype=np.uint8)
    for k in range(frames):
        frame = indices[:, k * size : (k + 1) * size]
        frame[:] = 20 + k
        frame[size // 2 :, 2 : 2 + len(TEAM)] = np.array(TEAM, dtype=np.uint8)
        frame[:, 0] = TRANSPARENT_INDEX
    return Bitmap(indices, gold_palette())


def luma(rgb: U8) -> npt.NDArray[np.float64]:
    return np.asarray(rgb, dtype=np.float64) @ np.array([0.299, 0.587, 0.114])


# --------------------------------------------------------------------------- recolouring
@pytest.mark.parametrize("army", range(len(TEAM_NAMES)))
def test_recolouring_changes_exactly_the_team_pixels(army: int) -> None:
    bitmap = strip()
    frames = skin_frames(bitmap, TEAM, army)
    plain = gold_palette()[bitmap.indices]
    drawn = np.concatenate(list(frames), axis=1)[:, :, :3]
    team = np.isin(bitmap.indices, list(TEAM))
    opaque = bitmap.indices != TRANSPARENT_INDEX
    changed = (drawn != plain).any(axis=2) & opaque
    assert np.array_equal(changed, team)
    style = default_style()
    shades = style.low + np.linspace(0, 1, len(TEAM)) * (1 - style.low)
    ramp = army_ramp(style.colour(army), shades, style)
    row = frames[0][SIZE - 1, 2 : 2 + len(TEAM), :3]
    # the test ramp is linear up to rounding: its shades sit on the army ramp within 2
    assert np.abs(row.astype(int) - ramp.astype(int)).max() <= 2


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    first=st.integers(7, 255),
    length=st.integers(1, 24),
    army=st.integers(0, len(TEAM_NAMES) - 1),
)
def test_recolouring_touches_only_team_pixels_of_any_strip(
    seed: int, first: int, length: int, army: int
) -> None:
    rng = np.random.default_rng(seed)
    palette = rng.integers(0, 256, (256, 3), dtype=np.uint8)
    indices = rng.integers(0, 256, (8, 8 * SKIN_FRAMES), dtype=np.uint8)
    team = range(first, min(256, first + length))
    frames = skin_frames(Bitmap(indices, palette), team, army)
    drawn = np.concatenate(list(frames), axis=1)
    inside = np.isin(indices, list(team))
    opaque = (indices != TRANSPARENT_INDEX) & ~guide_mask(indices, SKIN_FRAMES)
    keep = opaque & ~inside
    assert np.array_equal(drawn[keep][:, :3], palette[indices[keep]])
    assert np.all(drawn[opaque][:, 3] == 255) and np.all(drawn[~opaque][:, 3] == 0)
    recoloured = team_palette(palette, team, default_style().colour(army))
    assert np.array_equal(drawn[inside][:, :3], recoloured[indices[inside]])


def test_real_team_flags_43_and_83_become_the_army_shades() -> None:
    """RULINGS T14: 43 becomes the darker team shade, 83 the lighter; greys stay."""
    palette = np.stack([np.arange(256)] * 3, axis=1).astype(np.uint8)
    palette[43], palette[83] = (176, 88, 0), (252, 160, 40)  # dark and light flag orange
    indices = np.full((10, 50), 30, dtype=np.uint8)
    indices[5, 1:4] = [43, 83, 232]
    style = default_style()
    for army in range(len(TEAM_NAMES)):
        frame = skin_frames(Bitmap(indices, palette), (43, 83), army)[0]
        dark, light, grey = (frame[5, x, :3].astype(int) for x in (1, 2, 3))
        assert luma(dark) < luma(light)
        assert tuple(grey) == (232, 232, 232) and tuple(frame[6, 1, :3]) == (30, 30, 30)
        target = np.array(style.colour(army))
        for shade in (dark, light):
            cosine = shade @ target / (np.linalg.norm(shade) * np.linalg.norm(target))
            assert cosine > 0.85, (army, shade)


def test_the_guide_grid_is_not_drawn() -> None:
    """RULINGS T15: index 0 on a frame's first row, first column and shadow line (row
    height - height // 6) is the artist's guide; index 0 elsewhere is drawn; columns past
    five frames are ignored."""
    size = 12
    indices = np.full((size, size * 6 + 3), 30, dtype=np.uint8)
    shadow_row = size - size // 6
    for k in range(6):
        indices[0, k * size : (k + 1) * size] = 0
        indices[:, k * size] = 0
        indices[shadow_row, k * size : (k + 1) * size] = 0
    indices[4, 5] = 0  # a black pixel inside the art
    frames = skin_frames(Bitmap(indices, gold_palette()), TEAM, 0)
    assert frames.shape == (SKIN_FRAMES, size, size, 4)
    for frame in frames:
        alpha = frame[:, :, 3]
        assert not alpha[0].any() and not alpha[:, 0].any() and not alpha[shadow_row].any()
        assert alpha[4, 5] == 255 and alpha[1:shadow_row, 1:].all()


def test_recolouring_keeps_the_shading_order_and_the_army_hue() -> None:
    palette = gold_palette()
    style = default_style()
    order = np.argsort(luma(palette[list(TEAM)]))
    for army in range(len(TEAM_NAMES)):
        recoloured = team_palette(palette, TEAM, style.colour(army), style)[list(TEAM)]
        assert np.all(np.diff(luma(recoloured[order])) > 0)
        middle = recoloured[len(TEAM) // 2].astype(int)
        target = np.array(style.colour(army))
        # the middle shade points the same way in colour space as the army colour
        cosine = middle @ target / (np.linalg.norm(middle) * np.linalg.norm(target))
        assert cosine > 0.95
    untouched = [i for i in range(256) if i not in TEAM]
    assert np.array_equal(team_palette(palette, TEAM, (1, 2, 3))[untouched], palette[untouched])


def test_team_range_is_the_packs_setting() -> None:
    bitmap = strip()
    narrow = range(232, 236)
    frames = skin_frames(bitmap, narrow, 0)
    plain = gold_palette()[bitmap.indices]
    drawn = np.concatenate(list(frames), axis=1)[:, :, :3]
    changed = (drawn != plain).any(axis=2) & (bitmap.indices != TRANSPARENT_INDEX)
    assert np.array_equal(changed, np.isin(bitmap.indices, list(narrow)))


def test_armies_are_distinct_on_the_default_pack() -> None:
    pack = load_pack(asset("tactics"))
    cache = SkinCache(pack)
    for piece_id in pack.pieces:
        bitmap = cache.bitmap(piece_id)
        team = np.isin(bitmap.indices[:, : bitmap.height], list(pack.team_color_indices()))
        assert team.any(), piece_id
        means = [
            cache.frames(piece_id, army, shadow=False)[0][team][:, :3].mean(axis=0)
            for army in range(len(TEAM_NAMES))
        ]
        for a, b in itertools.combinations(means, 2):
            assert np.linalg.norm(a - b) > 60, piece_id


def test_every_default_piece_wears_its_army_colour_in_every_frame() -> None:
    """The team shades cover a fair share of each figure (not a tail tip or a flag), so
    every army reads at a glance on the battlefield."""
    pack = load_pack(asset("tactics"))
    cache = SkinCache(pack)
    team = list(pack.team_color_indices())
    for piece_id, piece in pack.pieces.items():
        bitmap = cache.bitmap(piece_id)
        side = bitmap.height
        for k in range(1, SKIN_FRAMES):
            frame = bitmap.indices[:, k * side : (k + 1) * side]
            body = (frame != TRANSPARENT_INDEX) & (frame != OUTLINE_INDEX)
            share = np.isin(frame, team).sum() / body.sum()
            assert share >= 0.2, (piece.name, k, round(share, 3))


def test_unknown_army_is_refused() -> None:
    with pytest.raises(ValueError, match="armies are 0-3"):
        skin_frames(strip(), TEAM, 4)


# --------------------------------------------------------------------------- frames
def test_index_6_is_transparent_and_the_rest_opaque() -> None:
    bitmap = strip()
    frames = skin_frames(bitmap, TEAM, 1)
    alpha = np.concatenate(list(frames), axis=1)[:, :, 3]
    hidden = (bitmap.indices == TRANSPARENT_INDEX) | guide_mask(bitmap.indices, SKIN_FRAMES)
    assert np.array_equal(alpha == 0, hidden)
    assert np.all(alpha[~hidden] == 255)


@pytest.mark.parametrize("count", [SKIN_FRAMES, SKIN_FRAMES + 2])
def test_frames_are_the_square_slices_of_the_strip(count: int) -> None:
    frames = skin_frames(strip(count), TEAM, 2)
    assert frames.shape == (SKIN_FRAMES, SIZE, SIZE, 4)  # extra frames are ignored (T15)
    assert frames.dtype == np.uint8
    for k in range(SKIN_FRAMES):
        assert tuple(frames[k][0, 1, :3]) == (20 + k,) * 3


def test_frame_names_pick_their_frame() -> None:
    assert FRAME_NAMES == (CREDITS, STAND, ATTACK, PAIN, ALT_STAND)
    assert FRAME_NAMES == ("credits", "stand", "attack", "pain", "alt_stand")
    frames = skin_frames(strip(), TEAM, 3)
    for k, name in enumerate(FRAME_NAMES):
        assert frame_index(name) == k
        assert np.array_equal(pick_frame(frames, name), frames[k])
    with pytest.raises(ValueError, match="no skin frame 'walk'.*credits, stand"):
        frame_index("walk")


@pytest.mark.parametrize("shape", [(16, 70), (16, 64), (0, 0), (16, 8)])
def test_a_non_filmstrip_is_refused(shape: tuple[int, int]) -> None:
    bitmap = Bitmap(np.zeros(shape, dtype=np.uint8), gold_palette())
    with pytest.raises(SkinError, match="filmstrip|empty"):
        skin_frames(bitmap, TEAM, 0)


# --------------------------------------------------------------------------- shadow
def test_shadow_layer_is_a_soft_flat_oval() -> None:
    shadow = default_style().shadow
    layer = shadow_layer(40, 60, (30.0, 20.0), (20.0, 8.0), shadow)
    alpha = layer[:, :, 3].astype(int)
    assert np.all(layer[:, :, :3][alpha > 0] == shadow.colour)
    assert alpha.max() == shadow.alpha == alpha[19, 29]
    # symmetric about the centre, fading outwards along both axes, nothing beyond the radii
    assert np.array_equal(alpha, alpha[::-1, :]) and np.array_equal(alpha, alpha[:, ::-1])
    assert np.all(np.diff(alpha[19, 30:]) <= 0) and np.all(np.diff(alpha[20:, 29]) <= 0)
    assert alpha[19, 30 + 14] < shadow.alpha and alpha[19, 30 + 14] > 0
    assert alpha[19, 50:].max() == 0 and alpha[28:, :].max() == 0
    rows, cols = np.nonzero(alpha)
    assert np.ptp(cols) > 2 * np.ptp(rows)


def feet_frame() -> U8:
    """A 32x32 RGBA frame: a 4-wide body standing with its feet (x 10-17) on row 24."""
    frame = np.zeros((32, 32, 4), dtype=np.uint8)
    frame[6:25, 12:16] = (200, 10, 10, 255)
    frame[22:25, 10:18] = (200, 10, 10, 255)
    return frame


def test_shadow_sits_under_the_footprint() -> None:
    shadow = default_style().shadow
    frame = feet_frame()
    assert footprint(frame, shadow.footprint_rows) == (14.0, 24, 8)
    layer = shadow_for(frame, shadow)
    rows, cols = np.nonzero(layer[:, :, 3])
    assert abs((cols.min() + cols.max() + 1) / 2 - 14.0) <= 0.5
    assert rows.min() <= 24 <= rows.max()
    assert rows.max() - 24 <= np.ptp(rows) // 2 + 1
    assert np.ptp(cols) + 1 >= 8
    empty = np.zeros((32, 32, 4), dtype=np.uint8)
    assert not shadow_for(empty, shadow).any()


def test_shadow_stays_inside_the_frame() -> None:
    frame = np.zeros((32, 32, 4), dtype=np.uint8)
    frame[20:32, 4:28] = 255
    layer = shadow_for(frame, default_style().shadow)
    assert layer[31, 16, 3] > 0  # moved up, still drawn at the bottom edge


def test_with_shadow_goes_behind_the_piece_and_not_the_portrait() -> None:
    frames = np.stack([feet_frame()] * SKIN_FRAMES)
    style = default_style()
    shaded = with_shadow(frames, 0, style)
    tinted = style.shadow.colour_for(style.colour(0))
    solid = frames[..., 3] == 255
    assert np.array_equal(shaded[solid], frames[solid])
    assert np.array_equal(shaded[frame_index(CREDITS)], frames[frame_index(CREDITS)])
    for name in (STAND, ATTACK, PAIN, ALT_STAND):
        frame = pick_frame(shaded, name)
        assert frame[26, 14, 3] > 0 and tuple(frame[26, 14, :3]) == tinted
        assert frame[0, 0, 3] == 0


def test_shadow_tint_leans_towards_the_army() -> None:
    shadow = msgspec.structs.replace(default_style().shadow, colour=(0, 0, 0), tint=0.5)
    assert shadow.colour_for((200, 100, 0)) == (100, 50, 0)
    assert msgspec.structs.replace(shadow, tint=0.0).colour_for((200, 100, 0)) == (0, 0, 0)
    assert msgspec.structs.replace(shadow, tint=1.0).colour_for((200, 100, 0)) == (200, 100, 0)


def test_over_blends_straight_alpha() -> None:
    top = np.array([[[255, 0, 0, 128]]], dtype=np.uint8)
    bottom = np.array([[[0, 0, 255, 255]]], dtype=np.uint8)
    assert tuple(over(top, bottom)[0, 0]) == (128, 0, 127, 255)
    clear = np.zeros((1, 1, 4), dtype=np.uint8)
    assert tuple(over(clear, clear)[0, 0]) == (0, 0, 0, 0)
    assert np.array_equal(over(top, clear), top)


# --------------------------------------------------------------------------- cache, fallback
BROKEN_SKIN = "skins/knight.bmp"


@pytest.mark.parametrize("broken", ["missing", "not a filmstrip", "not a bmp"])
def test_a_missing_or_broken_skin_is_drawn_as_the_placeholder(
    make_pack, art, tmp_path: Path, broken: str
) -> None:
    if broken == "missing":
        root = make_pack(skip=frozenset({BROKEN_SKIN}))
    elif broken == "not a filmstrip":
        root = make_pack(images={BROKEN_SKIN: np.zeros((32, 70), dtype=np.uint8)})
    else:
        root = make_pack()
        (root / BROKEN_SKIN).write_bytes(b"this is no bitmap")
    pack = load_pack(root)
    cache = SkinCache(pack)
    stand_in = skin_frames(placeholder_skin(art.palette), pack.team_color_indices(), 0)
    assert np.array_equal(cache.frames(1, 0, shadow=False), stand_in)
    assert cache.frames(99, 1).shape == (SKIN_FRAMES, 96, 96, 4)  # unknown piece id


def test_cache_gives_the_same_read_only_frames(make_pack) -> None:
    cache = SkinCache(load_pack(make_pack()))
    first = cache.frames(1, 2)
    assert cache.frames(1, 2) is first
    assert not first.flags.writeable
    assert cache.frames(1, 2, shadow=False) is not first
    assert first.shape == (SKIN_FRAMES, 32, 32, 4)


# --------------------------------------------------------------------------- style file
def test_shipped_style_names_every_army() -> None:
    style = read_style(asset("tactics", "skins.toml"))
    assert len(style.armies) == len(TEAM_NAMES)
    assert len(set(style.armies)) == len(TEAM_NAMES)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("blue = [44, 94, 226]", "blue = [44, 94]"),
            r"at `armies.blue`: Expected `array` of length 3",
        ),
        (("mid = 0.55", "mid = 1.0"), r"at `shading.mid`: Expected `float` < 1.0"),
        (("alpha = 160", "alpha = 300"), r"at `shadow.alpha`: Expected `int` <= 255"),
        (("[shadow]", "[shade]"), r"unknown field `shade`|missing required field `shadow`"),
        (("red = [206, 38, 38]", "red = [206, 38"), "broken TOML"),
    ],
)
def test_a_bad_style_file_names_file_and_key(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = asset("tactics", "skins.toml").read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "skins.toml"
    path.write_text(text.replace(change[0], change[1]), encoding="utf-8")
    with pytest.raises(SkinStyleError, match=message) as info:
        read_style(path)
    assert str(path) in str(info.value)


# --------------------------------------------------------------------------- render
def test_rgba_surface_keeps_size_and_alpha() -> None:
    pygame = pytest.importorskip("pygame")
    from suite.tactics.render import frame_surfaces, rgba_surface

    frames = skin_frames(strip(), TEAM, 0)
    surface = rgba_surface(frames[1])
    assert surface.get_size() == (SIZE, SIZE)
    assert surface.get_flags() & pygame.SRCALPHA
    for y, x in ((0, 0), (3, 1), (SIZE - 1, 5)):
        assert tuple(surface.get_at((x, y))) == tuple(frames[1][y, x])
    surfaces = frame_surfaces(frames)
    assert [s.get_size() for s in surfaces] == [(SIZE, SIZE)] * SKIN_FRAMES


@pytest.mark.parametrize("alpha", [True, False])
def test_tile_surface_is_transparent_outside_the_cube(art, alpha: bool) -> None:
    pygame = pytest.importorskip("pygame")
    from suite.tactics.render import tile_surface

    bitmap = Bitmap(art.tile(), art.palette)
    surface = tile_surface(bitmap, alpha=alpha)
    assert surface.get_size() == (128, 128)
    if alpha:
        assert surface.get_flags() & pygame.SRCALPHA
        assert surface.get_at((0, 0)).a == 0
        assert surface.get_at((64, 32)).a == 255
    else:
        assert surface.get_colorkey() is not None
        assert surface.get_at_mapped((0, 0)) == TRANSPARENT_INDEX
        assert surface.get_at_mapped((64, 32)) == 20
    target = pygame.Surface((128, 128))
    target.fill((1, 2, 3))
    target.blit(surface, (0, 0))
    assert tuple(target.get_at((0, 0)))[:3] == (1, 2, 3)
    assert tuple(target.get_at((64, 32)))[:3] == (20, 20, 20)


def test_pack_art_surfaces(make_pack, art) -> None:
    pytest.importorskip("pygame")
    from suite.tactics.render import PackArt

    root = make_pack(images={"tiles/grass.bmp": np.zeros((64, 64), dtype=np.uint8)})
    pack_art = PackArt(load_pack(root))
    tile = pack_art.tile(20)  # wrongly sized: the placeholder
    assert tile.get_size() == (128, 128)
    assert tile.get_at((64, 32)).a == 255 and tile.get_at((0, 0)).a == 0
    assert pack_art.tile(77).get_size() == (128, 128)  # undefined tile
    frames = pack_art.frames(1, 3)
    assert len(frames) == SKIN_FRAMES and frames[0].get_size() == (32, 32)
    assert pack_art.frame(1, 3, STAND) is frames[1]
    assert pack_art.frames(1, 3) is frames


def test_screenshot_of_the_four_armies(artifacts: Path) -> None:
    pygame = pytest.importorskip("pygame")
    from suite.tactics.render import PackArt

    pack = load_pack(asset("tactics"))
    pack_art = PackArt(pack)
    grounds = [i for i, t in sorted(pack.tiles.items()) if t.movement & 1 and t.name != "Bridge"]
    pieces = sorted(pack.pieces)
    cell, top = 128, 70
    screen = pygame.Surface((cell * len(pieces), (cell // 2 + top) * len(TEAM_NAMES) + top))
    screen.fill((24, 26, 34))
    for row, col in itertools.product(range(len(TEAM_NAMES)), range(len(pieces))):
        x, y = col * cell, top + row * (cell // 2 + top)
        screen.blit(pack_art.tile(grounds[col % len(grounds)]), (x, y))
        frame = pack_art.frame(pieces[col], row, STAND if (row + col) % 2 else ATTACK)
        # the feet (row 84 of a 96 frame) on the middle of the tile's top face
        screen.blit(frame, (x + (cell - frame.get_width()) // 2, y + cell // 4 - 84))
    out = artifacts / "tactics_skins.png"
    pygame.image.save(screen, str(out))
    assert out.stat().st_size > 10_000
