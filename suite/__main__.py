"""`python -m suite` is the `suite` command."""

from suite.cli import main

if __name__ == "__main__":  # a bot's worker process imports this module without running it
    raise SystemExit(main())
