/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The wait sampler's lock census (wait_sampler.h): each futex waiter it
 * finds has its syscall line read and counted in its family's census.
 */
#include <string.h>

#include "scaletop/census.h"
#include "scaletop/decode_linux.h"
#include "scaletop/futex.h"
#include "scaletop/platform.h"
#include "scaletop/symbols.h"
#include "lock_census.h"
#include "shm_key.h"
#include "wait_sampler.h"

#define CENSUS_LINES_TICK 16
/* Locks named while their waiters wait, at most, a tick and family (lock_census.h). */
#define CENSUS_LIVE_NAMES 2

/*
 * The wait sampler's lock census (wait_sampler.h): a thread the sampler
 * finds blocked in a futex wait has its syscall line read through the
 * syscall file its handle keeps (the futex word's address, the op, the value it waits
 * for), and the reading goes to its family's census with the blocked time
 * the wait tally gave it; any other blocked reading counts in the family's
 * blocked total only.  A tick reads at most about CENSUS_LINES_TICK lines
 * a family: when the last tick met more futex waiters, this one reads every
 * stride-th of them, in the tick's random order, and each line read stands
 * for stride waiters and stride times its blocked time, so a lock's share
 * and its waiters at once stay unbiased while 256 waiting threads cost 16
 * lines a tick, not 46 (the lines were a sixth of the sampler's time).  The syscall file is read
 * for futex waiters alone and inside the sampler's reading loop, so its cost falls under the tick's
 * CPU budget (WAIT_SAMPLE_MAX_CPU_NS) like the other files'.  After a tick's readings of a family
 * the round is closed and the owners of the mutexes waited on in it are read while their waiters
 * still wait (lock_census.h).  A futex not private to its process (a
 * process-shared mutex) is keyed by the object it lies in and its offset
 * there (shm_key.h), as the kernel keys it, so the waiters of several
 * processes count for one lock.  A futex waiter's process is noted to the
 * symboliser when first met (sym_note_process), so the objects that name
 * its locks are read while it runs, not at the window's end, when a
 * command's process may have exited.
 */

/*
 * Whether line's futex is shared by processes, with *where set: a futex
 * waited on without the private flag, in a mapping shared (else the kernel
 * keys it by the process and address too).
 */
static bool
ws_census_shared(struct wait_sampler *w, pid_t pid, const struct syscall_line *line,
		 struct census_shared *where)
{
	if (line->futex == FUTEX_KIND_NONE || line->futex_private || w->shm == NULL)
		return false;
	return shm_key_of(w->shm, pid, line->futex_addr, where) == 1;
}

/*
 * A reading that finds th running or runnable: the blocked time since its
 * last reading is, as the wait profile has it (thread_wait.c), where it was
 * last seen blocked, so the lock it was last seen waiting on, if that was
 * a futex whose line was read; else the family's blocked total alone.
 */
static void
ws_census_carry(struct wait_sampler *w, int fi, struct ws_thread *th, double weight)
{
	const struct ws_census_mem *m = &th->cm;

	(void)census_add(w->census[fi], th->h.pid, th->h.tid, m->have ? &m->line : NULL,
			 m->have && m->shared ? &m->where : NULL, weight, 0);
}

void
ws_census_add(struct wait_sampler *w, int fi, struct ws_thread *th, const struct thread_sample *t,
	      double weight)
{
	unsigned stride = w->census_stride[fi] > 1 ? w->census_stride[fi] : 1;
	struct census_shared where;
	struct syscall_line line;
	uint64_t t0;
	bool shared;
	int r;

	if (t->state == THREAD_RUNNING || t->state == THREAD_RUNNABLE) {
		ws_census_carry(w, fi, th, weight);
		return;
	}
	if (t->state != THREAD_SLEEPING || !wchan_is_futex_wait(t->channel)) {
		th->cm.have = false; /* blocked elsewhere now: a later carry is not this lock's */
		(void)census_add(w->census[fi], th->h.pid, th->h.tid, NULL, NULL, weight, 1);
		return;
	}
	if (w->census_seen[fi]++ % stride != 0)
		return; /* the stride-th reading after it stands for this one */
	weight *= stride;
	t0 = mono_now_ns();
	r = thread_handle_syscall(&th->h, &line);
	if (r == 0 && census_resolve_waitv(th->h.pid, &line) != 0)
		r = -1; /* the vector is gone: the lock is not known */
	w->census_reads++;
	shared = r == 0 && ws_census_shared(w, th->h.pid, &line, &where);
	w->census_ns += mono_now_ns() - t0;
	(void)census_add(w->census[fi], th->h.pid, th->h.tid, r == 0 ? &line : NULL,
			 shared ? &where : NULL, weight, stride);
	th->cm.have = r == 0 && line.futex != FUTEX_KIND_NONE;
	if (th->cm.have) {
		th->cm.line = line;
		th->cm.where = where;
		th->cm.shared = shared;
	}
	w->census_fresh[fi] = w->census_fresh[fi] || (r == 0 && line.futex != FUTEX_KIND_NONE);
	if (r == 0 && line.futex != FUTEX_KIND_NONE && w->sym != NULL)
		(void)sym_note_process(w->sym, th->h.pid);
}

/* The family's thread (pid, tid), or NULL (the threads are sorted by pid, then tid). */
static const struct ws_thread *
ws_census_thread(const struct ws_family *fam, pid_t pid, pid_t tid)
{
	size_t lo = 0, hi = fam->nth, mid;
	const struct ws_thread *th;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		th = &fam->th[mid];
		if (th->h.pid == pid && th->h.tid == tid)
			return th;
		if (th->h.pid < pid || (th->h.pid == pid && th->h.tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void
ws_census_tick(struct wait_sampler *w, int fi, uint64_t now)
{
	struct census *c = w->census[fi];
	const struct census_lock *l;
	const struct ws_thread *th;
	uint64_t t0 = mono_now_ns(), lines;
	size_t i;

	census_round(c);
	if (w->shm != NULL)
		shm_keys_round(w->shm);
	lines = ws_tick_scaled(w, CENSUS_LINES_TICK);
	w->census_stride[fi] = (unsigned)((w->census_seen[fi] + lines - 1) / lines);
	w->census_seen[fi] = 0;
	if (w->census_fresh[fi]) {
		(void)census_read_owners(c, w->shm);
		if (w->sym != NULL)
			(void)census_name_live(c, w->sym, CENSUS_LIVE_NAMES);
		for (i = 0; i < census_count(c); i++) {
			l = census_lock(c, i);
			if (l->last_waiters == 0 || l->owner_state != CENSUS_OWNER_KNOWN)
				continue;
			/* the holder's state only when the sampler read it on this very tick */
			th = ws_census_thread(&w->fam[fi], l->owner_pid, l->owner);
			if (th != NULL && th->seeded && th->m.at_ns == now && th->h.have_last)
				census_set_owner_run(c, i, l->owner, (int)th->h.last.state);
		}
	}
	w->census_fresh[fi] = false;
	w->census_ns += mono_now_ns() - t0;
	/* a tick's cost: its syscall reads and owners since the family's last tick */
	if (w->census_ns - w->census_mark > w->census_worst)
		w->census_worst = w->census_ns - w->census_mark;
	w->census_mark = w->census_ns;
}
