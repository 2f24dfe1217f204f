"""Variant definitions as TOML data (read with importlib.resources)."""
