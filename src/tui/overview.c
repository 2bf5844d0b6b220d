/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The overview, the first view: the CPUs beside (or above) the throughput
 * curve, the contention panel under them, and the event log when the
 * terminal is tall enough.
 */
#include "view.h"

static void
layout_overview(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	int ev_h = b.h >= 36 ? 5 : b.h >= 28 ? 3 : 0;
	int ct_h = b.h - ev_h >= 26 ? 8 : 5;
	int top = b.h - ev_h - ct_h;
	int cw, ch;

	if (b.w >= 110) {
		cw = b.w * 2 / 5;
		cpus_draw(u, f, (struct rect){ b.y, b.x, top, cw }, true);
		chart_draw(u, f, (struct rect){ b.y, b.x + cw + 1, top, b.w - cw - 1 }, h);
	} else {
		ch = cpus_rows_wanted(f, b.w);
		if (ch > top / 2)
			ch = top / 2;
		cpus_draw(u, f, (struct rect){ b.y, b.x, ch, b.w }, false);
		chart_draw(u, f, (struct rect){ b.y + ch, b.x, top - ch, b.w }, h);
	}
	contention_draw(u, f, (struct rect){ b.y + top, b.x, ct_h, b.w });
	if (ev_h > 0)
		events_draw(u, f, (struct rect){ b.y + top + ct_h, b.x, ev_h, b.w }, h);
}

const struct view view_overview = {
	.name = "overview",
	.draw = layout_overview,
};
