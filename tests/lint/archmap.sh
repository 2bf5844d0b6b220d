# SPDX-License-Identifier: BSD-2-Clause
# docs/architecture.md is the map of the code, so it must name every file:
# each .c under src/ by its name, each header by its name or by its .c's,
# and every `file.c` or `file.h` it names in backticks must exist.  A file
# moved, added or renamed without the map fails here, with the names.  The
# checker is run once on a made-up tree so it can be seen to fail.
. "$top_srcdir/tests/cli/lib.sh"

# unmapped ROOT: the files under ROOT/src and ROOT/include that
# ROOT/docs/architecture.md does not name; fails if any.
unmapped() {
	_doc="$1/docs/architecture.md"
	_bad=0
	for f in $(cd "$1" && find src include -name '*.[ch]' | sort); do
		_b=${f##*/}
		grep -qF "$_b" "$_doc" && continue
		case $_b in *.h) grep -qF "${_b%.h}.c" "$_doc" && continue ;; esac
		echo "$f: not named in docs/architecture.md"
		_bad=1
	done
	return $_bad
}

# stale ROOT: the `name.c` and `name.h` in backticks in the map that are no
# file of the tree (placeholders in capitals, such as X.h or NAME.c, and
# globs are let be); fails if any.
stale() {
	_bad=0
	for n in $(grep -oE '`[A-Za-z0-9_./-]+\.[ch]`' "$1/docs/architecture.md" | tr -d '`' | sort -u); do
		_b=${n##*/}
		case ${_b%.?} in *[A-Z]*) continue ;; esac
		[ -n "$(cd "$1" && find src include tests tools bench -name "$_b" 2>/dev/null | head -n 1)" ] && continue
		echo "docs/architecture.md: $n is no file of the tree"
		_bad=1
	done
	return $_bad
}

n=$(cd "$top_srcdir" && find src include -name '*.[ch]' | wc -l)
ok "the tree has source files to map ($n)" test "$n" -gt 200
ok "docs/architecture.md names every file under src/ and include/" unmapped "$top_srcdir"
ok "every file docs/architecture.md names exists" stale "$top_srcdir"

tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/src/model" "$tmp/include/scaletop" "$tmp/docs"
: >"$tmp/src/model/named.c"
: >"$tmp/src/model/forgotten.c"
: >"$tmp/include/scaletop/named.h"
printf '# map\n- `named.c`, and `gone.c` that moved away; `src/workload/NAME.c`\n' \
	>"$tmp/docs/architecture.md"
out=$(unmapped "$tmp")
ok "the checker fails a tree with a file the map does not name" test $? -ne 0
ok "the checker names that file" sh -c 'printf "%s\n" "$1" | grep -qF "src/model/forgotten.c: not named"' _ "$out"
ok "a header is named by its .c" sh -c '! printf "%s\n" "$1" | grep -qF "named.h"' _ "$out"
out=$(stale "$tmp")
ok "the checker fails a map naming a file that is gone" test $? -ne 0
ok "the checker names the stale name alone" sh -c \
	'printf "%s\n" "$1" | grep -qF "gone.c is no file" && ! printf "%s\n" "$1" | grep -qE "named.c|NAME.c"' _ "$out"
done_testing
