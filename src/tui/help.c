/* The help box (? or F1): every key, and what the panels mean. */
#include "ui.h"

static const char *const help_lines[] = {
	"scaletop: watch a workload scale, step by step",
	"",
	"  space     pause / resume the sweep (its workload is stopped; the step",
	"            re-measures on resume); with no sweep, freeze the display;",
	"            in a replay: play / pause",
	"  r         run the sweep again from the first N; x stops it",
	"  + / -     outside a sweep: run the workload at one N, live, and change N",
	"  w         choose the workload and its parameters",
	"  n         edit the N list (1,2,4,8 or 1-64x2)",
	"  s         save a snapshot (JSON) of the session",
	"  o         open a snapshot as an overlay on the chart; c clears them",
	"  v / 1-5   views: overview, cpus, chart, steps, waits",
	"  up/down   select a step (steps view); enter or a click shows its detail",
	"  < / >     replay: step back / forward in time; home / end: start / end",
	"  t         next theme          d  next refresh interval",
	"  ? / F1    this help           q / F10  quit",
	"",
	"Chart: o/\u25cf this sweep (pooled per N), .. the ideal line from X(1),",
	"the USL fit, ^/\u25b2 the peak, X/\u2716 the collapse, @/\u25c6 the running step.",
	"CPU bars: user, nice, sys, irq+softirq, iowait, steal.",
	"",
	"press any key to close",
};
#define NHELP (int)(sizeof(help_lines) / sizeof(help_lines[0]))

void
help_draw(const struct ui *u, struct rect screen)
{
	int i;
	int w = 78 < screen.w - 2 ? 78 : screen.w - 2;
	int h = NHELP + 2 < screen.h - 2 ? NHELP + 2 : screen.h - 2;
	struct rect box = { screen.y + (screen.h - h) / 2, screen.x + (screen.w - w) / 2, h, w };

	ui_fill(box, theme_attr(ROLE_MAIN) | A_REVERSE);
	for (i = 0; i < NHELP && i < h - 2; i++)
		ui_put(box.y + 1 + i, box.x + 1, w - 2,
		       (i == 0 ? theme_attr(ROLE_TITLE) : theme_attr(ROLE_MAIN)) | A_REVERSE,
		       help_lines[i]);
}
