#!/bin/sh
# Prints the suite's closing line, "N passed, N failed, N skipped", from the
# per-assertion results that automake's TAP driver leaves in *.trs files.
# Usage: summary.sh BUILDDIR...   Exit status 1 when anything failed.
# EXTRA_PASSED / EXTRA_FAILED add whole steps the caller ran (distcheck...).
pass=${EXTRA_PASSED:-0} fail=${EXTRA_FAILED:-0} skipped=0
for dir in "$@"; do
	for f in $(find "$dir" -name '*.trs' 2>/dev/null); do
		p=$(grep -c '^:test-result: \(PASS\|XFAIL\)' "$f")
		x=$(grep -c '^:test-result: \(FAIL\|XPASS\|ERROR\)' "$f")
		s=$(grep -c '^:test-result: SKIP' "$f")
		pass=$((pass + p)) fail=$((fail + x)) skipped=$((skipped + s))
	done
done
if [ -z "$(find "$@" -name '*.trs' 2>/dev/null | head -n 1)" ]; then
	echo "summary: no test results found under $*" >&2
	fail=1
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
