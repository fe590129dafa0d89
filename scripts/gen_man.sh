#!/bin/sh
# gen_man.sh DSE OUT — write the manual page dse(1) to OUT from the help
# texts of the built program DSE (`dse --help` and `dse COMMAND --help`),
# so the page says exactly what the program says.  Run by the build
# (CMakeLists.txt) and installed by `cmake --install` into man1.
set -eu
dse=$1
out=$2
tmp="$out.tmp"

# roff-safe text: backslashes, and lines starting with . or '
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

commands=$("$dse" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && $1 { print $1 }')
version=$("$dse" --version | sed 's/^dse //')
{
    printf '.TH DSE 1 "" "dse %s" "User Commands"\n' "$version"
    printf '.SH NAME\ndse \\- design-space exploration of interconnection networks\n'
    printf '.SH SYNOPSIS\n.B dse\n[\\-\\-help] [\\-\\-version]\n.I COMMAND\n[ARGS...]\n'
    printf '.SH DESCRIPTION\n.nf\n'
    "$dse" --help | sed '1,2d' | esc
    printf '.fi\n.SH COMMANDS\n'
    for c in $commands; do
        printf '.SS dse %s\n.nf\n' "$c"
        "$dse" "$c" --help | esc
        printf '.fi\n'
    done
    cat <<'TAIL'
.SH ENVIRONMENT
.TP
.B DSE_REDIS_URL
the default of every \-\-redis (an empty value: none, so dse optimize runs locally)
.TP
.BR DSE_REDIS_PASSWORD ", " DSE_REDIS_PASSWORD_FILE
the Redis password when the URL has none (keeps it out of ps)
.TP
.BR DSE_FARM_SECRET ", " DSE_FARM_SECRET_FILE
the farm secret that seals and checks results
.TP
.B DSE_HTTP_TOKEN_FILE
a file holding the token of dse serve \-\-http\-token
.TP
.B XDG_CACHE_HOME
where dse optimize keeps its result cache (the folder "results" of its "dse" folder)
.SH EXIT STATUS
0 success, 1 the work failed, 2 bad usage or bad input; 130 interrupted.
.SH SEE ALSO
The repository's README.md and docs/ (config.md, farm.md, models.md,
decision.md, validation.md).
TAIL
} > "$tmp"
mv "$tmp" "$out"
