"""The shared core: seeded randomness, dice, boards, unit stacks, the game contract, saves.

Nothing in this package imports pygame, the ui, the net layer or any game.
"""
