/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Lock contention from Linux's /proc/lock_stat (CONFIG_LOCK_STAT; see the
 * kernel's Documentation/locking/lockstat.rst).  Pure functions over a buffer
 * and its length, like the decoders in decode_linux.h: no I/O, no NUL
 * terminator needed, nothing read past len, built on every OS so the fixtures
 * are tested everywhere.
 */
#ifndef SCALETOP_LOCKPROF_H
#define SCALETOP_LOCKPROF_H

#include <stddef.h>

#include "scaletop/sample_types.h"

/*
 * /proc/lock_stat text into out: the max entries with the most contentions,
 * in descending order (ties keep the file's order), *n of them.  The
 * indented contention-point lines, separators, the column header and the
 * kernel's "*WARNING*" line are skipped.  Versions 0.3 (10 numeric columns)
 * and 0.4 (12: adds waittime-avg and holdtime-avg) are read; every class line
 * must have its version's column count.
 *
 * Returns 0, or -1 with errno EINVAL when the text does not start with a
 * "lock_stat version" line, has a line that is neither a class line nor
 * something skipped, or lacks its final '\n' (cut short); ENOTSUP for another
 * version, whose columns are unknown; ERANGE for a number that overflows or a
 * class name longer than 95 bytes.  On failure *n and out are unspecified.
 */
int lockstat_decode(const char *buf, size_t len, struct lockprof_entry *out, int max, int *n);

/*
 * A kernel has at most MAX_LOCKDEP_KEYS (8192) classes, and a read/write one
 * takes two lines: no /proc/lock_stat holds more class lines than this.
 */
#define LOCKPROF_MAX_CLASSES 16384

/*
 * Every class line of /proc/lock_stat, in the file's order, into *out
 * (malloc'ed, the caller frees it; NULL when there are none), *n of them:
 * what lockprof_delta needs, since a class outside some top list at the
 * window's start would look new at its end.  Errors as lockstat_decode's,
 * and ERANGE for more than LOCKPROF_MAX_CLASSES lines, ENOMEM; on failure
 * *out is NULL and *n 0.
 */
int lockstat_decode_all(const char *buf, size_t len, struct lockprof_entry **out, int *n);

/*
 * The change from snapshot a to snapshot b, matched by class name: the top
 * max by contentions, descending, *n of them.  A class only in b counts from
 * zero (it had not been printed yet); one only in a is dropped.  wait_max_us
 * is b's, since a running maximum cannot be differenced.  If any counter of a
 * class went backwards the statistics were cleared ("echo 0 >
 * /proc/lock_stat") in between, so all of that class's counters count from
 * zero: b's values are the change.  Both inputs should hold every class
 * (lockstat_decode_all), or a class outside a's list would look new and
 * its count since boot pass for the window's.  Matching sorts a by name:
 * O((na + nb) log na).
 *
 * Returns 0, or -1 with errno EINVAL for a negative count or max, or a NULL
 * array that should hold entries; ENOMEM.
 */
int lockprof_delta(const struct lockprof_entry *a, int na, const struct lockprof_entry *b, int nb,
		   struct lockprof_entry *out, int max, int *n);

#endif
