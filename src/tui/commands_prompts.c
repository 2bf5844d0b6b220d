/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The commands that ask first: a key for the open prompt, what a
 * submitted prompt starts (the N list, the workload and its parameters, a
 * snapshot saved or opened, a recording, a kept run deleted), and the runs
 * view's commands on the selected kept run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "app.h"

/* The workload's parameters as "k=v k=v", for the picker's second step. */
static void
do_params_text(struct app *a, const struct workload *wl, char *buf, size_t len)
{
	bool same = strcmp(wl->name, a->s->wl.name) == 0;
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < wl->nparams && off < len; i++)
		off += (size_t)snprintf(
			buf + off, len - off, "%s%s=%s", i ? " " : "", wl->params[i].name,
			same && i < a->s->wl.nparams ? a->s->wl.value[i] : wl->params[i].def);
}

/* --- the history view ------------------------------------------------------- */

/* y to the question D asked: the selected run's file goes. */
static void
do_hist_delete(struct app *a)
{
	const struct run_entry *e = a->ui.hist != NULL ? history_selected(a->ui.hist) : NULL;
	char err[ST_ERRLEN], name[sizeof(e->path)];

	if (e == NULL)
		return;
	snprintf(name, sizeof(name), "%s", e->path);
	if (history_delete(a->ui.hist, err, sizeof(err)) != 0)
		app_message(a, true, "%s", err);
	else
		app_message(a, false, "deleted %s", name);
}

/* Enter, o and D on the selected kept run; Esc and q go back. */
void
commands_hist(struct app *a, const struct command *c)
{
	const struct run_entry *e;
	char msg[ST_ERRLEN + 64];

	if (a->ui.hist == NULL)
		return;
	e = history_selected(a->ui.hist);
	if (c->id == CMD_HIST_BACK) {
		a->ui.view = a->ui.hist->back;
		return;
	}
	if (c->id == CMD_HIST_MOVE) {
		history_move(a->ui.hist, (enum history_move)c->arg);
		return;
	}
	if (e == NULL) {
		app_message(a, true, "no kept run here yet: a sweep is kept when it ends");
		return;
	}
	if (c->id == CMD_HIST_OVERLAY) {
		snap_open(a, e->path);
	} else if (c->id == CMD_HIST_OPEN) {
		if (sweeps_open_run(a, e->path, msg, sizeof(msg)) == 0) {
			a->ui.view = view_index(&view_steps);
			app_message(a, false, "opened %s: %s",
				    strrchr(e->path, '/') != NULL ? strrchr(e->path, '/') + 1
								  : e->path,
				    msg);
		}
	} else if (c->id == CMD_HIST_DELETE) {
		prompt_open(&a->ui, PR_CONFIRM_DELETE, "", "");
		snprintf(a->ui.pr.label, sizeof(a->ui.pr.label), "delete %.70s? (y/N)",
			 strrchr(e->path, '/') != NULL ? strrchr(e->path, '/') + 1 : e->path);
	}
}

/* A prompt was answered: what its text starts. */
static void
do_prompt_done(struct app *a, enum prompt_kind kind, const char *text)
{
	char buf[512], label[96];
	const struct workload *wl;

	switch (kind) {
	case PR_NLIST:
		sweeps_set_nlist(a, text);
		break;
	case PR_WORKLOAD:
		wl = workloads[a->ui.pr.pick];
		do_params_text(a, wl, buf, sizeof(buf));
		snprintf(label, sizeof(label), "%s parameters (enter runs):", wl->name);
		prompt_open(&a->ui, PR_PARAMS, label, buf);
		break;
	case PR_PARAMS:
		sweeps_set_workload(a, workloads[a->ui.pr.pick]->name, text);
		break;
	case PR_SNAPSHOT:
		snap_save(a, text, false);
		break;
	case PR_CONFIRM_OVERWRITE:
		snap_save(a, a->snap_path, true);
		break;
	case PR_OPEN:
		snap_open(a, text);
		break;
	case PR_CONFIRM_DELETE:
		do_hist_delete(a);
		break;
	case PR_RECORD:
		record_prompt_done(a, text, false);
		break;
	case PR_CONFIRM_RECORD:
		record_prompt_done(a, a->rec_path, true);
		break;
	default:
		break;
	}
}

/* A key for the open prompt: edited there until it is submitted or cancelled. */
void
commands_prompt_key(struct app *a, const struct command *c)
{
	int ch = c->arg;
	enum prompt_kind kind = a->ui.pr.kind;
	char text[sizeof(a->ui.pr.text)];
	int r = prompt_key(&a->ui, ch);

	if (r == 0)
		return;
	memcpy(text, a->ui.pr.text, sizeof(text));
	a->ui.pr.kind = PR_NONE;
	if (r > 0)
		do_prompt_done(a, kind, text);
	else if (kind == PR_CONFIRM_OVERWRITE)
		app_message(a, false, "not saved: %s exists", a->snap_path);
	else if (kind == PR_CONFIRM_DELETE)
		app_message(a, false, "not deleted");
	else if (kind == PR_CONFIRM_RECORD)
		app_message(a, false, "not recording: %s exists", a->rec_path);
}
