#!/usr/bin/env bash
# Build rook_core with AddressSanitizer + UBSan (CMake option ROOK_SANITIZE)
# into its own virtual environment and run the test suite under it.
#
#   bash tools/sanitize.sh            # the whole suite
#   bash tools/sanitize.sh -k parity  # extra arguments go to pytest
#
# Python itself is not instrumented, so the ASan runtime is preloaded and
# leak checking (which would report the interpreter's own allocations) is off.
set -euo pipefail
cd "$(dirname "$0")/.."
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
root=$(pwd)
cd "$(mktemp -d)"
"$root/$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests" \
  --ignore "$root/tests/sim/test_simulate_dask.py" --ignore "$root/tests/test_service_browser.py" \
  --deselect tests/test_docs_run.py::test_the_site_builds_strictly "$@"
exec "$root/$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/sim/test_simulate_dask.py" "$@"
