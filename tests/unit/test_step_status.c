/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A noisy step (step_status.c): an ok step whose 95% CI is wider than a
 * quarter of its mean.  30% is noisy, 20% ok, exactly 25% ok (the bar is
 * "wider than"); an unstable step keeps its own mark; a step without
 * spread is not judged.  Then the verdict's low-confidence clause names
 * the noisy N, and an analysis without them says nothing of noise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/session.h"
#include "scaletop/stats.h"
#include "../tap.h"

/* A step of mean x whose CI is frac of it (NaN: no spread). */
static struct step *
add(struct session *s, int n, double x, double frac, enum step_status status)
{
	struct step *st = session_add_step(s, n, 0);

	st->ops_s = x;
	st->status = status;
	st->st.n = 10;
	st->st.mean = x;
	st->st.have_spread = !isnan(frac);
	st->st.ci95 = st->st.ci95_ac = isnan(frac) ? 0 : frac * x;
	return st;
}

static void
test_threshold(void)
{
	struct session s;
	struct step *st;

	session_init(&s);
	is_double(STATS_NOISY_CI_FRAC, 0.25, 0, "the bar is a quarter of the mean");
	st = add(&s, 1, 1000, 0.30, STEP_OK);
	ok(step_noisy(st), "a CI of 30%% of the mean is noisy");
	is_str(step_status_word(st), "noisy", "  and its status says so");
	is_double(step_ci_frac(st), 0.30, 1e-12, "  its CI is 30% of its mean");
	st = add(&s, 2, 1000, 0.20, STEP_OK);
	ok(!step_noisy(st), "a CI of 20%% of the mean is not");
	is_str(step_status_word(st), "ok", "  it is ok");
	st = add(&s, 4, 1000, 0.25, STEP_OK);
	ok(!step_noisy(st), "a CI of exactly 25%% is not noisy: the bar is wider than a quarter");
	st = add(&s, 8, 1000, 0.2500001, STEP_OK);
	ok(step_noisy(st), "  a hair wider is");
	st = add(&s, 16, 1000, 0.95, STEP_OK);
	is_str(step_status_word(st), "noisy", "a CI of 95% (the issue's step) is noisy, not ok");
	st = add(&s, 16, 1000, 1.5, STEP_UNSTABLE);
	ok(!step_noisy(st), "an unstable step is not called noisy ...");
	is_str(step_status_word(st), "unstable", "  it keeps its stronger mark");
	st = add(&s, 32, 1000, NAN, STEP_OK);
	ok(!step_noisy(st), "a step without spread is not judged");
	ok(isnan(step_ci_frac(st)), "  and has no CI fraction");
	st = add(&s, 32, 1000, 0.5, STEP_FAILED);
	is_str(step_status_word(st), "failed", "a failed step stays failed");
	session_free(&s);
}

static void
test_verdict(void)
{
	static const int n[] = { 1, 2, 4, 8 };
	static const double x[] = { 1000, 1900, 3600, 6000 }, frac[] = { 0.02, 0.02, 0.40, 0.30 };
	struct session s;
	struct analysis a;
	int i;

	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], x[i], frac[i], STEP_OK);
	add(&s, 2, 1900, 0.10, STEP_OK); /* a repeat at N=2, not noisy */
	ok(analysis_run(&s, NULL, &a) == 0, "the analysis runs");
	is_int(a.noisy.count, 2, "two N have a noisy step");
	is_int(a.noisy.n[0] * 100 + a.noisy.n[1], 408, "  4 and 8, ascending");
	is_double(a.noisy.ci_frac, 0.40, 1e-12, "  the widest CI is 40%");
	is_double(analysis_noisy_at(&s, 4), 0.40, 1e-12, "N=4 is noisy at 40%");
	is_double(analysis_noisy_at(&s, 2), 0, 0, "N=2 is not noisy");
	ok(strstr(a.verdict, "; low confidence: steps at N=4,8 are noisy (CI up to +-40%)") != NULL,
	   "the verdict says its confidence is low, and where");
	diag("%s", a.verdict);
	analysis_free(&a);
	session_free(&s);

	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], x[i], i == 2 ? 0.40 : 0.02, STEP_OK);
	analysis_run(&s, NULL, &a);
	ok(strstr(a.verdict, "; low confidence: the step at N=4 is noisy (CI +-40%)") != NULL,
	   "one noisy step is named alone");
	analysis_free(&a);
	session_free(&s);

	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], x[i], 0.25, STEP_OK);
	analysis_run(&s, NULL, &a);
	is_int(a.noisy.count, 0, "CIs of 25% make no noisy N");
	ok(strstr(a.verdict, "noisy") == NULL && strstr(a.verdict, "confidence") == NULL,
	   "  and the verdict says nothing of noise");
	analysis_free(&a);
	session_free(&s);
}

/* More noisy N than the verdict names: the first four, and how many more. */
static void
test_many(void)
{
	struct analysis_noisy z = { 6, { 2, 4, 8, 16 }, 7, 0.5 };
	char buf[128];

	analysis_noisy_text(&z, buf, sizeof(buf));
	is_str(buf, "low confidence: steps at N=2,4,8,16 and 2 more are noisy (CI up to +-50%)",
	       "six noisy N: four named, two counted");
	z.count = 0;
	analysis_noisy_text(&z, buf, sizeof(buf));
	is_str(buf, "", "none: no clause");
}

int
main(void)
{
	test_threshold();
	test_verdict();
	test_many();
	return done_testing();
}
