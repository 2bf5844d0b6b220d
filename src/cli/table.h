#ifndef SCALETOP_CLI_TABLE_H
#define SCALETOP_CLI_TABLE_H

#include <stdio.h>

#include "scaletop/session.h"

void table_print(FILE *f, const struct session *s);

#endif
