"""WoS Tactics asset packs: the `tactics_ini.txt` reader, bitmaps, maps, checks, downloads.

The parsing and loading modules import no pygame (pytmx, which may, is imported only for a
`.tmx` map); drawing lives with the screens.

    from suite.paths import asset
    from suite.tactics.assets.pack import load_pack
    from suite.tactics.assets.placeholders import skin_bitmap, tile_bitmap

    pack = load_pack(asset("tactics"))        # never raises for bad content
    for problem in pack.problems:             # file:line: severity: message
        print(problem)
    grid = pack.grids[1]                      # MapGrid: tiles, movement, elevation, starts
    knight = pack.pieces[1]                   # Piece: stats, movement bits, weapon id, sets
    sword = pack.weapons[knight.weapon]       # Weapon: class, dominates, damage
    grid.passable(3, 4, knight.movement)      # the tile shares a movement bit and is not 0
    art = tile_bitmap(pack, int(grid.tiles[4, 3]))  # Bitmap(indices, palette) or a stand-in

Modules: `model` (records), `ini` (the Windows-like reader), `records` (ini -> records),
`bmp` (8-bit/RLE8 BMP), `elevation`, `tmx`, `pack` (folder -> Pack with grids), `check`
(the validator), `fetch` (downloads), `files` (safe, case-blind asset paths),
`placeholders` (stand-in art).
"""
