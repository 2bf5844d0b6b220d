/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The replay's place in the loop: it owns the screen's tick (the clock of a
 * replay moves at the refresh interval) and, for view -, standard input.
 */
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "replay.h"

static void
playback_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct app *a = arg;

	replay_advance(a->rp, a->ui.refresh_s);
	if (!a->ui.paused)
		app_redraw(a);
}

/* view -: lines as they arrive on standard input. */
static void
playback_on_data(struct loop *l, int fd, short revents, void *arg)
{
	struct app *a = arg;
	char msg[sizeof(a->ui.msg)];

	if (replay_read(a->rp, fd, msg, sizeof(msg)) == 0)
		return;
	loop_del_fd(l, fd);
	app_message(a, false, "%s", msg);
}

int
playback_open(struct app *a, const char *path, char *err, size_t errlen)
{
	int i;

	if ((a->rp = replay_new(path, a->opts.replay_stream, err, errlen)) == NULL)
		return -1;
	if (a->opts.replay_stream == NULL) {
		fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
		loop_add_fd(a->loop, STDIN_FILENO, POLLIN, playback_on_data, a);
	}
	for (i = 0; i < replay_nnotes(a->rp); i++)
		app_message(a, true, "%s", replay_note(a->rp, i));
	return loop_set_tick(a->loop, (uint64_t)(a->ui.refresh_s * 1e9), playback_tick, a);
}

void
playback_free(struct app *a)
{
	replay_free(a->rp);
	a->rp = NULL;
}
