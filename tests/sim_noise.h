/* SPDX-License-Identifier: BSD-2-Clause */
/* Seeded noise for simulated curves (test_refine.c, bench/refine_sim.c): splitmix64 and normal
 * deviates. */
#ifndef SCALETOP_TESTS_SIM_NOISE_H
#define SCALETOP_TESTS_SIM_NOISE_H

#include <math.h>
#include <stdint.h>

/* The next of splitmix64's stream from *st: every seed, zero too, gives a good one. */
static inline uint64_t
sim_u64(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A standard normal deviate (Box-Muller, one of the pair). */
static inline double
sim_gauss(uint64_t *st)
{
	double u = ((sim_u64(st) >> 11) + 0.5) / 9007199254740992.0;
	double v = (sim_u64(st) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

#endif
