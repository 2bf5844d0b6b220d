# SPDX-License-Identifier: BSD-2-Clause
# The suite's closing line and the failures named before it (tests/summary.sh),
# on a made-up tree of results (logs as automake's TAP driver writes them, a
# result line after each TAP line): a CI log may keep only its end, so the
# end must say which check failed and why.
. "$top_srcdir/tests/cli/lib.sh"

tap_tmpdir
T=$TAP_TMP
SUMMARY="$top_srcdir/tests/summary.sh"
mkdir -p "$T/good" "$T/bad/a" "$T/bad/b"
printf ':test-result: PASS\n:test-result: SKIP\n' >"$T/good/one.trs"
printf 'ok 1 - fine\nok 2 # SKIP no BSD kernel\n' >"$T/good/one.log"
printf ':test-result: PASS\n:test-result: FAIL\n:test-result: ERROR\n' >"$T/bad/a/lw.trs"
cat >"$T/bad/a/lw.log" <<'LOG'
ok 1 - a sweep exits 0
PASS: lw.sh 1 - a sweep exits 0
not ok 2 - lock wait does not fall from 2 to 4 threads (69.1 -> 42.0)
FAIL: lw.sh 2 - lock wait does not fall from 2 to 4 threads (69.1 -> 42.0)
# try 3 of 3: 69.1 42.0 80.2
ok 3 - unrelated
PASS: lw.sh 3 - unrelated
# not part of the failure
LOG
printf ':test-result: PASS\n:test-result: ERROR\n' >"$T/bad/b/crash.trs"
printf 'ok 1 - starts\nline one\nSegmentation fault (core dumped)\n' >"$T/bad/b/crash.log"

# has FILE TEXT: FILE holds TEXT, as it is (no pattern).
has() { grep -qF -- "$2" "$1"; }

sh "$SUMMARY" "$T/good" >"$T/good.out" 2>&1
is "$?" 0 "all passed: exit 0"
is "$(cat "$T/good.out")" "1 passed, 0 failed, 1 skipped" "all passed: the closing line alone"

EXTRA_PASSED=2 EXTRA_FAILED=1 sh "$SUMMARY" "$T/bad" >"$T/bad.out" 2>&1
is "$?" 1 "a failure: exit 1"
is "$(tail -n 1 "$T/bad.out")" "4 passed, 4 failed, 0 skipped" \
	"a failure: the closing line counts the extra steps too"
ok "the failed script is named" has "$T/bad.out" "failed in $T/bad/a/lw.log:"
ok "... with its failed check" has "$T/bad.out" \
	"not ok 2 - lock wait does not fall from 2 to 4 threads (69.1 -> 42.0)"
ok "... and the diagnostics after it" has "$T/bad.out" "# try 3 of 3: 69.1 42.0 80.2"
ok "... but not a passed check's" sh -c '! grep -q "unrelated\|not part of" "$1"' sh "$T/bad.out"
ok "a script that failed with no 'not ok' shows its last lines" has "$T/bad.out" \
	"Segmentation fault (core dumped)"
ok "the failures come before the closing line" sh -c \
	'[ "$(grep -n "failed in" "$1" | tail -n 1 | cut -d: -f1)" -lt "$(wc -l <"$1")" ]' sh "$T/bad.out"

mkdir -p "$T/none"
sh "$SUMMARY" "$T/none" >"$T/none.out" 2>&1
is "$?" 1 "no results at all is a failure"
done_testing
