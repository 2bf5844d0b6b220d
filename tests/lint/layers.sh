# SPDX-License-Identifier: BSD-2-Clause
# The tree's shape (tests/lint/layers.py): file lengths, OS #ifs outside
# src/platform, the TUI's includes, loops between files, layers, contracts
# that one folder alone includes, and the one way tests include.  Each
# rule is checked on the tree, and once on a small made-up tree that breaks
# it, so that a checker that could not fail would show here.
. "$top_srcdir/tests/cli/lib.sh"
need nm binutils cc gcc
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"

LAYERS="$top_srcdir/tests/lint/layers.py"
for rule in length os-ifdef tui-cli circles layers private test-includes; do
	ok "the tree keeps rule $rule" "$PYTHON" "$LAYERS" --only "$rule" "$top_srcdir" "$top_builddir"
done

tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM

# put FILE TEXT: writes a fixture source file, and its object when it is C.
put() {
	mkdir -p "$tmp/$(dirname "$1")" "$tmp/build/$(dirname "$1")"
	printf '%s\n' "$2" >"$tmp/$1"
	case $1 in
	*.c) cc -c -I"$tmp/include" -o "$tmp/build/${1%.c}.o" "$tmp/$1" ;;
	esac
}

# breaks RULE WANT: the checker fails RULE on the fixture, naming WANT.
breaks() {
	_out=$("$PYTHON" "$LAYERS" --only "$1" "$tmp" "$tmp/build" 2>&1) && return 1
	printf '%s\n' "$_out" | grep -F -- "$2" >/dev/null
}

put include/a.h 'int engine_a(void); int engine_b(void); int util_u(void); int cli_c(void);'
put src/engine/a.c '#include "a.h"
int engine_a(void) { return engine_b(); }'
put src/engine/b.c '#include "a.h"
int engine_b(void) { return engine_a(); }'
put src/util/u.c '#include "a.h"
int util_u(void) { return cli_c(); }'
put src/cli/c.c '#include "a.h"
int cli_c(void) { return util_u(); }'
put src/cli/c.h '/* nothing */'
put src/tui/t.c '#include "../cli/c.h"'
put src/engine/os.c '#if defined(__linux__)
int engine_os;
#endif'
put include/h1.h '#include "h2.h"'
put include/p.h 'int plat_read(void);'
put include/m.h '#include "p.h"
int model_sum(void);'
put src/platform/p.c '#include "p.h"
int plat_read(void) { return 1; }'
put src/model/m.c '#include "m.h"
int model_sum(void) { return 2; }'
put include/h2.h '#include "h1.h"'
put include/lone.h 'int engine_lone(void);'
put src/engine/lone.c '#include "lone.h"
int engine_lone(void) { return 3; }'
put src/engine/w.h '/* private */'
put tests/unit/t.h '#include "w.h"'
printf '%s\n' 'tests_unit_t_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/engine' >"$tmp/src/engine/local.mk"
i=0
while [ "$i" -le 600 ]; do echo "/* $i */"; i=$((i + 1)); done >"$tmp/src/engine/long.h"

ok "a loop of calls is found" breaks circles "src/engine/a.c -> src/engine/b.c (engine_b)"
ok "headers that include each other are found" breaks circles "headers including each other: include/h1.h, include/h2.h"
ok "a call up the layers is found" breaks layers "src/util/u.c -> src/cli/c.c (cli_c): util may not use cli"
ok "a model header that includes a platform header is found, with its chain" breaks layers \
	"src/model/m.c includes include/m.h includes include/p.h (platform): model may not use platform"
ok "a TUI file including a CLI file is found" breaks tui-cli "src/tui/t.c includes src/cli/c.h"
ok "an OS #if outside src/platform is found" breaks os-ifdef "src/engine/os.c:1:"
ok "a file over 600 lines is found" breaks length "src/engine/long.h: 601 lines"
ok "a contract that one folder alone includes is found" breaks private \
	"include/lone.h: only src/engine includes it"
ok "a test's include by a flag is found" breaks test-includes 'tests/unit/t.h includes "w.h"'
ok "a test's -I flag into src/ is found" breaks test-includes \
	'src/engine/local.mk:1: -I$(top_srcdir)/src/engine'
done_testing
