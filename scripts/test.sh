#!/usr/bin/env bash
# The test suite: lint, types, import contracts, tests. Fails when no test ran.
#
#   scripts/test.sh [--quick] [PYTEST ARGS]     (what `./run test` runs)
#
# - pytest runs on every core (pytest-xdist, COMPANION_TEST_WORKERS, default: the cores
#   this process may use); ruff, mypy --strict and lint-imports run beside it, each
#   into its own log, printed when it ends (they are one process each: run one after
#   another before pytest, they left a core idle for minutes).
# - --quick: every test not marked browser, slow or system (see pyproject.toml), for
#   checking a change while working; CI always runs everything.
# - At the end: the 30 slowest tests (pytest --durations) and each phase's wall time.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
export PATH="$PWD/.venv/bin:$PATH"
# Python writes each module's byte code once and the suite's hundreds of Python processes
# (the workers, every CLI, server and kill test's child) read it: an environment that
# sets PYTHONDONTWRITEBYTECODE made each of them compile every module it imports again
# (the CLI tests: 32 s -> 20 s without it). The .pyc files stay in this checkout.
unset PYTHONDONTWRITEBYTECODE
mkdir -p artifacts/phases

quick=""
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
fi
workers="${COMPANION_TEST_WORKERS:-$(python -c 'import os; print(len(os.sched_getaffinity(0)))')}"
# the Hypothesis profile (tests/conftest.py): derandomized in CI, so a run is reproducible
if [ -z "${HYPOTHESIS_PROFILE:-}" ]; then
  if [ -n "${CI:-}" ]; then export HYPOTHESIS_PROFILE=ci; else export HYPOTHESIS_PROFILE=dev; fi
fi

now() { date +%s.%N; }
declare -A took=()
started=$(now)

# ruff, mypy and lint-imports: in the background, each with its log and exit code
checks=(ruff mypy contracts)
check_cmd() {
  case "$1" in
    ruff) ruff check . ;;
    mypy) mypy --strict companion vision hardware web bench league ;;
    contracts) lint-imports --no-logo ;;
  esac
}
for c in "${checks[@]}"; do
  ( t0=$(now); s=0; check_cmd "$c" > "artifacts/phases/$c.log" 2>&1 || s=$?
    echo "$s $(python -c "print(f'{$(now) - $t0:.0f}')")" > "artifacts/phases/$c.rc" ) &
done

echo "== pytest ($workers workers${quick:+, quick tier: not browser, slow or system}; ruff, mypy --strict and lint-imports beside it)"
rm -f artifacts/junit.xml
args=(-q -ra --junitxml=artifacts/junit.xml --durations=30 --durations-min=0.5)
[ "$workers" -gt 1 ] && args+=(-n "$workers" --dist worksteal)
[ -n "$quick" ] && args+=(-m "not browser and not slow and not system")
status=0
t0=$(now)
python -m pytest "${args[@]}" "$@" || status=$?
took[pytest]=$(python -c "print(f'{$(now) - $t0:.0f}')")
wait

declare -A names=([ruff]="ruff" [mypy]="mypy --strict" [contracts]="lint-imports (import contracts)")
for c in "${checks[@]}"; do
  read -r s secs < "artifacts/phases/$c.rc"
  took[$c]=$secs
  echo "== ${names[$c]}: $([ "$s" = 0 ] && echo passed || echo "FAILED (exit $s)")"
  if [ "$s" != 0 ] || [ "$c" = contracts ]; then cat "artifacts/phases/$c.log"; fi
  [ "$s" = 0 ] || status=1
done

python - <<'PY' || status=1
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

total=$(python -c "print(f'{$(now) - $started:.0f}')")
echo "== time of each phase (wall seconds; the checks ran beside pytest)"
printf '   %-34s %6s s\n' "ruff" "${took[ruff]}" "mypy --strict" "${took[mypy]}" \
  "lint-imports" "${took[contracts]}" "pytest ($workers workers)" "${took[pytest]}" \
  "all" "$total"
exit "$status"
