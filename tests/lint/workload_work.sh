# SPDX-License-Identifier: BSD-2-Clause
# The built-in workloads' work survives the optimiser.  clang -O2 once
# removed every round of the cpu workload (its result went to an unread
# static, a dead store), so "cpu" did nothing, 20G ops per CPU-second
# whatever work= said; FreeBSD's compiler is clang.  Here cpu.c is
# compiled by clang at -O2 to LLVM IR, whose constants are the same on
# every target, and cpu_work must still multiply by wl_mix's constant.  A
# made-up worker that keeps its result the old way shows the check can fail,
# and one that uses wl_keep that the cure works.
. "$top_srcdir/tests/cli/lib.sh"
command -v clang >/dev/null 2>&1 ||
	bail_out "clang is missing: install clang (./bootstrap check does); the check is of clang's optimiser"

tmp=$(mktemp -d) || bail_out "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM
MIX=-4658895280553007687 # 0xbf58476d1ce4e5b9 as LLVM writes an i64
CFLAGS_IR="-std=c11 -O2 -S -emit-llvm -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
	-I$top_srcdir/include -I$top_builddir"

# mixes FILE FUNCTION: FUNCTION's body in FILE's IR multiplies by the constant.
mixes() {
	# shellcheck disable=SC2086 # CFLAGS_IR splits into options
	clang $CFLAGS_IR -o "$tmp/out.ll" "$1" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
	awk -v f="@$2(" '/^define / { on = index($0, f) > 0 } on' "$tmp/out.ll" |
		grep -F -- "$MIX" >/dev/null
}

ok "clang -O2 keeps cpu_work's rounds" mixes "$top_srcdir/src/workload/cpu.c" cpu_work

cat >"$tmp/dead.c" <<C
#include <stdatomic.h>
#include "$top_srcdir/src/workload/builtin.h"
static _Atomic uint64_t sink;
void dead_work(long long n, const volatile int *stop)
{
	uint64_t x = 1;
	do
		x = wl_mix(x, n);
	while (!*stop);
	atomic_store_explicit(&sink, x, memory_order_relaxed);
}
C
sed -e 's/dead_work/kept_work/' -e 's/x = wl_mix(x, n);/{ x = wl_mix(x, n); wl_keep(x); }/' \
	"$tmp/dead.c" >"$tmp/kept.c"
loses() { ! mixes "$@"; }
ok "a result kept in an unread static loses its rounds (the check can fail)" \
	loses "$tmp/dead.c" dead_work
ok "and wl_keep keeps them" mixes "$tmp/kept.c" kept_work
done_testing
