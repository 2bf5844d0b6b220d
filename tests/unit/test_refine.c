/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --refine's rule (src/model/refine.c) driven as the engine drives it: a
 * start list is measured on a simulated curve (USL, a cliff, a plateau, a
 * monotone rise, equal means) with seeded noise, then refine_next is asked,
 * its pick measured, and so on until it says 0 or the budget is spent.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/refine.h"
#include "../tap.h"
#include "../sim_noise.h"

#define MAXPTS 512
#define Z95 1.96

/* A curve: X(N) from its shape's function and parameters. */
struct curve {
	double (*x)(const struct curve *c, int n);
	double s, k; /* USL's sigma and kappa */
	int edge;    /* a cliff's, a plateau's N */
};

/* A sweep as the engine runs it: what was measured, what refine_next picked. */
struct sweep {
	struct refine_point pts[MAXPTS];
	size_t npts;
	int picks[MAXPTS];
	int npicks;
	int bad;  /* picks outside [1, top] or already measured */
	int done; /* refine_next said 0 */
	char why[160];
	uint64_t rng;
};

static double
usl(const struct curve *c, int n)
{
	return 1000.0 * n / (1 + c->s * (n - 1) + c->k * n * (n - 1.0));
}

/* Rises in step with N up to edge, then falls to half at once and stays there. */
static double
cliff(const struct curve *c, int n)
{
	return n <= c->edge ? 100.0 * n : 50.0 * c->edge;
}

static double
plateau(const struct curve *c, int n)
{
	return 100.0 * (n < c->edge ? n : c->edge);
}

static double
rise(const struct curve *c, int n)
{
	(void)c;
	return 100.0 * n;
}

static double
flat(const struct curve *c, int n)
{
	(void)c;
	(void)n;
	return 500.0;
}

/* USL with its peak at peak and the given sigma: kappa = (1 - sigma) / peak^2. */
static struct curve
usl_peak(int peak, double s)
{
	struct curve c = { usl, s, (1 - s) / ((double)peak * peak), 0 };

	return c;
}

/* One step at n: the mean with relative noise sd, its CI as the step's intervals would give. */
static void
measure(struct sweep *w, const struct curve *c, int n, double sd)
{
	struct refine_point *p = &w->pts[w->npts++];
	double x = c->x(c, n);

	p->n = n;
	p->mean = x * (1 + sd * sim_gauss(&w->rng));
	p->lo = p->mean - Z95 * sd * x;
	p->hi = p->mean + Z95 * sd * x;
}

static int
measured(const struct sweep *w, int n)
{
	size_t i;

	for (i = 0; i < w->npts; i++) {
		if (w->pts[i].n == n)
			return 1;
	}
	return 0;
}

/* The powers of two up to last, measured, then up to budget picks under top. */
static void
run_list(struct sweep *w, const struct curve *c, int last, int top, int budget, double sd,
	 uint64_t seed)
{
	struct refine_pick pk;
	int n;

	memset(w, 0, sizeof(*w));
	w->rng = seed;
	for (n = 1; n <= last; n *= 2)
		measure(w, c, n, sd);
	while (w->npicks < budget && w->npts < MAXPTS) {
		refine_next(w->pts, w->npts, top, 0.2, seed, &pk);
		if (pk.n == 0) {
			w->done = 1;
			return;
		}
		if (pk.n < 1 || pk.n > top || measured(w, pk.n))
			w->bad++;
		snprintf(w->why, sizeof(w->why), "%s", pk.why);
		w->picks[w->npicks++] = pk.n;
		measure(w, c, pk.n, sd);
	}
}

static void
run_sweep(struct sweep *w, const struct curve *c, int top, int budget, double sd, uint64_t seed)
{
	run_list(w, c, top, top, budget, sd, seed);
}

/* The measured N with the highest mean. */
static int
found_peak(const struct sweep *w)
{
	size_t i, b = 0;

	for (i = 1; i < w->npts; i++) {
		if (w->pts[i].mean > w->pts[b].mean)
			b = i;
	}
	return w->pts[b].n;
}

/* The integer N in [1, top] with the highest X, and that X. */
static int
true_peak(const struct curve *c, int top, double *xmax)
{
	int n, b = 1;

	for (n = 2; n <= top; n++) {
		if (c->x(c, n) > c->x(c, b))
			b = n;
	}
	*xmax = c->x(c, b);
	return b;
}

/* Without noise and without spread the peak and the collapse edge are bisected to one N. */
static void
test_usl_exact(void)
{
	static const int peaks[] = { 24, 40, 48, 60, 100, 200 };
	struct curve c;
	struct sweep w;
	double xmax;
	int i, want, edge;

	for (i = 0; i < (int)(sizeof(peaks) / sizeof(peaks[0])); i++) {
		c = usl_peak(peaks[i], 0.02);
		run_sweep(&w, &c, 1024, 200, 0, 7);
		want = true_peak(&c, 1024, &xmax);
		ok(w.done && w.bad == 0,
		   "USL peak %d: the refiner ends, %d picks all new and in range", peaks[i],
		   w.npicks);
		is_int(found_peak(&w), want, "USL peak: located exactly");
		ok(measured(&w, want - 1) && measured(&w, want + 1),
		   "USL peak %d: both neighbours measured", want);
		for (edge = want + 1; edge <= 1024 && c.x(&c, edge) >= 0.8 * xmax; edge++)
			;
		ok(edge <= 1024 && measured(&w, edge) && measured(&w, edge - 1),
		   "USL peak %d: the collapse edge %d and the N before it measured", want, edge);
	}
}

/* With 3% noise and its CIs: the peak found is within the noise of the curve's best. */
static void
test_usl_noisy(void)
{
	static const int peaks[] = { 24, 48, 100, 200 };
	double sd = 0.03, xmax;
	struct curve c;
	struct sweep w;
	int i, seed, near, ends, bad;

	for (i = 0; i < (int)(sizeof(peaks) / sizeof(peaks[0])); i++) {
		c = usl_peak(peaks[i], 0.02);
		true_peak(&c, 1024, &xmax);
		near = ends = bad = 0;
		for (seed = 1; seed <= 20; seed++) {
			run_sweep(&w, &c, 1024, 64, sd, (uint64_t)seed * 1000 + i);
			near += c.x(&c, found_peak(&w)) >= xmax * (1 - 2 * Z95 * sd);
			ends += w.done;
			bad += w.bad;
		}
		ok(near == 20 && ends == 20 && bad == 0,
		   "USL peak %d, 3%% noise: %d of 20 peaks within the noise, %d ended, %d bad "
		   "picks",
		   peaks[i], near, ends, bad);
	}
}

/* A cliff at 40: past it nothing comes near, so the peak is 40 or within the noise below it. */
static void
test_cliff(void)
{
	struct curve c = { cliff, 0, 0, 40 };
	double sd = 0.03;
	struct sweep w;
	int seed, n, hit = 0;

	for (seed = 1; seed <= 20; seed++) {
		run_sweep(&w, &c, 256, 64, sd, (uint64_t)seed);
		n = found_peak(&w);
		hit += n <= 40 && c.x(&c, n) >= c.x(&c, 40) * (1 - 2 * Z95 * sd) && w.done;
	}
	is_int(hit, 20, "cliff at 40: every sweep's peak in 37..40, refinement ended");
	run_sweep(&w, &c, 256, 64, 0, 3);
	ok(found_peak(&w) == 40 && measured(&w, 41),
	   "cliff at 40 without noise: 40, and 41 measured");
}

/* A plateau from 32 on: the refiner stops inside the CIs, the peak on the plateau. */
static void
test_plateau(void)
{
	struct curve c = { plateau, 0, 0, 32 };
	double sd = 0.03;
	struct sweep w;
	int seed, ended = 0, on = 0;

	for (seed = 1; seed <= 20; seed++) {
		run_sweep(&w, &c, 256, 64, sd, (uint64_t)seed);
		ended += w.done && w.bad == 0;
		on += c.x(&c, found_peak(&w)) >= 100.0 * 32 * (1 - 2 * Z95 * sd);
	}
	is_int(ended, 20, "plateau: refinement ends inside the CIs, picks new and in range");
	is_int(on, 20, "plateau: the peak found is on the plateau");
}

/* A monotone rise: the peak is the top, and top bounds every pick. */
static void
test_rise_and_top(void)
{
	struct curve c = { rise, 0, 0, 0 };
	struct curve u = usl_peak(80, 0.01);
	struct sweep w;
	double xmax;
	int i, over = 0;

	run_sweep(&w, &c, 256, 64, 0, 5);
	ok(w.done && found_peak(&w) == 256 && measured(&w, 255),
	   "rise: located at the top, 255 measured");
	ok(w.npicks <= 8, "rise: the gap 128..256 bisected in %d picks (log2 128 + 1 at most)",
	   w.npicks);
	run_list(&w, &u, 1024, 100, 64, 0, 5);
	for (i = 0; i < w.npicks; i++)
		over += w.picks[i] > 100;
	ok(w.done && over == 0, "a list to 1024 under top 100: %d picks, none past 100", w.npicks);
	is_int(found_peak(&w), true_peak(&u, 100, &xmax), "and the peak at 80 located");
}

/* An upper neighbour past top: the gap is cut back to top. */
static void
test_top_cut(void)
{
	struct refine_point p[] = { { 127, 990, 990, 990 },
				    { 128, 1000, 1000, 1000 },
				    { 1024, 100, 100, 100 } };
	struct refine_pick pk;

	refine_next(p, 3, 200, 0.2, 1, &pk);
	ok(pk.n > 128 && pk.n <= 200, "the gap 128..1024 under top 200 gives %d", pk.n);
	refine_next(p, 3, 128, 0.2, 1, &pk);
	is_int(pk.n, 0, "top 128: nothing past it to learn");
	refine_next(p, 3, 0, 0.2, 1, &pk);
	is_int(pk.n, 0, "top 0: nothing");
}

/* A budget is kept by the loop, and what it measured is the start of the unbounded run. */
static void
test_budget(void)
{
	struct curve c = usl_peak(48, 0.03);
	static struct sweep all, some;
	int i, same = 1;

	run_sweep(&all, &c, 1024, 200, 0.03, 42);
	run_sweep(&some, &c, 1024, 5, 0.03, 42);
	ok(all.npicks > 5, "the unbounded run picks %d", all.npicks);
	is_int(some.npicks, 5, "a budget of 5 gives 5 picks");
	ok(!some.done, "and the refiner still had one to give");
	for (i = 0; i < 5; i++)
		same &= some.picks[i] == all.picks[i];
	ok(same, "the budgeted picks are the unbounded run's first five");
}

/* The same points and seed give the same picks; the seed breaks a tie of sides. */
static void
test_seed(void)
{
	struct refine_point p[] = { { 16, 90, 90, 90 }, { 32, 100, 100, 100 }, { 64, 90, 90, 90 } };
	struct curve c = usl_peak(60, 0.02);
	static struct sweep a, b;
	struct refine_pick pk, again;
	int seed, left = 0, right = 0, i, same = 1;

	for (seed = 0; seed < 64; seed++) {
		refine_next(p, 3, 1024, 0.2, (uint64_t)seed, &pk);
		refine_next(p, 3, 1024, 0.2, (uint64_t)seed, &again);
		same &= pk.n == again.n && strcmp(pk.why, again.why) == 0;
		left += pk.n == 24;
		right += pk.n == 48;
	}
	ok(same, "a seed gives the same pick each time");
	ok(left > 0 && right > 0 && left + right == 64,
	   "equal neighbours: the seed picks the side (%d left, %d right of 64)", left, right);
	run_sweep(&a, &c, 1024, 64, 0.03, 9);
	run_sweep(&b, &c, 1024, 64, 0.03, 9);
	for (i = 0; i < a.npicks; i++)
		same &= a.picks[i] == b.picks[i];
	ok(same && a.npicks == b.npicks && a.npicks > 0, "a whole noisy run is repeated, %d picks",
	   a.npicks);
}

/* The nearer neighbour in mean is the side bisected first, and its words. */
static void
test_side_and_words(void)
{
	struct refine_point p[] = { { 16, 600, 590, 610 },
				    { 32, 1000, 990, 1010 },
				    { 64, 900, 890, 910 },
				    { 128, 200, 190, 210 } };
	struct refine_pick pk;

	refine_next(p, 4, 1024, 0.2, 1, &pk);
	is_int(pk.n, 48, "the side nearer the peak's mean first");
	is_str(pk.why, "between the peak at 32 and 64", "its words");
	p[0].mean = 950;
	p[0].lo = 940;
	p[0].hi = 960;
	refine_next(p, 4, 1024, 0.2, 1, &pk);
	is_int(pk.n, 24, "the other side when its neighbour is nearer");
	is_str(pk.why, "between 16 and the peak at 32", "its words, in N's order");
}

/* Once the peak is located, the gap before the collapse; then nothing. */
static void
test_collapse_words_and_end(void)
{
	struct refine_point p[] = { { 31, 950, 940, 960 },  { 32, 1000, 990, 1010 },
				    { 33, 960, 950, 970 },  { 64, 900, 890, 910 },
				    { 128, 200, 190, 210 }, { 1, 0, 0, 0 } };
	struct refine_pick pk;

	refine_next(p, 5, 1024, 0.2, 1, &pk);
	is_int(pk.n, 96, "the peak located: the gap before the collapse at 128");
	is_str(pk.why, "between 64 and the collapse at 128", "its words");
	refine_next(p, 5, 1024, 0.85, 1, &pk);
	is_int(pk.n, 0, "with --collapse 85% a fall to a fifth is no collapse: no edge to refine");
	p[4].n = 65;
	refine_next(p, 5, 1024, 0.2, 1, &pk);
	ok(pk.n == 0 && pk.why[0] == '\0', "the edge one N wide: nothing left");
	p[5].n = 0;
	p[5].mean = 1e9;
	refine_next(p, 6, 1024, 0.2, 1, &pk);
	is_int(pk.n, 0, "a point at N=0 is left out, not taken for the peak");
	p[5].n = 2;
	p[5].mean = NAN;
	refine_next(p, 6, 1024, 0.2, 1, &pk);
	is_int(pk.n, 0, "a point without a mean is left out");
}

/* One point, none, and equal means: nothing to bisect, or a few picks and an end. */
static void
test_degenerate(void)
{
	struct refine_point one = { 8, 100, 90, 110 };
	struct curve c = { flat, 0, 0, 0 };
	struct refine_pick pk;
	struct sweep w;

	refine_next(&one, 1, 1024, 0.2, 1, &pk);
	is_int(pk.n, 0, "a single point: nothing left");
	refine_next(NULL, 0, 1024, 0.2, 1, &pk);
	is_int(pk.n, 0, "no points: nothing left");
	run_sweep(&w, &c, 256, 64, 0.03, 11);
	ok(w.done && w.bad == 0 && w.npicks <= 16,
	   "equal means with noise: %d picks, all new, then nothing left", w.npicks);
	run_sweep(&w, &c, 256, 64, 0, 11);
	ok(w.done && w.npicks == 0, "equal means without spread: the peak at 1 is located");
}

int
main(void)
{
	test_usl_exact();
	test_usl_noisy();
	test_cliff();
	test_plateau();
	test_rise_and_top();
	test_top_cut();
	test_budget();
	test_seed();
	test_side_and_words();
	test_collapse_words_and_end();
	test_degenerate();
	return done_testing();
}
