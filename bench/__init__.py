"""The benchmarks and test-data generators: figures and fixtures for developers.

``companion bench NAME`` loads ``bench.NAME`` by module name (``BENCHES`` in
``companion/commands/bench.py``). Nothing the Pi's service runs imports this package (the
``runtime-not-bench`` contract in ``pyproject.toml``), so what lives here is never loaded
at a table.
"""
