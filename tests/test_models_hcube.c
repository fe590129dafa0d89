/*
 * test_models_hcube.c — the hypercube models: hcube-pcube (M1),
 * hcube-pcs-hotspot (M9) and hcube-duato (M3 at k = 2, more in
 * test_models_dcsh.c).
 *
 * Oracles, none computed by the code under test:
 *   - P-cube channel rates against a brute-force enumeration of every path
 *     the P-cube routing function ([PS06] Fig.2) allows, for n = 1..6, and
 *     against the closed forms of docs/models/hypercube-dcsh.md and its
 *     10-cube table (Fig.3 set-up);
 *   - the symmetry-reduced P-cube model against a pair-by-pair, channel-by-
 *     channel implementation of the paper's equations (eqs.6-25 with
 *     the documented resolutions) for n <= 6;
 *   - PCS hot-spot channel rates against a brute-force split of every
 *     source's hot-spot traffic over its minimal paths; the random-walk
 *     set-up time against a direct linear solve of [SKFO05] eq.(8); the PCS
 *     model against an independent re-implementation with those two;
 *   - zero-load limits against docs/models/conventions.md, "Zero-load closed
 *   forms".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hcube_pcs_int.h"
#include "models/hcube_pcube_int.h"
#include "models/model.h"

extern const model model_hcube_pcube;
extern const model model_hcube_pcs_hotspot;
extern const model model_hcube_duato;

static int popcount(unsigned x)
{
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(1e-300, fmax(fabs(a), fabs(b)));
}

static double choose(int a, int b)
{
    if (b < 0 || b > a)
        return 0;
    double c = 1;
    for (int i = 1; i <= b; i++)
        c = c * (a - b + i) / i;
    return c;
}

static void pcube_design(net_design *d, net_workload *w, int n, int vcs,
                         int lm)
{
    net_design_init(d);
    net_workload_init(w);
    d->topology = NET_HYPERCUBE;
    net_design_set_radix(d, n, 2);
    d->vcs = vcs;
    d->routing = NET_ROUTE_PCUBE;
    d->router_delay = 0;
    d->ejection_channels = 1;
    d->width = 1;
    w->message_bits = lm;
}

/* ======================================================================
 * Brute-force P-cube paths: for one pair, enumerate every path the routing
 * function of [PS06] Fig.2 allows (R = C & ~D; if R == 0, R = ~C & D; any
 * set bit of R may be taken), counting per directed channel (node * n +
 * dim) how many paths use it and which nodes are reached at each depth.
 * ==================================================================== */

typedef struct bf_pair {
    int src, dst, hops;
    double paths;            /* total P-cube paths of the pair */
    int nuse;
    int *use_ch;             /* channels used */
    double *use_paths;       /* paths through each */
    uint64_t depth_nodes[8]; /* nodes occupied after i hops, i < hops */
} bf_pair;

static unsigned pcube_route(unsigned cur, unsigned dst, unsigned mask)
{
    unsigned r = cur & ~dst & mask;
    if (!r)
        r = ~cur & dst & mask;
    return r;
}

static void bf_dfs(int n, unsigned cur, unsigned dst, int depth, int *stack,
                   double *count, bf_pair *p)
{
    if (cur == dst) {
        p->paths += 1;
        for (int i = 0; i < depth; i++)
            count[stack[i]] += 1;
        return;
    }
    p->depth_nodes[depth] |= (uint64_t)1 << cur;
    unsigned r = pcube_route(cur, dst, (1u << n) - 1);
    for (int e = 0; e < n; e++)
        if (r & (1u << e)) {
            stack[depth] = (int)cur * n + e;
            bf_dfs(n, cur ^ (1u << e), dst, depth + 1, stack, count, p);
        }
}

/* Every ordered pair of the n-cube, n <= 6. *npairs set; free with
 * bf_free. */
static bf_pair *bf_pairs(int n, int *npairs)
{
    int nodes = 1 << n, nch = nodes * n, k = 0;
    bf_pair *pairs = calloc((size_t)nodes * (nodes - 1), sizeof *pairs);
    double *count = calloc((size_t)nch, sizeof *count);
    int stack[8];
    for (int s = 0; s < nodes; s++)
        for (int d = 0; d < nodes; d++) {
            if (s == d)
                continue;
            bf_pair *p = &pairs[k++];
            p->src = s;
            p->dst = d;
            p->hops = popcount((unsigned)(s ^ d));
            memset(count, 0, sizeof *count * (size_t)nch);
            bf_dfs(n, (unsigned)s, (unsigned)d, 0, stack, count, p);
            for (int c = 0; c < nch; c++)
                p->nuse += count[c] > 0;
            p->use_ch = malloc(sizeof *p->use_ch * (size_t)p->nuse);
            p->use_paths = malloc(sizeof *p->use_paths * (size_t)p->nuse);
            int u = 0;
            for (int c = 0; c < nch; c++)
                if (count[c] > 0) {
                    p->use_ch[u] = c;
                    p->use_paths[u++] = count[c];
                }
        }
    free(count);
    *npairs = k;
    return pairs;
}

static void bf_free(bf_pair *pairs, int npairs)
{
    for (int i = 0; i < npairs; i++) {
        free(pairs[i].use_ch);
        free(pairs[i].use_paths);
    }
    free(pairs);
}

/* Per directed channel rate per unit lam: each pair sends lam/(N-1),
 * split evenly over its paths. */
static double *bf_rates(int n, const bf_pair *pairs, int npairs)
{
    int nodes = 1 << n;
    double *rate = calloc((size_t)nodes * n, sizeof *rate);
    for (int i = 0; i < npairs; i++)
        for (int u = 0; u < pairs[i].nuse; u++)
            rate[pairs[i].use_ch[u]] +=
                pairs[i].use_paths[u] / pairs[i].paths / (nodes - 1);
    return rate;
}

/* ---- P-cube channel rates --------------------------------------------- */

static void test_pcube_rates_closed_forms(void **state)
{
    (void)state;
    /* docs/models/conventions.md, "Zero-load closed forms": n = 3, u = 0, 1,
     * 2 give 19/21, 11/21, 1/3. */
    assert_true(rel(pcube__link_rate_unit(3, 0), 19.0 / 21) < 1e-14);
    assert_true(rel(pcube__link_rate_unit(3, 1), 11.0 / 21) < 1e-14);
    assert_true(rel(pcube__link_rate_unit(3, 2), 1.0 / 3) < 1e-14);
    for (int n = 1; n <= 16; n++) {
        double nodes = ldexp(1.0, n);
        assert_true(rel(pcube__link_rate_unit(n, n - 1), 1.0 / n) < 1e-12);
        assert_true(rel(pcube__link_rate_unit(n, 0),
                        (pow(3, n) - nodes) / (n * (nodes - 1))) < 1e-12);
        /* All traffic accounted for: links between weights u and u+1 are
         * C(n,u)(n-u), two directions each; total = N lam x mean hops. */
        double total = 0;
        for (int u = 0; u < n; u++)
            total += 2 * (n - u) * choose(n, u) * pcube__link_rate_unit(n, u);
        assert_true(rel(total, nodes * n * ldexp(1.0, n - 1) / (nodes - 1)) <
                    1e-12);
    }
}

/* docs/models/hypercube-dcsh.md, "M1 as printed", part 5: corrected
 * eqs.(1)-(2) in a 10-cube at
 * lam = 0.01 (the paper's Figure 3 set-up), printed to 6 decimals. */
static void test_pcube_rates_10cube(void **state)
{
    (void)state;
    static const double oracle[10] = {0.056720, 0.026568, 0.013408, 0.007370,
                                      0.004433, 0.002906, 0.002055, 0.001545,
                                      0.001220, 0.001000};
    double lam = 0.01, hi = 0, lo = 1;
    print_message("10-cube P-cube link rates at lambda = 0.01 "
                  "(balanced rate lam N/(2(N-1)) = %.6f):\n",
                  lam * 1024 / (2 * 1023.0));
    for (int u = 0; u < 10; u++) {
        double r = lam * pcube__link_rate_unit(10, u);
        print_message("  weights %d-%d  NEG(%d) = POS(%d) = %.6f\n", u, u + 1,
                      u + 1, u, r);
        assert_true(fabs(r - oracle[u]) <= 5.01e-7);
        hi = fmax(hi, r);
        lo = fmin(lo, r);
    }
    print_message("  spread busiest/least busy = %.2f\n", hi / lo);
    assert_true(hi / lo > 56 && hi / lo < 57);
}

static void test_pcube_rates_brute_force(void **state)
{
    (void)state;
    for (int n = 1; n <= 6; n++) {
        int npairs, nodes = 1 << n;
        bf_pair *pairs = bf_pairs(n, &npairs);
        double *rate = bf_rates(n, pairs, npairs);
        for (int a = 0; a < nodes; a++)
            for (int e = 0; e < n; e++) {
                int b = a ^ (1 << e);
                int u = popcount((unsigned)a) < popcount((unsigned)b)
                            ? popcount((unsigned)a)
                            : popcount((unsigned)b);
                assert_true(rel(rate[a * n + e], pcube__link_rate_unit(n, u)) <
                            1e-12);
            }
        free(rate);
        bf_free(pairs, npairs);
    }
}

/* 3c's user lists carry exactly the class rates (sum omega / (N-1)) and
 * the printed weights are the brute-force path counts. */
static void test_pcube_users(void **state)
{
    (void)state;
    for (int n = 1; n <= 12; n++) {
        pcube_layout l;
        pcube__layout_init(&l, n);
        assert_int_equal(l.nclasses,
                         (int)(choose(n + 3, 3) + 0.5) - (n + 1));
        double pairs = 0;
        for (int k = 0; k < l.nclasses; k++)
            pairs += l.cls[k].mult;
        double nodes = ldexp(1.0, n);
        assert_true(rel(pairs, nodes * (nodes - 1)) < 1e-12);
        for (int x = 0; x < l.nchan; x++) {
            double sum = 0;
            for (int u = l.user_start[x]; u < l.user_start[x + 1]; u++)
                sum += l.users[u].omega;
            assert_true(rel(sum / (nodes - 1), l.rate_unit[x]) < 1e-12);
        }
        pcube__layout_fini(&l);
    }
}

/* ======================================================================
 * The P-cube model pair by pair ([PS06] eqs.6-25,
 * docs/models/hypercube-dcsh.md, "M1 as printed" resolutions),
 * n <= 6.  Nothing from the symmetry reduction is used: per-channel rates
 * from the path enumeration, per-channel service times by eq.(21) over
 * the pairs that use the channel, per-pair blocking averaged over the
 * nodes reachable at each hop and the candidate channels there.
 * ==================================================================== */

typedef struct bf_model {
    int n, vcs, printed, ejection;
    double lam, lm, dr, tol;
} bf_model;

/* Returns 0 and the latency, or -1 when saturated. */
static int bf_pcube_eval(const bf_model *m, double *latency)
{
    int n = m->n, nodes = 1 << n, nch = nodes * n, npairs;
    bf_pair *pairs = bf_pairs(n, &npairs);
    double *rate = bf_rates(n, pairs, npairs);
    for (int c = 0; c < nch; c++)
        rate[c] *= m->lam;
    double *s = malloc(sizeof *s * (size_t)npairs);
    double *fs = malloc(sizeof *fs * (size_t)npairs);
    double *num = malloc(sizeof *num * (size_t)nch);
    double *den = malloc(sizeof *den * (size_t)nch);
    double *pbusy = malloc(sizeof *pbusy * (size_t)nch);
    double *wch = malloc(sizeof *wch * (size_t)nch);
    double *vb = malloc(sizeof *vb * (size_t)nch);
    double wej = m->ejection ? m->lm * m->lm * m->lam /
                                   (2 * (1 - m->lm * m->lam))
                             : 0;
    int ret = -1;
    if (m->lam * m->lm >= 1)
        goto done;
    for (int i = 0; i < npairs; i++)
        s[i] = pairs[i].hops * (1 + m->dr) + m->lm + wej;
    for (int it = 0;; it++) {
        if (it == 100000)
            goto done;
        /* channel service time (21), B1, (22), (8) */
        for (int c = 0; c < nch; c++)
            num[c] = den[c] = 0;
        for (int i = 0; i < npairs; i++)
            for (int u = 0; u < pairs[i].nuse; u++) {
                double frac = pairs[i].use_paths[u] / pairs[i].paths;
                double wgt = m->printed ? pairs[i].use_paths[u] : frac;
                num[pairs[i].use_ch[u]] += wgt * s[i];
                den[pairs[i].use_ch[u]] += wgt;
            }
        for (int c = 0; c < nch; c++) {
            double sx = num[c] / den[c], rho = rate[c] * sx;
            if (rho >= 1)
                goto done;
            pbusy[c] = pow(rho, m->vcs);
            wch[c] = rate[c] * (sx * sx + (sx - m->lm) * (sx - m->lm)) /
                     (2 * (1 - rho));
            double a = 0, b = 0;
            for (int v = 1; v <= m->vcs; v++) {
                double pv = v < m->vcs ? (1 - rho) * pow(rho, v) : pow(rho, v);
                a += (double)v * v * pv;
                b += v * pv;
            }
            vb[c] = b > 0 ? a / b : 1;
        }
        /* per pair (11)-(18), with (15)-(16) averages over the nodes
         * reachable after i-1 hops and W_mean over their candidates */
        for (int i = 0; i < npairs; i++) {
            const bf_pair *p = &pairs[i];
            double block = 0;
            for (int h = 0; h < p->hops; h++) {
                double pb = 0, wm = 0;
                int nn = 0, nc = 0;
                for (uint64_t set = p->depth_nodes[h]; set; set &= set - 1) {
                    int a = __builtin_ctzll(set);
                    unsigned r = pcube_route((unsigned)a, (unsigned)p->dst,
                                             (unsigned)nodes - 1);
                    double prod = 1;
                    for (int e = 0; e < n; e++)
                        if (r >> e & 1) {
                            prod *= pbusy[a * n + e];
                            wm += wch[a * n + e];
                            nc++;
                        }
                    pb += prod;
                    nn++;
                }
                block += pb / nn * (wm / nc);
            }
            fs[i] = p->hops * (1 + m->dr) + m->lm + block + wej;
        }
        int converged = 1;
        for (int i = 0; i < npairs; i++) {
            double next = 0.5 * s[i] + 0.5 * fs[i];
            if (fabs(next - s[i]) > m->tol * fmax(1, fabs(s[i])))
                converged = 0;
            s[i] = next;
        }
        if (converged)
            break;
    }
    /* channel statistics at the converged point, then (6)-(10), (23)-(24) */
    for (int c = 0; c < nch; c++)
        num[c] = den[c] = 0;
    for (int i = 0; i < npairs; i++)
        for (int u = 0; u < pairs[i].nuse; u++) {
            double frac = pairs[i].use_paths[u] / pairs[i].paths;
            double wgt = m->printed ? pairs[i].use_paths[u] : frac;
            num[pairs[i].use_ch[u]] += wgt * s[i];
            den[pairs[i].use_ch[u]] += wgt;
        }
    for (int c = 0; c < nch; c++) {
        double rho = rate[c] * num[c] / den[c];
        if (rho >= 1)
            goto done;
        double a = 0, b = 0;
        for (int v = 1; v <= m->vcs; v++) {
            double pv = v < m->vcs ? (1 - rho) * pow(rho, v) : pow(rho, v);
            a += (double)v * v * pv;
            b += v * pv;
        }
        vb[c] = b > 0 ? a / b : 1;
    }
    double sbar = 0, wbar = 0, vbar = 0;
    for (int src = 0; src < nodes; src++) {
        double ss = 0;
        for (int i = 0; i < npairs; i++)
            if (pairs[i].src == src)
                ss += s[i] / (nodes - 1);
        double lv = m->lam / m->vcs;
        if (lv * ss >= 1)
            goto done;
        sbar += ss / nodes;
        wbar += lv * (ss * ss + (ss - m->lm) * (ss - m->lm)) /
                (2 * (1 - lv * ss)) / nodes;
    }
    for (int i = 0; i < npairs; i++) {
        const bf_pair *p = &pairs[i];
        double v = 0;
        for (int h = 0; h < p->hops; h++) {
            double vh = 0;
            int nn = 0;
            for (uint64_t set = p->depth_nodes[h]; set; set &= set - 1) {
                int a = __builtin_ctzll(set);
                unsigned r = pcube_route((unsigned)a, (unsigned)p->dst,
                                         (unsigned)nodes - 1);
                double vn = 0;
                int nc = 0;
                for (int e = 0; e < n; e++)
                    if (r >> e & 1) {
                        vn += vb[a * n + e];
                        nc++;
                    }
                vh += vn / nc;
                nn++;
            }
            v += vh / nn;
        }
        vbar += v / p->hops / npairs;
    }
    *latency = (sbar + wbar) * vbar;
    ret = 0;
done:
    free(s);
    free(fs);
    free(num);
    free(den);
    free(pbusy);
    free(wch);
    free(vb);
    free(rate);
    bf_free(pairs, npairs);
    return ret;
}

static void test_pcube_matches_pair_by_pair(void **state)
{
    (void)state;
    struct {
        int n, vcs, lm, dr, ejection, printed;
        double frac; /* of the fast model's saturation rate */
    } cases[] = {
        {2, 1, 8, 0, 1, 0, 0.5},  {3, 3, 32, 0, 1, 0, 0.9},
        {3, 2, 16, 1, 0, 1, 0.7}, {4, 3, 32, 0, 1, 0, 0.95},
        {4, 6, 64, 0, 1, 1, 0.8}, {5, 3, 32, 2, 1, 0, 0.6},
        {5, 1, 16, 0, 0, 1, 0.9}, {6, 3, 32, 0, 1, 0, 0.9},
        {6, 6, 16, 0, 1, 1, 0.5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        net_design d;
        net_workload w;
        pcube_design(&d, &w, cases[i].n, cases[i].vcs, cases[i].lm);
        d.router_delay = cases[i].dr;
        d.ejection_channels = cases[i].ejection;
        model_opts o;
        model_opts_init(&o);
        o.variant = cases[i].printed ? MODEL_VARIANT_PRINTED
                                     : MODEL_VARIANT_RECOMMENDED;
        double sat;
        assert_int_equal(model_saturation_rate(&model_hcube_pcube, &d, &w, &o,
                                               &sat, NULL),
                         0);
        o.tolerance = 1e-13;
        o.max_iterations = 200000;
        double lam = cases[i].frac * sat;
        model_result r;
        assert_int_equal(model_hcube_pcube.eval(&d, &w, lam, &o, &r), 0);
        bf_model bm = {cases[i].n, cases[i].vcs, cases[i].printed,
                       cases[i].ejection, lam, cases[i].lm, cases[i].dr,
                       1e-13};
        double brute;
        assert_int_equal(bf_pcube_eval(&bm, &brute), 0);
        assert_true(rel(r.latency, brute) < 1e-9);
        /* and the brute force agrees that it saturates above */
        bm.lam = fmin(1.05 * sat, 0.999 / cases[i].lm);
        if (bm.lam > sat * 1.01 &&
            model_hcube_pcube.eval(&d, &w, bm.lam, &o, &r) != 0)
            assert_int_not_equal(bf_pcube_eval(&bm, &brute), 0);
    }
}

/* The printed weight (path counts) and the recommended one (traffic) must
 * differ when pairs of different phase lengths share channels. */
static void test_pcube_variants_differ(void **state)
{
    (void)state;
    net_design d;
    net_workload w;
    pcube_design(&d, &w, 8, 3, 32);
    model_opts o;
    model_opts_init(&o);
    model_result a, b;
    assert_int_equal(model_hcube_pcube.eval(&d, &w, 0.003, &o, &a), 0);
    o.variant = MODEL_VARIANT_PRINTED;
    assert_int_equal(model_hcube_pcube.eval(&d, &w, 0.003, &o, &b), 0);
    assert_true(rel(a.latency, b.latency) > 1e-6);
}

/* The corrected variant (hcube_pcube.c, "Corrected variant"): exact at
 * zero load for any length law, buffer depth and span (a short worm that
 * does not reach the destination, Lm < H), latency above zero load and
 * growing; on the source's three set-ups it saturates later than the
 * recommended reading (the M/G/1 channel with the whole network time as
 * service, saturated when rate x S >= 1) and below the channel-load bound. */
static void test_pcube_corrected(void **state)
{
    (void)state;
    model_opts o;
    model_opts_init(&o);
    o.variant = MODEL_VARIANT_CORRECTED;
    for (int n = 1; n <= 10; n += 3)
        for (int dr = 0; dr <= 1; dr++)
            for (int lm = 2; lm <= 64; lm *= 8)
                for (int geo = 0; geo <= 1; geo++)
                    for (int buf = 1; buf <= 4; buf *= 4) {
                        net_design d;
                        net_workload w;
                        pcube_design(&d, &w, n, 3, lm);
                        d.router_delay = dr;
                        d.buffer_flits = buf;
                        w.length = geo ? NET_LENGTH_EXPONENTIAL
                                       : NET_LENGTH_FIXED;
                        double z = model_hcube_pcube.zero_load(&d, &w, &o);
                        model_result r;
                        assert_int_equal(
                            model_hcube_pcube.eval(&d, &w, 0.0, &o, &r), 0);
                        assert_true(rel(r.latency, z) < 1e-12);
                        assert_int_equal(
                            model_hcube_pcube.eval(&d, &w, 1e-9, &o, &r), 0);
                        assert_true(r.latency >= z * (1 - 1e-12));
                        assert_true(rel(r.latency, z) < 1e-5);
                    }
    static const struct { int n, vcs, lm; } cases[] = {
        {8, 3, 32}, {6, 6, 64}, {9, 3, 128}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        net_design d;
        net_workload w;
        pcube_design(&d, &w, cases[i].n, cases[i].vcs, cases[i].lm);
        double cor, rec;
        model_bound bound;
        o.variant = MODEL_VARIANT_CORRECTED;
        assert_int_equal(model_saturation_rate(&model_hcube_pcube, &d, &w, &o,
                                               &cor, NULL), 0);
        o.variant = MODEL_VARIANT_RECOMMENDED;
        assert_int_equal(model_saturation_rate(&model_hcube_pcube, &d, &w, &o,
                                               &rec, NULL), 0);
        assert_int_equal(model_bound_compute(&d, &w, &bound, NULL), 0);
        assert_true(cor > 1.2 * rec);
        assert_true(cor < bound.rate);
    }
    /* C1': a worm is no faster than through its busiest stage alone.  On
     * the 1-cube (one hop, after the injection channel, both at the flit
     * load rho) the self-consistent stretch (1 + sqrt(1 + 8 st)) / 2 falls
     * below the exact M/M/1-PS stretch 1 + st of either stage once st > 1;
     * the model must report the latter. */
    {
        net_design d;
        net_workload w;
        pcube_design(&d, &w, 1, 6, 64);
        d.ejection_channels = 0;
        double rho = 0.6, st = (rho - pow(rho, 6)) / (1 - rho);
        model_result r;
        o.variant = MODEL_VARIANT_CORRECTED;
        assert_int_equal(model_hcube_pcube.eval(&d, &w, rho / 64, &o, &r), 0);
        assert_true(st > 1);
        assert_true(rel(r.vc_multiplexing, 1 + st) < 1e-9);
    }
    /* The vlsi_1024 study's P-cube 10-cube (V = 6, w = 1, 128-flit
     * exponential messages, Dr = 1; CV16): the channels at
     * node 0 bind, (3^n - 2^n) / (n (N - 1)) = 5.67 per unit rate, and the
     * model saturates within 10% below that bound, as the simulated network
     * does (it was measured saturating there, not at the 1.5 times higher
     * rate of a short probe). */
    {
        net_design d;
        net_workload w;
        pcube_design(&d, &w, 10, 6, 128);
        d.router_delay = 1;
        w.length = NET_LENGTH_EXPONENTIAL;
        model_bound bound;
        assert_int_equal(model_bound_compute(&d, &w, &bound, NULL), 0);
        assert_string_equal(bound.channel, "channels at node 0 (P-cube)");
        assert_true(rel(bound.load, (pow(3, 10) - 1024) / (10 * 1023.0)) <
                    1e-12);
        double cor;
        o.variant = MODEL_VARIANT_CORRECTED;
        assert_int_equal(model_saturation_rate(&model_hcube_pcube, &d, &w, &o,
                                               &cor, NULL), 0);
        assert_true(cor > 0.9 * bound.rate && cor <= bound.rate);
    }
}

/* ---- zero load, monotonicity, saturation, coverage ------------------- */

static void check_zero_load(const model *m, const net_design *d,
                            const net_workload *w, double closed_form)
{
    model_opts o;
    model_opts_init(&o);
    for (int v = 0; v < 2; v++) {
        o.variant = v ? MODEL_VARIANT_PRINTED : MODEL_VARIANT_RECOMMENDED;
        double z = m->zero_load(d, w, &o);
        assert_true(rel(z, closed_form) < 1e-12);
        model_result r;
        assert_int_equal(m->eval(d, w, 1e-12, &o, &r), 0);
        assert_true(rel(r.latency, z) < 1e-9);
        /* at rate 1e-9 the first-order terms (~ lam Lm^2) are still
         * visible; they are positive and small */
        assert_int_equal(m->eval(d, w, 1e-9, &o, &r), 0);
        assert_true(r.latency >= z * (1 - 1e-12));
        assert_true(rel(r.latency, z) < 1e-5);
        assert_int_equal(m->eval(d, w, 0.0, &o, &r), 0);
        assert_true(rel(r.latency, z) < 1e-12);
    }
}

static void test_zero_load(void **state)
{
    (void)state;
    for (int n = 1; n <= 12; n++)
        for (int dr = 0; dr <= 2; dr++) {
            double nodes = ldexp(1.0, n);
            double dbar = n * nodes / (2 * (nodes - 1));
            net_design d;
            net_workload w;
            pcube_design(&d, &w, n, 3, 64);
            d.router_delay = dr;
            /* A.3: n N/(2(N-1)) + Lm at Dr = 0; each hop 1 + Dr */
            check_zero_load(&model_hcube_pcube, &d, &w, dbar * (1 + dr) + 64);
            d.routing = NET_ROUTE_DUATO;
            check_zero_load(&model_hcube_duato, &d, &w, dbar * (1 + dr) + 64);
            d.routing = NET_ROUTE_MINIMAL_ADAPTIVE;
            d.switching = NET_SWITCH_PCS;
            d.ejection_channels = 0;
            w.traffic = NET_TRAFFIC_HOTSPOT;
            w.hotspot_fraction = 0.2;
            /* A.3: M + 3 Dbar_r; each outward header move 1 + Dr */
            check_zero_load(&model_hcube_pcs_hotspot, &d, &w,
                            64 + (3 + dr) * dbar);
        }
}

static void check_curve(const model *m, const net_design *d,
                        const net_workload *w)
{
    model_opts o;
    model_opts_init(&o);
    double sat;
    assert_int_equal(model_saturation_rate(m, d, w, &o, &sat, NULL), 0);
    assert_true(sat > 0 && isfinite(sat));
    double prev = m->zero_load(d, w, &o);
    for (int i = 1; i <= 40; i++) {
        model_result r;
        assert_int_equal(m->eval(d, w, sat * i / 40.5, &o, &r), 0);
        assert_true(r.latency >= prev * (1 - 1e-9));
        assert_true(r.network_latency > 0 && r.source_wait >= 0 &&
                    r.vc_multiplexing >= 1);
        prev = r.latency;
    }
    model_result r;
    for (double f = 1.001; f < 4; f *= 1.3) {
        assert_int_not_equal(m->eval(d, w, sat * f, &o, &r), 0);
        assert_int_equal(r.saturated, 1);
    }
}

static void test_curves(void **state)
{
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        const model *m = i == 0 ? &model_hcube_pcube
                         : i == 1 ? &model_hcube_pcs_hotspot
                                  : &model_hcube_duato;
        net_design d;
        net_workload w;
        m->example(&d, &w);
        char why[256];
        assert_int_equal(m->covers(&d, &w, why, sizeof why), 0);
        check_curve(m, &d, &w);
        d.vcs = 6;
        d.router_delay = 1;
        check_curve(m, &d, &w);
        net_design_set_radix(&d, 10, 2);
        w.message_bits = 64;
        check_curve(m, &d, &w);
    }
}

static void test_covers(void **state)
{
    (void)state;
    char why[256];
    net_design d;
    net_workload w;
    model_hcube_pcube.example(&d, &w);
    d.ejection_channels = 2;
    assert_int_equal(model_hcube_pcube.covers(&d, &w, why, sizeof why), -1);
    model_hcube_pcube.example(&d, &w);
    w.traffic = NET_TRAFFIC_HOTSPOT;
    assert_int_equal(model_hcube_pcube.covers(&d, &w, why, sizeof why), -1);
    model_hcube_pcube.example(&d, &w);
    d.routing = NET_ROUTE_DUATO;
    assert_int_equal(model_hcube_pcube.covers(&d, &w, why, sizeof why), -1);
    assert_int_equal(model_hcube_duato.covers(&d, &w, why, sizeof why), 0);
    d.vcs = 1; /* Duato needs an escape VC plus an adaptive one */
    assert_int_equal(model_hcube_duato.covers(&d, &w, why, sizeof why), -1);
    model_hcube_pcube.example(&d, &w);
    d.topology = NET_DCSH;
    net_design_set_radix(&d, 2, 4);
    assert_int_equal(model_hcube_pcube.covers(&d, &w, why, sizeof why), -1);

    model_hcube_pcs_hotspot.example(&d, &w);
    assert_int_equal(model_hcube_pcs_hotspot.covers(&d, &w, why, sizeof why),
                     0);
    w.hotspot_fraction = 1.0;
    assert_int_equal(model_hcube_pcs_hotspot.covers(&d, &w, why, sizeof why),
                     -1);
    model_hcube_pcs_hotspot.example(&d, &w);
    d.ejection_channels = 1;
    assert_int_equal(model_hcube_pcs_hotspot.covers(&d, &w, why, sizeof why),
                     -1);
    model_hcube_pcs_hotspot.example(&d, &w);
    w.traffic = NET_TRAFFIC_TRANSPOSE;
    assert_int_equal(model_hcube_pcs_hotspot.covers(&d, &w, why, sizeof why),
                     -1);
    model_hcube_pcs_hotspot.example(&d, &w);
    d.switching = NET_SWITCH_WORMHOLE;
    assert_int_equal(model_hcube_pcs_hotspot.covers(&d, &w, why, sizeof why),
                     -1);
}

/* ======================================================================
 * PCS hot spot
 * ==================================================================== */

/* Each source's hot-spot traffic split evenly over its minimal paths to
 * the hot spot (fully adaptive, random choice); every directed channel
 * from distance j to j-1 carries pcs__hot_rate_unit(n, j) per unit
 * theta lam, channels away from the hot spot carry none. */
static void test_pcs_hot_rates_brute_force(void **state)
{
    (void)state;
    for (int n = 1; n <= 6; n++) {
        int nodes = 1 << n;
        for (int hot = 0; hot < nodes; hot += nodes - 1) {
            double *flow = calloc((size_t)nodes, sizeof *flow);
            double *ch = calloc((size_t)nodes * n, sizeof *ch);
            /* process nodes in decreasing distance from the hot spot */
            for (int dist = n; dist >= 1; dist--)
                for (int a = 0; a < nodes; a++) {
                    if (popcount((unsigned)(a ^ hot)) != dist)
                        continue;
                    double f = flow[a] + 1.0; /* own message, unit rate */
                    unsigned r = (unsigned)(a ^ hot);
                    for (int e = 0; e < n; e++)
                        if (r >> e & 1) {
                            ch[a * n + e] += f / dist;
                            flow[a ^ (1 << e)] += f / dist;
                        }
                }
            double total = 0;
            for (int a = 0; a < nodes; a++)
                for (int e = 0; e < n; e++) {
                    int j = popcount((unsigned)(a ^ hot));
                    int jb = popcount((unsigned)((a ^ (1 << e)) ^ hot));
                    double expect = jb == j - 1 ? pcs__hot_rate_unit(n, j) : 0;
                    assert_true(fabs(ch[a * n + e] - expect) <=
                                1e-12 * fmax(1, expect));
                    total += ch[a * n + e];
                }
            /* conservation: sum of distances = n 2^(n-1) */
            assert_true(rel(total, n * ldexp(1.0, n - 1)) < 1e-12);
            free(flow);
            free(ch);
        }
    }
}

/* [SKFO05] eq.(8) solved as a linear system (Gaussian elimination on the
 * tridiagonal rows), against pcs__walk's closed recursion. */
static double walk_linear(int i, const double *q, double step, int retry)
{
    /* unknowns d_0..d_{i-1} (d_i = 0); row s: a[s] d_{s-1} + b[s] d_s +
     * c[s] d_{s+1} = r[s] */
    double a[16], b[16], c[16], r[16];
    for (int s = 0; s < i; s++) {
        double adv = 1 - q[s];
        if (s == 0) {
            /* printed: d_0 = adv (d_1 + step) + q d_0;
             * retry: d_0 = step + adv d_1 + q d_0 */
            a[s] = 0;
            b[s] = 1 - q[0];
            c[s] = -adv;
            r[s] = retry ? step : adv * step;
        } else {
            a[s] = -q[s];
            b[s] = 1;
            c[s] = -adv;
            r[s] = step;
        }
    }
    /* forward elimination */
    for (int s = 1; s < i; s++) {
        double f = a[s] / b[s - 1];
        b[s] -= f * c[s - 1];
        r[s] -= f * r[s - 1];
    }
    double dnext = 0; /* d_i */
    double d = 0;
    for (int s = i - 1; s >= 0; s--) {
        d = (r[s] - c[s] * dnext) / b[s];
        dnext = d;
    }
    return d;
}

static void test_pcs_walk(void **state)
{
    (void)state;
    double q[12];
    unsigned seed = 12345;
    for (int trial = 0; trial < 200; trial++) {
        int i = 1 + trial % 12;
        for (int s = 0; s < i; s++) {
            seed = seed * 1103515245u + 12345u;
            q[s] = (seed >> 8 & 0xffff) / 65536.0 * 0.9;
        }
        double step = 1 + trial % 3;
        for (int retry = 0; retry < 2; retry++) {
            double d0;
            assert_int_equal(pcs__walk(i, q, step, retry, &d0), 0);
            assert_true(rel(d0, walk_linear(i, q, step, retry)) < 1e-10);
        }
    }
    /* no blocking: i moves; a never-advancing state saturates */
    double zero[5] = {0}, d0;
    assert_int_equal(pcs__walk(5, zero, 2, 0, &d0), 0);
    assert_true(rel(d0, 10) < 1e-15);
    double stuck[3] = {0.1, 1.0, 0.2};
    assert_int_not_equal(pcs__walk(3, stuck, 1, 0, &d0), 0);
}

/* An independent evaluation of docs/models/hypercube-dcsh.md, "M9 as
 * printed", part 3: rates from the
 * formulas' definitions (sources beyond each level), the walk by linear
 * solve, plain undamped iteration.  Returns 0 and the latency or -1. */
static int pcs_reference(int n, int vcs, double m, double theta, double lam,
                         double *latency)
{
    double nodes = ldexp(1.0, n), dbar = n * nodes / (2 * (nodes - 1));
    double lam_r = (1 - theta) * lam * dbar / n, lam_h[32], pr[32];
    for (int j = 1; j <= n; j++) {
        double beyond = 0;
        for (int l = j; l <= n; l++)
            beyond += choose(n, l);
        lam_h[j] = theta * lam * beyond / (j * choose(n, j));
        pr[j] = choose(n, j) / (nodes - 1);
    }
    double tr = m + 3 * dbar, th[32], pl[32], tbar_j[32];
    for (int j = 1; j <= n; j++)
        th[j] = m + 3 * j;
    for (int it = 0; it < 100000; it++) {
        for (int j = 1; j <= n; j++) {
            double lj = lam_r + lam_h[j];
            tbar_j[j] = (lam_r * tr + lam_h[j] * th[j]) / lj;
            if (lj * tbar_j[j] >= 1)
                return -1;
            pl[j] = pow(lj * tbar_j[j], vcs);
        }
        if (lam_r * tr >= 1)
            return -1;
        pl[0] = pow(lam_r * tr, vcs);
        double q[32], nth[32], ntr = 0, change = 0;
        for (int j = 1; j <= n; j++) {
            for (int s = 0; s < j; s++)
                q[s] = pow(pl[j - s], j - s);
            nth[j] = m + 2 * j + walk_linear(j, q, 1, 0);
        }
        for (int i = 1; i <= n; i++) {
            for (int s = 0; s < i; s++) {
                int rem = i - s;
                q[s] = 0.5 * pow(pl[0], rem);
                for (int l = 1; l <= n; l++)
                    q[s] += l * choose(n, l) / (n * nodes) * pow(pl[l], rem);
                if (q[s] >= 1)
                    return -1;
            }
            ntr += pr[i] * (m + 2 * i + walk_linear(i, q, 1, 0));
        }
        change = fabs(ntr - tr);
        tr = ntr;
        for (int j = 1; j <= n; j++) {
            change = fmax(change, fabs(nth[j] - th[j]));
            th[j] = nth[j];
        }
        if (change < 1e-13 * tr)
            break;
        if (tr > 1e7)
            return -1;
    }
    double thm = 0, vbar = 0;
    for (int j = 1; j <= n; j++) {
        double lj = lam_r + lam_h[j];
        tbar_j[j] = (lam_r * tr + lam_h[j] * th[j]) / lj;
        double rho = lj * tbar_j[j], a = 0, b = 0;
        for (int v = 1; v <= vcs; v++) {
            double pv = v < vcs ? (1 - rho) * pow(rho, v) : pow(rho, v);
            a += (double)v * v * pv;
            b += v * pv;
        }
        thm += pr[j] * th[j];
        vbar += pr[j] * (b > 0 ? a / b : 1);
    }
    double tbar = (1 - theta) * tr + theta * thm, lv = lam / vcs;
    double dev = tbar - m - 3 * dbar + 1;
    double wait = lv * tbar * tbar * (1 + dev * dev / (tbar * tbar)) /
                  (2 * (1 - lv * tbar));
    *latency = (tbar + wait) * vbar;
    return 0;
}

static void test_pcs_matches_reference(void **state)
{
    (void)state;
    struct {
        int n, vcs, m;
        double theta;
    } cases[] = {{8, 3, 32, 0.05}, {8, 6, 64, 0.2}, {8, 10, 32, 0.2},
                 {4, 1, 16, 0.5},  {10, 3, 32, 0.0}, {6, 2, 64, 0.9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        net_design d;
        net_workload w;
        model_hcube_pcs_hotspot.example(&d, &w);
        net_design_set_radix(&d, cases[i].n, 2);
        d.vcs = cases[i].vcs;
        w.message_bits = cases[i].m;
        w.hotspot_fraction = cases[i].theta;
        model_opts o;
        model_opts_init(&o);
        double sat;
        assert_int_equal(model_saturation_rate(&model_hcube_pcs_hotspot, &d,
                                               &w, &o, &sat, NULL),
                         0);
        /* the hot spot's n input channels bound any steady state */
        if (cases[i].theta > 0)
            assert_true(sat * cases[i].theta * (ldexp(1.0, cases[i].n) - 1) *
                            cases[i].m <
                        cases[i].n);
        o.tolerance = 1e-13;
        for (int k = 1; k <= 3; k++) {
            double lam = sat * k / 3.3, ref = NAN;
            model_result r;
            assert_int_equal(
                model_hcube_pcs_hotspot.eval(&d, &w, lam, &o, &r), 0);
            assert_int_equal(pcs_reference(cases[i].n, cases[i].vcs,
                                           cases[i].m, cases[i].theta, lam,
                                           &ref),
                             0);
            assert_true(rel(r.latency, ref) < 1e-9);
        }
    }
}

/* Uniform traffic is the theta = 0 case, exactly. */
static void test_pcs_uniform_is_theta_zero(void **state)
{
    (void)state;
    net_design d;
    net_workload w;
    model_hcube_pcs_hotspot.example(&d, &w);
    w.hotspot_fraction = 0;
    net_workload u = w;
    u.traffic = NET_TRAFFIC_UNIFORM;
    model_opts o;
    model_opts_init(&o);
    for (double lam = 0.002; lam < 0.03; lam += 0.004) {
        model_result a, b;
        int ra = model_hcube_pcs_hotspot.eval(&d, &w, lam, &o, &a);
        int rb = model_hcube_pcs_hotspot.eval(&d, &u, lam, &o, &b);
        assert_int_equal(ra, rb);
        assert_true(a.latency == b.latency);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcube_rates_closed_forms),
        cmocka_unit_test(test_pcube_rates_10cube),
        cmocka_unit_test(test_pcube_rates_brute_force),
        cmocka_unit_test(test_pcube_users),
        cmocka_unit_test(test_pcube_matches_pair_by_pair),
        cmocka_unit_test(test_pcube_variants_differ),
        cmocka_unit_test(test_pcube_corrected),
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_curves),
        cmocka_unit_test(test_covers),
        cmocka_unit_test(test_pcs_hot_rates_brute_force),
        cmocka_unit_test(test_pcs_walk),
        cmocka_unit_test(test_pcs_matches_reference),
        cmocka_unit_test(test_pcs_uniform_is_theta_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
