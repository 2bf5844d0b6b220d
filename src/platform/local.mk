# SPDX-License-Identifier: BSD-2-Clause
# Portable code: the sample container, the delta arithmetic and every OS's
# decoders, built on every OS so recorded fixtures from all of them are tested
# everywhere.  Only the thin file that makes the OS calls is chosen per OS.
libscaletop_a_SOURCES += src/platform/sample.c src/platform/delta.c src/platform/host.c \
	src/platform/decode_line.h src/platform/decode_line.c src/platform/decode_procstat.c \
	src/platform/decode_cpulist.c src/platform/decode_psi.c src/platform/decode_cpuinfo.c \
	src/platform/decode_host.c src/platform/decode_task.c src/platform/decode_cptimes.c \
	src/platform/decode_cputime.c src/platform/decode_kinfo.c src/platform/decode_statgrab.c \
	src/platform/decode_thread.c src/platform/decode_cgroup.c src/platform/decode_perf.c \
	src/platform/decode_syscall.c src/platform/decode_maps.c src/platform/decode_kallsyms.c \
	src/platform/decode_kstack.c src/platform/symtab.c src/platform/elf_image.c \
	src/platform/demangle.h src/platform/demangle.c src/platform/symbols_priv.h \
	src/platform/sym_objects.c src/platform/symbols.c src/platform/realtime.c \
	src/platform/topo_build.h src/platform/topo_build.c src/platform/decode_topology_bsd.c
noinst_HEADERS += src/platform/decode_bsd.h

# The files each OS adds.  Linux's backend reads /proc, sysfs and
# perf_event (linux_*.c); linux_introspect.c maps symbols and reads kernel
# stacks, which nointrospect.c and nokstack.c answer with ENOSYS elsewhere.
# The BSDs share sampler_bsd.c, sysctl_bsd.c, proctable_bsd.c, host_bsd.c and the ENOSYS
# answers in unsupported.c; FreeBSD adds kstack_freebsd.c.  The BSDs'
# proctable_bsd.c answers thread_samples_read and proc_find_comm, so the
# generic ENOSYS answers of those live in nothreads.c, never in
# unsupported.c (a duplicate symbol would fail only the BSD link, which
# nothing here runs).  The lists are named so that the BSD compile checks
# (tests/bsd/local.mk) take them from here.
ST_SRC_LINUX = src/platform/linux_read.h src/platform/linux_read.c src/platform/linux_cpu.c \
	src/platform/linux_task.c src/platform/linux_task_reader.c src/platform/linux_thread.c \
	src/platform/linux_thread_files.c \
	src/platform/linux_lockstat.c src/platform/linux_perf.c \
	src/platform/reaper_linux.c src/platform/linux_host.h src/platform/linux_host.c \
	src/platform/linux_introspect.c src/platform/linux_topology.c
ST_SRC_BSD = src/platform/unsupported.c src/platform/reaper_bsd.c \
	src/platform/task_reader_plain.c \
	src/platform/kinfo_bsd.h src/platform/proctable_bsd.c src/platform/host_bsd.c \
	src/platform/sysctl_bsd.h src/platform/sysctl_bsd.c \
	src/platform/sampler_bsd.h src/platform/sampler_bsd.c src/platform/nointrospect.c \
	src/platform/topology_bsd.c
ST_SRC_FREEBSD = src/platform/freebsd.c $(ST_SRC_BSD) src/platform/kstack_freebsd.c
ST_SRC_DRAGONFLY = src/platform/dragonfly.c $(ST_SRC_BSD) src/platform/nokstack.c
ST_SRC_GENERIC = src/platform/generic.c src/platform/unsupported.c src/platform/noreaper.c \
	src/platform/task_reader_plain.c \
	src/platform/nothreads.c src/platform/nointrospect.c src/platform/nokstack.c
if OS_LINUX
libscaletop_a_SOURCES += $(ST_SRC_LINUX)
endif
if OS_FREEBSD
libscaletop_a_SOURCES += $(ST_SRC_FREEBSD)
endif
if OS_DRAGONFLY
libscaletop_a_SOURCES += $(ST_SRC_DRAGONFLY)
endif
if OS_GENERIC
libscaletop_a_SOURCES += $(ST_SRC_GENERIC)
endif

# /proc/lock_stat decoder (portable, like the other decoders).
libscaletop_a_SOURCES += src/platform/decode_lockstat.c

# The kinfo_proc decoders (decode_kinfo.c) on synthetic FreeBSD and DragonFly
# records: thread states and wait channels, processes by name.
UNIT_TESTS += tests/unit/test_decode_kinfo

# The shared line scanner of the Linux decoders (decode_line.h).
UNIT_TESTS += tests/unit/test_decode_line

# How the Linux backend reads a file whole (linux_read.h); Linux only.
if OS_LINUX
UNIT_TESTS += tests/unit/test_linux_read
endif

# The decoders of a target's and the wait sampler's files (decode_thread.c,
# decode_cgroup.c), on recorded fixtures.
UNIT_TESTS += tests/unit/test_decode_thread

# The host fingerprint's decoders (decode_host.c, decode_cpuinfo.c) on
# recorded and synthetic text, every OS's.
UNIT_TESTS += tests/unit/test_decode_host

# The Linux fingerprint reader over recorded /proc and /sys trees
# (tests/fixtures/linux/host_*), and over this machine; Linux only.
if OS_LINUX
UNIT_TESTS += tests/unit/test_linux_host
endif

# The Linux topology reader (linux_topology.c) over this machine's recorded
# tree and the trees tests/fixtures/topology/mksysfs.py writes at test time;
# the FreeBSD and DragonFly decoders (decode_topology_bsd.c) everywhere.
if OS_LINUX
UNIT_TESTS += tests/unit/test_linux_topology
endif
UNIT_TESTS += tests/unit/test_decode_topology
EXTRA_DIST += tests/unit/topology_check.h

# perf_event records into on-CPU samples (decode_perf.c) on synthetic
# buffers, everywhere; and, on Linux, the sampler itself over a spinning
# thread of the test's own (a skip, saying why, without the permission).
noinst_HEADERS += include/scaletop/oncpu.h
UNIT_TESTS += tests/unit/test_decode_perf
if OS_LINUX
UNIT_TESTS += tests/unit/test_oncpu
endif

# The decoders of what names a lock (decode_syscall.c, decode_maps.c,
# decode_kallsyms.c) and the symbol table, on recorded text (tests/fixtures/proc).
UNIT_TESTS += tests/unit/test_decode_proc

# The symboliser on ELF files the test builds with the compiler (a shared
# object, non-PIE and PIE programs, stripped copies), and the kernel's
# symbols; Linux only, it reads /proc.
if OS_LINUX
UNIT_TESTS += tests/unit/test_symbols
endif

# The kernel-stack decoders (decode_kstack.c): Linux's stack text, recorded
# (tests/fixtures/proc/stack_*) and odd; FreeBSD's kinfo_kstack records, synthetic.
UNIT_TESTS += tests/unit/test_decode_kstack
