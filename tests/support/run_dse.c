/*
 * run_dse.c — see run_dse.h.
 */
#include "run_dse.h"

#include <stdio.h>
#include <stdlib.h>

char *dse_test_slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

int dse_test_optimize(const char *binary, const char *dir, const char *study,
                      const char *options)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/study.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = fputs(study, f) < 0;
    if (fclose(f) != 0 || bad)
        return -1;
    char cmd[13000];
    snprintf(cmd, sizeof cmd,
             "'%s' optimize -q --no-cache -o '%s/out' %s '%s' > '%s/stdout' "
             "2> '%s/stderr'",
             binary, dir, options, path, dir, dir);
    return system(cmd);
}
