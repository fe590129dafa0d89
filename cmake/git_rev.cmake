# git_rev.cmake — writes OUT (dse_git_rev.h) with the source tree's git
# revision, "-dirty" when tracked files differ from it, at every build and
# not only at configure time: the revision is part of every job's key
# (docs/farm.md), so a binary rebuilt after a commit must not carry the
# revision it was configured at (its results would be mistaken for the
# older code's, and the older code's cached results reused by it).
# The file is rewritten only when its text changes, so an unchanged
# revision recompiles nothing.
#   cmake -DSRC=<source dir> -DOUT=<header> -P git_rev.cmake
execute_process(COMMAND git rev-parse --short HEAD
  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE rev
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT rev)
  set(rev "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
    WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE changes ERROR_QUIET)
  if(changes)
    string(APPEND rev "-dirty")
  endif()
endif()
set(text "#define DSE_GIT_REV \"${rev}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
