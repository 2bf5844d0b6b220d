/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the USL fit: the Levenberg-Marquardt solver (usl_lm.c) and the
 * small dense linear algebra it shares with the standard errors (usl.c).
 */
#ifndef SCALETOP_MODEL_USL_LM_H
#define SCALETOP_MODEL_USL_LM_H

#include "usl_model.h"

/* Cholesky factor of a symmetric m x m matrix in place (lower); -1 if not positive definite. */
int usl_cholesky(double a[USL_NPAR][USL_NPAR], int m);
/* Solves L L^T z = b with the factor from usl_cholesky. */
void usl_cholesky_solve(double l[USL_NPAR][USL_NPAR], int m, const double *b, double *z);
/* Column scales of J: the square roots of diag(J^T J), 1 where that is 0. */
void usl_column_scales(double a[USL_NPAR][USL_NPAR], int m, double *dj);
/*
 * Levenberg-Marquardt over the free parameters of st, from st->p, which
 * ends at the fit.  0 on convergence, -1 at the iteration cap or when the
 * start is outside the model's domain.
 */
int usl_lm(struct usl_state *st, const struct usl_data *d);

#endif
