# SPDX-License-Identifier: BSD-2-Clause
# scaletop list topo on this machine and on recorded and generated trees: the
# topology's line, its boundaries and the -n topo list documented in
# docs/scaletop.1; FreeBSD's kern.sched.topology_spec; bad paths named; and a
# run's snapshot carrying the topology, with -n topo,3 expanded.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/topology"

# topo_line ARGS...: the "-n topo:" line of list topo ARGS.
topo_line() {
	"$SCALETOP" list topo "$@" 2>&1 | sed -n 's/^-n topo: //p'
}

# This machine: the list is made of 1, 2, the CPUs, 2x, 4x and powers of two.
n=$(getconf _NPROCESSORS_ONLN)
here=$(topo_line)
like "$here" "^1,2(,|$)" "here: -n topo starts 1,2 ($here)"
like ",$here," ",$n,(.*,)?$((2 * n)),(.*,)?$((4 * n))," "here: it has the $n CPUs, 2x and 4x"
like "$("$SCALETOP" list)" "on this machine: $here" "list says what topo is here"
like "$("$SCALETOP" run --help)" "here $(printf '%s' "$here" | cut -c1-40)" \
	"run --help says it too"

# This machine's recorded tree (2 CPUs, no caches).
out=$("$SCALETOP" list topo --root "$FX/host_vm")
is "$?" 0 "host_vm: read"
is "$(printf '%s\n' "$out" | head -1)" "topology: 1 socket x 1 node x 2 cores x 1 thread (sysfs)" \
	"host_vm: the topology's line"
is "$(topo_line --root "$FX/host_vm")" "1,2,4,8" "host_vm: -n topo"

# The generated machines, as docs/scaletop.1 gives them.
"$PYTHON" "$FX/mksysfs.py" "$T/m256" 2x2x4x8x2 &&
	"$PYTHON" "$FX/mksysfs.py" "$T/m1024" 4x4x4x8x2 &&
	"$PYTHON" "$FX/mksysfs.py" "$T/hybrid" 1x1x1x8x2 --adjacent --ecores 8 --ecluster 4 \
		--offline 15,22,23
is "$?" 0 "mksysfs.py writes the three trees"
out=$("$SCALETOP" list topo --root "$T/m256")
is "$out" "topology: 2 sockets x 2 nodes x 4 LLCs (L3) x 8 cores x 2 threads (sysfs)
  N=2     one core's 2 SMT threads (cpus 0,128)
  N=16    one LLC (cpus 0-7,128-135 share L3)
  N=64    one NUMA node (cpus 0-31,128-159)
  N=128   one socket = all 128 physical cores
  N=256   all 256 CPUs
-n topo: 1,2,4,8,16,32,64,128,256,512,1024" "256 CPUs: the topology, its boundaries, -n topo"
is "$(topo_line --root "$T/m1024")" "1,2,4,8,16,32,64,128,256,512,1024,2048,4096" \
	"1024 CPUs: -n topo"
out=$("$SCALETOP" list topo --root "$T/hybrid")
like "$out" "^topology: .*; 21 of 24 CPUs online; 15 P-core CPUs" "hybrid: offline and P-cores"
like "$out" "N=15 +the 15 P-core CPUs" "hybrid: the P-cores' boundary"
is "$(topo_line --root "$T/hybrid")" "1,2,4,8,14,15,16,21,32,42,64,84" "hybrid: -n topo"

# FreeBSD's spec.
is "$(topo_line --topology-spec "$FX/freebsd_2node_40cpu.xml")" \
	"1,2,4,8,16,20,32,40,64,80,128,160" "FreeBSD 40 CPUs: -n topo"
like "$("$SCALETOP" list topo --topology-spec "$FX/freebsd_2node_40cpu.xml")" \
	"N=20 +one LLC = one NUMA node = all 20 physical cores" "FreeBSD: the node's boundary"

# Bad input: one line naming the path and what to do; exit 2.
"$SCALETOP" list topo --root "$T/none" >"$T/out" 2>"$T/err"
is "$?" 2 "a missing --root: exit 2"
like "$(cat "$T/err")" "--root '$T/none': .*; give a directory" "  naming it, and what to do"
mkdir -p "$T/empty"
"$SCALETOP" list topo --root "$T/empty" >"$T/out" 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*no readable sys/devices/system/cpu/online" "a root without sysfs"
printf '<groups>\n<group level="1">\n' >"$T/bad.xml"
"$SCALETOP" list topo --topology-spec "$T/bad.xml" >"$T/out" 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*bad.xml': not kern.sched.topology_spec" "bad XML: refused"
is "$(wc -l <"$T/err" | tr -d ' ')" 1 "  in one line"
"$SCALETOP" list --root "$FX/host_vm" >"$T/out" 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*--root and --topology-spec go with 'list topo'" \
	"--root without topo: refused, saying what it goes with"
"$SCALETOP" list topo --root "$FX/host_vm" --topology-spec "$T/bad.xml" >"$T/out" 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*at most one of --root DIR and --topology-spec FILE" \
	"both sources: refused"
"$SCALETOP" run -w cpu -n topox -d 0.1 -q >"$T/out" 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*topox" "-n topox is refused"

# A run: the snapshot's host has the topology, and -n topo,3 is expanded.
"$SCALETOP" run -w cpu -n 'topo,3' -d 0.2 --warmup 0.05 --interval 0.05 -q -o "$T/a.json" \
	>"$T/run.out" 2>"$T/run.err"
is "$?" 0 "run -n topo,3 -o saves a snapshot"
is "$(json_get "$T/a.json" 'd["host"]["topology"]["online"]')" "$n" "host.topology.online"
is "$(json_get "$T/a.json" '",".join(str(s["n"]) for s in d["steps"])')" \
	"$(printf '%s,3\n' "$here" | tr ',' '\n' | sort -n | uniq | paste -sd, -)" \
	"the steps are -n topo with 3 added"
like "$("$SCALETOP" show "$T/a.json" 2>&1)" "topology: " "show prints the topology's line"

done_testing
