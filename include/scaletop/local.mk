# SPDX-License-Identifier: BSD-2-Clause
noinst_HEADERS += include/scaletop/error.h include/scaletop/format.h include/scaletop/cmdline.h \
	include/scaletop/sweep.h include/scaletop/platform.h include/scaletop/sample_types.h \
	include/scaletop/decode_linux.h include/scaletop/decode_proc.h include/scaletop/futex.h \
	include/scaletop/symbols.h include/scaletop/decode_host.h include/scaletop/delta.h \
	include/scaletop/host.h include/scaletop/lockprof.h include/scaletop/topology_types.h
