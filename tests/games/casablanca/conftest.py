"""The dashboard fixtures (a running table, the app, a live server) for the page tests."""

from tests.web.conftest import app, live_url, table  # noqa: F401 - fixtures
