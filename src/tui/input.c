/* Keys and the mouse: one function per kind of action, dispatched from input_key. */
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "app.h"

static const double refresh_steps[] = { 0.1, 0.25, 0.5, 1, 2, 5 };
#define NREFRESH (int)(sizeof(refresh_steps) / sizeof(refresh_steps[0]))

static void
input_refresh(struct app *a)
{
	int i = 0;

	while (i < NREFRESH && refresh_steps[i] <= a->ui.refresh_s + 1e-9)
		i++;
	app_set_refresh(a, refresh_steps[i % NREFRESH]);
	app_message(a, false, "refresh every %g s", a->ui.refresh_s);
	app_save_prefs(a);
}

static void
input_theme(struct app *a)
{
	const char *next = theme_next(a->ui.theme);
	char err[ST_ERRLEN];

	if (theme_use(next, err, sizeof(err)) < 0) {
		app_message(a, true, "%s", err);
		return;
	}
	snprintf(a->ui.theme, sizeof(a->ui.theme), "%s", next);
	app_message(a, false, "theme %s", next);
	app_save_prefs(a);
}

/* The workload's parameters as "k=v k=v", for the picker's second step. */
static void
input_params_text(struct app *a, const struct workload *wl, char *buf, size_t len)
{
	bool same = strcmp(wl->name, a->s->wl.name) == 0;
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < wl->nparams && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "",
					wl->params[i].name,
					same && i < a->s->wl.nparams ? a->s->wl.value[i] : wl->params[i].def);
}

static void
input_prompt_done(struct app *a, enum prompt_kind kind, const char *text)
{
	char buf[512], label[96];
	const struct workload *wl;

	switch (kind) {
	case PR_NLIST: control_set_nlist(a, text); break;
	case PR_WORKLOAD:
		wl = workloads[a->ui.pr.pick];
		input_params_text(a, wl, buf, sizeof(buf));
		snprintf(label, sizeof(label), "%s parameters (enter runs):", wl->name);
		prompt_open(&a->ui, PR_PARAMS, label, buf);
		break;
	case PR_PARAMS: control_set_workload(a, workloads[a->ui.pr.pick]->name, text); break;
	case PR_SNAPSHOT: snap_save(a, text, false); break;
	case PR_CONFIRM_OVERWRITE: snap_save(a, a->snap_path, true); break;
	case PR_OPEN: snap_open(a, text); break;
	default: break;
	}
}

static void
input_prompt(struct app *a, int ch)
{
	enum prompt_kind kind = a->ui.pr.kind;
	char text[sizeof(a->ui.pr.text)];
	int r = prompt_key(&a->ui, ch);

	if (r == 0)
		return;
	memcpy(text, a->ui.pr.text, sizeof(text));
	a->ui.pr.kind = PR_NONE;
	if (r > 0)
		input_prompt_done(a, kind, text);
	else if (kind == PR_CONFIRM_OVERWRITE)
		app_message(a, false, "not saved: %s exists", a->snap_path);
}

static void
input_mouse(struct app *a)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return;
	for (int i = 0; i < a->ui.nhits; i++) {
		const struct ui_hit *h = &a->ui.hits[i];

		if (h->y != ev.y || ev.x < h->x0 || ev.x > h->x1)
			continue;
		if (h->step <= -2) {
			a->ui.view = (enum ui_view)(-2 - h->step);
		} else if (h->step >= 0) {
			a->ui.sel_step = h->step;
			a->ui.detail = true;
		}
		return;
	}
}

/* Up/down through the steps shown: the sweep's, or in a replay the recorded ones so far. */
static void
input_select(struct app *a, int delta)
{
	const struct session *s = a->rp != NULL ? replay_view(a) : a->s;
	int n = s != NULL ? s->nsteps : 0;

	if (n == 0)
		return;
	a->ui.sel_step = a->ui.sel_step < 0 ? (delta > 0 ? 0 : n - 1) : a->ui.sel_step + delta;
	if (a->ui.sel_step < 0)
		a->ui.sel_step = 0;
	if (a->ui.sel_step >= n)
		a->ui.sel_step = n - 1;
}

/* +/-: the first press starts at the sweep's peak (or N=1), then steps by one. */
static void
input_live(struct app *a, int delta)
{
	int n = a->live_s != NULL ? a->live_n + delta
				  : (a->have_an && a->an.n_peak > 0 ? a->an.n_peak : 1);

	control_live(a, n);
}

static void
input_nlist(struct app *a)
{
	char buf[256];
	struct nlist nl = { a->s->set.n, (size_t)a->s->set.nn };

	nlist_format(&nl, buf, sizeof(buf));
	prompt_open(&a->ui, PR_NLIST, "N list (1,2,4 or 1-64x2; enter restarts the sweep):", buf);
}

/* Keys that only mean something in a replay, or the same key's replay meaning. */
static bool
input_replay(struct app *a, int ch)
{
	if (a->rp == NULL)
		return false;
	switch (ch) {
	case ' ': case '<': case '>': case ',': case '.': case KEY_LEFT: case KEY_RIGHT:
	case KEY_HOME: case KEY_END: case 'g': case 'G':
		replay_key(a, ch);
		return true;
	case 'r': case 'x': case '+': case '-': case '=': case 'w': case 'n':
		app_message(a, true, "a replay shows a recorded run: nothing runs here");
		return true;
	default: return false;
	}
}

/*
 * Space pauses the sweep itself (its workload is stopped and the step
 * re-measured on resume); with no sweep running it freezes the display.
 */
static void
input_pause(struct app *a)
{
	if (a->sw != NULL && a->live_s == NULL && !sweep_finished(a->sw)) {
		sweep_pause(a->sw, !sweep_live(a->sw)->paused);
		app_message(a, false, "%s", sweep_live(a->sw)->paused
			    ? "paused: the workload is stopped; space resumes and re-measures the step"
			    : "resumed: the step warms up and measures again");
		return;
	}
	a->ui.paused = !a->ui.paused;
}

static void
input_action(struct app *a, int ch)
{
	switch (ch) {
	case 'q': case 'Q': case KEY_F(10): a->quit = true; break;
	case '?': case 'h': case KEY_F(1): a->ui.help = true; break;
	case ' ': input_pause(a); break;
	case 'v': case '\t': a->ui.view = (a->ui.view + 1) % VIEW_COUNT; break;
	case 'V': case KEY_BTAB: a->ui.view = (a->ui.view + VIEW_COUNT - 1) % VIEW_COUNT; break;
	case '1': case '2': case '3': case '4': a->ui.view = (enum ui_view)(ch - '1'); break;
	case 't': input_theme(a); break;
	case 'd': input_refresh(a); break;
	case 'r': control_start_sweep(a); break;
	case 'x':
		if (a->sw != NULL)
			control_stop(a, "stopped by the user"), app_message(a, false, "stopped");
		break;
	case '+': case '=': input_live(a, +1); break;
	case '-': case '_': input_live(a, -1); break;
	case 'w': a->ui.pr.pick = 0; prompt_open(&a->ui, PR_WORKLOAD, "", ""); break;
	case 'n': input_nlist(a); break;
	case 's': snap_save_prompt(a); break;
	case 'o': prompt_open(&a->ui, PR_OPEN, "open snapshot as overlay:", ""); break;
	case 'c': snap_clear(a); app_message(a, false, "overlays cleared"); break;
	case KEY_UP: case 'k': input_select(a, -1); break;
	case KEY_DOWN: case 'j': input_select(a, +1); break;
	case '\n': case '\r': case KEY_ENTER: a->ui.detail = !a->ui.detail; break;
	case 27: a->ui.detail = false; break;
	case KEY_MOUSE: input_mouse(a); break;
	default: break;
	}
}

void
input_key(struct app *a, int ch)
{
	if (a->ui.pr.kind != PR_NONE) {
		input_prompt(a, ch);
		return;
	}
	if (a->ui.help && ch != KEY_MOUSE) {
		a->ui.help = false; /* any key closes help; q and F10 still quit */
		if (ch != 'q' && ch != KEY_F(10))
			return;
	}
	if (!input_replay(a, ch))
		input_action(a, ch);
}
