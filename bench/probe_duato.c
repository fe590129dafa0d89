/* bench/probe_duato.c — measured VC occupancy, holds and header blocking
 * of a Duato torus (docs/models/corrected.md, CV7).
 *   bench_probe_duato DESIGN WORKLOAD RATE WARM CYCLES
 * Samples every network channel every cycle: busy-VC distribution (all,
 * adaptive, escape), VC acquisitions and holds (Little), headers blocked
 * after their routing delay (every hop shows one pipeline cycle: subtract
 * it), ejection waits and ejection-channel holds.  Seed 1.  Prints figures,
 * asserts nothing. */
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
        fprintf(stderr, "bench_probe_duato: argument %d '%s': a number in "
                        "[%g, %g] expected\n", i, argv[i], lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bench_probe_duato DESIGN WORKLOAD RATE WARM "
                        "CYCLES\n");
        return 2;
    }
    sim_params p;
    sim_params_init(&p);
    err e; err_clear(&e);
    if (net_design_parse(&p.design, argv[1], &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    if (net_workload_parse(&p.workload, argv[2], &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    p.rate = arg(argv, 3, 0, 1);
    p.seed = 1;
    long warm = (long)arg(argv, 4, 0, 1e8), cyc = (long)arg(argv, 5, 1, 1e8);
    sim_net *net;
    if (sim_net_create(&p, &net, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    if (sim_net_step(net, warm, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    int V = net->V, nnet = net->topo.nnet;
    long nvcn = (long)nnet * V;
    int32_t *last = xmalloc(sizeof(int32_t) * (size_t)nvcn);
    char *blk = xcalloc((size_t)nvcn, 1);
    for (long x = 0; x < nvcn; x++) last[x] = net->vc[x].msg;
    double hist[65] = {0}, ahist[65] = {0}, esc[2] = {0};
    double acq = 0, acq_ad = 0, acq_esc = 0, busy_ad = 0, busy_esc = 0;
    double bcyc = 0, ecyc = 0, bstart = 0, estart = 0, rcyc = 0;
    double bdims[8] = {0}, ejbusy = 0;
    sim_counts c0, c1;
    sim_net_counts(net, &c0);
    for (long t = 0; t < cyc; t++) {
        if (sim_net_step(net, 1, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
        for (int r = 0; r < net->nodes; r++) ejbusy += net->eject_busy[r];
        for (int ch = 0; ch < nnet; ch++) {
            int nb = 0, na = 0;
            for (int v = 0; v < V; v++) {
                long x = (long)ch * V + v;
                sim_vc *vx = &net->vc[x];
                if (vx->msg != SIM_NONE) {
                    nb++;
                    if (v >= 2) { na++; busy_ad++; } else { esc[v]++; busy_esc++; }
                    if (vx->msg != last[x]) { acq++; if (v >= 2) acq_ad++; else acq_esc++; }
                }
                last[x] = vx->msg;
                int isblk = 0, isej = 0;
                if (vx->msg != SIM_NONE && vx->occ > 0 && vx->first == 0 &&
                    vx->out == SIM_NONE) {
                    if (net->vc_ready[x] <= net->now) {
                        const sim_msg *m = &net->msg[vx->msg];
                        int r = net->topo.chan[ch].dst;
                        if (m->dst == r) isej = 1; else {
                            isblk = 1;
                            int nd = 0;
                            for (int d = 0; d < net->topo.n; d++)
                                if (sim_topo_coord(&net->topo, r, d) != sim_topo_coord(&net->topo, m->dst, d)) nd++;
                            bdims[nd]++;
                        }
                    } else rcyc++;
                }
                if (isblk) { bcyc++; if (blk[x] != 1) bstart++; }
                if (isej) { ecyc++; if (blk[x] != 2) estart++; }
                blk[x] = isblk ? 1 : isej ? 2 : 0;
            }
            hist[nb]++;
            ahist[na]++;
        }
    }
    sim_net_counts(net, &c1);
    double samples = (double)cyc * nnet;
    double deliv = (double)(c1.delivered - c0.delivered);
    printf("rate %g V %d channels %d cycles %ld delivered/node/cycle %g\n", p.rate, V, nnet, cyc, deliv / cyc / net->nodes);
    printf("P[v busy]:");
    for (int v = 0; v <= V; v++) printf(" %.4f", hist[v] / samples);
    printf("\nP[adaptive busy]:");
    for (int v = 0; v <= V - 2; v++) printf(" %.4f", ahist[v] / samples);
    printf("\nP(esc0 busy) %.4f P(esc1 busy) %.4f\n", esc[0] / samples, esc[1] / samples);
    printf("acq per ch per cycle %.5f (adaptive %.5f, escape %.5f)\n", acq / samples, acq_ad / samples, acq_esc / samples);
    printf("mean busy VCs %.4f; hold all %.3f adaptive %.3f escape %.3f\n", (busy_ad + busy_esc) / samples,
           (busy_ad + busy_esc) / acq, busy_ad / acq_ad, busy_esc / acq_esc);
    printf("blocked header: fraction of acquisitions that block %.4f, mean blocked episode %.3f, blocked cycles per acq %.4f\n",
           bstart / acq, bcyc / bstart, bcyc / acq);
    printf("  dims left when blocked:");
    for (int d = 1; d <= net->topo.n; d++) printf(" %d:%.3f", d, bdims[d] / bcyc);
    printf("\nejection wait: per delivered message %.3f (episodes/msg %.3f, mean %.3f); routing cycles per acq %.3f\n",
           ecyc / deliv, estart / deliv, ecyc / (estart > 0 ? estart : 1), rcyc / acq);
    printf("ejection channel hold per delivered message %.3f (utilisation %.4f)\n", ejbusy / deliv, ejbusy / cyc / net->nodes);
    free(last);
    free(blk);
    sim_net_destroy(net);
    return 0;
}
