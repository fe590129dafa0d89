/* bench/probe_det.c — measured VC occupancy, holds and header blocking of a
 * dimension-order torus, per (dimension, direction) and dateline class
 * (docs/models/corrected.md, CV17).
 *   bench_probe_det DESIGN WORKLOAD RATE WARM CYCLES
 * Samples every VC every cycle.  Per (dimension, direction): VC
 * acquisitions per channel and cycle and the mean hold (Little) of each
 * class (even VCs class 0, odd class 1, sim/route_dor.c), P(all the
 * class's VCs of a channel busy), and the headers waiting for a channel of
 * that (dimension, direction) after their routing delay, split into
 * entries (the worm has not moved along this ring yet) and continuations
 * (it has): waiting cycles per
 * acquisition (each hop shows one pipeline cycle: subtract 1 for the
 * blocking delay) and the fraction of acquisitions that waited more than
 * that cycle.  Seed 1.  Prints figures, asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/sim_int.h"
#include "net/net.h"
#include "net/xalloc.h"

/* argv[i] as a number in [lo, hi], or exit 2 with the reason. */
static double arg(char **argv, int i, double lo, double hi)
{
    char *end;
    double v = strtod(argv[i], &end);
    if (end == argv[i] || *end || !(v >= lo && v <= hi)) {
        fprintf(stderr, "bench_probe_det: argument %d '%s': a number in "
                        "[%g, %g] expected\n", i, argv[i], lo, hi);
        exit(2);
    }
    return v;
}

#define MAXD 8

typedef struct acc {
    double busy[2], acq[2], allbusy[2];
    double acq_kind[2];            /* acquisitions: 0 entry, 1 continue */
    double wait_kind[2];           /* header waiting cycles by kind */
    double blk_kind[2];            /* acquisitions that waited > 1 cycle */
} acc;

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bench_probe_det DESIGN WORKLOAD RATE WARM "
                        "CYCLES\n");
        return 2;
    }
    sim_params p;
    sim_params_init(&p);
    err e;
    err_clear(&e);
    if (net_design_parse(&p.design, argv[1], &e) ||
        net_workload_parse(&p.workload, argv[2], &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    if (p.design.n > MAXD || p.design.topology != NET_TORUS) {
        fprintf(stderr, "bench_probe_det: a torus of at most %d dimensions\n",
                MAXD);
        return 2;
    }
    p.rate = arg(argv, 3, 0, 1);
    p.seed = 1;
    long warm = (long)arg(argv, 4, 0, 1e8), cyc = (long)arg(argv, 5, 1, 1e8);
    sim_net *net;
    if (sim_net_create(&p, &net, &e) || sim_net_step(net, warm, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    const sim_topo *t = &net->topo;
    int V = net->V, nnet = t->nnet, n = t->n;
    long nvc = net->nvc;
    int32_t *last = xmalloc(sizeof(int32_t) * (size_t)nvc);
    /* per waiting header: the cycles it has waited in this episode */
    int32_t *waited = xcalloc((size_t)nvc, sizeof(int32_t));
    for (long x = 0; x < nvc; x++)
        last[x] = net->vc[x].msg;
    acc a[MAXD][2];
    memset(a, 0, sizeof a);
    double chans[MAXD][2] = {{0}};
    for (int ch = 0; ch < nnet; ch++)
        chans[t->chan[ch].dim][t->chan[ch].dir < 0] += 1;
    int vc0 = (V + 1) / 2, vc1 = V / 2;
    sim_counts c0, c1;
    sim_net_counts(net, &c0);
    for (long cy = 0; cy < cyc; cy++) {
        if (sim_net_step(net, 1, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            return 1;
        }
        for (int ch = 0; ch < nnet; ch++) {
            acc *q = &a[t->chan[ch].dim][t->chan[ch].dir < 0];
            int nb[2] = {0, 0};
            for (int v = 0; v < V; v++) {
                long x = (long)ch * V + v;
                const sim_vc *vx = &net->vc[x];
                int c = V >= 2 ? v % 2 : 0;
                if (vx->msg != SIM_NONE) {
                    nb[c]++;
                    q->busy[c]++;
                    if (vx->msg != last[x]) {
                        q->acq[c]++;
                        /* a continuation iff the worm has already
                         * moved along this ring (dimension order) */
                        int d = t->chan[ch].dim;
                        const sim_msg *m = &net->msg[vx->msg];
                        int kind = sim_topo_coord(t, t->chan[ch].src, d) !=
                                   sim_topo_coord(t, m->src, d);
                        q->acq_kind[kind]++;
                    }
                }
                last[x] = vx->msg;
            }
            if (V >= 2) {
                q->allbusy[0] += nb[0] == vc0;
                q->allbusy[1] += nb[1] == vc1;
            } else {
                q->allbusy[0] += nb[0] == V;
            }
        }
        /* headers waiting for their next channel (network or injection
         * VCs), after the routing delay */
        for (long x = 0; x < nvc; x++) {
            const sim_vc *vx = &net->vc[x];
            int w = vx->msg != SIM_NONE && vx->occ > 0 && vx->first == 0 &&
                    vx->out == SIM_NONE && net->vc_ready[x] <= net->now;
            if (!w) {
                waited[x] = 0;
                continue;
            }
            int ch = (int)(x / V);
            const sim_msg *m = &net->msg[vx->msg];
            int r = t->chan[ch].dst;
            if (m->dst == r) {
                waited[x] = 0;
                continue;
            }
            int wd = -1, wdir = 0;
            for (int d = 0; d < n; d++) {
                int ca = sim_topo_coord(t, r, d);
                int cb = sim_topo_coord(t, m->dst, d);
                if (ca == cb)
                    continue;
                int k = t->k[d], off = ((cb - ca) % k + k) % k;
                wd = d;
                wdir = off <= k - off ? 0 : 1;
                break;
            }
            if (wd < 0)
                continue;
            int kind = sim_topo_coord(t, r, wd) !=
                       sim_topo_coord(t, m->src, wd);
            acc *q = &a[wd][wdir];
            q->wait_kind[kind]++;
            if (++waited[x] == 2)
                q->blk_kind[kind]++;
        }
    }
    sim_net_counts(net, &c1);
    double deliv = (double)(c1.delivered - c0.delivered);
    printf("rate %g V %d cycles %ld delivered/node/cycle %g\n", p.rate, V,
           cyc, deliv / cyc / net->nodes);
    for (int d = 0; d < n; d++)
        for (int s = 0; s < 2; s++) {
            acc *q = &a[d][s];
            double smp = chans[d][s] * cyc;
            if (!(smp > 0))
                continue;
            double acq = q->acq[0] + q->acq[1];
            printf("dim %d %c: acq/ch/cycle %.5f (class0 %.5f class1 %.5f)\n",
                   d, s ? '-' : '+', acq / smp, q->acq[0] / smp,
                   q->acq[1] / smp);
            for (int c = 0; c < (V >= 2 ? 2 : 1); c++)
                printf("  class %d: hold %.3f  P(all busy) %.4f\n", c,
                       q->acq[c] > 0 ? q->busy[c] / q->acq[c] : 0,
                       q->allbusy[c] / smp);
            for (int k = 0; k < 2; k++) {
                double na = q->acq_kind[k];
                printf("  %s: %.3f of acq, wait/acq %.3f, blocked frac "
                       "%.4f\n", k ? "continue" : "entry   ",
                       acq > 0 ? na / acq : 0,
                       na > 0 ? q->wait_kind[k] / na : 0,
                       na > 0 ? q->blk_kind[k] / na : 0);
            }
            printf("  all: wait/acq %.3f\n",
                   acq > 0 ? (q->wait_kind[0] + q->wait_kind[1]) / acq : 0);
        }
    free(last);
    free(waited);
    sim_net_destroy(net);
    return 0;
}
