# SPDX-License-Identifier: BSD-2-Clause
# Every .c and .h under src/ and include/ opens, right after its SPDX line,
# with a comment of 1-5 lines saying what the file is for; the reasoning
# and the figures belong next to the code or in docs/design-notes.md.
# A bare "/*" or "*/" line does not count.  The checker is run once on a
# made-up tree so it can be seen to fail.
. "$top_srcdir/tests/cli/lib.sh"

MAX=5

# opening FILE: the text lines of the comment on line 2, or "none".
opening() {
	awk 'NR == 1 { next }
		NR == 2 && !/^[ \t]*\/\*/ { print "none"; exit }
		{ t = $0; bare = (t ~ /^[ \t]*\/\*[ \t]*$/ || t ~ /^[ \t]*\*\/[ \t]*$/)
		  if (!bare) n++
		  if (t ~ /\*\//) { print n; exit } }' "$1"
}

# overlong ROOT: the files under ROOT/src and ROOT/include whose opening
# comment is missing or longer than MAX lines; fails if any.
overlong() {
	_bad=0
	for f in $(cd "$1" && find src include -name '*.[ch]' | sort); do
		_n=$(opening "$1/$f")
		if [ "$_n" = none ]; then
			echo "$f: no opening comment after the SPDX line"
			_bad=1
		elif [ "$_n" -gt $MAX ]; then
			echo "$f: opening comment of $_n lines (at most $MAX)"
			_bad=1
		fi
	done
	return $_bad
}

n=$(cd "$top_srcdir" && find src include -name '*.[ch]' | wc -l)
ok "the tree has source files to check ($n)" test "$n" -gt 200
ok "every file opens with a comment of 1-$MAX lines" overlong "$top_srcdir"

tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/src/model" "$tmp/include/scaletop"
spdx='/* SPDX-License-Identifier: BSD-2-Clause */'
printf '%s\n/* One line. */\nint a;\n' "$spdx" >"$tmp/src/model/short.c"
printf '%s\n/*\n * 1\n * 2\n * 3\n * 4\n * 5\n */\nint b;\n' "$spdx" >"$tmp/src/model/five.c"
printf '%s\n/*\n * 1\n * 2\n * 3\n * 4\n * 5\n * 6\n */\nint c;\n' "$spdx" >"$tmp/src/model/six.c"
printf '%s\n#include <stddef.h>\n' "$spdx" >"$tmp/include/scaletop/bare.h"
out=$(overlong "$tmp")
ok "the checker fails a tree with a long opening comment" test $? -ne 0
ok "the checker names the file of 6 lines" sh -c 'printf "%s\n" "$1" | grep -qF "src/model/six.c: opening comment of 6 lines"' _ "$out"
ok "the checker names the file without one" sh -c 'printf "%s\n" "$1" | grep -qF "include/scaletop/bare.h: no opening comment"' _ "$out"
ok "the checker passes 1 and 5 lines" sh -c '! printf "%s\n" "$1" | grep -qE "short.c|five.c"' _ "$out"
done_testing
