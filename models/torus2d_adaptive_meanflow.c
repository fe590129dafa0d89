/*
 * torus2d_adaptive_meanflow.c — model M2, `torus2d-adaptive-meanflow`:
 * minimal fully adaptive wormhole routing in a k x k torus without virtual
 * channels, by mean-flow analysis (Quaglia et al., Parallel Computing 28
 * (2002); [QCC02] sections 3-4, eqs.(1)-(46), Tables
 * 1-2; docs/models/meanflow.md, "M2 as printed" and Appendix A).
 *
 * WHAT IT COMPUTES
 *   The mean network latency (header injection to last flit at the
 *   destination) of an "average message" that crosses K = k/4 links in each
 *   dimension inside one quadrant of the torus (the south-east one; the
 *   others are mirror images).  No source queue, no ejection queue, no VC
 *   multiplexing: latency == network_latency, source_wait = 0,
 *   vc_multiplexing = 1.  That is the printed and recommended variants;
 *   the corrected one (below, "CORRECTED VARIANT") models the links with
 *   their V VCs and is still a network latency without a source queue.
 *
 * THE MODEL (docs/models/meanflow.md, "M2 as printed" step numbers; equation
 * numbers of [QCC02])
 *   Streams (1)-(2): alpha = (k-1)/(k+1) adapts in both dimensions,
 *   beta = 1/(k+1) each for the row-only and the column-only streams.
 *   Unknowns x = (pX, pY, W_WE, W_NE, W_NS, W_WS): the busy probabilities of
 *   an X and a Y link and the four mean waits (west->east straight,
 *   north->east turn, north->south straight, west->south turn).
 *   One pass of the map (mf_map):
 *     1. fX = (1-pX)/(1-pX pY), fY = pX(1-pY)/(1-pX pY)        (3)-(5)
 *     2. alpha flows FX, FY on the (K+1)x(K+1) grid of Fig.1     (6)-(17)
 *     3. residual header times TX, TY backwards from the
 *        destination, and TX_j, TY_j of the beta streams         (32)-(42)
 *     4. holding times Tb = T - (links ahead, inclusive)        (28)-(31)
 *     5. each wait as a multi-class M/G/1 queue over its own
 *        contention set: W = sum(rate S2) / (1 - 2 sum(rate Tb)) (18)-(27)
 *     6. pX, pY = 2 sum(flow * Tb) over all X (Y) links          (43)-(44)
 *   then, at the fixed point, the latency (45)-(46) (mf_latency).
 *   The factor 2 in rho and the missing 1/2 in W are the paper's: the
 *   mirror-image quadrant loads the same links.
 *
 * RESOLUTIONS (docs/models/meanflow.md, "M2 as printed", item 4; [fix] always
 * on, the rest switchable
 * through model_meanflow_params, see torus2d_adaptive_meanflow.h)
 *   4.1 rate: the text says tau = 4 tau_E, i.e. r0 = lam/4.  Tables 1-2 are
 *       reproduced only with r0 = lam/2 (the model is linear in r0, so it
 *       is "a factor 2 in the rate"; no single equation holds it).
 *       RECOMMENDED 0.5 (calibrated against the tables), PRINTED 0.25.
 *   4.2 T_DT = L/B mixes units (L is in flits): T_DT = message length in
 *       flits = cycles, net_message_flits() [fix].
 *   4.3 eq.(24) beta holding time T_{K-1} vs T_K in eq.(23) for the same
 *       stream: use K [fix] (the stream starts K routers from the end).
 *   4.4 eq.(25) second sum f^X F^Y: the flow straight from the west is
 *       f^X F^X (mirror of eq.(27)) [fix].
 *   4.5 eq.(27) second sum (S^X_{i+1,j})^2: a vertical link, S^Y [fix].
 *   4.6 beta sum to K-1 in eq.(25) but K in eq.(27): K in both
 *       (recommended: counts the locally generated beta message, as both
 *       equations count the local alpha one), K-1 in the printed variant.
 *   4.7 eqs.(35)/(39) "W T" without '+': sums [fix] (else cycles^2).
 *   4.8 eq.(39) pairs W_NS with the X branch; eqs.(37)-(38) say W_NE goes
 *       with turning east.  Use s (W_NE + TX) + (1-s)(W_NS + TY), s = 1 iff
 *       W_NE <= W_NS (take the smaller wait, as eq.(35)) [fix].
 *   4.9 rho_NE, rho_NS, rho_WS are not printed: each built like eq.(24)
 *       from its own set [fix].
 *   4.10 sigma2 is described, never written: "length variance plus an
 *       exponential waiting part, no covariance" -> Var_L + (Tb - T_DT)^2
 *       (printed variant).  Recommended: Var_L only (fits the tables better
 *       near saturation and converges more reliably).  With the router-
 *       delay extension the deterministic router part of Tb is not
 *       "waiting" and is left out of the squared term.
 *   4.11 the text under eq.(19) says the last link X(K+1,K) is excluded,
 *       the sum runs over j = 1..K: keep the sum as printed.
 *   4.12 tau_E = 300/500/1000 "low/medium/high" is reversed; used only in
 *       Figures 3-4, not here.
 *   4.13 K = k/4 non-integer: evaluate at K1 = floor(k/4) and
 *       K2 = ceil(k/4) with alpha, beta of the real k and interpolate the
 *       latency linearly in k/4; saturated if either end is (recommended,
 *       both variants).  Domain k >= 4.
 *   Also: eq.(39)'s selector text "if W_NE < W_NS then s = 0" belongs to the
 *   printed pairing; with the fixed pairing s = 1 iff W_NE <= W_NS.  Ties
 *   (all waits 0 at zero load) pick the X branch in (35) and (39) and the
 *   Y-first branch in (46) (v = 1 only on a strict '<', as printed); at
 *   pX pY = 0 the choice has no weight.
 *
 * EXTENSIONS (not in the paper; both reduce to it exactly)
 *   Router delay Dr: [QCC02] has none (docs/models/meanflow.md, "M2 as
 *   printed").  Rejecting designs
 *   with router_delay > 0 would leave every realistic minimal_adaptive
 *   torus without a model, so we charge Dr like the simulator does
 *   (docs/models/semantics.md, item 2: Dr per routing decision, one per hop):
 *   Dr at the
 *   source router is added to the latency, and each intermediate router's
 *   Dr is added to the header's per-hop time in eqs.(33)-(42) ("+1" becomes
 *   "+1+Dr" except on the last link, whose "+1" is the crossing into the
 *   destination).  A link is held from the header's acquisition until the
 *   tail crosses it, so its holding time T - (links ahead) keeps the Dr of
 *   the routers ahead of it.  Zero load: alpha(T_DT + 2K(1+Dr))
 *   + 2beta(T_DT + K(1+Dr)).  Not validated against the paper (it has no
 *   router delay); the simulator is the check.
 *   Length variance: fixed lengths Var_L = 0 (the tables' fit);
 *   exponential lengths are geometric on {1,2,...} with mean Lm in dse
 *   (docs/models/semantics.md, item 8), so Var_L = Lm(Lm - 1).
 *
 * CORRECTED VARIANT (opts->variant == MODEL_VARIANT_CORRECTED, the default;
 * docs/models/meanflow.md, "M2: the corrected variant",
 * docs/models/corrected.md, CV14).  The recommended model describes a link as
 * one server
 * without VCs: a header finds the X link busy with probability pX = (flow x
 * holding time), and the link saturates when that reaches 1.  The network
 * dse simulates (sim/route_minadapt.c), like the paper's own simulator (4
 * VCs), gives every link V VCs: 2 dimension-order escape VCs, one per
 * dateline class, and V - 2 adaptive ones; a header takes, while X is
 * unfinished, an adaptive VC of the X link, else the escape VC of its
 * class on the X link, else an adaptive VC of the Y link; with X done, an
 * adaptive Y VC, else its Y escape VC; blocked, it retries every cycle
 * and leaves on the first permitted VC that frees.  Each link carries up
 * to V worms at once, shared flit by flit.  So the recommended model
 * saturates at 0.27-0.77 of the simulated rate (CV14): it has one VC
 * where the network has V.  The corrected variant re-derives the link
 * from those semantics with the Duato tori's pieces (torus2d_duato.c
 * corrected, CV5, CV6, CV8, CV7), which model the same VC split;
 * nothing is fitted:
 *   (a) Distance: the exact mean hops D = net_avg_distance() (CV14:
 *       the alpha stream travels 2K k/(k-1), not 2K, hops), channel rate
 *       m_c = lam D / 4 (four output links per node, X and Y equally
 *       loaded: every minimal path crosses |dx| X and |dy| Y links
 *       whatever the order).  Zero load D (1 + Dr) + Lm, the simulator's.
 *   (b) Blocking: the pooled B1 chain of V VCs at the holding time S
 *       (P[v], busy VCs uniformly placed, as the thesis family).  With
 *       both dimensions left the header is blocked iff the V - 2 adaptive
 *       VCs and its escape VC of the X link and the V - 2 adaptive VCs of
 *       the Y link are busy: P_d P_a, P_d = P[V] + P[V-1]/V (V - 1 given
 *       VCs busy), P_a = P[V] + 2 P[V-1]/V + P[V-2]/C(V,2) (V - 2);
 *       with one left, P_d.  The share of channel visits made with both
 *       dimensions left follows the X preference: the header crosses X
 *       first, so an X hop has Y left iff dy != 0 and a Y hop never has X
 *       left: f2 = E[dx 1(dy > 0)] / E[dx + dy] = (1 - 1/k)/2.  The
 *       recommended model's detour (X busy, Y free: fY) is left out of f2:
 *       at the loads where it happens, P_d (1 - P_a), it is a few % of
 *       the hops.  (M6's P_c = 2/(h+1) is for a header that picks X or Y
 *       at random.)  Ties (offset k/2, two minimal X links) are taken as
 *       one link.
 *   (c) First to free (CV6): a blocked header with both dimensions
 *       left waits for the first of m2 = 2(V - 2) + 1 busy candidate VCs,
 *       with one left of m1 = (V - 2) + 1; each term is divided by its m.
 *   (d) The worm's holding time (CV5, model__torus_hold_any) as the
 *       unknown: S = 1 + C (1 + Dr + Pbar R(S)) + drain + out W_qd, where
 *       Pbar = f2 P_a P_d / m2 + (1 - f2) P_d / m1 and R(S) the rest of a
 *       hold in progress (CV7, model__hold_residual);
 *       L = D (1 + Dr) + Lm + W_qd + D Pbar R(S).
 *   (e) The worm's stretch s replaces the per-channel multiplexing degree:
 *       a worm of 12-16 flits in 1-flit buffers spans its whole path and
 *       its injection channel (V VCs shared flit by flit by the source's
 *       own worms), so the stalls of those stages add (CV6,
 *       model_worm_stretch: s = 1 + stalls / s).  CV6 counts a
 *       torus dimension once, as if every competitor met in a ring shared
 *       the worm's whole segment.  On a ring both segments (ours and the
 *       competitor's, h hops each, starting at independent positions) only
 *       partly overlap (offsets -(h-1)..h-1, overlap h - |offset|): a
 *       competitor that shares at least one of our h links shares
 *       h^2 / (2h - 1) of them on average.  Summed over our h links the
 *       competitors present make h per-link stalls, each distinct one
 *       counted h^2 / (2h - 1) times, so the distinct competitors are
 *       worth (2h - 1) / h = 2 - 1/h per-link stalls: each dimension's
 *       stall is multiplied by 2 - 1/h, h the ring's mean hops given it is
 *       crossed (1 for k = 2, 3; -> 2 for long segments).  A competitor
 *       counts once, because interleaving with it at the first shared link
 *       sets the pace on the following ones (CV6).
 *       model_meanflow_stretch.
 *   (f) Ejection (docs/models/semantics.md, item 10): W_qd, the M/G/1 wait at
 *       lam / c per ejection channel with service s len (the worm's drain,
 *       CV6, model_ejection_worm with (e)'s s); 0 with ejection=0
 *       (the paper's set-ups).
 *   (g) Closing: latency = (L - idle) s + idle, idle = D Dr + W_qd (a
 *       deciding header and a worm waiting for the ejection channel send
 *       nothing, CV1).  No source queue: the model stays a network
 *       latency (source_wait = 0, latency == network_latency), and
 *       dse validate keeps comparing it with the simulator's network
 *       latency.  The simulator's source wait is only the wait for a free
 *       injection VC (the sharing of the injection channel is part of its
 *       network latency, and of s here): 0.001-0.013 cycles on the 32x32
 *       V = 6 study design at 15-80% load, 0.7 and 7.0 cycles on the 4x4
 *       V = 4 set-up at 50% and 80% (its injection channel is its busiest).
 *       The thesis family's M/G/1 injection queue (model_result_corrected)
 *       would count that sharing a second time (CV14).
 *   vc_multiplexing reports s.  At rate -> 0: s = 1, no blocking, W_qd =
 *   0, so the latency is D (1 + Dr) + Lm, the simulator's zero-load
 *   latency (model.zero_load gives it for this variant).  V must be >= 3
 *   (net_check; covers says so).  Cost: one scalar fixed point in S,
 *   O(V) per pass, plus model__torus_hold_any's O(k^2) setup.
 *
 * SOLVER
 *   model_solve() (B7) with the caller's options (damping 0.5, tolerance
 *   1e-9, cap 10000 by default) from the zero-load point x = 0.  The binary
 *   selectors r and s of eqs.(35)/(39) make the map discontinuous: at some
 *   rates the damped iterates settle onto a switching surface (W_WE = W_WS,
 *   say) and flip the selector every pass, because neither binary value is
 *   consistent with the waits it produces (found at 9x9 lam = 0.002, 12x12
 *   0.0073-0.0074, 16x16 0.00605-0.00625 — islands of "no solution" below
 *   the real saturation point, between converging rates).  We detect the
 *   chattering (MF_CHATTER_FLIPS flips in one solve) and take the sliding-
 *   mode solution: the selector becomes a fraction, found so the two waits
 *   are equal (mf_solve_sel).  This is our extension [recommended, both
 *   variants]; it never runs where the binary iteration converges, so every
 *   value of docs/models/meanflow.md, "Reproduced model column" is unchanged,
 *   and it makes feasibility monotone
 *   in lam and latency non-decreasing in lam (checked for k = 4..40 at
 *   5e-5 steps, both variants, Dr 0 and 1, Var_L 0 and 132).  The
 *   selector v of eq.(46) only enters the final latency, not the
 *   iteration.
 *   Statuses: a guard tripping (any rho_C >= 1, pX >= 1 or pY >= 1 on an
 *   iterate) or divergence is MODEL_SATURATED; hitting the cap while
 *   oscillating stays MODEL_NOCONVERGE as model_int.h defines it
 *   (docs/models/meanflow.md, "M2 as printed" says to treat it as saturated:
 *   out->saturated is 1 either way, but
 *   the status tells the two apart).  out->iterations counts every pass of
 *   every solve (both K ends, all sliding-mode solves).  Cost O(K^2) per
 *   pass (~0.35 us at K = 4, Release); 30-100 passes at moderate load, a
 *   few hundred to ~3000 within a few % of saturation, up to ~30000 in
 *   sliding-mode searches right at saturation for k = 17..24.
 *
 * OWNERSHIP: eval allocates one workspace of 4 (K+2)^2 + 2 (K+1) doubles
 * and frees it before returning; no state survives a call.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "torus2d_adaptive_meanflow.h"
#include "torus_common.h"

enum { X_PX, X_PY, X_WE, X_NE, X_NS, X_WS, X_COUNT };
enum { MF_SEL_R, MF_SEL_S, MF_SEL_COUNT };

/* A binary selector that flipped this many times in one solve is chattering
 * on its switching surface (the damped map has no fixed point there). */
#define MF_CHATTER_FLIPS 30

/* Pass cap of one solve with a held selector (the sliding-mode search).
 * Such solves converge in tens to hundreds of passes except within a hair
 * of the fold where the held map loses its steady state; there they crawl
 * (thousands of passes each, dozens of them per search).  Counting a solve
 * that needs more than this as saturated moves the saturation rate of
 * the affected sizes (K >= 5, k = 17..24) down by < 0.1% and cuts a
 * saturation search there from ~0.6 s to ~0.1 s. */
#define MF_SLIDE_CAP 2000

typedef struct mf_ctx {
    int K;                  /* links per dimension of the average message */
    double alpha, beta;     /* stream fractions of the real k, eqs.(1)-(2) */
    double r0;              /* quadrant flow rate, messages/cycle */
    double t_dt;            /* data-trail time, cycles */
    double var_l;           /* message-length variance, cycles^2 */
    double dr;              /* router delay per routing decision, cycles */
    const model_meanflow_params *p;
    int stride;             /* K + 2: grid rows and columns 0..K+1 */
    double *fx, *fy;        /* alpha flows FX(i,j), FY(i,j) */
    double *tx, *ty;        /* residual times TX(i,j), TY(i,j) */
    double *bx, *by;        /* beta residual times TX_j, TY_j, j = 1..K */
    /* Selectors r (eq.(35)) and s (eq.(39)): binary from the waits, or
     * held at a fraction by the sliding-mode solve (mf_solve_sel). */
    int sel_fixed[MF_SEL_COUNT];    /* 1: use sel_value, 0: binary rule */
    double sel_value[MF_SEL_COUNT];
    int sel_last[MF_SEL_COUNT];     /* binary value on the previous pass */
    int sel_flips[MF_SEL_COUNT];    /* flips during the current solve */
    int chatter;                    /* index of a chattering selector + 1 */
} mf_ctx;

#define AT(c, a, i, j) ((c)->a[(i) * (c)->stride + (j)])

/* One contention set of step 5: sum(rate Tb) and sum(rate S2(Tb)). */
typedef struct mf_set {
    double rho_half;        /* sum rate * Tb (rho_C is twice this) */
    double s2;              /* sum rate * (Tb^2 + sigma2) */
} mf_set;

/* Add one class (rate, holding time tb) of a link `links` links from the
 * destination (inclusive) to a set. */
static void set_add(const mf_ctx *c, mf_set *s, double rate, double tb,
                    int links)
{
    double sigma2 = c->var_l;
    if (c->p->sigma_text) {
        /* item 4.10, text form: the waiting part of the holding time;
         * Dr of the routers ahead is deterministic, not waiting */
        double wait = tb - c->t_dt - (links - 1) * c->dr;
        sigma2 += wait * wait;
    }
    s->rho_half += rate * tb;
    s->s2 += rate * (tb * tb + sigma2);
}

/* Step 5: W = sum(rate S2) / (1 - rho), rho = 2 sum(rate Tb) (eq.(18)
 * with the mirror quadrant's doubling cancelling the 1/2). */
static model_status set_wait(const mf_set *s, double *w)
{
    double rho = 2.0 * s->rho_half;
    if (!isfinite(rho) || rho >= 1.0)
        return MODEL_SATURATED;
    *w = s->s2 / (1.0 - rho);
    return MODEL_CONVERGED;
}

static double tbx(const mf_ctx *c, int i, int j)
{
    return AT(c, tx, i, j) - (2 * c->K - i - j + 2);     /* eq.(30) */
}

static double tby(const mf_ctx *c, int i, int j)
{
    return AT(c, ty, i, j) - (2 * c->K - i - j + 2);     /* eq.(31) */
}

/* Steps 1-2: the alpha flows of Fig.1, eqs.(6)-(17) as one rule. */
static void mf_flows(mf_ctx *c, double fX, double fY)
{
    const int K = c->K;
    for (int i = 1; i <= K; i++)
        for (int j = 1; j <= K; j++) {
            double in = (i == 1 && j == 1) ? c->alpha * c->r0 : 0.0;
            if (j > 1)
                in += AT(c, fx, i, j - 1);
            if (i > 1)
                in += AT(c, fy, i - 1, j);
            AT(c, fx, i, j) = fX * in;
            AT(c, fy, i, j) = fY * in;
        }
    for (int i = 1; i <= K; i++)        /* last column, eqs.(14), (17) */
        AT(c, fy, i, K + 1) = AT(c, fx, i, K) +
                              (i > 1 ? AT(c, fy, i - 1, K + 1) : 0.0);
    for (int j = 1; j <= K; j++)        /* last row, eqs.(10)-(11) */
        AT(c, fx, K + 1, j) = AT(c, fy, K, j) +
                              (j > 1 ? AT(c, fx, K + 1, j - 1) : 0.0);
}

/* The preference of a selector at x: the binary rule sets it to 1 iff
 * pref >= 0.
 *   r, eq.(35): "if W_WS < W_WE then r = 0, else r = 1"  -> W_WS - W_WE.
 *   s, eq.(39) fixed (item 4.8): s = 1 (turn east, wait W_NE) iff
 *      W_NE <= W_NS                                      -> W_NS - W_NE;
 *   printed: "if W_NE < W_NS then s = 0, else s = 1" with W_NS on the X
 *      branch                                            -> W_NE - W_NS. */
static double mf_pref(const mf_ctx *c, int sel, const double *x)
{
    if (sel == MF_SEL_R)
        return x[X_WS] - x[X_WE];
    return c->p->eq39_printed ? x[X_NE] - x[X_NS] : x[X_NS] - x[X_NE];
}

/* Selector value in [0, 1]: the binary rule, or the held fraction. */
static double mf_sel(const mf_ctx *c, int sel, const double *x)
{
    if (c->sel_fixed[sel])
        return c->sel_value[sel];
    return mf_pref(c, sel, x) >= 0 ? 1.0 : 0.0;
}

/* Step 3: residual header-to-destination times, eqs.(32)-(42), computed
 * backwards.  `hop` = 1 + Dr is the header's time per link before the last
 * (the crossing plus the next router's decision).  r and s weigh the X
 * branch of eqs.(35) and (39) when both links are busy (0 or 1 except in
 * a sliding-mode solve). */
static void mf_residuals(mf_ctx *c, const double *x, double r, double s)
{
    const int K = c->K;
    const double pX = x[X_PX], pY = x[X_PY];
    const double wWE = x[X_WE], wNE = x[X_NE], wNS = x[X_NS], wWS = x[X_WS];
    const double hop = 1.0 + c->dr, last = c->t_dt + 1.0;
    const double go_x = 1.0 - pX, go_y = pX * (1.0 - pY), both = pX * pY;
    /* eq.(39): the wait on the X (east) and Y (south) branch; fixed pairing
     * W_NE with X (item 4.8), printed W_NS with X */
    const double wy_x = c->p->eq39_printed ? wNS : wNE;
    const double wy_y = c->p->eq39_printed ? wNE : wNS;
    for (int i = K + 1; i >= 1; i--)
        for (int j = K + 1; j >= 1; j--) {
            if (i <= K) {               /* Y(i,j) exists: i <= K */
                double t;
                if (i == K && j == K + 1)
                    t = last;                                   /* (36) */
                else if (j == K + 1)
                    t = wNS + AT(c, ty, i + 1, K + 1) + hop;    /* (38) */
                else if (i == K)
                    t = wNE + AT(c, tx, K + 1, j) + hop;        /* (37) */
                else {                                          /* (39) */
                    double a = AT(c, tx, i + 1, j), b = AT(c, ty, i + 1, j);
                    t = go_x * a + go_y * b +
                        both * (s * (wy_x + a) + (1 - s) * (wy_y + b)) + hop;
                }
                AT(c, ty, i, j) = t;
            }
            if (j <= K) {               /* X(i,j) exists: j <= K */
                double t;
                if (i == K + 1 && j == K)
                    t = last;                                   /* (32) */
                else if (i == K + 1)
                    t = wWE + AT(c, tx, K + 1, j + 1) + hop;    /* (34) */
                else if (j == K)
                    t = wWS + AT(c, ty, i, K + 1) + hop;        /* (33) */
                else {                                          /* (35) */
                    double a = AT(c, tx, i, j + 1), b = AT(c, ty, i, j + 1);
                    t = go_x * a + go_y * b +
                        both * (r * (wWE + a) + (1 - r) * (wWS + b)) + hop;
                }
                AT(c, tx, i, j) = t;
            }
        }
    c->bx[1] = c->by[1] = last;                                 /* (40) */
    for (int j = 2; j <= K; j++) {
        c->bx[j] = wWE + c->bx[j - 1] + hop;                    /* (41) */
        c->by[j] = wNS + c->by[j - 1] + hop;                    /* (42) */
    }
}

/* The fixed-point map: steps 1-6 from x, new unknowns into fx. */
static model_status mf_map(void *vctx, const double *x, double *fx)
{
    mf_ctx *c = vctx;
    const int K = c->K;
    const double pX = x[X_PX], pY = x[X_PY];
    if (!(pX >= 0 && pX < 1 && pY >= 0 && pY < 1))
        return MODEL_SATURATED;
    const double den = 1.0 - pX * pY;
    const double fX = (1.0 - pX) / den, fY = pX * (1.0 - pY) / den;
    const double br = c->beta * c->r0, ar = c->alpha * c->r0;

    /* binary selectors: count flips to detect chattering */
    for (int q = 0; q < MF_SEL_COUNT; q++) {
        if (c->sel_fixed[q])
            continue;
        int b = mf_pref(c, q, x) >= 0;
        if (c->sel_last[q] >= 0 && b != c->sel_last[q] &&
            ++c->sel_flips[q] > MF_CHATTER_FLIPS) {
            c->chatter = q + 1;
            return MODEL_NOCONVERGE;
        }
        c->sel_last[q] = b;
    }
    mf_flows(c, fX, fY);
    mf_residuals(c, x, mf_sel(c, MF_SEL_R, x), mf_sel(c, MF_SEL_S, x));

    /* Step 5, contention sets; a set leaves out the flow on the waiting
     * message's own input link (it holds that link). */
    mf_set we = {0, 0}, ne = {0, 0}, ns = {0, 0}, ws = {0, 0};
    /* C_WE, eqs.(23)-(24), a message going straight east waits for the
     * flows that turn east from the north, the local beta and alpha ones */
    for (int j = 1; j <= K; j++)                    /* last row, (19) */
        set_add(c, &we, AT(c, fy, K, j), tbx(c, K + 1, j), K - j + 1);
    for (int i = 2; i <= K; i++)                    /* (20) */
        for (int j = 1; j <= K; j++)
            set_add(c, &we, fX * AT(c, fy, i - 1, j), tbx(c, i, j),
                    2 * K - i - j + 2);
    set_add(c, &we, br, c->bx[K] - K, K);           /* (21), item 4.3 */
    set_add(c, &we, ar * fX, tbx(c, 1, 1), 2 * K);  /* (22) */
    /* C_NE, eq.(25), turning east from the north: contenders go
     * straight east (from the west), plus the local messages */
    for (int j = 1; j <= K - 1; j++)
        set_add(c, &ne, AT(c, fx, K + 1, j), tbx(c, K + 1, j + 1), K - j);
    for (int i = 1; i <= K; i++)                    /* item 4.4: F^X */
        for (int j = 1; j <= K - 1; j++)
            set_add(c, &ne, fX * AT(c, fx, i, j), tbx(c, i, j + 1),
                    2 * K - i - j + 1);
    int ne_beta = c->p->ne_beta_sum_to_k ? K : K - 1;   /* item 4.6 */
    for (int j = 1; j <= ne_beta; j++)
        set_add(c, &ne, br, c->bx[j] - j, j);
    set_add(c, &ne, ar * fX, tbx(c, 1, 1), 2 * K);
    /* C_NS, eq.(26), straight south: contenders turn south (from the
     * west), plus the local messages */
    for (int i = 1; i <= K; i++)
        set_add(c, &ns, AT(c, fx, i, K), tby(c, i, K + 1), K - i + 1);
    for (int i = 1; i <= K; i++)
        for (int j = 1; j <= K - 1; j++)
            set_add(c, &ns, fY * AT(c, fx, i, j), tby(c, i, j + 1),
                    2 * K - i - j + 1);
    set_add(c, &ns, br, c->by[K] - K, K);
    set_add(c, &ns, ar * fY, tby(c, 1, 1), 2 * K);
    /* C_WS, eq.(27), turning south from the west: contenders go
     * straight south (from the north), plus the local messages */
    for (int i = 1; i <= K - 1; i++)
        set_add(c, &ws, AT(c, fy, i, K + 1), tby(c, i + 1, K + 1), K - i);
    for (int i = 1; i <= K - 1; i++)                /* item 4.5: S^Y */
        for (int j = 1; j <= K; j++)
            set_add(c, &ws, fY * AT(c, fy, i, j), tby(c, i + 1, j),
                    2 * K - i - j + 1);
    for (int i = 1; i <= K; i++)
        set_add(c, &ws, br, c->by[i] - i, i);
    set_add(c, &ws, ar * fY, tby(c, 1, 1), 2 * K);

    if (set_wait(&we, &fx[X_WE]) != MODEL_CONVERGED ||
        set_wait(&ne, &fx[X_NE]) != MODEL_CONVERGED ||
        set_wait(&ns, &fx[X_NS]) != MODEL_CONVERGED ||
        set_wait(&ws, &fx[X_WS]) != MODEL_CONVERGED)
        return MODEL_SATURATED;

    /* Step 6, eqs.(43)-(44) */
    double sx = 0, sy = 0;
    for (int i = 1; i <= K + 1; i++)
        for (int j = 1; j <= K; j++)
            sx += AT(c, fx, i, j) * tbx(c, i, j);
    for (int i = 1; i <= K; i++)
        for (int j = 1; j <= K + 1; j++)
            sy += AT(c, fy, i, j) * tby(c, i, j);
    for (int j = 1; j <= K; j++) {
        sx += br * (c->bx[j] - j);
        sy += br * (c->by[j] - j);
    }
    fx[X_PX] = 2.0 * sx;
    fx[X_PY] = 2.0 * sy;
    if (!(fx[X_PX] < 1.0 && fx[X_PY] < 1.0))
        return MODEL_SATURATED;
    return MODEL_CONVERGED;
}

/* Step 7, eqs.(45)-(46), plus the source router's decision (extension). */
static double mf_latency(mf_ctx *c, const double *x)
{
    const double pX = x[X_PX], pY = x[X_PY];
    const double wWE = x[X_WE], wNE = x[X_NE], wNS = x[X_NS], wWS = x[X_WS];
    mf_residuals(c, x, mf_sel(c, MF_SEL_R, x), mf_sel(c, MF_SEL_S, x));
    const double tx11 = AT(c, tx, 1, 1), ty11 = AT(c, ty, 1, 1);
    const int v = (wWE + wNE) < (wNS + wWS);
    double t_alpha = (1 - pX) * tx11 + pX * (1 - pY) * ty11 +
                     pX * pY * (v ? wWE + wNE + tx11 : wNS + wWS + ty11);
    return c->alpha * t_alpha + c->beta * (c->bx[c->K] + wWE + wNE) +
           c->beta * (c->by[c->K] + wNS + wWS) + c->dr;
}

/* One damped solve (B7) with the current selector modes, from `start`, or
 * from the zero-load point x = 0 (no waits, every link free) when start is
 * NULL; adds its passes to *passes. */
static model_status mf_run(mf_ctx *c, const model_opts *opts,
                           const double *start, double *x, long *passes)
{
    int it = 0;
    for (int i = 0; i < X_COUNT; i++)
        x[i] = start ? start[i] : 0.0;
    for (int q = 0; q < MF_SEL_COUNT; q++) {
        c->sel_last[q] = -1;
        c->sel_flips[q] = 0;
    }
    c->chatter = 0;
    model_opts o = *opts;
    int held = 0;
    for (int q = 0; q < MF_SEL_COUNT; q++)
        held |= c->sel_fixed[q];
    if (held && o.max_iterations > MF_SLIDE_CAP)
        o.max_iterations = MF_SLIDE_CAP;
    model_status st = model_solve(mf_map, c, x, X_COUNT, &o, &it);
    if (held && st == MODEL_NOCONVERGE && !c->chatter)
        st = MODEL_SATURATED;       /* held-selector cap: at the fold */
    *passes += it;
    return st;
}

/* Solve with the binary selectors of eqs.(35)/(39).  When one of them
 * chatters (the damped iterates pile up on its switching surface, e.g.
 * W_WE = W_WS, and flip it every pass), the printed map has no fixed point
 * there: neither value of the selector is consistent with the waits it
 * produces.  We then take the sliding-mode (Filippov) solution: hold the
 * selector at a fraction sigma in [0, 1] (the share of doubly-blocked
 * headers that wait for the X link) and find by Illinois regula falsi the
 * sigma at which the two waits are equal, so the fraction is consistent.
 * A consistent endpoint (sigma = 1 or 0) is taken first; where the binary
 * iteration converges this code is never reached, so every printed value
 * is unchanged.  The other selector may chatter inside; recursion depth is
 * at most 2.  `held` is the bit set of selectors an outer level holds; the
 * others start binary.  The solves with a held selector start from the
 * chattering iterate (a warm start next to the surface: 5-10x fewer passes
 * than from zero load; a held value with no steady state still diverges
 * from there and trips a guard).  On success the selector state is the
 * solution's (mf_latency needs it); on failure it is unspecified. */
static model_status mf_solve_sel(mf_ctx *c, const model_opts *opts,
                                 const double *start, double *x, long *passes,
                                 unsigned held)
{
    for (int sel = 0; sel < MF_SEL_COUNT; sel++)
        if (!(held & (1u << sel)))
            c->sel_fixed[sel] = 0;
    model_status st = mf_run(c, opts, start, x, passes);
    if (st != MODEL_NOCONVERGE || !c->chatter)
        return st;
    const int q = c->chatter - 1;
    double x0[X_COUNT], x1[X_COUNT], seed[X_COUNT];
    memcpy(seed, x, sizeof seed);
    c->sel_fixed[q] = 1;
    c->sel_value[q] = 1.0;
    held |= 1u << q;
    model_status st1 = mf_solve_sel(c, opts, seed, x1, passes, held);
    if (st1 == MODEL_CONVERGED && mf_pref(c, q, x1) >= 0) {
        memcpy(x, x1, sizeof x1);               /* sigma = 1 consistent */
        return MODEL_CONVERGED;
    }
    c->sel_value[q] = 0.0;
    model_status st0 = mf_solve_sel(c, opts, seed, x0, passes, held);
    if (st0 == MODEL_CONVERGED && mf_pref(c, q, x0) < 0) {
        memcpy(x, x0, sizeof x0);               /* sigma = 0 consistent */
        return MODEL_CONVERGED;
    }
    if (st0 == MODEL_NOCONVERGE || st1 == MODEL_NOCONVERGE ||
        (st0 != MODEL_CONVERGED && st1 != MODEL_CONVERGED))
        return st0 != MODEL_CONVERGED ? st0 : st1;
    /* Now pref(0) >= 0 > pref(1), where a saturated end counts on the side
     * it saturates towards: holding sigma = 1 overloads the X links, so
     * W_WE (W_NE) grows without bound and the preference W_WS - W_WE
     * (W_NS - W_NE) tends to -infinity; sigma = 0 the other way round.
     * Illinois regula falsi while both ends are finite, bisection while
     * one is not; an interval that collapses onto the saturation boundary
     * without a consistent point means the model saturates. */
    double lo = 0.0, hi = 1.0;
    /* warm start: the latest converged solution (fewer passes next to
     * saturation, where every solve converges slowly) */
    if (st0 == MODEL_CONVERGED)
        memcpy(seed, x0, sizeof seed);
    else
        memcpy(seed, x1, sizeof seed);
    double hlo = st0 == MODEL_CONVERGED ? mf_pref(c, q, x0) : INFINITY;
    double hhi = st1 == MODEL_CONVERGED ? mf_pref(c, q, x1) : -INFINITY;
    int last_side = 0;
    for (int n = 0; n < 200 && hi - lo > 1e-13; n++) {
        double m = 0.5 * (lo + hi);
        if (isfinite(hlo) && isfinite(hhi)) {
            double sec = (lo * hhi - hi * hlo) / (hhi - hlo);
            if (sec > lo && sec < hi)
                m = sec;
        }
        c->sel_value[q] = m;
        model_status sm = mf_solve_sel(c, opts, seed, x, passes, held);
        double hm;
        if (sm == MODEL_CONVERGED) {
            memcpy(seed, x, sizeof seed);
            hm = mf_pref(c, q, x);
            double scale = fmax(1.0, fmax(fabs(x[X_WE]), fabs(x[X_NE])));
            if (fabs(hm) <= 10 * opts->tolerance * scale)
                return MODEL_CONVERGED;
        } else if (sm == MODEL_SATURATED) {
            /* saturates towards whichever end already saturated */
            hm = st1 != MODEL_CONVERGED ? -INFINITY : INFINITY;
        } else
            return sm;
        if (hm >= 0) {
            lo = m;
            hlo = hm;
            if (last_side == 1 && isfinite(hhi))
                hhi *= 0.5;                     /* Illinois step */
            last_side = 1;
        } else {
            hi = m;
            hhi = hm;
            if (last_side == -1 && isfinite(hlo))
                hlo *= 0.5;
            last_side = -1;
        }
    }
    /* The interval collapsed.  With both ends finite the root is inside
     * it: take the converged solution at lo.  With an infinite end it
     * collapsed onto the saturation boundary: no consistent point. */
    if (isfinite(hlo) && isfinite(hhi)) {
        c->sel_value[q] = lo;
        return mf_solve_sel(c, opts, seed, x, passes, held);
    }
    return MODEL_SATURATED;
}

/* Solve for one integer K with the stream fractions of the real k. */
static model_status mf_solve_k(int K, double alpha, double beta, double r0,
                               double t_dt, double var_l, double dr,
                               const model_meanflow_params *p,
                               const model_opts *opts, double *latency,
                               long *passes)
{
    mf_ctx c;
    memset(&c, 0, sizeof c);
    c.K = K;
    c.alpha = alpha;
    c.beta = beta;
    c.r0 = r0;
    c.t_dt = t_dt;
    c.var_l = var_l;
    c.dr = dr;
    c.p = p;
    c.stride = K + 2;
    size_t cells = (size_t)(K + 2) * (size_t)(K + 2);
    double *mem = xcalloc(4 * cells + 2 * (size_t)(K + 1), sizeof *mem);
    c.fx = mem;
    c.fy = mem + cells;
    c.tx = mem + 2 * cells;
    c.ty = mem + 3 * cells;
    c.bx = mem + 4 * cells;
    c.by = c.bx + K + 1;

    double x[X_COUNT];
    model_status st = mf_solve_sel(&c, opts, NULL, x, passes, 0u);
    if (st == MODEL_CONVERGED)
        *latency = mf_latency(&c, x);
    free(mem);
    return st;
}

void model_meanflow_params_init(model_meanflow_params *p,
                                model_variant variant)
{
    memset(p, 0, sizeof *p);
    if (variant == MODEL_VARIANT_PRINTED) {
        p->rate_factor = 0.25;
        p->ne_beta_sum_to_k = 0;
        p->sigma_text = 1;
    } else {
        p->rate_factor = 0.5;
        p->ne_beta_sum_to_k = 1;
        p->sigma_text = 0;
    }
    p->eq39_printed = 0;
}

double model_meanflow_zero_load(int k, double t_dt, double dr)
{
    double K = k / 4.0;
    double alpha = (k - 1.0) / (k + 1.0), beta = 1.0 / (k + 1.0);
    return alpha * (t_dt + 2 * K * (1 + dr)) + 2 * beta * (t_dt + K * (1 + dr));
}

int model_meanflow_eval(int k, double t_dt, double var_l, double dr,
                        double lam, const model_meanflow_params *p,
                        const model_opts *opts, model_result *out)
{
    if (k < 4 || !(t_dt >= 1) || !(var_l >= 0) || !(dr >= 0) ||
        !(lam >= 0) || !isfinite(lam) || !(p->rate_factor > 0)) {
        memset(out, 0, sizeof *out);
        out->saturated = 1;
        out->status = MODEL_SATURATED;
        return ERR_INVALID;
    }
    const double alpha = (k - 1.0) / (k + 1.0), beta = 1.0 / (k + 1.0);
    const double r0 = p->rate_factor * lam;
    const int k1 = k / 4, k2 = (k + 3) / 4;    /* item 4.13 */
    double t1 = 0, t2 = 0;
    long passes = 0;
    model_status st = mf_solve_k(k1, alpha, beta, r0, t_dt, var_l, dr, p,
                                 opts, &t1, &passes);
    if (st == MODEL_CONVERGED && k2 != k1) {
        st = mf_solve_k(k2, alpha, beta, r0, t_dt, var_l, dr, p, opts, &t2,
                        &passes);
        t1 += (k / 4.0 - k1) * (t2 - t1);
    }
    int it = passes > INT_MAX ? INT_MAX : (int)passes;
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, it);
    return model_result_ok(out, t1, t1, 0.0, 1.0, it);
}

/* ---- the uniform model interface --------------------------------------- */

static int mf_covers(const net_design *d, const net_workload *w, char *why,
                     size_t why_size)
{
    const char *reason = NULL;
    if (d->topology != NET_TORUS || d->n != 2)
        reason = "needs a 2-D torus ([QCC02] analyses the k x k torus only)";
    else if (d->k[0] != d->k[1])
        reason = "needs a square k x k torus (one K = k/4 for both "
                 "dimensions)";
    else if (d->k[0] < 4)
        reason = "needs k >= 4 (K = k/4 links per dimension, at least 1)";
    else if (d->routing != NET_ROUTE_MINIMAL_ADAPTIVE)
        reason = "needs minimal_adaptive routing";
    else if (d->switching != NET_SWITCH_WORMHOLE)
        reason = "needs wormhole switching";
    else if (w->traffic != NET_TRAFFIC_UNIFORM)
        reason = "needs uniform traffic (the quadrant flows assume it)";
    else if (w->length != NET_LENGTH_FIXED &&
             w->length != NET_LENGTH_EXPONENTIAL)
        reason = "needs fixed or exponential message lengths";
    else if (d->router_delay < 0)
        reason = "needs router delay >= 0";
    else if (d->vcs < 3 || d->vcs > MODEL_TORUS_VMAX)
        reason = "needs 3 <= vcs <= 1024 (two escape VCs and at least one "
                 "adaptive VC per link)";
    if (reason) {
        if (why && why_size)
            snprintf(why, why_size, "%s", reason);
        return -1;
    }
    if (why && why_size)
        why[0] = '\0';
    return 0;
}

/* Var_L in cycles^2: 0 for fixed lengths; geometric on {1,2,...} with mean
 * Lm (dse's exponential lengths) has variance Lm(Lm - 1). */
static double mf_length_variance(const net_workload *w, double lm)
{
    return w->length == NET_LENGTH_EXPONENTIAL ? lm * (lm - 1.0) : 0.0;
}

/* ---- corrected variant: the links with their V VCs (header comment) --- */

typedef struct mfc_ctx {
    double mc;          /* messages/cycle per channel, lam D / 4 */
    double f2;          /* share of channel visits with both dims left */
    double dr, wqd;
    int vcs;
    model_hold hold;    /* the worm's holding time (model__torus_hold_any) */
    double s0, var0;    /* its zero-load mean and variance */
    double pblk;        /* mean blocking probability per hop (mfc_chain),
                           each term already divided by its candidates */
} mfc_ctx;

/* Corrected (b)-(c): the pooled chain of holding time s, P_a and P_d, each
 * hop's term divided by the number of candidate VCs whose first release
 * unblocks it. */
static model_status mfc_chain(mfc_ctx *c, double s, double *p)
{
    model_status st = vc_chain_probs(c->mc, s, c->vcs, p);
    if (st != MODEL_CONVERGED)
        return st;
    const int V = c->vcs;
    double pa = clamp01(p[V] + 2 * p[V - 1] / V + p[V - 2] / binom(V, 2));
    double pd = clamp01(p[V] + p[V - 1] / V);
    double m2 = 2.0 * (V - 2) + 1, m1 = (V - 2) + 1.0;
    c->pblk = c->f2 * pa * pd / m2 + (1 - c->f2) * pd / m1;
    return MODEL_CONVERGED;
}

/* Corrected (d): x[0] = S, the mean VC holding time over channel visits. */
static model_status mfc_map(void *vctx, const double *x, double *fx)
{
    mfc_ctx *c = vctx;
    double p[MODEL_TORUS_VMAX + 1];
    model_status st = mfc_chain(c, x[0], p);
    if (st != MODEL_CONVERGED)
        return st;
    const model_hold *h = &c->hold;
    double wait = c->pblk * model__hold_residual(x[0], c->s0, c->var0);
    fx[0] = 1 + h->coef[0] * (1 + c->dr + wait) + h->drain +
            h->out * c->wqd;
    return MODEL_CONVERGED;
}

/* Corrected (e): the worm's stretch, CV6's stages (the injection
 * channel and one stage per dimension) with each dimension's stall counted
 * once per distinct competitor met along the worm's segment of the ring,
 * (2 - 1/h) stalls for a segment of h hops.  INFINITY when a stage is
 * overloaded. */
double model_meanflow_stretch(const net_design *d, const net_workload *w,
                              double rate)
{
    const double lm = net_message_flits(d, w);
    model_worm_path path;
    model__torus_worm_path(d, rate, &path);
    for (int i = 0; i < path.nseg; i++) {
        double h = path.hops[i] >= 1 ? path.hops[i] : 1;
        path.stall[i] = model_ps_stall(path.stall[i] * lm, d->vcs) *
                        (2.0 - 1.0 / h);
    }
    return model_worm_stretch(d, w, rate, &path);
}

static int mfc_eval(const net_design *d, const net_workload *w, double rate,
                    const model_opts *opts, model_result *out)
{
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_NOCONVERGE, 0);
    const int k = d->k[0];
    const double lm = net_message_flits(d, w);
    const double hops = net_avg_distance(d);      /* (a) exact */
    mfc_ctx c;
    memset(&c, 0, sizeof c);
    c.vcs = d->vcs;
    c.dr = d->router_delay;
    c.mc = rate * hops / 4.0;
    c.f2 = (1.0 - 1.0 / k) / 2.0;                 /* (b) X first */
    /* (e)-(f): the worm's stretch, and the ejection channel held for its
     * drain */
    double s = model_meanflow_stretch(d, w, rate);
    if (!isfinite(s) ||
        model_ejection_worm(d, rate, lm, model_length_m2(d, w), s,
                            &c.wqd) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 0);
    model__torus_hold_any(d, w, &c.hold);
    c.s0 = 1 + c.hold.coef[0] * (1 + c.dr) + c.hold.drain;
    c.var0 = fmax(0.0, c.hold.m2 - c.s0 * c.s0);

    double x = c.s0;
    int iters = 0;
    model_status st = model_solve(mfc_map, &c, &x, 1, opts, &iters);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iters);
    double p[MODEL_TORUS_VMAX + 1];
    if (mfc_chain(&c, x, p) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    double blocking = hops * c.pblk * model__hold_residual(x, c.s0, c.var0);
    double L = hops * (1 + c.dr) + lm + c.wqd + blocking;
    /* (g): the routing decisions and the ejection wait send nothing and are
     * not stretched; no source queue (the network latency, as M2) */
    double idle = hops * c.dr + c.wqd;
    double latency = (L - idle) * s + idle;
    return model_result_ok(out, latency, latency, 0.0, s, iters);
}

static int mf_eval(const net_design *d, const net_workload *w, double rate,
                   const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    if (o->variant == MODEL_VARIANT_CORRECTED)
        return mfc_eval(d, w, rate, o, out);
    model_meanflow_params p;
    model_meanflow_params_init(&p, o->variant);
    double lm = net_message_flits(d, w);
    return model_meanflow_eval(d->k[0], lm, mf_length_variance(w, lm),
                               d->router_delay, rate, &p, o, out);
}

static double mf_zero_load(const net_design *d, const net_workload *w,
                           const model_opts *opts)
{
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    if (o->variant == MODEL_VARIANT_CORRECTED)
        return net_avg_distance(d) * (1 + d->router_delay) +
               net_message_flits(d, w);
    return model_meanflow_zero_load(d->k[0], net_message_flits(d, w),
                                    d->router_delay);
}

/* [QCC02] section 5: 8x8 torus, 12-flit messages (fixed length by fit),
 * uniform destinations; the validation simulator had 4 VCs per link; no
 * router delay.  Buffer depth and ejection are not stated: 1 flit, and
 * immediate consumption (the model has no ejection queue). */
static void mf_example(net_design *d, net_workload *w)
{
    net_design_init(d);
    d->topology = NET_TORUS;
    net_design_set_radix(d, 2, 8);
    d->vcs = 4;
    d->buffer_flits = 1;
    d->width = 1;
    d->routing = NET_ROUTE_MINIMAL_ADAPTIVE;
    d->switching = NET_SWITCH_WORMHOLE;
    d->router_delay = 0;
    d->ejection_channels = 0;
    net_workload_init(w);
    w->message_bits = 12;
    w->length = NET_LENGTH_FIXED;
    w->traffic = NET_TRAFFIC_UNIFORM;
}

const model model_torus2d_adaptive_meanflow = {
    .name = "torus2d-adaptive-meanflow",
    .source = "[M2] Quaglia et al. 2002, secs.3-4, eqs.(1)-(46); "
              "docs/models/meanflow.md",
    .summary = "2-D k x k torus, minimal fully adaptive wormhole, uniform "
               "traffic, network latency only: mean-flow without VCs "
               "(recommended); the links' V VCs (corrected)",
    .covers = mf_covers,
    .eval = mf_eval,
    .zero_load = mf_zero_load,
    .example = mf_example,
};
