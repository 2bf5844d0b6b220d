#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Compile-checks the sources of a BSD build against a header-only sysroot:
# clang's FreeBSD or DragonFly target, -fsyntax-only, the project's own
# warning flags and -Werror.  Nothing is linked or run; it catches a wrong
# field of kinfo_proc, a clock_t printed with %lu, a missing #include or an
# #ifdef branch that no Linux build compiles.
#
#   compile-check.sh OS SYSROOT TRS OWN-FILE...
#
# OS is freebsd or dragonfly; SYSROOT the sysroot (../shared/sysroots/...
# beside the checkout); TRS the results file written for tests/summary.sh,
# one ":test-result:" line per file and one for the negative test (a file
# that uses a field kinfo_proc does not have must be refused: the check can
# fail).  Without the sysroot, one SKIP saying so.  The files are the
# build's own lists, from the environment: BUILD_SRC (what this build
# compiles), less PER_OS_SRC (every OS's own files), plus the OWN-FILEs and
# TEST_SRC.  The environment also gives srcdir, the warning flags
# (WARN_CFLAGS) and the PACKAGE_* values.  Prints TAP; exits 1 when a file
# failed or the negative test compiled.
set -u
os=$1 sysroot=$2 trs=$3
shift 3
case "$os" in
# Where each keeps struct kinfo_proc, and one field it has, for the negative test.
freebsd)
	target=x86_64-unknown-freebsd14.0 kinfo_field=ki_pid
	kinfo_headers='#include <sys/param.h>
#include <sys/sysctl.h>
#include <sys/user.h>' ;;
dragonfly)
	target=x86_64-unknown-dragonfly6.4 kinfo_field=kp_pid
	kinfo_headers='#define _KERNEL_STRUCTURES
#include <sys/param.h>
#include <sys/types.h>
#include <sys/kinfo.h>' ;;
*) echo "compile-check: OS '$os' is not freebsd or dragonfly" >&2; exit 2 ;;
esac
: >"$trs"
n=0 failed=0

result() { # STATUS NAME
	n=$((n + 1))
	case "$1" in
	PASS) echo "ok $n - $os: $2" ;;
	SKIP) echo "ok $n - $os: $2 # SKIP" ;;
	*) echo "not ok $n - $os: $2"; failed=$((failed + 1)) ;;
	esac
	echo ":test-result: $1 $os: $2" >>"$trs"
}

if [ ! -d "$sysroot/usr/include" ]; then
	echo "# no $os sysroot at $sysroot (it comes beside the checkout, in ../shared)"
	result SKIP "compile check (no sysroot at $sysroot)"
	echo "1..$n"
	exit 0
fi
command -v clang >/dev/null 2>&1 || {
	result FAIL "compile check (clang is missing: install clang)"
	echo "1..$n"
	exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletop-bsd.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# The sysroot's symlinks (errno.h -> sys/errno.h ...) may arrive as text
# files naming their target, as a copy that does not keep links leaves them:
# a private copy turns each such file back into the link.
cp -R "$sysroot" "$tmp/sysroot" || exit 1
chmod -R u+w "$tmp/sysroot"
find "$tmp/sysroot/usr/include" -type f -size -128c | while read -r f; do
	t=$(cat "$f")
	case "$t" in *[!A-Za-z0-9_./-]* | "" | /*) continue ;; esac
	[ -f "$(dirname "$f")/$t" ] && ln -sf "$t" "$f"
done

# config.h as configure.ac would make it there: its own values, and each
# header it checks for (AC_CHECK_HEADERS) defined when the sysroot has it.
{
	echo "/* what configure.ac defines on $os: made by tests/bsd/compile-check.sh */"
	for v in PACKAGE PACKAGE_NAME PACKAGE_VERSION PACKAGE_STRING PACKAGE_TARNAME VERSION; do
		eval "val=\${$v:-}"
		echo "#define $v \"$val\""
	done
	echo "#define PACKAGE_BUGREPORT \"\""
	echo "#define PACKAGE_URL \"\""
	echo "#define SCALETOP_OS \"$os\""
	sed -n 's/^AC_CHECK_HEADERS(\[\(.*\)\]).*/\1/p' "$srcdir/configure.ac" | tr ' ' '\n' |
		while read -r h; do
			[ -n "$h" ] || continue
			macro=HAVE_$(echo "$h" | tr 'a-z/.' 'A-Z__')
			if [ -f "$tmp/sysroot/usr/include/$h" ]; then
				echo "#define $macro 1"
			else
				echo "/* #undef $macro */"
			fi
		done
} >"$tmp/config.h"

cc_bsd() { # FILE [FLAGS]
	_f=$1
	shift
	# shellcheck disable=SC2086 # WARN_CFLAGS is a list of flags
	clang --target="$target" --sysroot="$tmp/sysroot" -isystem "$tmp/sysroot/usr/local/include" \
		-fsyntax-only -std=c11 -pthread $WARN_CFLAGS -Werror -I"$tmp" -I"$srcdir/include" \
		-I"$srcdir/src" -I"$srcdir/tests" -DST_THEMES_DIR='"/usr/local/share/scaletop/themes"' \
		-DST_SRC_THEMES_DIR='"themes"' "$@" "$_f"
}

# The build's list, less every OS's own files, plus this OS's and the tests.
files=$(
	for f in $BUILD_SRC; do
		case " $PER_OS_SRC " in *" $f "*) continue ;; esac
		case "$f" in *.c) echo "$f" ;; esac
	done
	for f in "$@"; do echo "$f"; done
)
files="$(printf '%s\n' "$files" | sort -u) $TEST_SRC"
count=0
for f in $files; do
	count=$((count + 1))
	if out=$(cc_bsd "$srcdir/$f" 2>&1); then
		result PASS "$f"
	else
		result FAIL "$f"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done

# The negative test: kinfo_proc's real field compiles, a made-up one must not.
cat >"$tmp/kinfo_field.c" <<C
$kinfo_headers
int kinfo_field(const struct kinfo_proc *k);
int kinfo_field(const struct kinfo_proc *k) { return (int)k->FIELD; }
C
if cc_bsd "$tmp/kinfo_field.c" -DFIELD="$kinfo_field" >"$tmp/real.log" 2>&1 &&
	! cc_bsd "$tmp/kinfo_field.c" -DFIELD=${kinfo_field%%_*}_no_such_field >"$tmp/made-up.log" 2>&1 &&
	grep -q 'no member named' "$tmp/made-up.log"; then
	result PASS "negative test: kinfo_proc.$kinfo_field compiles, a made-up field is refused"
else
	result FAIL "negative test: kinfo_proc.$kinfo_field compiles, a made-up field is refused"
	sed 's/^/# /' "$tmp/real.log" "$tmp/made-up.log"
fi
echo "# $os: $count files compiled, $failed failed"
echo "1..$n"
[ "$failed" -eq 0 ]
