/* SPDX-License-Identifier: BSD-2-Clause */
/* Number formatting shared by every text view. */
#ifndef SCALETOP_FORMAT_H
#define SCALETOP_FORMAT_H

#include <stddef.h>

/* 1234567 -> "1.23M", 999 -> "999", 0.5 -> "0.50"; NaN -> "-".  Returns buf. */
char *fmt_si(double v, char *buf, size_t len);

#endif
