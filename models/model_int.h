/*
 * model_int.h — machinery shared by the analytic models
 * (docs/models/conventions.md, "Global symbols and units").  Private to
 * models/.
 *
 *   B1  vc_chain_probs()   VC occupancy birth-death chain (Dally)
 *   B2  vc_multiplexing()  average multiplexing degree Vbar
 *   B3  wait_mg1_dg()      M/G/1 with the Draper-Ghosh (S - Lm)^2 variance
 *       wait_md1()         M/D/1 (fixed service)
 *   B6  frac_sum()         sums over a non-integer number of hops
 *   B7  model_solve()      damped fixed point with the saturation protocol
 *
 * Every helper that can fail on a rate that is too high returns
 * MODEL_SATURATED instead of producing a NaN, a negative or an infinite
 * number; models propagate that verdict unchanged.
 */
#ifndef DSE_MODEL_INT_H
#define DSE_MODEL_INT_H

#include "model.h"

/* Latencies above this are saturation, not a steady state (B7). */
#define MODEL_LATENCY_CAP 1e7

/* B1: P[0..vmax] of a channel with arrival rate lam_c and mean VC holding
 * time s.  Returns MODEL_SATURATED when rho = lam_c * s >= 1 or an input is
 * not finite, else MODEL_CONVERGED.  p must hold vmax + 1 doubles. */
model_status vc_chain_probs(double lam_c, double s, int vmax, double *p);

/* B2: sum v^2 P[v] / sum v P[v] over v = 1..vmax (1 when the denominator
 * is 0). */
double vc_multiplexing(const double *p, int vmax);

/* B1 + B2 in one call: Vbar of a channel; MODEL_SATURATED as above. */
model_status vc_mux_degree(double lam_c, double s, int vmax, double *vbar);

/* B3: Draper-Ghosh M/G/1 wait lam (S^2 + (S-Lm)^2) / (2 (1 - lam S)). */
model_status wait_mg1_dg(double lam, double s, double lm, double *w);
/* Erlang's C: P(all c servers busy) seen by a Poisson arrival, offered
 * load a < c erlangs (the Erlang-B recursion, then C from B). */
double erlang_c(int c, double a);
/* B3: M/D/1 wait lam Lm^2 / (2 (1 - lam Lm)). */
model_status wait_md1(double lam, double lm, double *w);

/* B6: sum_{h=1..x} f(h) for real x >= 0: whole terms up to floor(x) plus
 * (x - floor(x)) f(ceil(x)). */
double frac_sum(double x, double (*f)(double h, void *ctx), void *ctx);

/* C(a, b) as a double; 0 when b < 0 or b > a. */
double binom(int a, int b);

/* Clamp a probability into [0, 1]. */
double clamp01(double p);

/* B7: one fixed-point map.  Reads x[0..nx-1], writes f(x) into fx.
 * Returns MODEL_CONVERGED (meaning "map evaluated fine") or
 * MODEL_SATURATED when a guard fails (utilisation >= 1, square root of a
 * negative, probability out of range, ...). */
typedef model_status (*model_map_fn)(void *ctx, const double *x, double *fx);

/* B7: iterate x <- (1-d) x + d f(x) from the given start (the zero-load
 * point) until every unknown moves by at most tol * max(1, |x|).
 * MODEL_SATURATED when the map says so, a value is not finite or exceeds
 * MODEL_LATENCY_CAP, or the cap is hit while the iterates still climb
 * (divergence); MODEL_NOCONVERGE when the cap is hit on an oscillation.
 * *iterations receives the count used.  nx <= MODEL_SOLVE_MAX. */
#define MODEL_SOLVE_MAX 4096
model_status model_solve(model_map_fn f, void *ctx, double *x, int nx,
                         const model_opts *opts, int *iterations);

/* Fill out for a failed evaluation (all latencies 0, saturated = 1) and
 * return the matching ERR_* code. */
int model_result_fail(model_result *out, model_status status, int iterations);
/* Fill out for a converged evaluation; returns 0.  Checks that every value
 * is finite and non-negative and turns anything else into saturation. */
int model_result_ok(model_result *out, double latency, double network_latency,
                    double source_wait, double vc_multiplexing,
                    int iterations);

/* The thesis's closing step ([L99] eqs.(2.13)+(2.18), (3.13), (4.10),
 * (6.23), (6.27)-(6.28)): a node feeds V injection queues at lam/V each,
 * whose wait the thesis takes as W_qs = (lam/V) L^2 (no 1/(1-rho) term,
 * docs/models/conventions.md, B3), and the latency is (W_qs + m_avg L) v_avg,
 * where v_avg is
 * the VC multiplexing degree and m_avg the DCSH input-multiplexer degree
 * (1 elsewhere).  Saturated when (lam/V) L >= 1.  Fills out; returns 0 or
 * ERR_SATURATED. */
int model_result_thesis(model_result *out, double rate, int vcs, double L,
                        double m_avg, double v_avg, int iterations);

/* ---- corrected variant (models/corrected.c; docs/models/corrected.md) - */

/* E[L^2] of the message length in flits: Lm^2 for fixed lengths,
 * 2 Lm^2 - Lm for the geometric lengths on {1, 2, ...} the simulator draws
 * for "exponential". */
double model_length_m2(const net_design *d, const net_workload *w);

/* Pollaczek-Khinchine M/G/1 wait lam E[S^2] / (2 (1 - lam E[S])) of a
 * server with mean service lm and second moment lm2.  MODEL_SATURATED when
 * lam lm >= 1 or an input is not finite. */
model_status wait_mg1_pk(double lam, double lm, double lm2, double *w);

/* The corrected ejection wait W_qd: the one ejection channel of a node
 * takes one message at a time (docs/models/semantics.md, item 10, which is
 * what
 * the thesis simulated: [L99] section 7, "when a message header is blocked at
 * the destination, waiting for the ejection channel, the whole message is
 * spread out along its path"), so it is an M/G/1 queue, at lam / c per
 * channel for c ejection channels, whose service time is the message
 * length: P-K wait lam E[L^2] / (2 (1 - lam Lm)) instead of the printed
 * lam Lm^2, which has no 1/(1 - rho).  0 with ejection_channels == 0
 * (immediate consumption).
 *
 * Why the length and not length x the multiplexing slowdown (the tail
 * trickling in at the path's pace): every other holding time of these
 * models is an unstretched latency (the VC chain is fed L, not L Vbar; the
 * stretch is applied once, in the closing step), and the ejection channel
 * is one more holding time.  Measured on the 29 thesis-family validation
 * set-ups: the stretched service put the model's saturation rate further
 * from the simulator's on 22 of them (below 0.75 of it on 18, against 10)
 * and had the larger MAPE at <= 50% load on 16 of the 24 where the two
 * differ; docs/models/corrected.md, CV3.
 *
 * The wait holds the worm's VCs (it enters the holding times, hence
 * blocking, where the printed W_qd does) but sends nothing: like Dr, it
 * belongs to the `idle` part of model_result_corrected(). */
model_status model_ejection_mg1(const net_design *d, double lam, double lm,
                                double lm2, double *wqd);

/* The worm's drain (corrected variant; docs/models/corrected.md, CV6).  The
 * ejection channel is held from the header's arrival until the
 * tail is consumed, so its service time is not the message length but the
 * time the rest of the worm takes to reach it (CV5 measured it equal
 * to the worm's transmission time at immediate ejection).  With b-flit
 * buffers a worm of len flits spans, when its header arrives, the last
 * ceil(len / b) channels of its path and, when longer than b x hops, the
 * source's injection channel too.  Its flits stream through those stages
 * in tandem; each stage is a channel shared flit by flit with the other
 * worms holding one of its VCs: a processor-sharing server with at most V
 * jobs in service.  For such a server (M/M/1-PS capped at V; Little's law
 * on E[min(N, V)] = sum_{j=1..V} rho^j) a job's in-service time is
 * exactly Lm (1 - rho^V) / (1 - rho), so the stall per flit is
 *     model_ps_stall(rho, V) = (rho - rho^V) / (1 - rho),
 * 0 for V = 1 and rho / (1 - rho) as V grows, rho the channel's flit load.
 * With one-flit buffers a stall anywhere holds every flit behind it, so
 * the stalls of the stages add up:
 *     stalls = sum_seg P(seg crossed) P(seg spanned) stall_seg
 *              + P(len > b hops) model_ps_stall(rate Lm, V).
 * The PS stall assumes a competitor that always has a flit ready.  The
 * competitors are worms of the same network, stretched like ours: one is
 * ready in 1/s of the cycles, so the stalls it causes scale by 1/s, and
 *     s = 1 + stalls / s,   s = (1 + sqrt(1 + 4 stalls)) / 2.
 * A segment is one stage of contention, not one per channel: on a ring (a
 * torus dimension) the worms that share one channel with ours mostly share
 * the next as well, and interleaving with the same competitor costs once.
 * So a torus dimension is one segment (its hops only decide how far back
 * the worm reaches).  Measured against the simulator's ejection service
 * (CV6: 10-cube V = 6, Lm = 128; 8-cube V = 2, Lm = 32) this is
 * within 1-11%; the stalls without the 1/s (an upper bound) are 9-24%
 * high, the injection stage alone 6-28% low. */
typedef struct model_worm_path {
    int nseg;                          /* in path order, first crossed first */
    double cross[NET_MAX_DIMS];        /* P(the segment is crossed) */
    double hops[NET_MAX_DIMS];         /* mean hops in it, given crossed */
    double stall[NET_MAX_DIMS];        /* its stall per flit */
} model_worm_path;

/* PS stall per flit of a channel with flit load rho shared by at most vcs
 * worms (above); INFINITY when rho >= 1. */
double model_ps_stall(double rho, int vcs);

/* The drain stretch s >= 1 of a worm of the workload's lengths (above). */
double model_worm_stretch(const net_design *d, const net_workload *w,
                          double rate, const model_worm_path *path);

/* W_qd with the worm's drain as the ejection service: M/G/1 at lam / c
 * per channel, service s x len (mean s lm, second moment s^2 lm2).
 * MODEL_SATURATED when lam s lm / c >= 1; 0 with ejection_channels == 0. */
model_status model_ejection_worm(const net_design *d, double lam, double lm,
                                 double lm2, double stretch, double *wqd);

/* The corrected closing step, replacing model_result_thesis():
 *   latency = W_s + (L - idle) slowdown + idle
 * W_s = wait_mg1_pk(rate, lm, lm2): the node's messages share one
 * injection channel (docs/models/semantics.md, item 7), not V full-speed
 * servers
 * at rate/V each (CV2); it is not stretched by the multiplexing
 * degree, since a waiting message transmits nothing.  idle is the part of
 * the network latency L during which the worm holds its VCs but sends
 * nothing: routing decisions (Dr x mean hops) and the wait for the
 * ejection channel (W_qd).  Channel sharing does not stretch it (CV1).
 * slowdown = v_avg x m_avg, both computed by the model from the
 * transmitting occupancy (holding time minus idle).  Saturated when rate lm >= 1 or
 * when the V injection VCs, each held for L, cannot carry the rate
 * ((rate/V) L >= 1, the thesis's own guard).  network_latency = L and
 * vc_multiplexing = slowdown in *out. */
int model_result_corrected(model_result *out, double rate, int vcs,
                           double lm, double lm2, double L, double idle,
                           double slowdown, int iterations);

/* The physical screen in eval(): 1 when rate is at or above the
 * channel-load bound of (d, w) (model_bound_compute), where no steady
 * state exists whatever a model's fixed point says; 0 otherwise, and when
 * the bound cannot be computed.  Every model's eval() starts with it. */
int model__screen(const net_design *d, const net_workload *w, double rate);

/* The registered models (defined in their own files). */
extern const model model_torus_det;
extern const model model_torus_duato;
extern const model model_torus2d_duato;
extern const model model_torus2d_duato_bcast;
extern const model model_torus2d_adaptive_meanflow;
extern const model model_express_det;
extern const model model_hcube_pcube;
extern const model model_hcube_pcs_hotspot;
extern const model model_hcube_duato;
extern const model model_dcsh_duato;
extern const model model_dcsh_hopbased;
extern const model model_dcsh_det_vc;
extern const model model_dcsh_det_novc;

#endif
