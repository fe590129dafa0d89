/*
 * fuzz_job.c — libFuzzer target for the farm's job and result parsers
 * (dse/farm/job.c): what a worker reads from the jobs stream and a
 * coordinator from result:KEY is untrusted.  dse_job_parse, and
 * dse_job_result_parse for both kinds, on arbitrary bytes must refuse or
 * accept, never crash, hang, leak, abort or allocate without bound.
 *
 * The literal @ENGINE@ in the input is replaced by this build's engine
 * string, so the seed corpus (tests/fuzz/corpus/job) gets past the
 * version check on every git revision.
 * Build and run: tests/fuzz/run.sh (docs/fuzzing.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dse/dse.h"
#include "dse/farm/job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2 * DSE_JOB_TEXT_MAX)
        return 0;
    const char *engine = dse_version_string();
    size_t el = strlen(engine);
    char *text = malloc(size * (el + 1) + 1); /* every byte may expand */
    size_t n = 0;
    for (size_t i = 0; i < size;) {
        if (size - i >= 8 && memcmp(data + i, "@ENGINE@", 8) == 0) {
            memcpy(text + n, engine, el);
            n += el;
            i += 8;
        } else {
            text[n++] = (char)data[i++];
        }
    }
    text[n] = '\0';
    dse_job j;
    err e;
    if (dse_job_parse(text, NULL, NULL, &j, &e) == 0)
        dse_job_fini(&j);
    dse_job_result r;
    if (dse_job_result_parse(text, "0123456789abcdef0123456789abcdef",
                             DSE_JOB_SIM, 0, &r, NULL) == 0)
        dse_job_result_fini(&r);
    if (dse_job_result_parse(text, "0123456789abcdef0123456789abcdef",
                             DSE_JOB_SCORE, 2, &r, NULL) == 0)
        dse_job_result_fini(&r);
    dse_secret sec = {.len = 16};
    memcpy(sec.bytes, "fuzzing secret!!", 16);
    (void)dse_job_result_verify(text, "0123456789abcdef0123456789abcdef", &sec,
                                NULL);
    free(text);
    return 0;
}
