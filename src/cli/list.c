/* SPDX-License-Identifier: BSD-2-Clause */
/* scaletop list: the built-in workloads, their help and parameters. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "scaletop/run_args.h"
#include "scaletop/workload.h"

static const char *const param_type_names[] = { "int", "size", "choice", "path" };

static void
list_param(const struct wl_param *p)
{
	char range[128] = "";
	int i;

	if (p->type == WP_INT || p->type == WP_SIZE) {
		snprintf(range, sizeof(range), "%lld..%lld", p->min, p->max);
	} else if (p->type == WP_ENUM) {
		for (i = 0; p->choices[i] != NULL; i++) {
			strncat(range, i ? "|" : "", sizeof(range) - strlen(range) - 1);
			strncat(range, p->choices[i], sizeof(range) - strlen(range) - 1);
		}
	}
	printf("    %-12s %-6s default %-10s %-22s %s\n", p->name, param_type_names[p->type],
	       p->def, range, p->help);
}

/* Prints a paragraph wrapped at 76 columns with an indent. */
static void
list_wrap(const char *text, int indent)
{
	const char *p = text;
	int col = indent;

	printf("%*s", indent, "");
	while (*p != '\0') {
		size_t w = strcspn(p, " \n");

		if (col > indent && col + (int)w > 76) {
			printf("\n%*s", indent, "");
			col = indent;
		}
		printf("%.*s", (int)w, p);
		col += (int)w;
		p += w;
		if (*p != '\0') {
			p++;
			if (col > indent) {
				putchar(' ');
				col++;
			}
		}
	}
	putchar('\n');
}

static void
list_usage(FILE *f)
{
	fprintf(f,
		"usage: %s list [-v]\n"
		"       %s list topo [--root DIR | --topology-spec FILE]\n\n"
		"The built-in workloads ('%s run -w NAME'), what each counts, and their\n"
		"parameters ('-p KEY=VALUE') with their types, defaults and ranges; then\n"
		"the parsers of an external command's output ('--cmd' with '--parse'), and\n"
		"what '-n topo', the default N list, gives on this machine.\n\n"
		"'list topo': the machine's CPU topology, the N at which each of its levels\n"
		"is full (one core's SMT threads, one LLC, one NUMA node, one socket, every\n"
		"core, every CPU) and the N list '-n topo' gives.\n\n"
		"  -v, --verbose         also describe each workload in a paragraph\n"
		"  --root DIR            list topo: read a recorded Linux tree,\n"
		"                        DIR/sys/devices/system\n"
		"  --topology-spec FILE  list topo: read FreeBSD's\n"
		"                        'sysctl -n kern.sched.topology_spec'\n"
		"  -h, --help            this help\n",
		progname, progname, progname);
}

/* What list was asked: -v, or topo and where to read it. */
struct list_opts {
	bool verbose, topo;
	const char *root, *spec;
};

/* 0 to list, -1 after the help, or EXIT_USAGE after the message. */
static int
list_args(int argc, char **argv, struct list_opts *o)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "root", required_argument, NULL, 'r' },
		{ "topology-spec", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		if (opt == 'h') {
			list_usage(stdout);
			return -1;
		}
		if (opt == 'v')
			o->verbose = true;
		else if (opt == 'r' || opt == 's')
			*(opt == 'r' ? &o->root : &o->spec) = optarg;
		else
			return arg_usage_error("list", "unknown option '%s': see '%s list --help'",
					       argv[optind - 1], progname);
	}
	o->topo = optind < argc && strcmp(argv[optind], "topo") == 0;
	if (optind + o->topo != argc)
		return arg_usage_error("list", "unexpected argument '%s': give -v, or topo",
				       argv[optind + o->topo]);
	if (o->root != NULL && o->spec != NULL)
		return arg_usage_error("list", "give at most one of --root DIR and "
					       "--topology-spec FILE");
	if ((o->root != NULL || o->spec != NULL) && !o->topo)
		return arg_usage_error("list", "--root and --topology-spec go with 'list topo'");
	return 0;
}

int
cmd_list(int argc, char **argv)
{
	char parsers[128], err[ST_ERRLEN], topo[512];
	struct list_opts o;
	struct nlist nl;
	int i, j, rc;

	if ((rc = list_args(argc, argv, &o)) != 0)
		return rc < 0 ? 0 : rc;
	if (o.topo)
		return list_topo(o.root, o.spec);
	for (i = 0; workloads[i] != NULL; i++) {
		const struct workload *wl = workloads[i];

		printf("%-10s %s (counts %s)\n", wl->name, wl->summary, wl->unit);
		if (o.verbose)
			list_wrap(wl->help, 4);
		for (j = 0; j < wl->nparams; j++)
			list_param(&wl->params[j]);
	}
	run_parse_choices(parsers, sizeof(parsers), "|", "|", false);
	printf("\nexternal commands: --cmd 'COMMAND' with --parse %s or --parse-regex 'RE',\n"
	       "or --parse elapsed to time each run\n",
	       parsers);
	if (run_nlist(&nl, NULL, err, sizeof(err)) == 0)
		printf("\n-n topo, the default N list, on this machine: %s\n(the topology's "
		       "boundaries, 2x and 4x the CPUs, and powers of two; '%s list topo')\n",
		       nlist_format(&nl, topo, sizeof(topo)), progname);
	nlist_free(&nl);
	return 0;
}
