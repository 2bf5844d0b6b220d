# SPDX-License-Identifier: BSD-2-Clause
# ./bootstrap's argument is checked before it installs or generates
# anything: --help prints the modes and a wrong word is refused, and in both
# cases the checkout is left as it was and no installer or autoreconf runs.
# The script is run from a copy in an empty directory, with apt-get,
# dpkg-query, sudo and autoreconf on PATH as stand-ins that log each call.
. "$top_srcdir/tests/cli/lib.sh"

tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/tree" "$tmp/bin"
cp "$top_srcdir/bootstrap" "$tmp/tree/bootstrap"
for c in apt-get dpkg-query sudo autoreconf; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/called"\nexit 1\n' "$c" "$tmp" >"$tmp/bin/$c"
	chmod +x "$tmp/bin/$c"
done
before=$(ls -A "$tmp/tree")

# boot ARG: runs the copy with ARG; its status, stdout and stderr are kept.
boot() {
	PATH="$tmp/bin:$PATH" sh "$tmp/tree/bootstrap" "$1" >"$tmp/out" 2>"$tmp/err"
	echo $? >"$tmp/rc"
}

boot --help
is "$(cat "$tmp/rc")" 0 "--help exits 0"
ok "--help lists the check mode" grep -qF "./bootstrap check" "$tmp/out"
ok "--help lists the run mode" grep -qF "./bootstrap run" "$tmp/out"
is "$(ls -A "$tmp/tree")" "$before" "--help leaves the checkout as it was"
ok "--help runs no installer or autoreconf" test ! -e "$tmp/called"

boot --frobnicate
is "$(cat "$tmp/rc")" 2 "an unknown mode exits 2"
is "$(wc -l <"$tmp/err" | tr -d ' ')" 1 "an unknown mode gets one line"
ok "the line names the word and the modes" grep -qF "unknown mode '--frobnicate': expected run, check or --help" "$tmp/err"
is "$(ls -A "$tmp/tree")" "$before" "an unknown mode leaves the checkout as it was"
ok "an unknown mode runs no installer or autoreconf" test ! -e "$tmp/called"
[ -e "$tmp/called" ] && diag "called: $(cat "$tmp/called")"
done_testing
