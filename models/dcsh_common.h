/*
 * dcsh_common.h — private helpers shared by the DCSH family of models
 * ([L99], chapters 2, 3 and 6.3.2) and by hcube-duato, which is the
 * chapter 2 model at k = 2.  Private to models/.
 *
 *   dcsh__params_init()      the common quantities: p_j, d_avg, W_qd, ...
 *   dcsh__covers_common()    the checks every DCSH model makes
 *   dcsh__adaptive_eval()    the chapter 2 model (Duato, M3) and its
 *                            section 3.2.1 variant (hop-based, M4): one
 *                            scalar fixed point on the mean network latency
 *
 * Units: rates in messages/node/cycle, times in cycles.
 */
#ifndef DSE_DCSH_COMMON_H
#define DSE_DCSH_COMMON_H

#include "model_int.h"

typedef struct dcsh_params {
    int n;                      /* dimensions */
    int k;                      /* cluster size (2 for the hypercube) */
    int vcs;                    /* V */
    long nodes;                 /* N = k^n */
    double lam;                 /* m_g, messages/node/cycle */
    double lm;                  /* L_m, mean message length in flits */
    double dr;                  /* D_r, router delay in cycles */
    double d_avg;               /* n (k-1)/k N/(N-1)                (2.4) */
    double p[NET_MAX_DIMS + 1]; /* p_j, j = 1..n                (2.1-2.3) */
    double w_qd;                /* ejection wait lam Lm^2 (2.11), 0 with
                                   multiple ejection channels; the
                                   corrected variant replaces it by
                                   model_ejection_mg1() */
} dcsh_params;

/* Fill p from a covered design and workload at rate lam. */
void dcsh__params_init(dcsh_params *p, const net_design *d,
                       const net_workload *w, double lam);

/* Checks shared by the DCSH models: topology `topo` (NET_DCSH, or
 * NET_HYPERCUBE for hcube-duato), wormhole switching, routing `routing`,
 * the same radix in every dimension, uniform traffic, one ejection channel
 * or unlimited ones (0), and net_check().  0, or -1 with the reason. */
int dcsh__covers_common(const net_design *d, const net_workload *w,
                        net_topology topo, net_routing routing, char *why,
                        size_t why_size);

/* How a header that still needs h hops is blocked. */
typedef enum {
    DCSH_BLOCK_DUATO,   /* (2.7): all adaptive VCs of h-1 dims + all VCs of
                           the escape dim busy */
    DCSH_BLOCK_HOP,     /* (3.1)-(3.2): VC number h busy on all h dims */
} dcsh_block;

/* The chapter 2 model (M3) with the blocking rule `block`; input_mux = 1
 * applies the input-multiplexer factor M_avg (2.15)-(2.17), or its
 * processor-sharing form 1/(1 - rho) in the corrected variant; 0 leaves it
 * out (hcube-duato, see hcube_duato.c).  opts->variant ==
 * MODEL_VARIANT_CORRECTED selects the corrected variant (dcsh_common.c
 * header).  Returns what model_result_ok/fail return. */
int dcsh__adaptive_eval(const net_design *d, const net_workload *w,
                        double rate, const model_opts *opts, dcsh_block block,
                        int input_mux, model_result *out);

/* Corrected variant, dimension-order DCSH (dcsh-det-vc): the drain
 * stretch s >= 1 of a worm at the ejection channel, the mean time from the
 * header's taking the ejection channel to the tail's consumption over the
 * mean length (dcsh_common.c, "the DCSH drain"; docs/models/corrected.md,
 * CV13).  INFINITY when a stage is overloaded. */
double dcsh__drain_det(const net_design *d, const net_workload *w,
                       const dcsh_params *p);

/* Zero-load limit of the adaptive models: d_avg (1 + Dr) + Lm (A.3). */
double dcsh__adaptive_zero_load(const net_design *d, const net_workload *w);

/* The thesis's validation set-ups share everything but these: n
 * dimensions of radix k, V VCs, the routing, Lm-bit (1-wire: Lm-flit)
 * exponential messages, Dr = 0, one ejection channel.  Fills (d, w) for
 * the models' example(). */
void dcsh__example(net_design *d, net_workload *w, net_topology topology,
                   int n, int k, int vcs, net_routing routing, int bits);

#endif
