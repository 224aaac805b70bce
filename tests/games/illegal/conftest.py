"""The dashboard fixtures of tests/web (app, table, live server) for Illegal's page tests."""

from tests.web.conftest import app, live_url, table, tally_engine

__all__ = ["app", "live_url", "table", "tally_engine"]
