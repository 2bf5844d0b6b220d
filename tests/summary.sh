#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Prints the suite's closing line, "N passed, N failed, N skipped", from the
# per-assertion results that automake's TAP driver leaves in *.trs files.
# Usage: summary.sh BUILDDIR...   Exit status 1 when anything failed.
# EXTRA_PASSED / EXTRA_FAILED add whole steps the caller ran (distcheck...).
# Before that line, each script that failed is named with its failed checks and
# their diagnostics, so that the end of a CI log, which may be all that is
# kept of it, says what failed.
pass=${EXTRA_PASSED:-0} fail=${EXTRA_FAILED:-0} skipped=0
for dir in "$@"; do
	for f in $(find "$dir" -name '*.trs' 2>/dev/null); do
		p=$(grep -c '^:test-result: \(PASS\|XFAIL\)' "$f")
		x=$(grep -c '^:test-result: \(FAIL\|XPASS\|ERROR\)' "$f")
		s=$(grep -c '^:test-result: SKIP' "$f")
		pass=$((pass + p)) fail=$((fail + x)) skipped=$((skipped + s))
		[ "$x" -eq 0 ] || failed_logs="${failed_logs:-} ${f%.trs}.log"
	done
done
# failures LOG: its "not ok" lines, each with the diagnostics after it, and a
# bail-out, at most 40 lines a script; or its last lines when it has none of
# those (a script that stopped with an error).
failures() {
	echo "failed in $1:"
	grep -q '^not ok\|^Bail out!' "$1" 2>/dev/null || {
		tail -n 5 "$1" 2>/dev/null
		return
	}
	awk '/^not ok/ { keep = 8; print; next }
		/^Bail out!/ { print; next }
		/^(PASS|FAIL|ERROR|SKIP|XPASS|XFAIL): / { next }
		keep > 0 && /^#/ { keep--; print; next }
		{ keep = 0 }' "$1" 2>/dev/null | head -n 40
}
for log in ${failed_logs:-}; do
	failures "$log"
done
if [ -z "$(find "$@" -name '*.trs' 2>/dev/null | head -n 1)" ]; then
	echo "summary: no test results found under $*" >&2
	fail=1
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
