/*
 * version.c — the version string written into every result (results carry the
 * git revision that produced them, so every number can be traced to its
 * code).
 */
#include "dse/dse.h"

/* DSE_GIT_REV: the revision at build time, "-dirty" with local changes
 * (written by cmake/git_rev.cmake at every build) */
#include "dse_git_rev.h"

const char *dse_version_string(void)
{
    return "dse " DSE_VERSION " (git " DSE_GIT_REV ")";
}
