/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/workload/: the parser object's constructor, which the
 * registry (parse.c) calls with the init of the kind it found by name.
 */
#ifndef SCALETOP_WORKLOAD_PARSER_H
#define SCALETOP_WORKLOAD_PARSER_H

#include <stddef.h>

#include "scaletop/parse.h"

/* A parser's kind: sets the hooks and state of impl from arg; 0, or -1 and a message. */
typedef int (*parser_init_fn)(struct parser_impl *impl, const char *arg, char *err, size_t errlen);

/*
 * A new parser called name (a string that outlives it), set up by init.
 * NULL with a message in err when init refuses arg or memory runs out.
 */
struct parser *parser_create(const char *name, parser_init_fn init, const char *arg, char *err,
			     size_t errlen);

#endif
