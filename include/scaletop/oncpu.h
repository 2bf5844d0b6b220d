/* SPDX-License-Identifier: BSD-2-Clause */
/* On-CPU sampling: where the CPUs are when a clock interrupts them. */
#ifndef SCALETOP_ONCPU_H
#define SCALETOP_ONCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Linux gives it through perf_event_open(2) with the software event
 * cpu-clock and PERF_SAMPLE_CALLCHAIN: a sample is a thread's kernel and
 * user call chain at that moment, so a lock that spins shows as the spin
 * frames and the caller that took the lock, which no wait channel shows (a
 * spinning thread is "running").
 *
 * Two halves, as with the other sources: perf_records_decode() is portable
 * code over a buffer of records (the kernel's ABI, whose numbers are fixed),
 * tested on synthetic buffers everywhere; oncpu_*() is the OS call, in
 * linux_perf.c, and answers ENOSYS on every other backend (unsupported.c,
 * since FreeBSD's hwpmc and DragonFly have no equivalent that scaletop reads).
 */

/*
 * The deepest call chain kept: the kernel's default limit
 * (kernel.perf_event_max_stack) is 127, but the frames that say why a CPU is
 * busy are the innermost; the rest of a deep chain is dropped and counted.
 */
#define ONCPU_MAX_FRAMES 48

/* One sample: a thread, and its call chain innermost first, kernel frames before user ones. */
struct oncpu_sample {
	pid_t pid; /* the process (thread group) */
	pid_t tid;
	int nkernel;    /* ip[0 .. nkernel) are kernel addresses */
	int nframes;    /* ip[nkernel .. nframes) are user addresses */
	bool truncated; /* the chain was deeper than ONCPU_MAX_FRAMES */
	uint64_t ip[ONCPU_MAX_FRAMES];
};

/* Called once per sample; the sample is only valid during the call. */
typedef void (*oncpu_sample_cb)(const struct oncpu_sample *s, void *arg);

/* What a buffer held besides samples. */
struct perf_decode_stats {
	uint64_t samples;
	uint64_t lost;    /* samples the kernel dropped (PERF_RECORD_LOST) */
	uint64_t skipped; /* records of other types, passed over */
};

/*
 * Decodes len bytes of whole perf records, as one ring's data between its
 * tail and head, with the sample layout oncpu_open() asks for
 * (PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN): { u32 pid, tid; u64 nr; u64
 * ips[nr] }, in host byte order.  The chain's context markers
 * (PERF_CONTEXT_KERNEL, _USER, _HV, _GUEST*) say which part is which; guest
 * and hypervisor frames are dropped.  Calls cb for each sample and adds to
 * *st (which the caller zeroes).
 *
 * Returns 0, or -1 with errno EINVAL for a record whose size is under its
 * header's, not a multiple of 8, or past len, or a sample shorter than its
 * chain says; what came before the bad record was delivered.
 */
int perf_records_decode(const unsigned char *buf, size_t len, oncpu_sample_cb cb, void *arg,
			struct perf_decode_stats *st);

/* An open sampler: one cpu-clock event and ring per online CPU, for every task on it. */
struct oncpu;

/*
 * Opens the events at hz samples a second per CPU, disabled.  Every task on
 * the CPU is sampled (the caller keeps the samples of the threads it
 * watches), so the cost is per CPU, not per thread, and a thread the
 * workload or target creates later is seen with no new event.  That needs
 * CAP_PERFMON (or root), or kernel.perf_event_paranoid at -1.
 *
 * Returns NULL with errno, and why (a sentence for the user, saying how to
 * allow it) in the buffer: EACCES/EPERM without the permission, ENOENT or
 * ENOSYS where the kernel has no perf events, ENOMEM.
 */
struct oncpu *oncpu_open(int hz, char *why, size_t whylen);

/* Starts or stops sampling on every CPU.  0, or -1 with errno. */
int oncpu_enable(struct oncpu *o, bool on);

/*
 * Delivers every sample in the rings since the last drain, CPU by CPU, and
 * frees their space.  Never blocks.  Adds to *st.  0, or -1 with errno.
 */
int oncpu_drain(struct oncpu *o, oncpu_sample_cb cb, void *arg, struct perf_decode_stats *st);

/* How many CPUs have an event. */
int oncpu_ncpus(const struct oncpu *o);

/* Closes the events and unmaps the rings; NULL is fine. */
void oncpu_close(struct oncpu *o);

#endif
