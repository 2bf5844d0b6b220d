/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --probe's presets (probe_preset.h): the client commands and their SQL,
 * and the reading of their status line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/cmdline.h"
#include "scaletop/error.h"
#include "probe_preset.h"

#define PG_STATUS_SQL \
	"SELECT '" PRESET_STATUS "track_activities=' || current_setting('track_activities')"
#define PG_WAITS_SQL                                                                               \
	"SELECT pid, coalesce(wait_event_type || ':' || wait_event, 'CPU') FROM pg_stat_activity " \
	"WHERE state = 'active' AND pid <> pg_backend_pid()"

#define MARIADB_SQL                                                                              \
	"SELECT CONCAT('" PRESET_STATUS "performance_schema=', @@performance_schema, "           \
	"' consumer=', IFNULL((SELECT ENABLED FROM performance_schema.setup_consumers "          \
	"WHERE NAME = 'events_waits_current'), 'NO'), ' instruments=', (SELECT COUNT(*) FROM "   \
	"performance_schema.setup_instruments WHERE NAME LIKE 'wait/synch/%' AND "               \
	"ENABLED = 'YES')); "                                                                    \
	"SELECT t.THREAD_OS_ID, IFNULL(w.EVENT_NAME, 'CPU') FROM performance_schema.threads t "  \
	"LEFT JOIN performance_schema.events_waits_current w ON w.THREAD_ID = t.THREAD_ID AND "  \
	"w.END_EVENT_ID IS NULL WHERE t.TYPE = 'FOREGROUND' AND t.THREAD_OS_ID IS NOT NULL AND " \
	"t.PROCESSLIST_COMMAND NOT IN ('Sleep', 'Daemon') AND "                                  \
	"t.PROCESSLIST_ID <> CONNECTION_ID()"

/*
 * The SQL asks only for what is waiting or working now: PostgreSQL's active
 * backends other than the probe's own, MariaDB's foreground threads running
 * a command; a thread working with no wait event is labelled CPU, as
 * pg_stat_activity's users do.
 */

static const char *const psql_argv[] = {
	"psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", NULL,
};
static const char *const mariadb_argv[] = {
	"mariadb", "--batch", "--skip-column-names", "--connect-timeout=1", NULL,
};

static const struct {
	const char *name;
	enum probe_preset kind;
} presets[] = {
	{ "postgres", PRESET_POSTGRES },
	{ "mariadb", PRESET_MARIADB },
};

const char *
probe_preset_name(enum probe_preset kind)
{
	return kind == PRESET_POSTGRES ? "postgres" : kind == PRESET_MARIADB ? "mariadb" : "";
}

/* The preset text names, and its options (after the colon; "" when none). */
static enum probe_preset
preset_of(const char *text, const char **opts)
{
	size_t i, len;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		len = strlen(presets[i].name);
		if (strncmp(text, presets[i].name, len) != 0 ||
		    (text[len] != '\0' && text[len] != ':'))
			continue;
		*opts = text[len] == ':' ? text + len + 1 : "";
		return presets[i].kind;
	}
	return PRESET_NONE;
}

/* Appends to a NULL-terminated argv of cap slots; -1 without memory. */
static int
argv_add(char **v, size_t *n, const char *word)
{
	if ((v[*n] = strdup(word)) == NULL)
		return -1;
	(*n)++;
	v[*n] = NULL;
	return 0;
}

static int
argv_base(char **v, size_t *n, const char *const *base)
{
	for (; *base != NULL; base++) {
		if (argv_add(v, n, *base) != 0)
			return -1;
	}
	return 0;
}

/* psql's argv: the conninfo whole, as psql's -d takes it (a URI or key=value words). */
static int
preset_psql(const char *opts, char **v, size_t *n)
{
	if (argv_base(v, n, psql_argv) != 0 ||
	    (opts[0] != '\0' && (argv_add(v, n, "-d") != 0 || argv_add(v, n, opts) != 0)) ||
	    argv_add(v, n, "-c") != 0 || argv_add(v, n, PG_STATUS_SQL) != 0 ||
	    argv_add(v, n, "-c") != 0 || argv_add(v, n, PG_WAITS_SQL) != 0)
		return -1;
	return 0;
}

/*
 * mariadb's argv: the options split as --probe's commands are, first (the
 * client takes --no-defaults only as its first option), then the preset's.
 */
static int
preset_mariadb(char **opt, char **v, size_t *n)
{
	size_t i;

	if (argv_add(v, n, mariadb_argv[0]) != 0)
		return -1;
	for (i = 0; opt != NULL && opt[i] != NULL; i++) {
		if (argv_add(v, n, opt[i]) != 0)
			return -1;
	}
	return argv_base(v, n, mariadb_argv + 1) != 0 || argv_add(v, n, "-e") != 0 ||
			       argv_add(v, n, MARIADB_SQL) != 0
		       ? -1
		       : 0;
}

int
probe_preset_argv(const char *text, enum probe_preset *kind, char ***argv, char *err, size_t errlen)
{
	const char *opts = "";
	char **opt = NULL, **v;
	size_t n = 0, nopt = 0;
	int rc;

	*argv = NULL;
	if ((*kind = preset_of(text, &opts)) == PRESET_NONE)
		return 0;
	if (*kind == PRESET_MARIADB && strspn(opts, " \t") != strlen(opts) &&
	    cmdline_split(opts, &opt, err, errlen) != 0)
		return -1;
	while (opt != NULL && opt[nopt] != NULL)
		nopt++;
	if ((v = calloc(nopt + 16, sizeof(*v))) == NULL) {
		cmdline_free(opt);
		return st_error(err, errlen, "out of memory");
	}
	rc = *kind == PRESET_POSTGRES ? preset_psql(opts, v, &n) : preset_mariadb(opt, v, &n);
	cmdline_free(opt);
	if (rc != 0) {
		cmdline_free(v);
		return st_error(err, errlen, "out of memory");
	}
	*argv = v;
	return 0;
}

/* The value of key=VALUE among the status line's words; "" when absent. */
static void
status_value(const char *line, const char *key, char *buf, size_t len)
{
	const char *p = line;
	size_t klen = strlen(key), n;

	buf[0] = '\0';
	while ((p = strstr(p, key)) != NULL) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			n = strcspn(p, " \t");
			snprintf(buf, len, "%.*s", (int)n, p);
			return;
		}
		p += klen;
	}
}

static int
status_postgres(const char *line, char *msg, size_t len)
{
	char v[16];

	status_value(line, "track_activities", v, sizeof(v));
	if (strcmp(v, "on") == 0)
		return 0;
	if (strcmp(v, "off") != 0)
		return -1;
	snprintf(msg, len,
		 "found track_activities off, so pg_stat_activity names no wait: set "
		 "track_activities = on in postgresql.conf (or ALTER SYSTEM) and reload");
	return 1;
}

static int
status_mariadb(const char *line, char *msg, size_t len)
{
	char ps[8], consumer[8], inst[16];

	status_value(line, "performance_schema", ps, sizeof(ps));
	status_value(line, "consumer", consumer, sizeof(consumer));
	status_value(line, "instruments", inst, sizeof(inst));
	if (ps[0] == '\0' || consumer[0] == '\0' || inst[0] == '\0')
		return -1;
	if (strcmp(ps, "0") == 0 || strcmp(ps, "OFF") == 0)
		snprintf(msg, len,
			 "found performance_schema OFF: start mariadbd with "
			 "--performance-schema=ON (my.cnf: performance_schema=ON), "
			 "--performance-schema-consumer-events-waits-current=ON and "
			 "--performance-schema-instrument='wait/synch/%%=ON'");
	else if (strcmp(consumer, "YES") != 0)
		snprintf(msg, len,
			 "found the events_waits_current consumer off: start mariadbd with "
			 "--performance-schema-consumer-events-waits-current=ON, or UPDATE "
			 "performance_schema.setup_consumers SET ENABLED='YES' for it");
	else if (strcmp(inst, "0") == 0)
		snprintf(msg, len,
			 "found no wait/synch instrument on: start mariadbd with "
			 "--performance-schema-instrument='wait/synch/%%=ON', or UPDATE "
			 "performance_schema.setup_instruments SET ENABLED='YES' for them");
	else
		return 0;
	return 1;
}

int
probe_preset_status(enum probe_preset kind, const char *line, char *msg, size_t len)
{
	msg[0] = '\0';
	if (kind == PRESET_POSTGRES)
		return status_postgres(line, msg, len);
	if (kind == PRESET_MARIADB)
		return status_mariadb(line, msg, len);
	return -1;
}
