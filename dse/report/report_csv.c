/*
 * report_csv.c — candidates.csv: every scored design, one row each, the
 * same columns on every row (RFC 4180 quoting for the text fields; empty
 * cells for undefined numbers such as a saturated latency).
 */
#include <math.h>

#include "dse/report/report.h"
#include "net/topology.h"

void dse_csv_num(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
}

void dse_csv_text(FILE *out, const char *s)
{
    fputs(",\"", out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int dse_report_csv(const dse_run *r, FILE *out, err *e)
{
    const cfg_study *s = r->study;
    fputs("id,design,topology,n,radix,vcs,width,buffer,routing,switching",
          out);
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        fprintf(out, ",%s", net_param_get((net_param)p)->study_key);
    fputs(",model,message_flits,bisection_wires,max_pins,"
          "total_wires,buffer_bits,zero_load_latency,saturation_rate",
          out);
    for (size_t ri = 0; ri < s->rates.n; ri++)
        fprintf(out, ",latency@%g", s->rates.v[ri]);
    fputs(",rank,finalist,sim_rank,max_abs_error_pct,bound_rate,"
          "optimistic_saturation,sim_round,sim_saturation,sim_saturation_lo,"
          "sim_saturation_hi",
          out);
    for (size_t ri = 0; ri < s->rates.n; ri++)
        fprintf(out, ",sim_latency@%g,sim_ci95@%g", s->rates.v[ri],
                s->rates.v[ri]);
    /* a study ranked on a percentile: that percentile too, and its floor */
    cfg_latency_stat st = cfg_rank_stat(s);
    const char *stn = cfg_latency_stat_name(st);
    if (st != CFG_LAT_MEAN) {
        for (size_t ri = 0; ri < s->rates.n; ri++)
            fprintf(out, ",sim_%s@%g,sim_%s_ci95@%g", stn, s->rates.v[ri],
                    stn, s->rates.v[ri]);
        fputs(",min_zero_load_latency", out);
    }
    fputs(",ruled_out_by\n", out);
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        const net_design *d = &c->design;
        char text[512], radix[128] = "";
        net_design_format(d, text, sizeof text);
        size_t used = 0;
        for (int q = 0; q < d->n && used < sizeof radix; q++) {
            int w = snprintf(radix + used, sizeof radix - used, q ? "x%d" : "%d", d->k[q]);
            if (w > 0)
                used += (size_t)w;
        }
        fprintf(out, "%zu", i);
        dse_csv_text(out, text);
        fprintf(out, ",%s,%d,%s,%d,%d,%d,%s,%s", net_topology_name(d->topology),
                d->n, radix, d->vcs, d->width, d->buffer_flits,
                net_routing_name(d->routing), net_switching_name(d->switching));
        for (int p = 0; p < NET_PARAM_COUNT; p++)
            if (net_param_applies(d->topology, (net_param)p))
                fprintf(out, ",%d", net_param_value(d, (net_param)p));
            else
                fputs(",", out);
        dse_csv_text(out, c->model ? c->model->name : "");
        fprintf(out, ",%d", c->flits);
        dse_csv_num(out, c->cost.bisection_wires);
        dse_csv_num(out, c->cost.max_pins);
        dse_csv_num(out, c->cost.total_wires);
        dse_csv_num(out, c->cost.buffer_bits);
        dse_csv_num(out, c->zero_load);
        dse_csv_num(out, c->saturation_rate);
        for (size_t ri = 0; ri < s->rates.n; ri++)
            dse_csv_num(out, c->latency[ri]);
        fprintf(out, ",%d,%d,%d", c->rank, c->finalist, c->sim_rank);
        dse_csv_num(out, c->max_abs_error_pct);
        dse_csv_num(out, c->bound_rate);
        dse_csv_num(out, c->opt_saturation);
        fprintf(out, ",%d", c->sim_round);
        dse_csv_num(out, c->sim_saturation);
        dse_csv_num(out, c->sim_saturation_lo);
        dse_csv_num(out, c->sim_saturation_hi);
        for (size_t ri = 0; ri < s->rates.n; ri++) {
            dse_csv_num(out, c->sim ? c->sim[ri].latency : NAN);
            dse_csv_num(out, c->sim ? c->sim[ri].half_width : NAN);
        }
        if (st != CFG_LAT_MEAN) {
            for (size_t ri = 0; ri < s->rates.n; ri++) {
                double hw = NAN, v = c->sim ? dse_point_latency(&c->sim[ri], st,
                                                                &hw)
                                            : NAN;
                dse_csv_num(out, v);
                dse_csv_num(out, hw);
            }
            dse_csv_num(out, c->min_zero_load);
        }
        if (c->dominated_by >= 0)
            fprintf(out, ",%ld\n", c->dominated_by);
        else
            fputs(",\n", out);
    }
    return ferror(out) ? err_set(e, ERR_IO, "cannot write candidates.csv") : 0;
}
