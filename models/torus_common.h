/*
 * torus_common.h — private helpers of the k-ary n-cube family of models
 * (torus-det, torus-duato, torus2d-duato, torus2d-duato-bcast, express-det).
 * Private to models/ (tests may include it to check the helpers directly).
 *
 * What lives here and why: every one of those models needs the same
 * coverage checks (a valid design, the right topology / routing /
 * switching / traffic), the same per-dimension mean distance with the B5
 * odd-radix resolution, the same ejection wait W_qd ([L99] eq.2.11 with the
 * "multiple ejection channels" switch), and the torus models need exact
 * moments of the hop count along one ring and the "dimensions still to
 * cross" distribution of the general-n Duato model.  Keeping them here
 * keeps each model file to its equations.
 */
#ifndef DSE_TORUS_COMMON_H
#define DSE_TORUS_COMMON_H

#include "model_int.h"

/* Largest V the torus-family models accept: their B1 chains live in stack
 * buffers of MODEL_TORUS_VMAX + 1 doubles (net_design_set caps vcs at
 * 1024 too). */
#define MODEL_TORUS_VMAX 1024

/* Coverage checks shared by the family: the design passes net_check, the
 * workload passes net_workload_check, and topology, routing, switching
 * (always wormhole) and traffic are the given ones; also V <=
 * MODEL_TORUS_VMAX.  0, or -1 with the reason in why. */
int model__torus_covers(const net_design *d, const net_workload *w,
                        net_topology topology, net_routing routing,
                        net_traffic traffic, char *why, size_t why_size);

/* -1 with a reason unless every dimension has the same radix. */
int model__torus_uniform(const net_design *d, char *why, size_t why_size);

/* Mean hops in one dimension of a bidirectional ring of radix k,
 * coordinates independent and uniform (self included),
 * docs/models/conventions.md, B5:
 * k/4 for even k; for odd k the exact (k - 1/k)/4 [recommended] or the
 * thesis's k/4 for every k ([L99] eq.4.1) [printed]. */
double model__ring_kavg(int k, model_variant variant);

/* Exact hop-count moments of one bidirectional ring of radix k, the
 * destination offset d uniform over 1..k-1, x(d) = min(d, k-d) hops:
 *   crossed   = E[x]                    (mean hops given the ring is used)
 *   remaining = E[x(x-1)/2] / E[x]      (mean hops still to make in the
 *                                        ring after a channel, averaged
 *                                        over channel visits)
 * Closed forms, O(1). */
void model__ring_moments(int k, double *crossed, double *remaining);

/* The dateline classes of one bidirectional ring of radix k under
 * dimension-order routing (the simulator's rule, sim/topo_cube.c: a hop
 * rides class 1 while the current coordinate is below the destination's,
 * class 0 otherwise; + at the tie k/2).  For channel ch = p (the +
 * channel p -> p+1) and ch = k + p (the - channel p -> p-1), load[2 ch]
 * and load[2 ch + 1] receive the visits in class 0 and class 1 made when
 * every source sends one message to each of the k - 1 other coordinates
 * (sum over the + channels: k sum_{x=1..k/2} x).  load holds 4k doubles.
 * O(k^2). */
void model__ring_classes(int k, double *load);

/* The two directions of one bidirectional ring of radix k under
 * dimension-order routing (+ at the tie k/2, sim/topo_cube.c), the
 * destination offset uniform over 1..k-1: for dir = 0 (+) and 1 (-),
 * share[dir] = P(the ring is crossed that way | crossed) and hops[dir] =
 * E[hops | crossed that way] (0 when no offset goes that way: k = 2, -).
 * share[0] hops[0] + share[1] hops[1] is model__ring_moments' crossed.
 * + takes offsets 1..floor(k/2), - 1..floor((k-1)/2).  O(1). */
void model__ring_dirs(int k, double share[2], double hops[2]);

/* model__torus_hold (below) over the channel visits of dimension i made
 * in one direction only, h[dir] for dir = 0 (+) and 1 (-), with the
 * counted hops split by the direction they are made in: coef[j][e] =
 * E[counted hops of dimension j made in direction e] (e = 0 +, 1 -;
 * dimension i itself only in dir), drain and out as there.  Over the two
 * directions, weighted by their channel visits (share x hops,
 * model__ring_dirs), the mean is model__torus_hold's.  h[1] is all zero
 * when no visit goes that way (k = 2).  torus-det's per-direction
 * blocking (models/torus_det.c (g)). */
typedef struct model_hold_dir {
    double coef[NET_MAX_DIMS][2];
    double drain;
    double out;
} model_hold_dir;
void model__torus_hold_dir(const net_design *d, const net_workload *w, int i,
                           model_hold_dir h[2]);

/* The corrected VC holding time of a worm (docs/models/corrected.md, "The
 * worm's holding time"; used by the corrected variant of torus-det).  A worm of
 * len flits in b-flit buffers spans ceil(len / b) VCs, so the VC it takes
 * on a channel is freed when its tail leaves, which is when its header has
 * crossed span more channels — or, with only r < span hops left, when the
 * header has reached the destination, waited W_qd for the ejection channel
 * and the len - b r flits still between them have drained at one per cycle:
 *     S(r) = 1 + sum_{t=1..min(r, span)} (1 + Dr + B(t))
 *              + [len > b r] (W_qd + len - b r)
 * with B(t) the blocking delay of the t-th hop after the channel.  The
 * sources' "remaining latency" (every remaining hop plus W_qd + Lm) counts
 * all r hops and the whole length again; the two agree only for r = 0.
 * For a channel visit in dimension i of a dimension-order path (hops left
 * in i distributed over channel visits, later dimensions independent,
 * each skipped with probability 1/k_j), the mean is linear in the
 * per-dimension hop costs:
 *     E[S] = 1 + sum_{j>=i} coef[j] (1 + Dr + B_j) + drain + out W_qd
 *   coef[j] = E[counted hops in dimension j], drain = E[(len - b r)+],
 *   out = P(len > b r) (the worm waits for the ejection channel while
 *   holding this VC).  len is the workload's distribution (fixed, or
 *   geometric with mean Lm); b = design.buffer_flits. */
typedef struct model_hold {
    double coef[NET_MAX_DIMS];
    double drain;
    double out;
    double m2;   /* model__torus_hold_any only: E[H0^2], see there */
} model_hold;
void model__torus_hold(const net_design *d, const net_workload *w, int i,
                       model_hold *h);
/* The same for an adaptive (Duato) path, whose dimension order is not
 * known: over channel visits, the hops left after the channel are uniform
 * on 0..X-1 for a message of X hops, X the sum of the per-dimension ring
 * hops (destination uniform over the other N - 1 nodes).  Only coef[0]
 * (all counted hops), drain and out are filled. */
void model__torus_hold_any(const net_design *d, const net_workload *w,
                           model_hold *h);

/* The rest of the hold in progress that a header meeting a busy VC waits
 * (docs/models/corrected.md, CV7 and CV7): E[H^2] / (2 E[H]) for a
 * hold H of mean s made of a zero-load part H0 (mean s0, variance var0,
 * e.g. from model__torus_hold_any's m2) plus exponential waits of mean
 * s - s0, so E[H^2] = s^2 + var0 + (s - s0)^2.  Returns s when s <= 0. */
double model__hold_residual(double s, double s0, double var0);
/* model__torus_hold_any over messages at their source (corrected Duato tori, the hold
 * of an injection VC; docs/models/corrected.md, CV12): the whole path
 * of X hops is ahead, X distributed over the messages (not over channel
 * visits).  coef[0] = E[min(X, ceil(len / b))], drain = E[(len - b X)+],
 * out = P(len > b X), m2 = E[H0^2] with H0 = 1 + (1 + Dr) min(X,
 * ceil(len / b)) + (len - b X)+. */
void model__torus_hold_source(const net_design *d, const net_workload *w,
                              model_hold *h);

/* The corrected Duato tori's source wait: a message waits only for one of
 * the node's V injection VCs (sim/engine.c, step 3: queued messages take
 * free injection VCs; the injection channel's bandwidth sharing is in the
 * stretch), each held h1 on average: the M/G/c wait Erlang C(V, a) resid /
 * (V - a), a = rate h1, resid = E[H^2] / (2 E[H]) of the hold (as
 * hcube-pcube's C6).  MODEL_SATURATED when a >= V. */
model_status model__duato_source_wait(int vcs, double rate, double h1,
                                      double resid, double *ws);
/* The same with the injection VC's hold built from the path
 * (model__torus_hold_source): H_src = 1 + C_src (s + Dr + per_hop) +
 * s drain_src + out_src W_qd, s the drain stretch, per_hop the blocking
 * per hop; its residual as model__hold_residual's. */
model_status model__duato_source_wait_path(const net_design *d,
                                           const net_workload *w,
                                           double rate, double per_hop,
                                           double stretch, double wqd,
                                           double *ws);

/* W_qd, the wait for the ejection channel ([L99] eq.2.11, [printed]):
 * lam Lm^2 per ejection channel; with c >= 1 channels each takes lam / c
 * (our extension; c = 1 is the thesis).  0 when ejection_channels == 0
 * ("multiple ejection channels", [L99] section 4.3: immediate consumption).
 * MODEL_SATURATED when (lam / c) Lm >= 1. */
model_status model__wait_ejection(const net_design *d, double lam, double lm,
                                  double *wqd);

/* W_qd for the variant: model__wait_ejection() for printed and
 * recommended, model_ejection_mg1() (M/G/1) for corrected. */
model_status model__torus_ejection(const net_design *d, const net_workload *w,
                                   double lam, model_variant variant,
                                   double *wqd);

/* The worm's drain path of the torus (model_worm_path, model_int.h): one
 * segment per dimension, crossed with probability (1 - 1/k_i) N/(N-1),
 * its mean hops the ring's; stall[i] receives the message rate of one
 * channel of dimension i (lam K_i N/(N-1) / 2), which the caller turns
 * into a stall with its Lm and V. */
void model__torus_worm_path(const net_design *d, double rate,
                            model_worm_path *path);

/* The drain stretch of a worm in the torus (model_worm_stretch over
 * model__torus_worm_path, each channel's stall model_ps_stall(lam_c Lm,
 * V)). */
double model__torus_worm_stretch(const net_design *d, const net_workload *w,
                                 double rate);

/* W_qd for the variant, with the worm's drain as the ejection service in
 * the corrected variant (model_ejection_worm; torus-det, torus-duato,
 * torus2d-duato); printed and recommended as model__wait_ejection(). */
model_status model__torus_ejection_worm(const net_design *d,
                                        const net_workload *w, double lam,
                                        model_variant variant, double *wqd);

/* The closing step of the Duato tori (torus2d-duato, torus-duato) at the
 * solved network latency L, p being the VC chain of the solution:
 * corrected, V_avg = Vbar(B1(m_c, hold_tx, V)) of the transmitting
 * occupancy (hold_tx: the VC holding time without routing decisions and
 * the ejection wait) and model_result_corrected()'s closing step with the
 * source wait ws the caller derived (model__duato_source_wait; ignored
 * by the other variants); otherwise the thesis's
 * (2.13) + (2.18) with V_avg = Vbar(p). */
int model__duato_close(model_result *out, const net_design *d,
                       const net_workload *w, double rate, double mc,
                       double L, double idle, double hold_tx, double ws,
                       const double *p, model_variant variant,
                       int iterations);

/* Which model_opts to use: opts itself, or the defaults when it is NULL
 * (storage provided by the caller). */
const model_opts *model__opts(const model_opts *opts, model_opts *storage);

/* torus-duato: distribution of the number of dimensions still to cross.
 *
 * A message of the "average" path makes K = kavg hops in each of the n
 * dimensions (n K in all).  With h hops left, the remaining hops are
 * split (r_1..r_n), sum h, 0 <= r_i <= u = floor(K), all splits equally
 * likely (the thesis's counting argument, [L99] section 4.2.1, written over
 * the hops still to make).  A dimension is finished when r_i = 0.  When no
 * split exists (h > n u, only on the fractional last hop or for K < 1)
 * every dimension counts as unfinished, which is what M6 does for h > K.
 *
 * model__torus_dims_left fills p[0..n] with P(r dimensions left | h) for
 * one h >= 1 (p[0] = 0).  model__torus_dims_weights fills w[0..n] with
 * sum_{h=1..D} P(r | h) over the B6 fractional sum up to D = n K — the
 * load-independent weights of the blocking sum.  Both O(n * D) time. */
void model__torus_dims_left(int n, double kavg, int h, double *p);
void model__torus_dims_weights(int n, double kavg, double *w);

/* The corrected Duato tori's channel (docs/models/corrected.md, CV11;
 * torus2d_duato.c (f)).  The simulated router (sim/route_duato.c) takes an
 * adaptive VC whenever one of its candidate channels has one free, and the
 * escape VC of its dateline class only when none has; a dimension-order
 * path rides one class on almost every channel of a ring (CV6), so a
 * channel offers its traffic the A = V - 2 adaptive VCs first and then one
 * escape VC.  VCs are held independently, each for its own hold (CV7's probe:
 * busy counts close to Poisson), and a header that finds all
 * of them busy waits (it is not lost): the channel is an M/M/c queue with
 * c = A + 1 servers at offered load a = mc hold.
 *   pe = P(all c busy)            = Erlang C(c, a)
 *   pa = P(all A adaptive busy)   = pe + (1 - pe) B(A, a)
 * (B Erlang's loss formula: P(j = A | j < c) = B(A, a) since c = A + 1).
 * MODEL_SATURATED when a >= c.  O(V). */
model_status model__duato_tiers(double mc, double hold, int vcs, double *pa,
                                double *pe);

/* The Duato tori's drain stretch (corrected variant; CV19):
 * model_worm_stretch over model__torus_worm_path, each ring's stall
 * model_ps_stall(lam_c Lm, V - 1) (a ring's channel is shared by its V - 2
 * adaptive VCs and one escape VC) times 2 - 1/h (the distinct competitors
 * along a segment of h hops, CV14); the injection stage as
 * model__torus_worm_stretch's.  torus-det keeps model__torus_worm_stretch. */
double model__duato_worm_stretch(const net_design *d, const net_workload *w,
                                 double rate);
/* The Duato tori's ejection wait W_qd and drain stretch s together: the
 * corrected variant's M/G/1 wait with service s len (s from
 * model__duato_worm_stretch), the others' model__torus_ejection_worm with
 * s = 1.  MODEL_SATURATED when the ejection channel is. */
model_status model__duato_ejection(const net_design *d, const net_workload *w,
                                   double rate, model_variant variant,
                                   double *stretch, double *wqd);

#endif
