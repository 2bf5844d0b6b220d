# SPDX-License-Identifier: BSD-2-Clause
# src/monitor.ld, the functions a TUI session runs (tools/monitor-text.sh):
# every name it lists is still a function of the tree, so that a rename
# cannot quietly drop a function from the monitor's text; and where
# configure linked with it, the binary has them at the head of its text.
. "$top_srcdir/tests/cli/lib.sh"
need readelf binutils nm binutils

LD="$top_srcdir/src/monitor.ld"
tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM

# names LDSCRIPT: the functions it lists, clone suffixes (.part.0) dropped.
names() {
	sed -n 's/^ *\*(\.text\.\([A-Za-z_][A-Za-z0-9_]*\)[ .].*/\1/p' "$1" | sort -u
}

# stale LDSCRIPT SRCDIR: prints each listed name no C file under SRCDIR
# defines (the tree's style: the name at the start of its line, then "(").
stale() {
	find "$2" -name '*.c' -exec sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' {} + |
		sort -u >"$tmp/defined"
	names "$1" | comm -23 - "$tmp/defined"
}

n=$(names "$LD" | wc -l)
ok "src/monitor.ld lists the functions of a session ($n)" test "$n" -gt 100
ok "every function src/monitor.ld lists is in src/ (else run tools/monitor-text.sh)" \
	sh -c 'out=$1; [ -z "$out" ] || { printf "gone: %s\n" $out; exit 1; }' sh "$(stale "$LD" "$top_srcdir/src")"

# The checker on a made-up script and tree: a name that no file defines is found.
mkdir -p "$tmp/src"
printf 'int\nkept(void)\n{\n\treturn 0;\n}\n' >"$tmp/src/k.c"
printf '  .text.monitor : {\n    *(.text.kept .text.kept.*)\n    *(.text.gone.part.0 .text.gone.part.0.*)\n  }\n' >"$tmp/m.ld"
is "$(stale "$tmp/m.ld" "$tmp/src")" "gone" "a listed function the tree no longer has is found"

# The link: where configure's check passed, every listed function the binary
# has comes before the first one it does not list (cold parts, main and the
# C runtime's, which the list places by file, aside).
if grep -q '^ST_ORDER_LDFLAGS = -Wl' "$top_builddir/Makefile"; then
	sed -n 's/^ *\*(\.text\.\([^ ]*\) .*/\1/p' "$LD" >"$tmp/listed"
	text=$(readelf -SW "$top_builddir/scaletop" | awk '$2 == ".text" { print $4 }')
	nm -n --defined-only "$top_builddir/scaletop" | awk -v text="${text:-0}" '
		NR == FNR { listed[$1] = 1; next }
		$2 !~ /^[tT]$/ || $3 ~ /\.cold/ || $1 < text { next }
		$3 == "main" || $3 ~ /^_/ || $3 ~ /^(de)?register_tm_clones$|^frame_dummy$/ { next }
		{ # its section, .text.NAME, is one a listed .text.N or .text.N.* takes
			for (n = $3; !(n in listed) && sub(/\.[^.]*$/, "", n); )
				;
		}
		n in listed { if (gap != "") { print $3 " after " gap; bad = 1 }; k++; next }
		gap == "" && k > 0 { gap = $3 }
		END { if (k == 0) print "no listed function in .text"; exit bad || k == 0 }' \
		"$tmp/listed" - >"$tmp/order"
	ok "the binary's .text starts with the listed functions" sh -c 'cat "$1"; ! test -s "$1"' sh "$tmp/order"
else
	skip "configure found no linker that takes its script with src/monitor.ld" \
		"the binary's .text starts with the listed functions"
fi
done_testing
