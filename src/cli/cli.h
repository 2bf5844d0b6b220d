/* SPDX-License-Identifier: BSD-2-Clause */
/* Subcommands: each parses its own arguments, calls the library and prints. */
#ifndef SCALETOP_CLI_H
#define SCALETOP_CLI_H

#include "scaletop/argparse.h"

int cmd_sample(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
/* list topo (list_topo.c): the topology and -n topo here, or read from root or spec. */
int list_topo(const char *root, const char *spec);
/* Snapshots: show.c, compare.c, export.c, import.c. */
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
/* The runs the TUI kept: runs.c. */
int cmd_runs(int argc, char **argv);
/* tui, replay and view: scaletop/tui.h, where the TUI implements them. */

#endif
