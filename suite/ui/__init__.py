"""The suite's pygame screens: the app loop and scenes, theme, widgets, audio, settings,
the headless test harness and the launcher. Game rules never import this package."""

import os

# Set before any submodule imports pygame, so the suite starts without pygame's banner.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
