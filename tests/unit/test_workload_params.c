/* SPDX-License-Identifier: BSD-2-Clause */
/* The workload tables and the -p key=value parser: every parse path and every rejection. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/workload.h"
#include "../tap.h"

static const char *const expected_order[] = {
	"cpu",     "memory",  "mutex",    "spinlock",  "fileio",
	"fdshare", "fdtable", "unixsock", "pagefault", NULL,
};

static void
test_registry(void)
{
	int i;
	int n = 0;

	for (; workloads[n] != NULL; n++)
		;
	is_int(n, 9, "nine built-in workloads");
	for (i = 0; expected_order[i] != NULL && i < n; i++)
		is_str(workloads[i]->name, expected_order[i], "list order");
	for (i = 0; i < n; i++)
		ok(workload_find(workloads[i]->name) == workloads[i], "workload_find(%s)",
		   workloads[i]->name);
	ok(workload_find("nosuch") == NULL, "workload_find of an unknown name is NULL");
	ok(workload_find("") == NULL, "workload_find of \"\" is NULL");
	ok(workload_find(NULL) == NULL, "workload_find(NULL) is NULL");
	ok(workload_find("CPU") == NULL, "workload names are case-sensitive");
}

static void
test_enum_param(const struct workload *wl, int i, const struct wl_args *a)
{
	int k;
	const struct wl_param *p = &wl->params[i];
	int nc = 0, dup = 0;

	ok(p->choices != NULL && p->choices[0] != NULL, "%s.%s has choices", wl->name, p->name);
	for (; p->choices != NULL && p->choices[nc] != NULL; nc++) {
		for (k = 0; k < nc; k++)
			dup |= strcmp(p->choices[k], p->choices[nc]) == 0;
	}
	ok(!dup, "%s.%s choices are unique", wl->name, p->name);
	ok(a->v[i].i >= 0 && a->v[i].i < nc && strcmp(p->choices[a->v[i].i], p->def) == 0,
	   "%s.%s default %s is a choice", wl->name, p->name, p->def);
}

static void
test_param(const struct workload *wl, int i, const struct wl_args *a)
{
	int k;
	const struct wl_param *p = &wl->params[i];
	char kv[300], err[ST_ERRLEN] = "";
	struct wl_args b;
	int dup = 0;

	ok(p->name != NULL && p->name[0] != '\0' && strchr(p->name, '=') == NULL,
	   "%s param %d has a name", wl->name, i);
	for (k = 0; k < i; k++)
		dup |= strcmp(wl->params[k].name, p->name) == 0;
	ok(!dup, "%s.%s is unique", wl->name, p->name);
	ok(p->help != NULL && p->help[0] != '\0', "%s.%s has help", wl->name, p->name);
	ok(p->def != NULL, "%s.%s has a default", wl->name, p->name);
	is_int(wl_param_index(wl, p->name), i, "wl_param_index finds it");
	is_str(a->text[i], p->def, "default text kept");
	ok(!a->set[i], "%s.%s not marked as set by the user", wl->name, p->name);
	switch (p->type) {
	case WP_INT:
	case WP_SIZE:
		ok(p->min <= p->max, "%s.%s range is ordered", wl->name, p->name);
		ok(a->v[i].i >= p->min && a->v[i].i <= p->max, "%s.%s default %s in %lld..%lld",
		   wl->name, p->name, p->def, p->min, p->max);
		break;
	case WP_ENUM:
		test_enum_param(wl, i, a);
		break;
	case WP_PATH:
		ok(a->v[i].s == a->text[i], "%s.%s path points at the args' own text", wl->name,
		   p->name);
		break;
	}
	/* The default, typed by a user, is accepted through the public path too. */
	wl_args_defaults(&b, wl);
	snprintf(kv, sizeof(kv), "%s=%s", p->name, p->def);
	if (!ok(wl_args_set(&b, kv, err, sizeof(err)) == 0, "-p %s accepted", kv))
		diag("%s", err);
}

static void
test_tables(void)
{
	int n;
	int k;
	int i;
	struct wl_args a;

	for (n = 0; workloads[n] != NULL; n++) {
		const struct workload *wl = workloads[n];
		int dup = 0;

		for (k = 0; k < n; k++)
			dup |= strcmp(workloads[k]->name, wl->name) == 0;
		ok(wl->name != NULL && wl->name[0] != '\0' && !dup, "%s: unique name", wl->name);
		ok(wl->unit != NULL && wl->unit[0] != '\0', "%s: has a unit", wl->name);
		ok(wl->summary != NULL && wl->summary[0] != '\0', "%s: has a summary", wl->name);
		ok(wl->help != NULL && strlen(wl->help) > 200, "%s: help is a paragraph", wl->name);
		ok(wl->work != NULL, "%s: has a work function", wl->name);
		ok(wl->nparams >= 1 && wl->nparams <= WL_MAX_PARAMS, "%s: 1..%d params", wl->name,
		   WL_MAX_PARAMS);
		ok(!(wl->flags & WL_LOCK_WAIT) || wl->shared_size > 0,
		   "%s: a lock workload has shared state", wl->name);
		wl_args_defaults(&a, wl);
		ok(a.wl == wl, "%s: defaults name their workload", wl->name);
		for (i = 0; i < wl->nparams && i < WL_MAX_PARAMS; i++)
			test_param(wl, i, &a);
		is_int(wl_param_index(wl, "nosuch"), -1, "wl_param_index of an unknown key");
	}
}

/* Sets kv on a fresh copy of wl's defaults and expects rejection with exactly want. */
static void
rejects(const char *wl_name, const char *kv, const char *want)
{
	const struct workload *wl = workload_find(wl_name);
	char err[ST_ERRLEN] = "", name[400];
	struct wl_args a;

	snprintf(name, sizeof(name), "%s: -p %.300s rejected", wl_name, kv);
	wl_args_defaults(&a, wl);
	ok(wl_args_set(&a, kv, err, sizeof(err)) == -1, "%s", name);
	is_str(err, want, "  with the message");
	ok(strchr(err, '\n') == NULL, "  on one line");
}

/* Sets kv and expects the integer value want. */
static void
accepts(struct wl_args *a, const char *kv, long long want)
{
	const char *eq = strchr(kv, '=');
	char err[ST_ERRLEN] = "", key[64];
	int i;

	snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - kv) : 0, kv);
	i = wl_param_index(a->wl, key);
	if (!ok(wl_args_set(a, kv, err, sizeof(err)) == 0, "%s: -p %s accepted", a->wl->name, kv))
		diag("%s", err);
	if (i >= 0 && eq != NULL) {
		is_int(a->v[i].i, want, "  value");
		is_str(a->text[i], eq + 1, "  text as given");
		ok(a->set[i], "  marked as set");
	}
}

static void
test_int(void)
{
	const struct workload *wl = workload_find("mutex");
	int hold = wl_param_index(wl, "hold"), think = wl_param_index(wl, "think");
	char err[ST_ERRLEN];
	struct wl_args a;

	wl_args_defaults(&a, wl);
	accepts(&a, "hold=250", 250);
	ok(!a.set[think], "other keys stay unset");
	accepts(&a, "hold=0", 0);
	accepts(&a, "hold=1000000", 1000000);
	accepts(&a, "hold=+7", 7);
	accepts(&a, "hold=007", 7);
	ok(wl_args_set(&a, "hold=-3", err, sizeof(err)) == -1, "rejected value...");
	is_int(a.v[hold].i, 7, "  leaves the value as it was");
	is_str(a.text[hold], "007", "  and its text");

	rejects("mutex", "hold=-3",
		"workload mutex: hold=-3 is out of range (0..1000000): give a whole number of "
		"hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold=1000001",
		"workload mutex: hold=1000001 is out of range (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold=99999999999999999999",
		"workload mutex: hold=99999999999999999999 is out of range (0..1000000): give a "
		"whole number of hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold=abc",
		"workload mutex: hold=abc is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
	rejects("mutex", "think=",
		"workload mutex: think= is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds outside the lock per operation");
	rejects("mutex", "hold=12x",
		"workload mutex: hold=12x is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold= 5",
		"workload mutex: hold= 5 is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold=0x10",
		"workload mutex: hold=0x10 is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold=1.5",
		"workload mutex: hold=1.5 is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold=5=6",
		"workload mutex: hold=5=6 is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
	rejects("mutex", "hold=-",
		"workload mutex: hold=- is not a whole number (0..1000000): give a whole number "
		"of hash-mix rounds inside the lock per operation");
}

static void
test_size(void)
{
	struct wl_args a;

	wl_args_defaults(&a, workload_find("memory"));
	is_int(a.v[0].i, 64LL << 20, "memory size default 64M is 64 MiB");
	accepts(&a, "size=8k", 8192);
	accepts(&a, "size=8K", 8192);
	accepts(&a, "size=1m", 1LL << 20);
	accepts(&a, "size=3M", 3LL << 20);
	accepts(&a, "size=1g", 1LL << 30);
	accepts(&a, "size=16G", 16LL << 30);
	accepts(&a, "size=65536", 65536);
	accepts(&a, "size=8192", 8192);

	rejects("memory", "size=4K",
		"workload memory: size=4K is out of range (8K..16G): give a size in that range, "
		"e.g. 64M");
	rejects("memory", "size=8191",
		"workload memory: size=8191 is out of range (8K..16G): give a size in that range, "
		"e.g. 64M");
	rejects("memory", "size=17G",
		"workload memory: size=17G is out of range (8K..16G): give a size in that range, "
		"e.g. 64M");
	rejects("memory", "size=9999999999G",
		"workload memory: size=9999999999G is out of range (8K..16G): give a size in that "
		"range, e.g. 64M");
	rejects("memory", "size=99999999999999999999",
		"workload memory: size=99999999999999999999 is out of range (8K..16G): give a "
		"size in that range, e.g. 64M");
	rejects("memory", "size=1.5M",
		"workload memory: size=1.5M is not a size (8K..16G): give a whole number of bytes "
		"with an optional K, M or G suffix (powers of 1024), e.g. 64M");
	rejects("memory", "size=64MB",
		"workload memory: size=64MB is not a size (8K..16G): give a whole number of bytes "
		"with an optional K, M or G suffix (powers of 1024), e.g. 64M");
	rejects("memory", "size=5x",
		"workload memory: size=5x is not a size (8K..16G): give a whole number of bytes "
		"with an optional K, M or G suffix (powers of 1024), e.g. 64M");
	rejects("memory", "size=M",
		"workload memory: size=M is not a size (8K..16G): give a whole number of bytes "
		"with an optional K, M or G suffix (powers of 1024), e.g. 64M");
	rejects("memory", "size=-8K",
		"workload memory: size=-8K is not a size (8K..16G): give a whole number of bytes "
		"with an optional K, M or G suffix (powers of 1024), e.g. 64M");
	rejects("memory", "size=",
		"workload memory: size= is not a size (8K..16G): give a whole number of bytes "
		"with an optional K, M or G suffix (powers of 1024), e.g. 64M");
	rejects("memory", "size=1T",
		"workload memory: size=1T is not a size (8K..16G): give a whole number of bytes "
		"with an optional K, M or G suffix (powers of 1024), e.g. 64M");
}

/* A table with the widest ranges, to reach the overflow edges. */
static const struct wl_param edge_params[] = {
	{ "big", WP_SIZE, "0", 0, LLONG_MAX, NULL, "bytes" },
	{ "any", WP_INT, "0", LLONG_MIN, LLONG_MAX, NULL, "units" },
	{ "odd", WP_SIZE, "1000", 1000, (3LL << 20) + 1, NULL, "bytes" },
};
static const struct workload edge_wl = {
	.name = "edge",
	.unit = "ops",
	.summary = "s",
	.help = "h",
	.params = edge_params,
	.nparams = 3,
};
static const struct workload bare_wl = {
	.name = "bare",
	.unit = "ops",
	.summary = "s",
	.help = "h",
};

static void
edge_rejects(const struct workload *wl, const char *kv, const char *want)
{
	char err[ST_ERRLEN] = "";
	struct wl_args a;

	wl_args_defaults(&a, wl);
	ok(wl_args_set(&a, kv, err, sizeof(err)) == -1, "%s: -p %s rejected", wl->name, kv);
	is_str(err, want, "  with the message");
}

static void
test_edges(void)
{
	struct wl_args a;

	wl_args_defaults(&a, &edge_wl);
	accepts(&a, "big=9223372036854775807", LLONG_MAX);
	accepts(&a, "big=8589934591G", 8589934591LL << 30);
	accepts(&a, "any=-9223372036854775808", LLONG_MIN);
	accepts(&a, "any=9223372036854775807", LLONG_MAX);
	edge_rejects(&edge_wl, "big=9223372036854775808",
		     "workload edge: big=9223372036854775808 is out of range "
		     "(0..9223372036854775807): give a size in that range, e.g. 0");
	edge_rejects(&edge_wl, "big=8589934592G",
		     "workload edge: big=8589934592G is out of range (0..9223372036854775807): "
		     "give a size in that range, e.g. 0");
	edge_rejects(&edge_wl, "any=-9223372036854775809",
		     "workload edge: any=-9223372036854775809 is out of range "
		     "(-9223372036854775808..9223372036854775807): give a whole number of units");
	edge_rejects(&edge_wl, "odd=999",
		     "workload edge: odd=999 is out of range (1000..3145729): give a size in that "
		     "range, e.g. 1000");
	edge_rejects(&bare_wl, "x=1", "workload bare: -p x=1: this workload takes no parameters");
}

static void
test_enum(void)
{
	const struct workload *wl = workload_find("spinlock");
	struct wl_args a;

	wl_args_defaults(&a, wl);
	accepts(&a, "kind=tas", 0);
	accepts(&a, "kind=ttas", 1);
	accepts(&a, "kind=ticket", 2);
	rejects("spinlock", "kind=TAS",
		"workload spinlock: kind=TAS is not a choice (tas, ttas, ticket): pick one of "
		"those");
	rejects("spinlock", "kind=mcs",
		"workload spinlock: kind=mcs is not a choice (tas, ttas, ticket): pick one of "
		"those");
	rejects("spinlock", "kind=",
		"workload spinlock: kind= is not a choice (tas, ttas, ticket): pick one of those");
	rejects("fdshare", "op=read",
		"workload fdshare: op=read is not a choice (dup, pread, fstat, mix): pick one of "
		"those");
	rejects("fdtable", "kind=close",
		"workload fdtable: kind=close is not a choice (open, dup, socketpair): pick one "
		"of those");
	rejects("fdtable", "kinds=open",
		"workload fdtable: kinds=open is not a parameter (kind, dir): use one of those");
}

static void
test_path(void)
{
	const struct workload *wl = workload_find("fileio");
	int dir = wl_param_index(wl, "dir");
	char err[ST_ERRLEN] = "", kv[320];
	struct wl_args a;

	wl_args_defaults(&a, wl);
	is_str(a.v[dir].s, "", "fileio dir defaults to empty (a temp dir)");
	ok(wl_args_set(&a, "dir=/var/tmp/x y", err, sizeof(err)) == 0, "path accepted");
	is_str(a.v[dir].s, "/var/tmp/x y", "  kept as text");
	ok(a.v[dir].s == a.text[dir] && a.set[dir], "  in the args' own storage, marked set");
	ok(wl_args_set(&a, "dir=/a=b", err, sizeof(err)) == 0, "path with '=' accepted");
	is_str(a.v[dir].s, "/a=b", "  split at the first '='");
	ok(wl_args_set(&a, "dir=", err, sizeof(err)) == 0, "empty path accepted");
	is_str(a.v[dir].s, "", "  back to the default temp dir");

	memset(kv, 'x', sizeof(kv));
	memcpy(kv, "dir=/", 5);
	kv[4 + 300] = '\0';
	rejects("fileio", kv,
		"workload fileio: dir= value is too long (300 characters, 255 at most): give a "
		"shorter one");
	kv[4 + 255] = '\0';
	ok(wl_args_set(&a, kv, err, sizeof(err)) == 0, "a 255-character path fits");
	is_int((long long)strlen(a.v[dir].s), 255, "  whole");
}

static void
test_keys(void)
{
	char err[ST_ERRLEN] = "", longkey[200];
	struct wl_args a;

	rejects("mutex", "hold",
		"workload mutex: -p hold is not key=value: write e.g. -p hold=100 (keys: hold, "
		"think, waitsample)");
	rejects("mutex", "bogus=1",
		"workload mutex: bogus=1 is not a parameter (hold, think, waitsample): use one of "
		"those");
	rejects("mutex", "=5",
		"workload mutex: =5 is not a parameter (hold, think, waitsample): use one of "
		"those");
	rejects("mutex", "Hold=5",
		"workload mutex: Hold=5 is not a parameter (hold, think, waitsample): use one of "
		"those");
	memset(longkey, 'h', sizeof(longkey));
	memcpy(longkey + 150, "=1", 3);
	wl_args_defaults(&a, workload_find("mutex"));
	ok(wl_args_set(&a, longkey, err, sizeof(err)) == -1 &&
		   strstr(err, "is not a parameter") != NULL,
	   "an over-long key is an unknown parameter");

	memset(&a, 0, sizeof(a));
	ok(wl_args_set(&a, "hold=1", err, sizeof(err)) == -1, "args without a workload rejected");
	is_str(err, "-p hold=1: no workload chosen: name the workload first", "  with the message");
	wl_args_defaults(&a, workload_find("mutex"));
	ok(wl_args_set(&a, "hold=x", NULL, 0) == -1, "a NULL message buffer is allowed");
	ok(wl_args_set(&a, "hold=x", err, 8) == -1 && strlen(err) == 7,
	   "a short buffer is truncated, not overrun");
}

int
main(void)
{
	test_registry();
	test_tables();
	test_int();
	test_size();
	test_edges();
	test_enum();
	test_path();
	test_keys();
	return done_testing();
}
