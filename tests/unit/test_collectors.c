/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The collector table (measures.h): every entry named, once; the frequency
 * range's section written and read back as it was, through a whole step
 * too; a step with a section nobody knows still loads; its report lines.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/measures.h"
#include "scaletop/session_json.h"
#include "../../src/store/session_read.h"
#include "../tap.h"

static int
find(const char *key)
{
	int i;

	for (i = 0; i < ncollectors; i++) {
		if (strcmp(collectors[i]->key, key) == 0)
			return i;
	}
	return -1;
}

static void
test_keys(void)
{
	int i, j, dup = 0, unnamed = 0;

	ok(ncollectors > 0 && ncollectors <= COLLECTORS_MAX, "%d collectors, at most %d",
	   ncollectors, COLLECTORS_MAX);
	for (i = 0; i < ncollectors; i++) {
		unnamed += collectors[i]->key == NULL || collectors[i]->key[0] == '\0';
		for (j = 0; j < i && collectors[i]->key != NULL; j++)
			dup += strcmp(collectors[i]->key, collectors[j]->key) == 0;
	}
	is_int(unnamed, 0, "every collector has a key");
	is_int(dup, 0, "no two share one");
	for (i = 0; i < ncollectors; i++) {
		if ((collectors[i]->write == NULL) != (collectors[i]->read == NULL))
			diag("%s writes without reading, or reads without writing",
			     collectors[i]->key);
		ok((collectors[i]->write == NULL) == (collectors[i]->read == NULL),
		   "%s: a writer has its reader", collectors[i]->key);
	}
}

/* text read into a slot by collector k, then written again: the same JSON text. */
static void
round_trip(const struct collector *k, const char *text, const char *want, const char *name)
{
	struct step st;
	char err[256] = "";
	struct field_ctx f = { "t.json", err, sizeof(err), false, 0, 0 };
	json_t *in = text != NULL ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL, *out;
	char *got = NULL;

	memset(&st, 0, sizeof(st));
	if (!ok(k->read(&f, in, "steps[0].x", &st, &st.slot[0]) == 0, "%s: read", name))
		diag("%s", err);
	out = k->write(&st, &st.slot[0]);
	if (out != NULL)
		got = json_dumps(out, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
	is_str(got != NULL ? got : "(nothing)", want, name);
	free(got);
	json_decref(out);
	json_decref(in);
	step_slots_free(&st);
}

static void
test_freq_range_json(int i)
{
	const struct collector *k = collectors[i];
	struct step st;
	char err[256] = "";
	struct field_ctx f = { "t.json", err, sizeof(err), false, 0, 0 };
	json_t *bad = json_pack("{s:f, s:f}", "min_mhz", 3000.0, "max_mhz", 1200.0);

	round_trip(k, "{\"min_mhz\": 1200.5, \"max_mhz\": 3400.25}",
		   "{\"max_mhz\":3400.25,\"min_mhz\":1200.5}", "a range comes back the same");
	round_trip(k, "null", "null", "null (the OS did not say) comes back null");
	round_trip(k, NULL, "(nothing)", "absent (not measured) writes nothing");
	memset(&st, 0, sizeof(st));
	ok(k->read(&f, bad, "steps[0].freq_range", &st, &st.slot[0]) != 0 &&
		   strchr(err, '\n') == NULL && strstr(err, "steps[0].freq_range.max_mhz") != NULL,
	   "a range whose max is below its min is refused in one line: %s", err);
	step_slots_free(&st);
	json_decref(bad);
}

/* A whole step through session_json_step and session_read_step. */
static json_t *
step_json(struct session *s, int slot, double lo, double hi)
{
	struct step *st;
	json_t *j;

	session_init(s);
	st = session_add_step(s, 4, 0);
	st->status = STEP_OK;
	st->window_s = 1;
	st->ops = 100;
	st->ops_s = 100;
	if (lo > 0) {
		struct field_ctx f = { "t.json", NULL, 0, false, 0, 0 };
		json_t *v = json_pack("{s:f, s:f}", "min_mhz", lo, "max_mhz", hi);

		collectors[slot]->read(&f, v, "x", st, &st->slot[slot]);
		json_decref(v);
	}
	j = session_json_step(s, st);
	return j;
}

static void
test_step(int slot)
{
	struct session s;
	struct step back;
	char err[256] = "";
	struct field_ctx f = { "t.json", err, sizeof(err), false, 0, 0 };
	json_t *j = step_json(&s, slot, 800, 2400), *again;
	char *a = NULL, *b = NULL;

	if (!ok(j != NULL && json_object_get(j, "freq_range") != NULL,
		"a step with a range writes freq_range"))
		return;
	json_object_set_new(j, "zz_newer_measure", json_pack("{s:i}", "x", 1));
	if (!ok(session_read_step(&f, j, "steps[0]", &back) == 0,
		"a step with a key no reader knows loads"))
		diag("%s", err);
	again = session_json_step(&s, &back);
	json_object_del(j, "zz_newer_measure");
	if (again != NULL) {
		a = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
		b = json_dumps(again, JSON_SORT_KEYS | JSON_COMPACT);
	}
	ok(a != NULL && b != NULL && strcmp(a, b) == 0, "and writes back as it was, range and all");
	free(a);
	free(b);
	json_decref(again);
	json_decref(j);
	step_free(&back);
	session_free(&s);
}

/* A stream into buf, which is empty until written. */
static FILE *
mem_open(char *buf, size_t len)
{
	memset(buf, 0, len);
	return fmemopen(buf, len, "w");
}

/* The report lines: one after the table with a range; in compare when ranges differ. */
static void
test_reports(int slot)
{
	struct session a, b, c, none;
	const struct session *v[2];
	char buf[512];
	FILE *f;

	json_decref(step_json(&a, slot, 800, 2400));
	json_decref(step_json(&b, slot, 810, 2390));
	json_decref(step_json(&c, slot, 800, 3400));
	json_decref(step_json(&none, slot, -1, -1));
	f = mem_open(buf, sizeof(buf));
	collectors[slot]->table(f, &a, slot);
	collectors[slot]->table(f, &none, slot);
	fclose(f);
	ok(strstr(buf, "N=4 800-2400") != NULL && strchr(buf, '\n') == strrchr(buf, '\n'),
	   "the table says the range, and nothing for a session without one: %s", buf);
	v[0] = &a;
	v[1] = &b;
	f = mem_open(buf, sizeof(buf));
	collectors[slot]->compare(f, v, 2, slot);
	fclose(f);
	is_str(buf, "", "compare says nothing when the ranges agree within 5%");
	v[1] = &none;
	f = mem_open(buf, sizeof(buf));
	collectors[slot]->compare(f, v, 2, slot);
	fclose(f);
	ok(buf[0] == '\0', "nor when one side has none to compare");
	v[1] = &c;
	f = mem_open(buf, sizeof(buf));
	collectors[slot]->compare(f, v, 2, slot);
	fclose(f);
	ok(strstr(buf, "A 800-2400 B 800-3400") != NULL, "and a line when they differ");
	session_free(&c);
	session_free(&a);
	session_free(&b);
	session_free(&none);
}

/* A collector whose figures live in the step (st->others): its section and table lines. */
static void
test_others(int i)
{
	const struct collector *k = collectors[i];
	static const char *const one =
		"{\"cpus\":1.5,\"named_cpus\":1.25,\"top\":[{\"comm\":\"cc1\",\"cpus\":1.25,"
		"\"pids\":[41,42],\"procs\":3}]}";
	char err[256] = "", buf[512];
	struct field_ctx f = { "t.json", err, sizeof(err), false, 0, 0 };
	struct session s;
	struct step *st;
	json_t *v;
	FILE *out;

	round_trip(k, one, one, "others: a step's section comes back the same");
	round_trip(k, "null", "(nothing)", "others: null (not measured) writes nothing");
	session_init(&s);
	st = session_add_step(&s, 2, 0);
	v = json_loads(one, 0, NULL);
	if (!ok(st != NULL && k->read(&f, v, "steps[0].others", st, &st->slot[i]) == 0 &&
			st->others.known && st->others.ntop == 1 && st->others.top[0].npid == 2,
		"others: read into the step's own field, where the analysis reads it"))
		diag("%s", err);
	json_decref(v);
	out = mem_open(buf, sizeof(buf));
	k->table(out, &s, i);
	fclose(out);
	ok(strstr(buf, "others:") == buf && strstr(buf, "N=2    1.50 CPUs: cc1") != NULL,
	   "others: the table's section: %s", buf);
	v = json_pack("{s:f, s:f, s:[{s:s, s:i, s:[i], s:f}, {s:s, s:i, s:[i], s:f}]}", "cpus", 2.0,
		      "named_cpus", 2.0, "top", "comm", "a", "procs", 1, "pids", 7, "cpus", 0.5,
		      "comm", "b", "procs", 1, "pids", 8, "cpus", 1.5);
	ok(k->read(&f, v, "steps[0].others", st, &st->slot[i]) != 0 &&
		   strstr(err, "steps[0].others.top[1]") != NULL && strchr(err, '\n') == NULL,
	   "others: the busiest command not first is refused in one line: %s", err);
	json_decref(v);
	session_free(&s);
}

int
main(void)
{
	int fr;

	test_keys();
	fr = find("freq_range");
	if (!ok(fr >= 0, "the frequency range is in the table"))
		return done_testing();
	test_freq_range_json(fr);
	test_step(fr);
	test_reports(fr);
	if (ok(find("others") >= 0, "who else was on the CPUs is in the table"))
		test_others(find("others"));
	return done_testing();
}
