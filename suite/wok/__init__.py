"""The wok package."""
