"""The league server: many tables, one league on PostgreSQL (``companion league serve``).

Tables push the results of finished games (``league.api``); people read standings,
ratings, histories and head-to-head records (``league.pages``); the league's admin makes
join codes and merges duplicate players (``league.admin``). The same web conventions as
``web/`` (``create_app``, one blueprint per concern, CSRF on every form); the data in
PostgreSQL (``league.db``: a psycopg connection pool, numbered SQL migrations).
"""
