/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop list topo: the machine's topology, its boundaries and what -n topo
 * expands to, here or from a recorded Linux sysfs tree (--root DIR) or a
 * FreeBSD kern.sched.topology_spec (--topology-spec FILE).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scaletop/argparse.h"
#include "scaletop/decode_host.h"
#include "scaletop/error.h"
#include "scaletop/files.h"
#include "scaletop/host.h"
#include "scaletop/nlist.h"

#define SPEC_MAX (4u << 20)

static void
topo_usage(FILE *f)
{
	fprintf(f,
		"usage: %s list topo [--root DIR | --topology-spec FILE]\n\n"
		"The machine's CPU topology, the N at which each of its levels is full (one\n"
		"core's SMT threads, one LLC, one NUMA node, one socket, every core, every\n"
		"CPU) and the N list '-n topo' gives.\n\n"
		"  --root DIR            read a recorded Linux tree, DIR/sys/devices/system\n"
		"  --topology-spec FILE  read FreeBSD's 'sysctl -n kern.sched.topology_spec'\n"
		"  -h, --help            this help\n",
		progname);
}

/* A FreeBSD topology_spec saved in a file. */
static int
topo_from_spec(const char *path, struct topology *t, char *err, size_t errlen)
{
	char *buf;
	size_t len;

	if (file_read_all(path, SPEC_MAX, &buf, &len) != 0)
		return st_error(err, errlen,
				"--topology-spec '%s': %s; give a file holding "
				"'sysctl -n kern.sched.topology_spec'",
				path, strerror(errno));
	if (topology_spec_decode(buf, len, t) != 0) {
		free(buf);
		return st_error(err, errlen,
				"--topology-spec '%s': not kern.sched.topology_spec's XML "
				"(<groups> of <group> with <cpu> lists); give that sysctl's text",
				path);
	}
	free(buf);
	return 0;
}

static void
topo_print(const struct topology *t)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	char line[512], err[ST_ERRLEN];
	struct nlist nl;
	int nm = topology_marks(t, m, TOPO_MAX_MARKS), i;

	printf("topology: %s", topology_summary(t, line, sizeof(line)));
	printf("%s%s%s\n", t->source[0] ? " (" : "", t->source, t->source[0] ? ")" : "");
	for (i = 0; i < nm; i++)
		printf("  N=%-5d %s\n", m[i].n, m[i].what);
	if (nlist_parse_topo(&nl, "topo", t, err, sizeof(err)) == 0)
		printf("-n topo: %s\n", nlist_format(&nl, line, sizeof(line)));
	else
		printf("-n topo: not known here (%s)\n", err);
	nlist_free(&nl);
}

int
cmd_list_topo(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "topology-spec", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = NULL, *spec = NULL;
	char err[ST_ERRLEN];
	struct topology t;
	int opt, rc = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			topo_usage(stdout);
			return 0;
		}
		if (opt == 'r')
			root = optarg;
		else if (opt == 's')
			spec = optarg;
		else
			return arg_usage_error("list topo",
					       "unknown option '%s': see '%s list topo "
					       "--help'",
					       argv[optind - 1], progname);
	}
	if (optind != argc || (root != NULL && spec != NULL))
		return arg_usage_error("list topo", "give at most one of --root DIR and "
						    "--topology-spec FILE, and nothing else");
	if (root != NULL)
		rc = host_topology_read_root(root, &t, err, sizeof(err));
	else if (spec != NULL)
		rc = topo_from_spec(spec, &t, err, sizeof(err));
	else
		host_topology_read(&t);
	if (rc != 0)
		return arg_usage_error("list topo", "%s", err);
	topo_print(&t);
	return 0;
}
