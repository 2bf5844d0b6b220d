/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/engine/: --probe's presets.  `--probe postgres[:CONNINFO]`
 * and `--probe mariadb[:OPTIONS]` are the two probes most users would
 * otherwise write by hand, and the ones that can name each waiting thread:
 * a PostgreSQL backend is a process (its pid is its one thread's TID), and
 * MariaDB's performance_schema.threads.THREAD_OS_ID is the kernel's TID.
 */
#ifndef SCALETOP_ENGINE_PROBE_PRESET_H
#define SCALETOP_ENGINE_PROBE_PRESET_H

#include <stddef.h>

/*
 * A preset is expanded into its client's argv here (no shell), prints
 * `TID<TAB>label` lines, and first one status line (`#scaletop ...`) that
 * says whether the server's instrumentation is on; what that line means, and
 * how to turn the instrumentation on, is said here too.
 */

enum probe_preset { PRESET_NONE, PRESET_POSTGRES, PRESET_MARIADB };

/* The status line's prefix: a preset's line that is no label. */
#define PRESET_STATUS "#scaletop "

/*
 * text as given to --probe: a preset's argv into *argv (free with
 * cmdline_free) and its kind into *kind, 0; not a preset: *kind
 * PRESET_NONE, *argv NULL, 0; a preset whose options cannot be split: -1
 * and why in err.
 */
int probe_preset_argv(const char *text, enum probe_preset *kind, char ***argv, char *err,
		      size_t errlen);

/* The preset's name ("postgres"). */
const char *probe_preset_name(enum probe_preset kind);

/*
 * A status line of preset kind (after PRESET_STATUS): 1 when it says the
 * instrumentation is off, with how to turn it on in msg; 0 when all is on;
 * -1 when the line is not understood.
 */
int probe_preset_status(enum probe_preset kind, const char *line, char *msg, size_t len);

#endif
