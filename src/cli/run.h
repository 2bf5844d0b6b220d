/* SPDX-License-Identifier: BSD-2-Clause */
/* scaletop run: the headless sweep (run.c); its options are scaletop/run_args.h. */
#ifndef SCALETOP_CLI_RUN_H
#define SCALETOP_CLI_RUN_H

#include "scaletop/run_args.h"

int run_sweep(struct session *s, const struct sweep_config *cfg, const struct run_view *v);

#endif
