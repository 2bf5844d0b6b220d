/* Subcommands: each parses its own arguments, calls the library and prints. */
#ifndef SCALETOP_CLI_H
#define SCALETOP_CLI_H

/* Exit statuses shared by every subcommand. */
#define EXIT_USAGE 2   /* bad arguments: the message says which and what to do */
#define EXIT_RUNTIME 1 /* the work could not be done */

extern const char *progname;

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

/* args.c: strict parsing; each prints one line ("scaletop CMD: ...") and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_parse_seconds(const char *cmd, const char *opt, const char *arg, double min, double max,
		      double *out);
int cli_parse_int(const char *cmd, const char *opt, const char *arg, long min, long max,
		  long *out);
int cli_parse_percent(const char *cmd, const char *opt, const char *arg, double *out);

/* Installs handlers so a crash of the monitor itself still kills every workload group. */
void cli_guard_crashes(void);
/* Run first on a crash, e.g. to give the terminal back (the TUI sets it); NULL if none. */
extern void (*cli_crash_hook)(void);

#endif
