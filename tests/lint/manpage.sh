# SPDX-License-Identifier: BSD-2-Clause
# The manual against the program: every command 'scaletop --help' lists is
# a .Cm entry of docs/scaletop.1, and every long option a command's --help
# shows is a "Fl Fl NAME" there, so an option added without its page fails
# here.  Each check is also run once on a page that lacks the name.
. "$top_srcdir/tests/cli/lib.sh"

MAN="$top_srcdir/docs/scaletop.1"
[ -r "$MAN" ] || bail_out "$MAN is missing"
tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM

# documents PAGE KIND NAME: the page has the command (.Cm) or option (Fl Fl).
documents() {
	case $2 in
	cmd) grep -E "(^|[ .])Cm $3( |$)" "$1" >/dev/null ;;
	opt) grep -E "Fl Fl $3( |$)" "$1" >/dev/null ;;
	esac
}

lacks() { ! documents "$@"; }

cmds=$("$SCALETOP" --help 2>&1 | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$cmds" ] || bail_out "'scaletop --help' listed no command"
for c in $cmds; do
	ok "the manual has the command $c" documents "$MAN" cmd "$c"
	# Long options as --help prints them: "--name", "--name=X", "--name X".
	opts=$("$SCALETOP" "$c" --help 2>&1 | grep -oE -- '(^|[ ,[])--[a-z][a-z0-9-]*' |
		sed 's/.*--//' | sort -u)
	for o in $opts; do
		[ "$o" = help ] && continue
		ok "the manual has $c's option --$o" documents "$MAN" opt "$o"
	done
done

# A page that lacks them fails, so the checks above can fail.
grep -v -E 'Cm compare|Fl Fl csv' "$MAN" >"$tmp/page.1"
ok "a page without 'compare' fails the command check" lacks "$tmp/page.1" cmd compare
ok "a page without --csv fails the option check" lacks "$tmp/page.1" opt csv
done_testing
