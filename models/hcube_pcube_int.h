/*
 * hcube_pcube_int.h — the symmetry-reduced bookkeeping of the P-cube model
 * (docs/models/hypercube-dcsh.md, "M1 as printed" sections 3a-3c), shared by
 * hcube_pcube.c, its tests and
 * benchmarks.  Private to models/ (tests include it to check the channel
 * rates against a brute-force path count).
 *
 * Pair classes: an ordered (source, destination) pair of the n-cube matters
 * only through c = (n00, n01, n10, n11), nXY = number of bit positions with
 * s_i = X and d_i = Y.  Phase-1 hops h_n = n10, phase-2 hops h_p = n01.
 * Only classes with h_n + h_p >= 1 are listed.
 *
 * Channel classes, indexed 0..2n-1:
 *   x = w - 1      NEG(w), w = 1..n: leaves a node of weight w, 1 -> 0
 *   x = n + w      POS(w), w = 0..n-1: leaves a node of weight w, 0 -> 1
 *
 * Ownership: pcube_layout owns its arrays; pcube__layout_init allocates
 * (xmalloc, aborts on OOM), pcube__layout_fini frees.
 */
#ifndef DSE_HCUBE_PCUBE_INT_H
#define DSE_HCUBE_PCUBE_INT_H

typedef struct pcube_class {
    int n00, n01, n10, n11;
    double mult;            /* ordered pairs in the class: n!/(n00! n01! n10! n11!) */
} pcube_class;

/* One pair class using one channel class (3c). */
typedef struct pcube_user {
    int cls;                /* index into pcube_layout.cls */
    double omega;           /* pairs per channel x path fraction phi(i,j)
                               [recommended traffic weight] */
    double omega_paths;     /* omega x h_n! h_p!: the number of the pair's
                               paths using the channel, eq.(21) [printed] */
} pcube_user;

typedef struct pcube_layout {
    int n;
    int nclasses;
    pcube_class *cls;
    int nchan;              /* 2n channel classes */
    int *user_start;        /* users of channel x: user_start[x] ..
                               user_start[x+1]-1 */
    pcube_user *users;
    double *rate_unit;      /* channel-class rate per unit lam (3b) */
} pcube_layout;

/* lam_ch(u)/lam: rate of either direction of a link joining weights u and
 * u+1, u = 0..n-1 (docs/models/hypercube-dcsh.md, "M1 as printed" 3b,
 * corrected eqs.1-2). */
double pcube__link_rate_unit(int n, int u);

/* Channel class of NEG(w) / POS(w). */
int pcube__neg(int n, int w);
int pcube__pos(int n, int w);

void pcube__layout_init(pcube_layout *l, int n);
void pcube__layout_fini(pcube_layout *l);

#endif
