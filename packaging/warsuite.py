"""The bundled app's start: PyInstaller freezes this script into the `warsuite` executable.

`multiprocessing.freeze_support()` comes first: a bot's worker process (the "spawn" start
method of `suite.core.thinking` and of the match server's bot workers) is this same
executable started again with multiprocessing's arguments, and must run the worker, not
the suite. Everything else is in `suite.bundled`.
"""

import multiprocessing

if __name__ == "__main__":
    multiprocessing.freeze_support()

    from suite.bundled import main

    raise SystemExit(main())
