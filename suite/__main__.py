"""`python -m suite` is the `suite` command."""

from suite.cli import main

raise SystemExit(main())
