"""WoK rules: rule sets, orders, the turn engine and robots (no pygame)."""
