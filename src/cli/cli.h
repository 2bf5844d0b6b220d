/* Subcommands: each parses its own arguments, calls the library and prints. */
#ifndef SCALETOP_CLI_H
#define SCALETOP_CLI_H

#include "scaletop/argparse.h"

int cmd_sample(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
/* Snapshots: show.c, compare.c, export.c, import.c. */
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
/* src/tui/cmd.c: the interactive monitor and its replay views. */
int cmd_tui(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_view(int argc, char **argv);

/* Installs handlers so a crash of the monitor itself still kills every workload group. */
void cli_guard_crashes(void);
/* Run first on a crash, e.g. to give the terminal back (the TUI sets it); NULL if none. */
extern void (*cli_crash_hook)(void);

#endif
