"""Benchmarks and generators: run by ``companion bench NAME``, never imported by the service."""
