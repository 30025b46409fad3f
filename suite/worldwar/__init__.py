"""The worldwar package."""
