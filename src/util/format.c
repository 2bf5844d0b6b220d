/* SPDX-License-Identifier: BSD-2-Clause */
/* Number formatting shared by every text view (format.h): SI prefixes for counts and rates. */
#include <math.h>
#include <stdio.h>

#include "scaletop/format.h"

char *
fmt_si(double v, char *buf, size_t len)
{
	static const char suffix[] = { 'k', 'M', 'G', 'T', 'P' };
	double a = fabs(v);
	int i = -1;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (a >= 999.5 && i < 4) {
		a /= 1000.0;
		v /= 1000.0;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, a >= 100 || a == floor(a) ? "%.0f" : "%.2f", v);
	else
		snprintf(buf, len,
			 a >= 100  ? "%.0f%c"
			 : a >= 10 ? "%.1f%c"
				   : "%.2f%c",
			 v, suffix[i]);
	return buf;
}
