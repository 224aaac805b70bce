#!/usr/bin/env bash
# The whole test suite: lint, types, tests. Fails when no test ran.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
export PATH="$PWD/.venv/bin:$PATH"
mkdir -p artifacts
echo "== ruff"
ruff check .
echo "== mypy --strict (companion, vision, hardware, web, bench, league)"
mypy --strict companion vision hardware web bench league
echo "== lint-imports (what may import what; no import cycles: pyproject.toml)"
lint-imports --no-logo
echo "== pytest"
rm -f artifacts/junit.xml
status=0
python -m pytest -q -ra --junitxml=artifacts/junit.xml "$@" || status=$?
python - <<'PY'
import sys
import xml.etree.ElementTree as ET

try:
    root = ET.parse("artifacts/junit.xml").getroot()
except (OSError, ET.ParseError) as exc:
    sys.exit(f"no test report: {exc}")
suites = [root] if root.tag == "testsuite" else list(root)
ran = sum(int(s.get("tests", 0)) - int(s.get("skipped", 0)) for s in suites)
print(f"{ran} tests ran")
if ran == 0:
    sys.exit("no test ran: that is a failure")
PY
exit "$status"
