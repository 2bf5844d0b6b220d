/* SPDX-License-Identifier: BSD-2-Clause */
/* What the throughput and the latency charts share: N's place across a plot, and its axes' labels.
 */
#include <math.h>
#include <stdio.h>

#include "ui.h"

double
chart_npos(double n, double nmin, double nmax, bool logx, int dw)
{
	double f = logx ? (log2(n) - log2(nmin)) / (log2(nmax) - log2(nmin))
			: (n - nmin) / (nmax - nmin);

	return nmax > nmin ? f * (dw - 1) : (dw - 1) / 2.0;
}

void
chart_yaxis(struct rect plot, char lab[3][16])
{
	int k, y;

	for (k = 0; k <= 2; k++) {
		if (k == 1 && plot.h < 3)
			continue;
		y = plot.y + (plot.h - 1) * k / 2;
		ui_putf(y, plot.x - 7, 6, theme_attr(ROLE_GRAPH), "%6s", lab[k]);
	}
	for (y = plot.y; y < plot.y + plot.h; y++)
		ui_put(y, plot.x - 1, 1, theme_attr(ROLE_GRAPH), glyph_vline());
}

void
chart_xlabel(struct rect plot, int x, int n, int *lastx)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	x -= len / 2;
	if (x + len > plot.x + plot.w + 1) /* the last one ends at the edge, whole */
		x = plot.x + plot.w + 1 - len;
	if (x <= *lastx + 1)
		return;
	*lastx = x + len;
	ui_put(plot.y + plot.h, x, len, theme_attr(ROLE_GRAPH), buf);
}
