# SPDX-License-Identifier: BSD-2-Clause
# The FreeBSD and DragonFly samplers cannot run or even build here, so what
# they must not do on every tick is checked in their source.  vm.vmtotal
# walks every process and thread under the scheduler's locks (FreeBSD:
# allproc_lock and each thread lock), the very paths a sweep measures; see
# docs/design-notes.md.
. "$top_srcdir/tests/cli/lib.sh"

# no_vmtotal FILE: FILE looks up no "vm.vmtotal" and declares no struct vmtotal
# (a comment may still say why not).
no_vmtotal() {
	! grep -nE '"vm\.vmtotal"|struct vmtotal' "$1" >&2
}

for os in freebsd dragonfly; do
	src="$top_srcdir/src/platform/$os.c"
	ok "$os.c is there to check" test -r "$src"
	ok "$os.c reads no vm.vmtotal" no_vmtotal "$src"
done
done_testing
