/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop list topo: the machine's topology, its boundaries and what -n topo
 * expands to, here or from a recorded Linux sysfs tree (--root DIR) or a
 * FreeBSD kern.sched.topology_spec (--topology-spec FILE).
 */
#include <errno.h>
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
list_topo(const char *root, const char *spec)
{
	char err[ST_ERRLEN];
	struct topology t;
	int rc = 0;

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
