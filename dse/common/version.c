/*
 * version.c — the version string written into every result (STYLE.md
 * section 6: results carry the git revision that produced them).
 */
#include "dse/dse.h"

#ifndef DSE_GIT_REV
#define DSE_GIT_REV "unknown"
#endif

const char *dse_version_string(void)
{
    return "dse " DSE_VERSION " (git " DSE_GIT_REV ")";
}
