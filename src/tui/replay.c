/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A recorded or remote run (scaletop replay FILE.jsonl or -, scaletop view -),
 * drawn by the same panels.  The stream reader rebuilds the session; this
 * file picks the moment to show (a tick index), cuts the session down to
 * the steps finished by then, and plays, pauses and scrubs.  It knows
 * nothing of the app or the loop: playback.c wires it in.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/stream.h"
#include "replay.h"

struct replay {
	struct stream_reader *r;
	bool own_r; /* view -: the replay made r; else it borrows one read whole */
	char name[256];
	bool follow; /* view -: stay on the newest tick as lines arrive */
	bool playing;
	bool eof;
	double play_t;       /* the session time on screen */
	size_t pos;          /* its tick */
	struct session view; /* the reader's session, cut at pos (shallow) */
	struct analysis an;
	bool have_an;
	int an_steps;          /* the step count an was made from, -1 none */
	struct cpu_usage *cpu; /* the tick's CPU rows, converted */
	int capcpu;
	struct tick scratch; /* hist_at's answer */
	float *busy;
	int nbusy;
};

static size_t
replay_nticks(const struct replay *rp)
{
	return stream_reader_nticks(rp->r);
}

/* The last tick at or before t. */
static size_t
replay_seek(const struct replay *rp, double t)
{
	size_t lo = 0, hi = replay_nticks(rp);

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (stream_reader_tick(rp->r, mid)->t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

struct replay *
replay_new(const char *path, struct stream_reader *loaded, char *err, size_t errlen)
{
	struct replay *rp = calloc(1, sizeof(*rp));
	bool stdin_ = strcmp(path, "-") == 0;

	if (rp == NULL) {
		st_error(err, errlen, "out of memory");
		return NULL;
	}
	rp->an_steps = -1;
	snprintf(rp->name, sizeof(rp->name), "%s", stdin_ ? "standard input" : path);
	if (loaded != NULL) {
		rp->r = loaded;
		rp->eof = true;
		rp->playing = true;
		return rp;
	}
	if (!stdin_ || (rp->r = stream_reader_new("stdin")) == NULL) {
		free(rp);
		st_error(err, errlen, stdin_ ? "out of memory" : "%s: not read", path);
		return NULL;
	}
	rp->own_r = true;
	rp->follow = true;
	return rp;
}

void
replay_free(struct replay *rp)
{
	if (rp == NULL)
		return;
	if (rp->have_an)
		analysis_free(&rp->an);
	if (rp->own_r)
		stream_reader_free(rp->r);
	free(rp->cpu);
	free(rp->busy);
	free(rp);
}

int
replay_nnotes(const struct replay *rp)
{
	return stream_reader_nnotes(rp->r);
}

const char *
replay_note(const struct replay *rp, int i)
{
	return stream_reader_note(rp->r, i);
}

void
replay_advance(struct replay *rp, double dt)
{
	size_t n = replay_nticks(rp);

	if (n > 0 && rp->playing && !rp->follow) {
		rp->play_t += dt;
		rp->pos = replay_seek(rp, rp->play_t);
		if (rp->pos + 1 >= n && rp->eof)
			rp->playing = false;
	}
	if (rp->follow && n > 0) {
		rp->pos = n - 1;
		rp->play_t = stream_reader_tick(rp->r, rp->pos)->t;
	}
}

int
replay_read(struct replay *rp, int fd, char *msg, size_t len)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0 && stream_reader_feed(rp->r, buf, (size_t)n) == 0)
		return 0;
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n == 0)
		stream_reader_finish(rp->r);
	rp->eof = true;
	snprintf(msg, len, "%s: %s", rp->name,
		 stream_reader_ended(rp->r) ? "the run ended" : "the stream stopped");
	return 1;
}

/* Steps finished by time t: the stream writes a step when it ends. */
static int
replay_steps_by(const struct session *s, double t)
{
	int k = 0;

	while (k < s->nsteps &&
	       s->steps[k].start_s + s->steps[k].warmup_s + s->steps[k].window_s <= t + 0.5)
		k++;
	return k;
}

static void
replay_cut(struct replay *rp, double t)
{
	const struct session *s = stream_reader_session(rp->r);
	struct analysis_opts o;

	rp->view = *s;
	rp->view.nsteps = replay_steps_by(s, t);
	while (rp->view.nevents > 0 && rp->view.events[rp->view.nevents - 1].t > t)
		rp->view.nevents--;
	if (rp->an_steps == rp->view.nsteps)
		return;
	if (rp->have_an)
		analysis_free(&rp->an);
	analysis_opts_default(&o);
	o.n_unit = s->wl.n_unit[0] ? s->wl.n_unit : NULL;
	rp->have_an = rp->view.nsteps > 0 && analysis_run(&rp->view, &o, &rp->an) == 0;
	rp->an_steps = rp->view.nsteps;
}

static void
replay_usage(struct cpu_usage *c, const struct stream_cpu *sc)
{
	int s;

	memset(c, 0, sizeof(*c));
	c->id = sc->id;
	c->flags = sc->flags;
	for (s = 0; s < CPU_NSTATES; s++)
		c->pct[s] = sc->pct[s] == STREAM_PCT_NONE ? 0 : stream_pct(sc->pct[s]);
	c->busy = sc->busy == STREAM_PCT_NONE ? NAN : stream_pct(sc->busy);
}

static void
replay_cpus(struct replay *rp, const struct stream_tick *t, struct frame *f)
{
	const struct stream_cpu *rows = stream_reader_tick_cpus(rp->r, t);
	struct cpu_usage *c;
	int i;

	if (!t->have_cpu || rows == NULL)
		return;
	if (rp->capcpu < t->ncpu) {
		c = realloc(rp->cpu, (size_t)t->ncpu * sizeof(*c));
		if (c == NULL)
			return;
		rp->cpu = c;
		rp->capcpu = t->ncpu;
	}
	for (i = 0; i < t->ncpu; i++)
		replay_usage(&rp->cpu[i], &rows[i]);
	replay_usage(&f->all, &t->all);
	f->cpu = rp->cpu;
	f->ncpu = t->ncpu;
	f->have_cpu = true;
}

/* Tick i as the panels want it: busy % indexed by CPU id (rp->nbusy of them). */
static const struct tick *
replay_tick_at(struct replay *rp, size_t i)
{
	const struct stream_tick *t;
	const struct stream_cpu *rows;
	int k;

	if ((t = stream_reader_tick(rp->r, i)) == NULL)
		return NULL;
	rows = stream_reader_tick_cpus(rp->r, t);
	for (k = 0; k < rp->nbusy; k++)
		rp->busy[k] = NAN;
	for (k = 0; t->have_cpu && rows != NULL && k < t->ncpu; k++)
		if (rows[k].id >= 0 && rows[k].id < rp->nbusy)
			rp->busy[rows[k].id] = (float)stream_pct(rows[k].busy);
	rp->scratch = (struct tick){ .t = t->t,
				     .step = t->step,
				     .phase = (int)t->phase,
				     .rate = t->rate,
				     .busy_all = (float)stream_pct(t->all.busy),
				     .busy = rp->busy };
	return &rp->scratch;
}

/* The ticks up to the moment on screen, for the panels. */
static const struct tick *
replay_hist_at(void *ctx, int i)
{
	struct replay *rp = ctx;

	if (i < 0 || (size_t)i > rp->pos)
		return NULL;
	return replay_tick_at(rp, (size_t)i);
}

/* Room in rp->busy for CPU ids below need; -1 on ENOMEM. */
static int
replay_busy_room(struct replay *rp, int need)
{
	float *b;

	if (need <= rp->nbusy)
		return 0;
	b = realloc(rp->busy, (size_t)need * sizeof(*b));
	if (b == NULL)
		return -1;
	rp->busy = b;
	rp->nbusy = need;
	return 0;
}

/* Room for every CPU id the current tick names. */
static void
replay_size_busy(struct replay *rp, const struct frame *f)
{
	int i, need = rp->view.ticks.ncpu;

	for (i = 0; i < f->ncpu; i++)
		if (f->cpu[i].id + 1 > need)
			need = f->cpu[i].id + 1;
	replay_busy_room(rp, need);
	rp->view.ticks.ncpu = rp->nbusy;
}

void
replay_frame(struct replay *rp, struct frame *f, char *label, size_t len)
{
	size_t n = replay_nticks(rp);
	const struct stream_tick *t = n > 0 ? stream_reader_tick(rp->r, rp->pos) : NULL;

	replay_cut(rp, t != NULL ? t->t : INFINITY);
	f->s = &rp->view;
	f->an = rp->have_an ? &rp->an : NULL;
	f->replay = true;
	f->step = -1;
	f->phase = PHASE_DONE;
	snprintf(label, len, "%s %.100s  tick %zu/%zu",
		 rp->follow    ? "viewing"
		 : rp->playing ? "replaying"
			       : "paused at",
		 rp->name, n > 0 ? rp->pos + 1 : 0, n);
	if (t == NULL)
		return;
	f->t = t->t;
	f->phase = t->phase;
	f->step = t->step;
	f->run_n = t->n;
	f->steps_total = t->steps_total;
	f->phase_s = t->phase_s;
	f->rate = t->rate;
	f->have_rate = isfinite(t->rate);
	f->sweeping = t->step >= 0 && t->phase != PHASE_DONE && t->phase != PHASE_IDLE;
	f->live_ct = stream_reader_tick_contention(rp->r, t);
	f->live_waits = stream_reader_tick_waits(rp->r, t, &f->nlive_waits);
	replay_cpus(rp, t, f);
	replay_size_busy(rp, f);
	f->hist_len = (int)rp->pos + 1;
	f->hist_at = replay_hist_at;
	f->hist_ctx = rp;
}

const struct session *
replay_view(const struct replay *rp)
{
	return &rp->view;
}

/* Play/pause; a second back or on; the start and the end. */
void
replay_move(struct replay *rp, enum replay_move m)
{
	size_t n = replay_nticks(rp);
	double end = n > 0 ? stream_reader_tick(rp->r, n - 1)->t : 0;

	switch (m) {
	case REPLAY_PLAY:
		rp->playing = !rp->playing;
		rp->follow = false;
		break;
	case REPLAY_BACK:
		rp->play_t -= 1;
		rp->follow = false;
		break;
	case REPLAY_ON:
		rp->play_t += 1;
		break;
	case REPLAY_START:
		rp->play_t = 0;
		rp->follow = false;
		break;
	case REPLAY_END:
		rp->play_t = end;
		rp->follow = !rp->eof;
		break;
	}
	if (rp->play_t < 0)
		rp->play_t = 0;
	if (rp->play_t > end)
		rp->play_t = end;
	if (n > 0)
		rp->pos = replay_seek(rp, rp->play_t);
	if (m == REPLAY_PLAY && rp->playing && rp->pos + 1 >= n && rp->eof) {
		rp->play_t = 0; /* play again from the start */
		rp->pos = 0;
	}
}

size_t
replay_pos(const struct replay *rp)
{
	return rp->pos;
}

/* The last ticks up to pos (as many as the recording's series holds), into a series of its own. */
static int
replay_series_to(struct replay *rp, size_t pos, const struct session *s, struct series *out)
{
	int ncpu = rp->nbusy > s->ticks.ncpu ? rp->nbusy : s->ticks.ncpu;
	int cap = s->ticks.cap > 0 ? s->ticks.cap : SERIES_DEFAULT_CAP;
	size_t n = replay_nticks(rp), i;
	const struct tick *k;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	if (replay_busy_room(rp, ncpu) != 0 || series_init(out, rp->nbusy, cap) != 0)
		return -1;
	for (i = pos + 1 > (size_t)cap ? pos + 1 - (size_t)cap : 0; i <= pos && i < n; i++) {
		if ((k = replay_tick_at(rp, i)) != NULL)
			series_add(out, k, k->busy);
	}
	return 0;
}

int
replay_session_at(struct replay *rp, size_t pos, struct session *out)
{
	const struct session *s = stream_reader_session(rp->r);
	const struct stream_tick *t = stream_reader_tick(rp->r, pos);
	double at = t != NULL ? t->t : INFINITY;

	*out = *s;
	out->nsteps = replay_steps_by(s, at);
	while (out->nevents > 0 && out->events[out->nevents - 1].t > at)
		out->nevents--;
	return replay_series_to(rp, pos, s, &out->ticks);
}
