"""Benchmarks and their generators: figures, not tests; the Pi's service never imports them."""
