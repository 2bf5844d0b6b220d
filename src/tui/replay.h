/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: a recorded run as frames (replay.c).  The caller owns
 * the loop: it feeds data (view -), advances the clock at its ticks, and
 * asks for the frame to draw.
 */
#ifndef SCALETOP_TUI_REPLAY_H
#define SCALETOP_TUI_REPLAY_H

#include <stddef.h>

#include "ui.h"

struct replay;
struct stream_reader;

enum replay_move { REPLAY_PLAY, REPLAY_BACK, REPLAY_ON, REPLAY_START, REPLAY_END };

/*
 * loaded: a recording already read whole (replay FILE, replay -), played
 * from the start; the replay borrows it.  NULL: path is "-", a stream that
 * arrives on standard input (replay_read), followed at its newest tick.
 * NULL with err set.
 */
struct replay *replay_new(const char *path, struct stream_reader *loaded, char *err, size_t errlen);
void replay_free(struct replay *rp);
/* What the reader noted while loading (a cut-off last line, ...). */
int replay_nnotes(const struct replay *rp);
const char *replay_note(const struct replay *rp, int i);
/* Reads what fd has: 0 to go on, 1 when the stream is over (msg says how it ended). */
int replay_read(struct replay *rp, int fd, char *msg, size_t len);
/* A tick of the screen: playing moves the clock dt seconds on; following stays at the newest. */
void replay_advance(struct replay *rp, double dt);
void replay_move(struct replay *rp, enum replay_move m);
/* The frame at the current moment; label gets "replaying FILE  tick i/n". */
void replay_frame(struct replay *rp, struct frame *f, char *label, size_t len);
/* The recorded session as far as the replay has got (as of the last frame). */
const struct session *replay_view(const struct replay *rp);
/* The tick on screen (as of the last move). */
size_t replay_pos(const struct replay *rp);
/*
 * What s saves: the recording up to tick pos, as a snapshot holds a sweep:
 * the steps finished by then, the events before it, and the last ticks up
 * to it.  out shares the recording's steps and events (valid while rp is);
 * its tick series is its own: series_free(&out->ticks).  0, or -1 (ENOMEM).
 */
int replay_session_at(struct replay *rp, size_t pos, struct session *out);

#endif
