/*
 * validate_regime.c — where a model's measured error band may be trusted:
 * the regime its validation set-ups (validate_configs.c) span.
 *
 * A band measured on 8x8 and 32x32 tori with short messages says nothing
 * about a 128x4 torus: torus-det put the saturation of such long-ring
 * tori at 0.60x and 0.74x the simulator's, outside its band, and the
 * decision ruled out designs that were on the simulated front.  So the
 * decision widens a model's figures by its band only for a design inside
 * the box its set-ups span, and uses the physical screen (exact zero-load
 * latency, channel-load bound) elsewhere (dse/search/decide.c).  The box,
 * per model, over its set-ups: the same topology, routing and traffic
 * pattern as one of them; the number of dimensions, the longest ring, and
 * the message length over the mean distance (Lm / D: short messages over
 * long paths behave unlike long worms over short ones) and the router
 * delay D_r (a study that prices routers per design gives them delays no
 * set-up had) between the set-ups' smallest and largest; mixed radices
 * only if a set-up had them.
 * Load is covered by the band itself (measured up to saturation).
 *
 * Cost: the set-ups are parsed once (pthread_once), a few hundred; a query
 * is a scan of the model's boxes.  Thread-safe after the first call.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "dse/validate/validate.h"
#include "models/model.h"

#define REGIME_MAX_MODELS 64
#define REGIME_MAX_KINDS 8

typedef struct regime_kind {
    net_topology topo;
    net_routing routing;
    net_traffic traffic;
    int nmin, nmax, kmin, kmax, mixed;
    int dmin, dmax;              /* router delay D_r, cycles */
    double rmin, rmax;           /* Lm / mean distance */
} regime_kind;

typedef struct regime {
    const char *model;
    regime_kind kind[REGIME_MAX_KINDS];
    int nkinds;
} regime;

static regime regimes[REGIME_MAX_MODELS];
static int nregimes;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void features(const net_design *d, const net_workload *w, int *kmax,
                     int *mixed, double *ratio)
{
    *kmax = 0;
    *mixed = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->k[i] > *kmax)
            *kmax = d->k[i];
        *mixed |= d->k[i] != d->k[0];
    }
    double dist = net_avg_distance(d);
    *ratio = dist > 0 ? net_message_flits(d, w) / dist : INFINITY;
}

static void load(void)
{
    size_t n;
    const dse_validate_config *cfg = dse_validate_configs(&n);
    for (size_t q = 0; q < n; q++) {
        const model *m = model_find(cfg[q].model);
        if (!m || !m->example)
            continue;
        net_design d;
        net_workload w;
        net_design_init(&d);
        net_workload_init(&w);
        m->example(&d, &w);
        err e;
        if ((cfg[q].design && net_design_parse(&d, cfg[q].design, &e)) ||
            (cfg[q].workload && net_workload_parse(&w, cfg[q].workload, &e)))
            continue;
        int r = 0;
        while (r < nregimes && strcmp(regimes[r].model, cfg[q].model) != 0)
            r++;
        if (r == nregimes) {
            if (nregimes == REGIME_MAX_MODELS)
                continue;
            regimes[nregimes].model = cfg[q].model;
            regimes[nregimes++].nkinds = 0;
        }
        regime *g = &regimes[r];
        int kmax, mixed;
        double ratio;
        features(&d, &w, &kmax, &mixed, &ratio);
        int k = 0;
        while (k < g->nkinds &&
               !(g->kind[k].topo == d.topology &&
                 g->kind[k].routing == d.routing &&
                 g->kind[k].traffic == w.traffic))
            k++;
        if (k == g->nkinds) {
            if (g->nkinds == REGIME_MAX_KINDS)
                continue;
            g->kind[k] = (regime_kind){d.topology, d.routing, w.traffic,
                                       d.n, d.n, kmax, kmax, mixed,
                                       d.router_delay, d.router_delay,
                                       ratio, ratio};
            g->nkinds++;
            continue;
        }
        regime_kind *x = &g->kind[k];
        x->nmin = d.n < x->nmin ? d.n : x->nmin;
        x->nmax = d.n > x->nmax ? d.n : x->nmax;
        x->kmin = kmax < x->kmin ? kmax : x->kmin;
        x->kmax = kmax > x->kmax ? kmax : x->kmax;
        x->mixed |= mixed;
        x->dmin = d.router_delay < x->dmin ? d.router_delay : x->dmin;
        x->dmax = d.router_delay > x->dmax ? d.router_delay : x->dmax;
        x->rmin = fmin(x->rmin, ratio);
        x->rmax = fmax(x->rmax, ratio);
    }
}

int dse_validate_covers(const char *model_name, const net_design *d,
                        const net_workload *w)
{
    pthread_once(&once, load);
    if (!model_name)
        return 0;
    int kmax, mixed;
    double ratio;
    features(d, w, &kmax, &mixed, &ratio);
    for (int r = 0; r < nregimes; r++) {
        if (strcmp(regimes[r].model, model_name) != 0)
            continue;
        for (int k = 0; k < regimes[r].nkinds; k++) {
            const regime_kind *x = &regimes[r].kind[k];
            if (x->topo == d->topology && x->routing == d->routing &&
                x->traffic == w->traffic && d->n >= x->nmin &&
                d->n <= x->nmax && kmax >= x->kmin && kmax <= x->kmax &&
                (!mixed || x->mixed) && d->router_delay >= x->dmin &&
                d->router_delay <= x->dmax &&
                ratio >= x->rmin * (1 - 1e-9) &&
                ratio <= x->rmax * (1 + 1e-9))
                return 1;
        }
    }
    return 0;
}
