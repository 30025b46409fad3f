"""WoS Tactics asset packs: the `tactics_ini.txt` reader, bitmaps, maps, checks, downloads.

The parsing and loading modules import no pygame; drawing lives with the screens.
"""
