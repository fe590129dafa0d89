/*
 * registry.c — the one table of analytic models, in priority order: when
 * several models cover a design, model_for() picks the first, so the more
 * specific model (exact n = 2 forms, the paper's own model for a routing)
 * comes before the general one.  Add a model here and nowhere else.
 */
#include <stdio.h>
#include <string.h>

#include "model_int.h"

static const model *const registry[] = {
    /* models register themselves here, most specific first */
    &model_torus2d_duato_bcast,
    &model_torus2d_duato,
    &model_torus_duato,
    &model_torus_det,
    &model_express_det,
    &model_hcube_pcube,
    &model_hcube_pcs_hotspot,
    &model_hcube_duato,
    &model_dcsh_duato,
    &model_dcsh_hopbased,
    &model_dcsh_det_novc,   /* V = 1: before dcsh-det-vc (see its header) */
    &model_dcsh_det_vc,
    &model_torus2d_adaptive_meanflow,
    NULL,
};

const model *const *model_registry(size_t *count)
{
    size_t n = 0;
    while (registry[n])
        n++;
    *count = n;
    return registry;
}

const model *model_find(const char *name)
{
    for (size_t i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const model *model_for(const net_design *d, const net_workload *w, char *why,
                       size_t why_size)
{
    size_t used = 0;
    if (why && why_size)
        why[0] = '\0';
    for (size_t i = 0; registry[i]; i++) {
        char reason[256];
        if (registry[i]->covers(d, w, reason, sizeof reason) == 0)
            return registry[i];
        if (why && used < why_size) {
            int n = snprintf(why + used, why_size - used, "%s%s: %s",
                             used ? "; " : "", registry[i]->name, reason);
            if (n > 0)
                used += (size_t)n;
        }
    }
    if (why && why_size && !registry[0])
        snprintf(why, why_size, "no analytic model is registered");
    return NULL;
}
