"""The tactics package."""
