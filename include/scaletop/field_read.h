/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading one member of a snapshot or a stream record, its type and range
 * checked and a refusal said in one line (field_read.c): the store's
 * readers and the measures' (collector.h) read through it alike.
 */
#ifndef SCALETOP_FIELD_READ_H
#define SCALETOP_FIELD_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define F_OBJ 0x01
#define F_ARR 0x02
#define F_STR 0x04
#define F_INT 0x08
#define F_NUM 0x10 /* integer or real */
#define F_BOOL 0x20
#define F_NULL 0x40

/*
 * Where messages go, and what they name: a snapshot's file ("x.json:
 * steps[2].ops_s: why"), or one record of a stream ("step: ops_s: why",
 * which the stream reader puts after "x.jsonl: line 4: ").  A NULL name
 * leaves the prefix out.  In a record, a member that is missing is named
 * as the stream always named it: 'step: "n" is missing; expected ...'.
 */
struct field_ctx {
	const char *name;
	char *err;
	size_t errlen;
	bool record;
	/*
	 * What a snapshot's reader set aside to read it (snapshot_read.c): a
	 * reference to a step the file does not hold, which older TUIs wrote.
	 */
	int ticks_dropped;  /* ticks naming such a step, dropped */
	int events_unbound; /* events naming one, read as no step's */
};

/* "path.key" (or "key" at the top), and "path.key[i]". */
void field_path(char *buf, size_t len, const char *path, const char *key);
void field_index(char *buf, size_t len, const char *path, size_t i);

/* Always -1, after "name: path: " and the formatted reason. */
int field_fail(struct field_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* obj[key] when its type is in types; NULL after a message when missing or not. */
json_t *field_get(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
		  unsigned types);
/*
 * The array v, at path, holds lo to hi items, called what in the message
 * ("12 frames; expected at most 8"): 0, or -1 after the message.
 */
int field_count(struct field_ctx *c, const json_t *v, const char *path, size_t lo, size_t hi,
		const char *what);
/* obj[key] as an array of lo to hi items; NULL after a message when it is not. */
json_t *field_array(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
		    size_t lo, size_t hi, const char *what);
/* field_array, with the array's own path written into at, for its items' messages. */
json_t *field_array_at(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
		       size_t lo, size_t hi, const char *what, char *at, size_t atlen);
/* A type check of v itself (path names it). */
int field_type(struct field_ctx *c, const json_t *v, const char *path, unsigned types);

/* A number in [min, max]; with F_NULL in nullable, null gives NaN. */
int field_num(struct field_ctx *c, const json_t *obj, const char *path, const char *key, double min,
	      double max, unsigned nullable, double *out);
/* The same for v itself. */
int field_num_of(struct field_ctx *c, const json_t *v, const char *path, double min, double max,
		 unsigned nullable, double *out);
/* An integer in [min, max]; null (when allowed) gives dflt. */
int field_int(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	      long long min, long long max, unsigned nullable, long long dflt, long long *out);
/* A string shorter than size, into buf; null (when allowed) gives "". */
int field_str(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	      unsigned nullable, char *buf, size_t size);
/* The same for v itself. */
int field_str_of(struct field_ctx *c, const json_t *v, const char *path, unsigned nullable,
		 char *buf, size_t size);
int field_bool(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	       bool *out);
/* field_str, and it must be an ISO-8601 UTC time as the writer makes ("" when null). */
int field_utc(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	      unsigned nullable, char *buf, size_t size);
/* One of names[0..n-1]: its index. */
int field_enum(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	       const char *const *names, int n, int *out);

#endif
