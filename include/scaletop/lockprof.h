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
#include <stdint.h>

/*
 * One line of per-class statistics.  A read/write lock that was taken both
 * ways has two, named with the kernel's "-W" and "-R" suffixes; each is kept
 * as its own entry.  Times are in microseconds, as the kernel prints them.
 */
struct lockprof_entry {
	char name[96];
	uint64_t contentions;
	double wait_total_us;
	double wait_max_us;
	uint64_t acquisitions;
	double hold_total_us;
};

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
 * The change from snapshot a to snapshot b, matched by class name: the top
 * max by contentions, descending, *n of them.  A class only in b counts from
 * zero (it had not been printed yet); one only in a is dropped.  wait_max_us
 * is b's, since a running maximum cannot be differenced.  If any counter of a
 * class went backwards the statistics were cleared ("echo 0 >
 * /proc/lock_stat") in between, so all of that class's counters count from
 * zero: b's values are the change.  Both inputs should be decoded with a max
 * large enough to hold every class, or a class that fell out of a's top list
 * would look new.  Matching is by linear search, O(na * nb).
 *
 * Returns 0, or -1 with errno EINVAL for a negative count or max, or a NULL
 * array that should hold entries.
 */
int lockprof_delta(const struct lockprof_entry *a, int na, const struct lockprof_entry *b, int nb,
                   struct lockprof_entry *out, int max, int *n);

#endif
