/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a step's window says of why a curve bends, beyond the wait profile:
 * where the CPUs went (the on-CPU sampler, hot_sampler.h), its frames named
 * by the symboliser (symbols.h), which the step context owns for the
 * sweep's life.  The step context calls these at the window's edges and
 * ticks (step_ctx.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "scaletop/symbols.h"
#include "step_ctx.h"

/*
 * A frame's name (hotpaths.h's namer): the symbol alone (a path reads
 * "native_queued_spin_lock_slowpath < _raw_spin_lock < alloc_fd"), else
 * object+0xOFF; -1, printed as the address, when nothing names it; -2 for a
 * user address in no executable mapping, which ends the chain (a garbage
 * "caller" of code built without frame pointers).  User frames come from
 * the maps noted when the process was first sampled, so one that exited is
 * still named.
 */
static int
step_ctx_name_frame(void *arg, pid_t pid, uint64_t ip, bool kernel, char *out, size_t len)
{
	struct step_ctx *c = arg;
	struct sym_answer a;

	if (c->sym == NULL ||
	    (kernel ? sym_kernel(c->sym, ip, &a) : sym_user_cached(c->sym, pid, ip, &a)) != 0)
		return -1;
	if (!kernel && (a.how == SYM_UNMAPPED || !a.exec))
		return -2;
	if (a.how == SYM_SYMBOL)
		snprintf(out, len, "%s", a.symbol);
	else if (a.how == SYM_OBJECT || a.how == SYM_MAPPING)
		sym_format(&a, out, len);
	else
		return -1;
	return 0;
}

/*
 * A process first sampled: its maps and every object they map are read
 * now, while it runs (hot_note_fn), since a command may have exited by the
 * window's end, when its frames are named.
 */
static void
step_ctx_note_process(void *arg, pid_t pid)
{
	struct step_ctx *c = arg;

	if (c->sym != NULL)
		(void)sym_note_process(c->sym, pid);
}

/* Why frames or locks went unnamed: an event an object, once a sweep (the symboliser's life). */
static void
step_ctx_sym_events(struct step_ctx *c, uint64_t now)
{
	char why[300];

	while (c->sym != NULL && sym_next_unnamed(c->sym, why, sizeof(why)) == 1)
		session_add_event(c->s, c->idx, EV_INFO, session_time(c->s, now), "%s", why);
}

/* On-CPU sampling opens with the window, unless --no-hot; a refusal is said once a sweep. */
void
step_ctx_hot_begin(struct step_ctx *c, uint64_t now)
{
	char why[200];

	if (c->s->set.no_hot)
		return;
	if (hot_sampler_begin(&c->hot, why, sizeof(why)) == 1)
		session_add_event(c->s, c->idx, EV_INFO, session_time(c->s, now),
				  "no on-CPU call paths: %s", why);
	if (c->hot.counting && c->sym == NULL)
		c->sym = sym_new();
}

/* The window's call paths into the step, named by the symboliser. */
void
step_ctx_hot_end(struct step_ctx *c, struct step *st, uint64_t now)
{
	uint64_t *k;
	size_t n;

	/* the kernel's frames of the window in one read of its symbols */
	if (c->sym != NULL && c->hot.counting &&
	    (k = hot_sampler_kernel_addrs(&c->hot, &n)) != NULL) {
		(void)sym_kernel_prepare(c->sym, k, n);
		free(k);
	}
	if (hot_sampler_end(&c->hot, step_ctx_name_frame, c, step_ctx_note_process, &st->hot) != 0)
		session_add_event(c->s, c->idx, EV_WARNING, session_time(c->s, now),
				  "the step's call paths were lost: out of memory");
	step_ctx_sym_events(c, now);
}

void
step_ctx_hot_tick(struct step_ctx *c)
{
	hot_sampler_tick(&c->hot, step_ctx_note_process, c);
}

void
step_ctx_hot_free(struct step_ctx *c)
{
	sym_free(c->sym);
	c->sym = NULL;
}
