/*
 * hcube_pcube_rates.c — the channel traffic of P-cube routing in the binary
 * n-cube under uniform traffic, and the symmetry-reduced pair/channel
 * classes the P-cube model (hcube_pcube.c) iterates over.
 *
 * Source: [PS06] eqs.(1)-(2) as corrected in docs/models/hypercube-dcsh.md,
 * "M1 as printed"
 * sections 3a-3c.  P-cube routes first through the dimensions where the
 * current bit is 1 and the destination bit 0 (phase 1, "negative"), then
 * through those where it is 0 and 1 (phase 2), adaptively within a phase;
 * every allowed path is taken as equally likely, so a pair's traffic passes
 * the channel that flips dimension e at node a with the fraction
 *   phi(i,j) = i! j! / (i+j+1)! = 1 / ((i+j+1) C(i+j,i)),
 * i the phase's flips already made, j the ones still to make after e.
 *
 * Link rate (3b), both directions of the link joining weights u and u+1:
 *   lam_ch(u) = lam/(N-1) sum_{i=0..u} sum_{j=0..n-u-1}
 *               C(u,i) C(n-u-1,j) 2^(n-u-1-j) / ((i+j+1) C(i+j,i))
 *   rate(NEG(w)) = lam_ch(w-1),  rate(POS(w)) = lam_ch(w).
 * Resolutions (docs/models/hypercube-dcsh.md, "M1 as printed", item 1-2): the
 * paper's eq.(1) prints C(n-1,i)
 * for C(n-m-1,i) and eq.(2) C(n,i) for C(n-m,i) [fix]: the printed forms
 * break traffic conservation except at the extreme weights.  Which of (1)
 * and (2) is "positive" depends on whether m counts the zeros of the node
 * the channel leaves or enters; both readings give the numbers above once
 * the binomials are fixed, so we use the symmetric lam_ch(u) form.
 * Checked in tests/test_models_hcube.c against a brute-force count of every
 * P-cube path for n <= 6 and against the closed forms of
 * docs/models/hypercube-dcsh.md, "M1 as printed".
 *
 * Users of each channel class (3c), i.e. the pair classes whose paths can
 * cross it, with their traffic weight omega = multiplicity x phi(i,j)
 * (sum omega lam/(N-1) = channel rate):
 *   NEG(w): i=0..n-w, j=0..w-1, t=0..n-w-i: class
 *     (n00=n-w-i-t, n01=t, n10=i+j+1, n11=w-1-j),
 *     multiplicity C(n-w,i) C(w-1,j) C(n-w-i,t)
 *   POS(w): i=0..w, j=0..n-w-1, t=0..n-w-1-j: class
 *     (n00=n-w-1-j-t, n01=i+j+1, n10=t, n11=w-i),
 *     multiplicity C(w,i) C(n-w-1,j) C(n-w-1-j,t)
 * Each (channel class, pair class) occurs at most once (i, j, t are fixed
 * by the pair class).  Sizes: C(n+3,3) - (n+1) pair classes, O(n^4) users
 * in all — 275 classes and about 800 users at n = 10.
 */
#include <math.h>
#include <stdlib.h>

#include "hcube_pcube_int.h"
#include "model_int.h"
#include "net/xalloc.h"

static double phi(int i, int j)
{
    return 1.0 / ((i + j + 1) * binom(i + j, i));
}

static double factorial(int m)
{
    double f = 1;
    for (int i = 2; i <= m; i++)
        f *= i;
    return f;
}

double pcube__link_rate_unit(int n, int u)
{
    double sum = 0;
    for (int i = 0; i <= u; i++)
        for (int j = 0; j <= n - u - 1; j++)
            sum += binom(u, i) * binom(n - u - 1, j) *
                   ldexp(1.0, n - u - 1 - j) * phi(i, j);
    return sum / (ldexp(1.0, n) - 1);
}

int pcube__neg(int n, int w)
{
    (void)n;
    return w - 1;
}

int pcube__pos(int n, int w)
{
    return n + w;
}

static int lookup_at(int n, int n01, int n10, int n11)
{
    return (n01 * (n + 1) + n10) * (n + 1) + n11;
}

static void add_user(pcube_layout *l, const int *index, int *count,
                     int n00, int n01, int n10, int n11, double mult,
                     double fraction)
{
    (void)n00;
    pcube_user *u = &l->users[(*count)++];
    u->cls = index[lookup_at(l->n, n01, n10, n11)];
    u->omega = mult * fraction;
    u->omega_paths = u->omega * factorial(n10) * factorial(n01);
}

void pcube__layout_init(pcube_layout *l, int n)
{
    l->n = n;
    l->nchan = 2 * n;
    int cube = (n + 1) * (n + 1) * (n + 1);
    int *index = xmalloc(sizeof *index * (size_t)cube);
    l->nclasses = 0;
    l->cls = xmalloc(sizeof *l->cls * (size_t)cube);
    for (int n10 = 0; n10 <= n; n10++)
        for (int n01 = 0; n01 <= n - n10; n01++)
            for (int n11 = 0; n11 <= n - n10 - n01; n11++) {
                int n00 = n - n10 - n01 - n11;
                index[lookup_at(n, n01, n10, n11)] = -1;
                if (n10 + n01 == 0)
                    continue;
                pcube_class *c = &l->cls[l->nclasses];
                c->n00 = n00;
                c->n01 = n01;
                c->n10 = n10;
                c->n11 = n11;
                c->mult = binom(n, n00) * binom(n - n00, n01) *
                          binom(n - n00 - n01, n10);
                index[lookup_at(n, n01, n10, n11)] = l->nclasses++;
            }

    /* Count, then fill, the users of every channel class. */
    l->user_start = xmalloc(sizeof *l->user_start * (size_t)(l->nchan + 1));
    l->rate_unit = xmalloc(sizeof *l->rate_unit * (size_t)l->nchan);
    int total = 0;
    for (int w = 1; w <= n; w++)
        for (int i = 0; i <= n - w; i++)
            total += w * (n - w - i + 1);
    for (int w = 0; w <= n - 1; w++)
        for (int j = 0; j <= n - w - 1; j++)
            total += (w + 1) * (n - w - j);
    l->users = xmalloc(sizeof *l->users * (size_t)total);
    int count = 0;
    for (int w = 1; w <= n; w++) {
        int x = pcube__neg(n, w);
        l->user_start[x] = count;
        l->rate_unit[x] = pcube__link_rate_unit(n, w - 1);
        for (int i = 0; i <= n - w; i++)
            for (int j = 0; j <= w - 1; j++)
                for (int t = 0; t <= n - w - i; t++)
                    add_user(l, index, &count, n - w - i - t, t, i + j + 1,
                             w - 1 - j,
                             binom(n - w, i) * binom(w - 1, j) *
                                 binom(n - w - i, t),
                             phi(i, j));
    }
    for (int w = 0; w <= n - 1; w++) {
        int x = pcube__pos(n, w);
        l->user_start[x] = count;
        l->rate_unit[x] = pcube__link_rate_unit(n, w);
        for (int i = 0; i <= w; i++)
            for (int j = 0; j <= n - w - 1; j++)
                for (int t = 0; t <= n - w - 1 - j; t++)
                    add_user(l, index, &count, n - w - 1 - j - t, i + j + 1,
                             t, w - i,
                             binom(w, i) * binom(n - w - 1, j) *
                                 binom(n - w - 1 - j, t),
                             phi(i, j));
    }
    l->user_start[l->nchan] = count;
    free(index);
}

void pcube__layout_fini(pcube_layout *l)
{
    if (!l)
        return;
    free(l->cls);
    free(l->user_start);
    free(l->users);
    free(l->rate_unit);
    l->cls = NULL;
    l->user_start = NULL;
    l->users = NULL;
    l->rate_unit = NULL;
}
