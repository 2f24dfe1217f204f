"""Benchmarks: each module measures one thing against a reference taken in the same run, and
prints what it found. Run one from the repository root with ``./dev bench NAME [ARGS]`` (that is
``.venv/bin/python -m bench.NAME``); none of them edits the import path."""
