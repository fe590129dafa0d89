/*
 * stats.c — measured-message statistics: batch means and 95% confidence
 * intervals.
 *
 * Which messages are measured: those with generation serials in
 * [warmup, tag_end).  Tagging by generation (not by delivery) keeps the
 * sample unbiased: slow messages are waited for, not dropped.
 *
 * Batches are consecutive serial ranges of `bsize` messages.
 *   - Message-count rule: M measured messages in 20 batches (the last takes
 *     the remainder), fixed from the start.
 *   - CI rule: batches start at min_messages/32 messages; when a message
 *     falls past batch 63, adjacent pairs merge and bsize doubles, so there
 *     are always between 32 and 64 batches once min_messages have been
 *     measured.  A batch is complete when all its messages are delivered;
 *     the CI uses the complete leading batches only.
 * The half-width is t(0.975, nb-1) * s / sqrt(nb), s the standard deviation
 * of the batch means; the mean is the message-weighted mean.
 *
 * Broadcast traffic: a batch's serials cover unicast messages and
 * broadcasts; both count for completeness (n), the unicast latency means
 * use the unicast count (nu), the broadcast latency means the broadcast
 * count (nb; batches without a broadcast are left out of its CI).
 */
#include <math.h>
#include <string.h>

#include "sim_int.h"

void sim__stats_init(sim_stats *s, const sim_params *p)
{
    memset(s, 0, sizeof *s);
    s->warmup = p->warmup_messages;
    if (p->stop == SIM_STOP_MESSAGES) {
        long m = p->messages;
        int nb = m >= 20 ? 20 : (int)m;
        s->tag_end = s->warmup + m;
        s->bsize = m / nb;
        s->nbatches = nb;
        s->last_size = m - (long)(nb - 1) * s->bsize;
    } else {
        s->tag_end = s->warmup + p->max_messages;
        s->bsize = p->min_messages / 32 > 0 ? p->min_messages / 32 : 1;
        s->nbatches = 0;
        s->last_size = 0;
    }
}

static void merge_pairs(sim_stats *s)
{
    for (int i = 0; i < SIM_MAX_BATCHES / 2; i++) {
        sim_batch *a = &s->b[2 * i], *b = &s->b[2 * i + 1], *o = &s->b[i];
        sim_batch m = {a->latency + b->latency, a->network + b->network,
                       a->wait + b->wait,       a->hops + b->hops,
                       a->flits + b->flits,     a->setup + b->setup,
                       a->backtracks + b->backtracks,
                       a->blat + b->blat,       a->n + b->n,
                       a->nu + b->nu,           a->nb + b->nb};
        *o = m;
    }
    memset(&s->b[SIM_MAX_BATCHES / 2], 0,
           sizeof(sim_batch) * (SIM_MAX_BATCHES / 2));
    s->bsize *= 2;
    s->nbatches = (s->nbatches + 1) / 2;
}

/* The batch of measured serial `serial` (merging pairs under the CI rule
 * when it falls past the last one). */
static sim_batch *batch_of(sim_stats *s, int64_t serial)
{
    long off = (long)serial - s->warmup;
    long idx = off / s->bsize;
    if (s->last_size) {          /* count rule: fixed batches */
        if (idx >= s->nbatches)
            idx = s->nbatches - 1;
    } else {
        while (idx >= SIM_MAX_BATCHES) {
            merge_pairs(s);
            idx = off / s->bsize;
        }
        if (idx >= s->nbatches)
            s->nbatches = (int)idx + 1;
    }
    return &s->b[idx];
}

void sim__stats_add(sim_stats *s, const sim_msg *m, int64_t now)
{
    sim_batch *b = batch_of(s, m->serial);
    b->latency += (double)(now - m->t_gen);
    b->network += (double)(now - m->t_inject);
    b->wait += (double)(m->t_inject - m->t_gen);
    b->hops += m->hops;
    b->flits += m->len;
    if (m->t_go >= 0) {          /* PCS: probe start to acknowledgement */
        b->setup += (double)(m->t_go - m->t_inject);
        b->backtracks += m->backtracks;
    }
    b->n++;
    b->nu++;
    s->done++;
}

void sim__stats_add_bcast(sim_stats *s, int64_t serial, double latency)
{
    sim_batch *b = batch_of(s, serial);
    b->blat += latency;
    b->n++;
    b->nb++;
    s->done++;
}

static long batch_size(const sim_stats *s, int i)
{
    if (s->last_size && i == s->nbatches - 1)
        return s->last_size;
    return s->bsize;
}

int sim__stats_prefix(const sim_stats *s)
{
    int i = 0;
    while (i < s->nbatches && s->b[i].n == batch_size(s, i))
        i++;
    return i;
}

double sim__t95(int df)
{
    static const double t[] = {
        0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
        2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
        2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
        2.042};
    static const struct { double df, t; } tail[] = {
        {30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}, {1e300, 1.960}};
    if (df < 1)
        return INFINITY;
    if (df <= 30)
        return t[df];
    /* linear in 1/df between tabulated points */
    for (int i = 0; i < 4; i++)
        if (df <= tail[i + 1].df) {
            double x0 = 1.0 / tail[i].df, x1 = 1.0 / tail[i + 1].df;
            double x = 1.0 / df;
            return tail[i].t + (tail[i + 1].t - tail[i].t) * (x - x0) /
                                   (x1 - x0);
        }
    return 1.960;
}

enum { F_LATENCY, F_NETWORK, F_BCAST };

/* Half-width of the mean of field f over the first nb batches (batches
 * without a sample of that kind are left out). */
static double half_width(const sim_stats *s, int nb, int field)
{
    double x[SIM_MAX_BATCHES];
    int m = 0;
    for (int i = 0; i < nb; i++) {
        const sim_batch *b = &s->b[i];
        long cnt = field == F_BCAST ? b->nb : b->nu;
        if (cnt == 0)
            continue;
        double sum = field == F_LATENCY   ? b->latency
                     : field == F_NETWORK ? b->network
                                          : b->blat;
        x[m++] = sum / (double)cnt;
    }
    if (m < 2)
        return INFINITY;
    double mean = 0, sq = 0;
    for (int i = 0; i < m; i++)
        mean += x[i];
    mean /= m;
    for (int i = 0; i < m; i++)
        sq += (x[i] - mean) * (x[i] - mean);
    double sd = sqrt(sq / (m - 1));
    return sim__t95(m - 1) * sd / sqrt((double)m);
}

void sim__stats_summary(const sim_stats *s, int nb, sim_result *r)
{
    sim_batch t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < nb; i++) {
        const sim_batch *b = &s->b[i];
        t.latency += b->latency;
        t.network += b->network;
        t.wait += b->wait;
        t.hops += b->hops;
        t.flits += b->flits;
        t.setup += b->setup;
        t.backtracks += b->backtracks;
        t.blat += b->blat;
        t.n += b->n;
        t.nu += b->nu;
        t.nb += b->nb;
    }
    r->messages = t.n;
    r->batches = nb;
    r->broadcasts = t.nb;
    if (t.nu > 0) {
        double n = (double)t.nu;
        r->latency = t.latency / n;
        r->network_latency = t.network / n;
        r->source_wait = t.wait / n;
        r->hops = t.hops / n;
        r->message_flits = t.flits / n;
        r->path_setup = t.setup / n;
        r->backtracks = t.backtracks / n;
        r->latency_ci95 = half_width(s, nb, F_LATENCY);
        r->network_latency_ci95 = half_width(s, nb, F_NETWORK);
    }
    if (t.nb > 0) {
        r->broadcast_latency = t.blat / (double)t.nb;
        r->broadcast_latency_ci95 = half_width(s, nb, F_BCAST);
    }
}
