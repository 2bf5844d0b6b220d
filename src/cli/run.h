/* Shared by `scaletop run` and, later, the TUI's start-up: options to a session and sweep. */
#ifndef SCALETOP_CLI_RUN_H
#define SCALETOP_CLI_RUN_H

#include <stdbool.h>

#include "scaletop/session.h"
#include "scaletop/sweep.h"

struct run_view {
	bool json;
	bool quiet;
};

int run_sweep(struct session *s, const struct sweep_config *cfg, const struct run_view *v);

#endif
