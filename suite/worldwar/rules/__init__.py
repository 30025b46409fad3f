"""World War rules: engine, cards, odds, bots and maps (no pygame)."""
