/*
 * hcube_duato.c — `hcube-duato`: Duato's fully adaptive wormhole routing in
 * the binary n-cube, as the chapter 2 DCSH model (M3) at k = 2.
 *
 * Source: [L99], chapter 2, eqs.(2.1)-(2.18) (docs/models/hypercube-dcsh.md,
 * "M3 as printed"), applied at cluster size k = 2.  Why the equations allow
 * it:
 *   - A DCSH with k = 2 is the hypercube (thesis chapter 1;
 *   docs/models/hypercube-dcsh.md, "M3 as printed":
 *     "k = 2 gives the hypercube"): each node's one channel per dimension
 *     reaches the single other node of its 2-node cluster, i.e. it is one
 *     direction of a hypercube link.
 *   - (2.1)-(2.4) become the hypercube's P(i hops) = C(n,i)/(N-1) and
 *     d_avg = n N/(2(N-1)) (docs/models/conventions.md, B5); (2.5) is the
 *     balanced channel
 *     rate of fully adaptive routing with n output channels per node.
 *   - The blocking analysis (2.7)-(2.8) needs only "V-1 adaptive VCs on
 *     every profitable dimension, one escape VC on the lowest remaining
 *     dimension", which is Duato's routing with e-cube escape channels on
 *     the hypercube (deadlock-free with V >= 2, docs/models/semantics.md,
 *     "Minimum virtual channels").
 *   - The one term that does not carry over is the input multiplexer
 *     (2.15)-(2.17).  At k = 2 it merges the (k-1)V = V VCs of a single
 *     physical channel, which already deliver at most one flit per cycle;
 *     their sharing of that channel is exactly what V_avg (2.14) counts.
 *     The literal formula gives M_avg = V_avg (the same chain), i.e. the
 *     same contention counted twice.  A hypercube router has no such
 *     multiplexer, so [recommended] M_avg = 1:
 *         Latency = (W_qs + L) V_avg.
 *     MODEL_VARIANT_PRINTED keeps the literal k = 2 evaluation,
 *     Latency = (W_qs + M_avg L) V_avg with M_avg = V_avg.
 * Corrected variant (since docs/models/corrected.md, CV18): the
 * engine's items (f), (g'), (h), (i) (dcsh_common.c header), which is
 * CV13's DCSH correction carried to the hypercube where the
 * simulator's semantics support it:
 *   the worm's holding time S (f) with the drained length s len;
 *   the drain s (g', cube_drain): no multiplexer, so a stage's competitors
 *   are its output channel's; Duato's header picks a free adaptive VC at
 *   random over the profitable channels (sim/route_duato.c), so the
 *   chosen channel's other occupants are the M/M/V states weighted by
 *   free adaptive VCs (none at V = 2: a channel whose one adaptive VC is
 *   taken is not chosen), E[N | N < V] at the last hop; competitors
 *   present for their stretched drain, s = 1 + stalls; s follows S;
 *   the ejection wait: M/G/1 with service s len, second moment
 *   E[L^2] (s^2 + (s-1)/s);
 *   M/M/V channels (i): Erlang's C, Duato's rule (2.7) on M/M/V state
 *   probabilities, the first of h (V-1) + 1 candidate VCs to free;
 *   the source waits for one of V injection VCs (h): M/G/V, hold L;
 *   Latency = W_s + L (no V_avg, no M_avg: the body's stretch is s).
 * Measured drains (ejection-channel hold / Lm, bench_probe_duato) 1.24-
 * 1.75 on the 8- and 10-cubes, derived within -1% to +8% (CV18).
 * Before CV18 the corrected variant was the engine's (a)-(f) with
 * M_avg = 1 as in [recommended] (a hypercube router has no input
 * multiplexer, so the processor-sharing M_avg of CV4 has nothing
 * to describe):
 *   the worm's holding time S (dcsh_common.c item (f)) in the chain and
 *   the blocked header's wait, in place of L,
 *   idle = Dr d_avg + W_qd,  V_avg = Vbar(B1(m_c, S_tx, V)) (S without
 *   Dr and W_qd),
 *   W_qd = M/G/1 of the one ejection channel held for the message length
 *   (model_ejection_mg1, fixed before the solve: unstretched like every
 *   other holding time, docs/models/corrected.md, CV3),
 *   Latency = W_s + (L - idle) V_avg + idle,
 *   W_s = lam E[L^2] / (2 (1 - lam Lm)).
 * That form saturated the 10-cube study designs (Lm = 128, Dr = 1,
 * V = 2..6) at 1.16-1.64 x the simulated rate, growing with V: the
 * simulated drain grows with V (1.34 / 1.69 / 1.75 at V = 2 / 4 / 6 at
 * 0.00187), and V_avg over S_tx did not.  Everything else (the saturation guards, the typo
 * resolutions) is the engine in dcsh_common.c.  This model is not
 * validated against simulation in any source: the thesis validated the DCSH
 * at k = 16 only; dse's own simulations are in docs/validation.md.
 *
 * Domain: hypercube, wormhole, Duato routing, V >= 2, uniform traffic, one
 * or unlimited (0) ejection channels, any router delay and length.
 */
#include "dcsh_common.h"

static int covers(const net_design *d, const net_workload *w, char *why,
                  size_t why_size)
{
    return dcsh__covers_common(d, w, NET_HYPERCUBE, NET_ROUTE_DUATO, why,
                               why_size);
}

static int eval(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    int literal = opts->variant == MODEL_VARIANT_PRINTED;
    return dcsh__adaptive_eval(d, w, rate, opts, DCSH_BLOCK_DUATO, literal,
                               out);
}

static double zero_load(const net_design *d, const net_workload *w,
                        const model_opts *opts)
{
    return dcsh__adaptive_zero_load(d, w);
}

/* No source validates this model; the set-up mirrors the thesis's chapter 2
 * one at the same size: N = 256 (8-cube), V = 2, Lm = 32, Dr = 0,
 * exponential lengths, one ejection channel. */
static void example(net_design *d, net_workload *w)
{
    dcsh__example(d, w, NET_HYPERCUBE, 8, 2, 2, NET_ROUTE_DUATO, 32);
}

const model model_hcube_duato = {
    .name = "hcube-duato",
    .source = "[M3] Loucif 1999, ch.2, eqs.(2.1)-(2.18) at k = 2",
    .summary = "hypercube, wormhole, Duato adaptive routing (V >= 2), "
               "uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
