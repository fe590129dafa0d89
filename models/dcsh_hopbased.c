/*
 * dcsh_hopbased.c — M4 `dcsh-hopbased`: hop-based (structured buffer pool,
 * Boppana-Chalasani) fully adaptive wormhole routing in the DCSH.
 *
 * Source: [L99], section 3.2.1, eqs.(3.1)-(3.2), with
 * everything else from chapter 2 (M3); docs/models/hypercube-dcsh.md, "M4 as
 * printed".  A message that still
 * needs h hops may use only VC number h, of any of its h remaining
 * dimensions, so it is blocked when that one VC is busy on all h of them:
 *
 *   P_C  = sum_{j=1..V} P[j] C(V-1,j-1)/C(V,j) = sum_j (j/V) P[j]   (3.1)
 *   B_h  = P_C^h L                                                   (3.2)
 *
 * and L_i, L, V_avg, M_avg, W_qs and the latency follow (2.6)-(2.18) in
 * dcsh_common.c.  Occupancy is still computed over all V VCs as if they
 * were interchangeable: the thesis's own simplification, kept.
 *
 * Domain: as M3 but V >= n (deadlock freedom needs a VC per hop, net_check
 * enforces it).  With V > n the VCs above n are never used by the routing;
 * the model still spreads the occupancy over all V, as the thesis's
 * interchangeable-VC assumption implies (validated only at V = n = 2).
 * No [recommended] items: MODEL_VARIANT_PRINTED evaluates the same.
 */
#include "dcsh_common.h"

static int covers(const net_design *d, const net_workload *w, char *why,
                  size_t why_size)
{
    return dcsh__covers_common(d, w, NET_DCSH, NET_ROUTE_HOP_BASED, why,
                               why_size);
}

static int eval(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    return dcsh__adaptive_eval(d, w, rate, opts, DCSH_BLOCK_HOP, 1, out);
}

static double zero_load(const net_design *d, const net_workload *w,
                        const model_opts *opts)
{
    return dcsh__adaptive_zero_load(d, w);
}

/* Fig.3.2a: 2D DCSH, N = 256 (k = 16), V = n = 2, Lm = 32, Dr = 0. */
static void example(net_design *d, net_workload *w)
{
    dcsh__example(d, w, NET_DCSH, 2, 16, 2, NET_ROUTE_HOP_BASED, 32);
}

const model model_dcsh_hopbased = {
    .name = "dcsh-hopbased",
    .source = "[M4] Loucif 1999, sec.3.2.1, eqs.(3.1)-(3.2) + ch.2",
    .summary = "DCSH, wormhole, hop-based adaptive routing (V >= n), "
               "uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
