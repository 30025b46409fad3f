"""The net package."""
