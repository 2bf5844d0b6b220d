# SPDX-License-Identifier: BSD-2-Clause
# Every source file says its licence in an SPDX line within its first three
# lines, and that licence is the LICENSE file's (BSD-2-Clause).  Source files
# are the C, shell, make, Python and autoconf files and the scripts with a
# "#!" line; the generated ones (configure, Makefile.in, build directories)
# are not.  The checker is run once on a
# made-up tree with a file that lacks the line, so it can be seen to fail.
. "$top_srcdir/tests/cli/lib.sh"

TAG="SPDX-License-Identifier: BSD-2-Clause"

# sources DIR: the source files under DIR, one a line.
sources() {
	find "$1" \( -name _build -o -name autom4te.cache -o -name build-aux -o \
		-name .git -o -name fixtures -o -name regressions -o -name seeds \) -prune -o \
		-type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.mk' -o -name '*.py' -o \
		-name Makefile.am -o -name configure.ac -o -name bootstrap -o -name run -o \
		-path '*/bench/*' -o -path '*/tools/*' \) -print |
		while read -r f; do
			case $f in
			*.[ch] | *.sh | *.mk | *.py | */Makefile.am | */configure.ac | */bootstrap) echo "$f" ;;
			*) [ "$(head -c 2 "$f")" = "#!" ] && echo "$f" ;;
			esac
		done
}

# unlicensed DIR: the source files under DIR without the line; fails if any.
unlicensed() {
	_bad=0
	for f in $(sources "$1"); do
		head -n 3 "$f" | grep -qF "$TAG" || { echo "$f: no '$TAG' line in its first 3 lines"; _bad=1; }
	done
	return $_bad
}

n=$(sources "$top_srcdir" | wc -l)
ok "the tree has source files to check ($n)" test "$n" -gt 400
ok "every source file has the SPDX line" unlicensed "$top_srcdir"
ok "the LICENSE file is the BSD 2-Clause licence" \
	grep -qF "Redistribution and use in source and binary forms" "$top_srcdir/LICENSE"
ok "--version names the licence" sh -c "'$SCALETOP' --version | grep -qF 'BSD-2-Clause'"

tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/src" "$tmp/bench"
printf '/* %s */\nint a;\n' "$TAG" >"$tmp/src/a.c"
printf '#!/bin/sh\necho no licence\n' >"$tmp/bench/tool"
out=$(unlicensed "$tmp")
ok "the checker fails a tree with an unlicensed file" test $? -ne 0
ok "the checker names the unlicensed file" sh -c 'printf "%s\n" "$1" | grep -qF "bench/tool: no"' _ "$out"
ok "the checker passes the licensed file" sh -c '! printf "%s\n" "$1" | grep -qF "src/a.c"' _ "$out"
done_testing
