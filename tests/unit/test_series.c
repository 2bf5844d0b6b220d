/* SPDX-License-Identifier: BSD-2-Clause */
/* The tick ring: the oldest overwritten, each tick's CPU row its own, NaN for no row. */
#include <math.h>

#include "scaletop/series.h"
#include "../tap.h"

static void
add_tick(struct series *s, int i)
{
	struct tick t = { .t = i, .step = i, .rate = 100.0 * i, .busy_all = (float)i };
	float busy[2] = { (float)i, 10.0f + (float)i };

	series_add(s, &t, busy);
}

static void
test_wrap(void)
{
	struct series s;
	const struct tick *t;
	int i, rows_ok = 1;

	ok(series_init(&s, 2, 3) == 0, "a ring of 3 ticks of 2 CPUs");
	ok(series_len(&s) == 0 && series_at(&s, 0) == NULL, "  empty at first");
	for (i = 0; i < 5; i++)
		add_tick(&s, i);
	ok(series_len(&s) == 3 && s.count == 5, "5 added: 3 held, 5 counted");
	for (i = 0; i < 3; i++) {
		t = series_at(&s, i);
		rows_ok &= t != NULL && t->t == i + 2 && t->busy != NULL &&
			   t->busy[0] == (float)(i + 2) && t->busy[1] == 12.0f + (float)i;
	}
	ok(rows_ok, "  the newest 3, oldest first, each with its own CPU row");
	ok(series_at(&s, 3) == NULL && series_at(&s, -1) == NULL, "  out of range is NULL");
	series_add(&s, &(struct tick){ .t = 5 }, NULL);
	t = series_at(&s, 2);
	ok(t != NULL && t->t == 5 && isnan(t->busy[0]) && isnan(t->busy[1]),
	   "a tick without a row has NaN for each CPU");
	t = series_at(&s, 1);
	ok(t != NULL && t->t == 4 && t->busy[0] == 4.0f, "  and the tick before keeps its own");
	series_free(&s);
}

static void
test_slots(void)
{
	struct series s;
	struct tick *k;

	ok(series_init(&s, 2, 4) == 0, "a ring of 4 ticks of 2 CPUs");
	k = series_slot(&s, 6);
	ok(k == &s.ring[2] && k->busy == s.busy_store + 4, "tick 6 is slot 2, its row the third");
	series_free(&s);
	ok(series_init(&s, 0, 2) == 0, "a ring without CPUs");
	add_tick(&s, 1);
	ok(series_at(&s, 0) != NULL && series_at(&s, 0)->busy == NULL, "  holds no rows");
	series_free(&s);
	ok(series_init(&s, 2, 0) != 0, "a ring of 0 ticks is refused");
}

int
main(void)
{
	test_wrap();
	test_slots();
	return done_testing();
}
