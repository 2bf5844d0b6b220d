/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An external step's CPU and contention window (ext_window.c): taken between
 * the tick marks nearest the counted intervals' edges, not over the whole
 * command.  The marks are made by hand: a command that burns one CPU for its
 * first 0.75 s (its set-up) and then reports while idle.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/ext_window.h"
#include "../tap.h"

#define GO_NS 1000000000u
#define TICK_NS 250000000u

static void
fake_marks(struct ext_window *w, int n)
{
	struct ext_mark *m;
	int i;

	w->marks = calloc(64, sizeof(*w->marks));
	if (w->marks == NULL)
		abort();
	for (i = 0; i < n; i++) {
		m = &w->marks[i];
		m->ns = GO_NS + (uint64_t)i * TICK_NS;
		m->have_task = true;
		m->task.have = TASK_HAVE_CPU | TASK_HAVE_CSW;
		m->task.nthreads = 1;
		m->task.user_ns = (uint64_t)(i < 3 ? i : 3) * TICK_NS; /* busy until 0.75 s */
		m->task.vol_csw = (uint64_t)i * 10;
	}
	w->nmarks = n;
	w->mark_next = n;
}

static void
align(struct ext_window *w, struct step_ctx *c, double mono0, double mono1)
{
	w->mono0 = mono0;
	w->mono1 = mono1;
	w->have_mono = true;
	ext_window_align(w, c, false);
}

int
main(void)
{
	struct session s;
	struct step_ctx c;
	struct ext_window w;
	struct step *st;

	session_init(&s);
	step_ctx_init(&c);
	memset(&w, 0, sizeof(w));
	c.s = &s;
	st = session_add_step(&s, 1, 0);
	st->ops = 2000;
	c.idx = 0;
	c.go_ns = GO_NS;
	fake_marks(&w, 10);

	align(&w, &c, 1.05, 2.2);
	ok(st->ct.have & CT_HAVE_CSW, "contention is taken over the counted span");
	is_double(st->ct.cpu_used, 0, 1e-12,
		  "the set-up's CPU is left out (marks at 1.0 and 2.25 s)");
	is_double(st->ct.vcsw_s, 40, 1e-9, "switches per second over that span");
	is_double(st->ct.vcsw_kop, 25, 1e-9, "and per 1000 of the span's operations");

	align(&w, &c, 0.3, 0.7);
	is_double(st->ct.cpu_used, 1, 1e-12, "a span within the set-up: one CPU busy");

	memset(&st->ct, 0, sizeof(st->ct));
	align(&w, &c, 0.6, 0.6);
	is_int(st->ct.have, 0, "no two marks bound a span: left as the monitor's window");

	ext_marks_free(&w);
	step_ctx_free(&c);
	session_free(&s);
	return done_testing();
}
