/*
 * fuzz_study.c — libFuzzer target for the study parser (dse/study):
 * cfg_study_load_string on arbitrary bytes must return 0 or ERR_CONFIG,
 * never crash, hang, leak or trip a sanitizer; an accepted study's
 * design-space size is counted too (dse_space_enumerated, no allocation).
 * Build and run: tests/fuzz/run.sh (docs/fuzzing.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dse/study/cfg.h"
#include "dse/study/space.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    cfg_study s;
    err e;
    int rc = cfg_study_load_string(text, "fuzz.yaml", &s, &e);
    if (rc == 0) {
        volatile double n = dse_space_enumerated(&s);
        (void)n;
    } else if (rc != ERR_CONFIG) {
        abort(); /* the parser's only error is a config error */
    }
    cfg_study_fini(&s);
    free(text);
    return 0;
}
