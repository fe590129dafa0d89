/*
 * hcube_pcs_int.h — pieces of the PCS hot-spot model (hcube_pcs_hotspot.c)
 * that tests check on their own: the hot-spot channel rate and the
 * random-walk path-set-up time.  Private to models/.
 */
#ifndef DSE_HCUBE_PCS_INT_H
#define DSE_HCUBE_PCS_INT_H

#include "model.h"

/* lam_h(j) / (theta lam): hot-spot messages per cycle, per unit of
 * theta lam, on each channel that leads from a node j hops from the hot
 * spot to one j-1 hops from it, j = 1..n ([SKFO05] eqs.16-17):
 *   sum_{l=j..n} C(n,l) / ((n-j+1) C(n,j-1)). */
double pcs__hot_rate_unit(int n, int j);

/* Mean time d_0 for a header to reserve an i-hop path ([SKFO05] eq.8): a walk
 * on states s = 0..i (hops reserved) that advances with probability
 * 1 - q[s] and backs up one node with probability q[s] (s >= 1), each move
 * costing `step` cycles.  At the source (s = 0) a failed attempt costs
 * nothing when retry_costs == 0 (the printed eq.8: e_0 = step), or one
 * step per attempt when 1 (e_0 = step / (1 - q[0])).  Closed solve:
 *   e_s = (q[s] e_{s-1} + step) / (1 - q[s]),  d_0 = sum_{s<i} e_s.
 * MODEL_SATURATED when some q[s] >= 1 (a walk that never ends) or the
 * result is not finite. */
model_status pcs__walk(int i, const double *q, double step, int retry_costs,
                       double *d0);

#endif
