#!/usr/bin/env bash
# Build rook_core with sanitizers into its own virtual environment and run
# the tests under them.
#
#   bash tools/sanitize.sh                # AddressSanitizer + UBSan, the whole suite
#   bash tools/sanitize.sh -k parity      # extra arguments go to pytest
#   bash tools/sanitize.sh --thread       # ThreadSanitizer, the tests that run native threads
#
# Python itself is not instrumented, so the sanitizer's runtime is preloaded.
# For AddressSanitizer, leak checking (which would report the interpreter's
# own allocations) is off.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
if [ "${1:-}" = "--thread" ]; then
  shift
  # ThreadSanitizer (CMake ROOK_SANITIZE=thread): the solver's teams (split
  # points, helpers on kept threads, the shared table, stops from another
  # thread, Solver.stop), batches on threads, the simulator's threads, and
  # rook engine's reader thread.  A report
  # ends the run (exit code 66).  The forked-child test is left out:
  # ThreadSanitizer cannot start threads in a child forked from a process
  # with threads ("not supported"), which is what that test does on purpose.
  venv=.venv-tsan
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  ROOK_SANITIZE=thread "$venv/bin/pip" install -q --force-reinstall \
    --config-settings=build-dir=build/tsan '.[test]'
  # pytest holds the tests' stderr, and a report ends the process, so the
  # reports go to files, shown below; tools/tsan.supp lists what is not ours.
  logs=$(mktemp -d)
  export LD_PRELOAD=$(gcc -print-file-name=libtsan.so)
  export TSAN_OPTIONS="halt_on_error=1:exitcode=66:suppressions=$root/tools/tsan.supp:log_path=$logs/report"
  cd "$(mktemp -d)"
  status=0
  "$root/$venv/bin/python" -m pytest -q -p no:cacheprovider \
    "$root/tests/test_solver_questions.py" "$root/tests/test_interrupts.py" "$root/tests/test_solver_batch.py" \
    "$root/tests/test_nest.py" "$root/tests/sim/test_playout.py" "$root/tests/sim/test_sim_native.py" \
    "$root/tests/sim/test_simulate.py" "$root/tests/sim/test_studies.py" "$root/tests/bots/test_bidding.py" \
    "$root/tests/test_engine.py" \
    --deselect tests/test_solver_questions.py::test_a_solver_whose_helpers_have_threads_answers_in_a_forked_child \
    "$@" || status=$?
  if compgen -G "$logs/report.*" >/dev/null; then
    cat "$logs"/report.*
    [ "$status" -ne 0 ] || status=66
  fi
  exit "$status"
fi
venv=.venv-asan
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
ROOK_SANITIZE=ON "$venv/bin/pip" install -q --force-reinstall \
  --config-settings=build-dir=build/asan '.[test]'
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
export LD_PRELOAD="$asan:$ubsan"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Run from outside the tree so that the installed (instrumented) package is
# imported, not the sources.  The Dask cluster test runs in a process of its
# own: started late in one long instrumented process, its worker processes
# have been seen to vanish and leave the test waiting.  The browser test is
# left out: Chromium cannot start with the ASan runtime preloaded, and the
# service code it drives is the same the HTTP tests run.  The site build is
# left out too: mkdocs runs in the source tree, whose rook_core has no
# compiled modules in this environment (they are installed, not in place),
# and it exercises no native code (its id is relative to the rootdir, which
# pytest finds from the tests' pyproject.toml, not to this folder).
cd "$(mktemp -d)"
"$root/$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests" \
  --ignore "$root/tests/sim/test_simulate_dask.py" --ignore "$root/tests/test_service_browser.py" \
  --deselect tests/test_docs_run.py::test_the_site_builds_strictly "$@"
exec "$root/$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/sim/test_simulate_dask.py" "$@"
