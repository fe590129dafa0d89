/*
 * dcsh_duato.c — M3 `dcsh-duato`: Duato's fully adaptive wormhole routing
 * in the Distributed Crossbar Switch Hypermesh.
 *
 * Source: [L99] (Loucif, PhD thesis 1999), chapter 2,
 * sections 2.3-2.4, eqs.(2.1)-(2.18); docs/models/hypercube-dcsh.md, "M3 as
 * printed".  Each node owns one
 * unidirectional channel per dimension reaching the other k-1 nodes of its
 * cluster; V VCs per channel (V-1 adaptive, 1 escape in increasing
 * dimension order); a (k-1)V-input flit-level multiplexer per dimension at
 * every router.  Uniform traffic, Poisson sources.
 *
 * The equations and every typo resolution live with the engine in
 * dcsh_common.c (shared with M4 and hcube-duato).  This file only states
 * the domain and the validation set-up.  docs/models/hypercube-dcsh.md marks
 * nothing in M3 as
 * [recommended], so MODEL_VARIANT_PRINTED evaluates the same equations.
 *
 * Domain: DCSH, wormhole, Duato routing, V >= 2 (net_check), one cluster
 * size k >= 2 in every dimension, uniform traffic, one or unlimited (0)
 * ejection channels, any router delay, any message length (the mean is
 * used; the thesis validated exponential lengths).
 */
#include "dcsh_common.h"

static int covers(const net_design *d, const net_workload *w, char *why,
                  size_t why_size)
{
    return dcsh__covers_common(d, w, NET_DCSH, NET_ROUTE_DUATO, why,
                               why_size);
}

static int eval(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    return dcsh__adaptive_eval(d, w, rate, opts, DCSH_BLOCK_DUATO, 1, out);
}

static double zero_load(const net_design *d, const net_workload *w,
                        const model_opts *opts)
{
    return dcsh__adaptive_zero_load(d, w);
}

/* Fig.2.5a: 2D DCSH, N = 256 (k = 16), V = 2, Lm = 32, Dr = 0,
 * exponential lengths, one ejection channel. */
static void example(net_design *d, net_workload *w)
{
    dcsh__example(d, w, NET_DCSH, 2, 16, 2, NET_ROUTE_DUATO, 32);
}

const model model_dcsh_duato = {
    .name = "dcsh-duato",
    .source = "[M3] Loucif 1999, ch.2, eqs.(2.1)-(2.18)",
    .summary = "DCSH, wormhole, Duato adaptive routing (V >= 2), uniform "
               "traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
