/* Drawing helpers shared by the panels: clipped text, titles, hit regions. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "ui.h"

const char *const ui_view_names[VIEW_COUNT] = { "overview", "cpus",  "chart",
						"steps",    "waits", "runs" };

void
ui_fill(struct rect r, attr_t a)
{
	int y;

	attrset(a);
	for (y = r.y; y < r.y + r.h; y++)
		mvhline(y, r.x, ' ', r.w);
	attrset(A_NORMAL);
}

/*
 * Text clipped to maxw columns.  Columns are counted with wcwidth, so a
 * hostname in another script cannot push the line past its panel; bytes the
 * locale cannot decode become '?'.
 */
int
ui_put(int y, int x, int maxw, attr_t a, const char *s)
{
	mbstate_t ps;
	int cols = 0;

	if (maxw <= 0 || s == NULL)
		return 0;
	memset(&ps, 0, sizeof(ps));
	attrset(a);
	move(y, x);
	while (*s != '\0' && cols < maxw) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, strlen(s), &ps);
		int w;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			addch('?');
			memset(&ps, 0, sizeof(ps));
			s++;
			cols++;
			continue;
		}
		w = wcwidth(wc);
		if (w < 0)
			w = 1, wc = L'?';
		if (cols + w > maxw)
			break;
		addnstr(s, (int)n);
		s += n;
		cols += w;
	}
	attrset(A_NORMAL);
	return cols;
}

int
ui_putf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ui_put(y, x, maxw, a, buf);
}

struct rect
ui_titled(struct rect r, const char *title)
{
	int x;
	struct rect in = r;

	if (r.h <= 0)
		return r;
	attrset(theme_attr(ROLE_DIV));
	for (x = r.x; x < r.x + r.w; x++)
		mvaddstr(r.y, x, glyph_hline());
	ui_putf(r.y, r.x + 1, r.w - 2, theme_attr(ROLE_TITLE), " %s ", title);
	in.y++;
	in.h--;
	return in;
}

void
ui_hit_add(struct ui_hits *h, int y, int x0, int x1, int step)
{
	if (h->n < UI_MAX_HITS)
		h->hit[h->n++] = (struct ui_hit){ y, x0, x1, step };
}

/* The newest finished step (any status): what the contention panel can show for sure. */
const struct step *
ui_last_done(const struct frame *f)
{
	int i;

	for (i = f->s->nsteps - 1; i >= 0; i--) {
		if (f->s->steps[i].status != STEP_RUNNING)
			return &f->s->steps[i];
	}
	return NULL;
}

double
ui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
