/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/refine.sh's simulator: sweeps of a 256-CPU machine against curves of
 * known shape with seeded noise, by a step of one, by powers of two and by
 * the topology's list plus refine_next; prints per curve whether each finds
 * the step-of-one sweep's peak, and in how many steps.  Exit 1: goal missed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/refine.h"
#include "scaletop/stats.h"
#include "../tests/sim_noise.h"

#define CPUS 256
#define TOP (4 * CPUS)
#define CASES 20
#define BUDGET (CPUS / 4) /* at most a quarter of step-of-one's steps, list included */
#define MAXK 32
#define Z95 1.96

/* 2 sockets x 2 nodes x 4 LLCs x 8 cores x 2 SMT threads. */
static const int topo_shape[] = { 2, 2, 4, 8, 2 };

struct curve {
	char name[32];
	double (*x)(const struct curve *c, int n);
	double s, k; /* USL's sigma, kappa */
	int edge;    /* a cliff's N */
	int nk;      /* a real curve's knots: log2 N (stretched), X, the spline's X'' */
	double kx[MAXK], ky[MAXK], m[MAXK];
};

/* One method's sweep: what it measured. */
struct sweep {
	struct refine_point pts[TOP + 1];
	size_t npts;
	uint64_t rng;
	double sd;
};

static double
usl(const struct curve *c, int n)
{
	return 1000.0 * n / (1 + c->s * (n - 1) + c->k * n * (n - 1.0));
}

/* Near-linear up to edge, then 60% of it at once, falling slowly after. */
static double
cliff(const struct curve *c, int n)
{
	double top = 100.0 * c->edge / (1 + 0.005 * (c->edge - 1));

	if (n <= c->edge)
		return 100.0 * n / (1 + 0.005 * (n - 1));
	return 0.6 * top * pow((double)c->edge / n, 0.3);
}

/* A natural cubic spline through the knots in log2 N; linear in N below, straight above. */
static double
spline(const struct curve *c, int n)
{
	double x = log2(n), h, a, b, y, floor = 0.01 * c->ky[0];
	int i = 0, last = c->nk - 1;

	for (i = 0; i < c->nk; i++)
		floor = fmax(floor, 0.01 * c->ky[i]);
	if (x <= c->kx[0])
		return c->ky[0] * exp2(x - c->kx[0]);
	if (x >= c->kx[last]) {
		y = c->ky[last] + (c->ky[last] - c->ky[last - 1]) /
					  (c->kx[last] - c->kx[last - 1]) * (x - c->kx[last]);
		return fmax(y, floor);
	}
	for (i = 0; x > c->kx[i + 1]; i++)
		;
	h = c->kx[i + 1] - c->kx[i];
	a = (c->kx[i + 1] - x) / h;
	b = 1 - a;
	y = a * c->ky[i] + b * c->ky[i + 1] +
	    ((a * a * a - a) * c->m[i] + (b * b * b - b) * c->m[i + 1]) * h * h / 6;
	return fmax(y, floor);
}

/* The spline's second derivatives, 0 at both ends (a tridiagonal solve). */
static void
spline_fit(struct curve *c)
{
	double cp[MAXK], dp[MAXK], h0, h1, den;
	int i, n = c->nk;

	c->m[0] = c->m[n - 1] = 0;
	cp[0] = dp[0] = 0;
	for (i = 1; i < n - 1; i++) {
		h0 = c->kx[i] - c->kx[i - 1];
		h1 = c->kx[i + 1] - c->kx[i];
		den = 2 * (h0 + h1) - h0 * cp[i - 1];
		cp[i] = h1 / den;
		dp[i] = (6 * ((c->ky[i + 1] - c->ky[i]) / h1 - (c->ky[i] - c->ky[i - 1]) / h0) -
			 h0 * dp[i - 1]) /
			den;
	}
	for (i = n - 2; i >= 1; i--)
		c->m[i] = dp[i] - cp[i] * c->m[i + 1];
}

/* NAME=N:X,N:X,... stretched so that its last N lands at CPUS; 0, or -1 with a message. */
static int
curve_parse(struct curve *c, const char *arg)
{
	const char *eq = strchr(arg, '='), *p;
	char *end;
	long n, prev = 0;
	double y;

	memset(c, 0, sizeof(*c));
	if (!eq || eq == arg || eq - arg >= (long)sizeof(c->name)) {
		fprintf(stderr, "refine_sim: '%s': want NAME=N:X,N:X,...\n", arg);
		return -1;
	}
	memcpy(c->name, arg, (size_t)(eq - arg));
	for (p = eq + 1; *p; p = *end == ',' ? end + 1 : end) {
		n = strtol(p, &end, 10);
		if (end == p || *end != ':' || n <= prev || c->nk == MAXK)
			break;
		y = strtod(end + 1, &end);
		if (!(y > 0) || (*end && *end != ','))
			break;
		c->kx[c->nk] = log2((double)n);
		c->ky[c->nk++] = y;
		prev = n;
	}
	if (*p || c->nk < 3) {
		fprintf(stderr,
			"refine_sim: %s: column %ld: want ascending N:X pairs, X > 0, 3 to %d\n",
			c->name, (long)(p - arg) + 1, MAXK);
		return -1;
	}
	for (n = 0; n < c->nk; n++)
		c->kx[n] += log2((double)CPUS / (double)prev);
	c->x = spline;
	spline_fit(c);
	return 0;
}

/* The boundary N of topo_shape (each level's CPUs, the cores), 2x and 4x, and powers of two. */
static int
topo_list(int *out)
{
	int level[8], nl = 0, i, j, cpus = 1, k = 0, n;

	for (i = (int)(sizeof(topo_shape) / sizeof(topo_shape[0])) - 1; i >= 0; i--) {
		cpus *= topo_shape[i];
		level[nl++] = cpus;
	}
	level[nl++] = cpus / topo_shape[sizeof(topo_shape) / sizeof(topo_shape[0]) - 1];
	level[nl++] = 2 * cpus;
	level[nl++] = 4 * cpus;
	for (n = 1; n <= TOP; n++) {
		for (j = 0; j < nl && level[j] != n; j++)
			;
		if (j < nl || (n & (n - 1)) == 0)
			out[k++] = n;
	}
	return k;
}

static void
measure(struct sweep *w, const struct curve *c, int n)
{
	struct refine_point *p = &w->pts[w->npts++];
	double x = c->x(c, n);

	p->n = n;
	p->mean = x * (1 + w->sd * sim_gauss(&w->rng));
	p->lo = p->mean - Z95 * w->sd * x;
	p->hi = p->mean + Z95 * w->sd * x;
}

static const struct refine_point *
sweep_peak(const struct sweep *w)
{
	size_t i, b = 0;

	for (i = 1; i < w->npts; i++) {
		if (w->pts[i].mean > w->pts[b].mean)
			b = i;
	}
	return &w->pts[b];
}

/* The list, then refine_next's picks until it says 0 or BUDGET steps are spent. */
static void
sweep_refine(struct sweep *w, const struct curve *c, const int *list, int nlist, uint64_t seed)
{
	struct refine_pick pk;
	int i;

	for (i = 0; i < nlist; i++)
		measure(w, c, list[i]);
	while (w->npts < BUDGET) {
		refine_next(w->pts, w->npts, TOP, 0.2, seed, &pk);
		if (pk.n == 0)
			break;
		measure(w, c, pk.n);
	}
}

/*
 * The same peak as the step-of-one sweep's (one): within one N of it, or
 * both on the curve's plateau, the N whose true X is within 1.96 sd of a
 * difference of two measurements of the best (bar): one measurement each
 * cannot tell those N from the peak, so neither sweep can do better.
 */
static int
same_peak(const struct curve *c, int n, int one, double bar)
{
	return abs(n - one) <= 1 || (c->x(c, n) >= bar && c->x(c, one) >= bar);
}

/* What a curve's 20 cases gave. */
struct tally {
	int same_ref, same_p2, in_one, steps_max, p2_steps;
	double steps_sum, dist[3][CASES];
};

/* The curve's own peak over 1..TOP: its N and X. */
static int
true_peak(const struct curve *c, double *xmax)
{
	int n, nstar = 1;

	*xmax = 0;
	for (n = 1; n <= TOP; n++) {
		if (c->x(c, n) > *xmax) {
			*xmax = c->x(c, n);
			nstar = n;
		}
	}
	return nstar;
}

/* One case: the three sweeps, each with noise of its own, judged. */
static void
run_case(const struct curve *c, const int *list, int nlist, uint64_t seed, double sd,
	 struct tally *t, int i)
{
	static struct sweep one, p2, ref;
	double xmax, bar;
	int n, nstar = true_peak(c, &xmax), peaks[3];

	bar = xmax * (1 - Z95 * sqrt(2) * sd);
	one = (struct sweep){ .rng = seed * 3 + 1, .sd = sd };
	p2 = (struct sweep){ .rng = seed * 3 + 2, .sd = sd };
	ref = (struct sweep){ .rng = seed * 3 + 3, .sd = sd };
	for (n = 1; n <= CPUS; n++)
		measure(&one, c, n);
	for (n = 1; n <= TOP; n *= 2)
		measure(&p2, c, n);
	sweep_refine(&ref, c, list, nlist, seed);
	peaks[0] = sweep_peak(&one)->n;
	peaks[1] = sweep_peak(&p2)->n;
	peaks[2] = sweep_peak(&ref)->n;
	t->same_p2 += same_peak(c, peaks[1], peaks[0], bar);
	t->same_ref += same_peak(c, peaks[2], peaks[0], bar);
	t->in_one += c->x(c, peaks[0]) >= bar;
	t->p2_steps = (int)p2.npts;
	t->steps_sum += (double)ref.npts;
	if ((int)ref.npts > t->steps_max)
		t->steps_max = (int)ref.npts;
	for (n = 0; n < 3; n++)
		t->dist[n][i] = abs(peaks[n] - nstar);
}

/* How many N in 1..CPUS are on the plateau. */
/* The median of a curve's CASES distances, as the stats module takes it. */
static double
median_of(const double *v)
{
	struct stats st;

	return stats_compute(&st, v, CASES) == 0 ? st.median : NAN;
}

static int
plateau_width(const struct curve *c, double bar)
{
	int n, k = 0;

	for (n = 1; n <= CPUS; n++)
		k += c->x(c, n) >= bar;
	return k;
}

/* A curve's 20 cases and its line; returns 1 when it met the goal. */
static int
run_curve(const struct curve *c, const int *list, int nlist, uint64_t seed, double sd,
	  struct tally *all)
{
	struct tally t;
	double xmax, bar;
	int i, nstar = true_peak(c, &xmax);

	bar = xmax * (1 - Z95 * sqrt(2) * sd);
	memset(&t, 0, sizeof(t));
	for (i = 0; i < CASES; i++)
		run_case(c, list, nlist, seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL, sd, &t, i);
	all->same_ref += t.same_ref;
	all->same_p2 += t.same_p2;
	all->steps_sum += t.steps_sum;
	if (t.steps_max > all->steps_max)
		all->steps_max = t.steps_max;
	printf("%-14s %5d %5d  %5d/%d  %5.1f %4d %6.3f   %5d/%d %4d   %5d/%d  %4.0f %4.0f %4.0f\n",
	       c->name, nstar, plateau_width(c, bar), t.same_ref, CASES, t.steps_sum / CASES,
	       t.steps_max, t.steps_sum / CASES / CPUS, t.same_p2, CASES, t.p2_steps, t.in_one,
	       CASES, median_of(t.dist[0]), median_of(t.dist[1]), median_of(t.dist[2]));
	return t.same_ref >= CASES - 1 && t.steps_max <= BUDGET;
}

/* The built-in curves: USL peaks at chosen N (sigma, kappa from the peak), and cliffs. */
static int
builtin_curves(struct curve *c)
{
	static const struct {
		int peak;
		double s;
	} usls[] = { { 24, 0.05 }, { 40, 0.02 },   { 48, 0.03 },
		     { 60, 0.01 }, { 100, 0.005 }, { 200, 0.002 } };
	static const int cliffs[] = { 40, 96, 160 };
	int i, k = 0;

	for (i = 0; i < (int)(sizeof(usls) / sizeof(usls[0])); i++, k++) {
		memset(&c[k], 0, sizeof(c[k]));
		snprintf(c[k].name, sizeof(c[k].name), "usl-%d", usls[i].peak);
		c[k].x = usl;
		c[k].s = usls[i].s;
		c[k].k = (1 - usls[i].s) / ((double)usls[i].peak * usls[i].peak);
	}
	for (i = 0; i < (int)(sizeof(cliffs) / sizeof(cliffs[0])); i++, k++) {
		memset(&c[k], 0, sizeof(c[k]));
		snprintf(c[k].name, sizeof(c[k].name), "cliff-%d", cliffs[i]);
		c[k].x = cliff;
		c[k].edge = cliffs[i];
	}
	return k;
}

static void
print_head(const int *list, int nlist, uint64_t seed, double sd)
{
	int i;

	printf("256 CPUs (2 sockets x 2 nodes x 4 LLCs x 8 cores x 2 SMT), noise %.1f%%, "
	       "%d cases a curve, SEED=%llu\n",
	       100 * sd, CASES, (unsigned long long)seed);
	printf("list (topology and powers of two, %d N):", nlist);
	for (i = 0; i < nlist; i++)
		printf("%s%d", i ? "," : " ", list[i]);
	printf("; then refine_next up to %d steps in all\n\n", BUDGET);
	printf("%-14s %5s %5s  %8s  %5s %4s %6s   %8s %4s   %8s  %14s\n", "curve", "N*", "flat",
	       "refine", "steps", "max", "/256", "pow2", "", "one", "|N-N*| median");
	printf("%-14s %5s %5s  %8s  %5s %4s %6s   %8s %4s   %8s  %4s %4s %4s\n", "", "", "N",
	       "same", "mean", "", "", "same", "N", "on flat", "one", "pow2", "ref");
}

int
main(int argc, char **argv)
{
	static struct curve c[64];
	struct tally all;
	int list[TOP], nlist = topo_list(list), nc, i, met = 0;
	uint64_t seed;
	double sd;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: refine_sim SEED NOISE [NAME=N:X,N:X,...]...\n");
		return 2;
	}
	seed = strtoull(argv[1], &end, 10);
	if (*end || end == argv[1]) {
		fprintf(stderr, "refine_sim: SEED '%s': want a whole number\n", argv[1]);
		return 2;
	}
	sd = strtod(argv[2], &end);
	if (*end || !(sd > 0 && sd < 0.2)) {
		fprintf(stderr, "refine_sim: NOISE '%s': want a fraction above 0, under 0.2\n",
			argv[2]);
		return 2;
	}
	nc = builtin_curves(c);
	for (i = 3; i < argc && nc < 64; i++, nc++) {
		if (curve_parse(&c[nc], argv[i]) != 0)
			return 2;
	}
	print_head(list, nlist, seed, sd);
	memset(&all, 0, sizeof(all));
	for (i = 0; i < nc; i++)
		met += run_curve(&c[i], list, nlist, seed + (uint64_t)i * 1000003, sd, &all);
	printf("\nrefine: the same peak in %d of %d cases, %d of %d curves at >= %d of %d; "
	       "steps mean %.1f, max %d = %.3f of step-of-one's %d (goal <= %d)\n",
	       all.same_ref, nc * CASES, met, nc, CASES - 1, CASES, all.steps_sum / (nc * CASES),
	       all.steps_max, (double)all.steps_max / CPUS, CPUS, BUDGET);
	printf("powers of two: the same peak in %d of %d cases, %d steps = %.3f\n", all.same_p2,
	       nc * CASES, nlist, (double)nlist / CPUS);
	return met == nc ? 0 : 1;
}
