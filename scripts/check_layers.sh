#!/bin/sh
# Fails (exit 1) when a source file includes a header of a layer it may not
# use.  The rules are docs/architecture.md's table "What may include what";
# CMake runs this on every build (target check_layers), so a wrong include
# fails the build, not a review.  tests/ and bench/ may use every layer's
# public headers; a private *_int.h only through the list private_ok.  A quoted include without a slash is a
# header of the file's own folder.
set -eu
top=${1:-$(dirname "$0")/..}
cd "$top"

# folder: the folders (and top-level headers) its files may include.
allowed() {
    case $1 in
    net)            echo "net" ;;
    constraints)    echo "net constraints" ;;
    models)         echo "net models" ;;
    sim)            echo "net sim" ;;
    dse/common)     echo "net dse/common dse/dse.h" ;;
    dse/study)      echo "net constraints models dse/study dse/dse.h" ;;
    dse/search)     echo "net constraints models sim dse/common dse/study dse/search dse/dse.h" ;;
    dse/report)     echo "net constraints models sim dse/common dse/study dse/search dse/report dse/dse.h" ;;
    dse/farm)       echo "net constraints models sim dse/common dse/study dse/search dse/report dse/farm dse/dse.h" ;;
    dse/validate)   echo "net constraints models sim dse/common dse/report dse/validate dse/dse.h" ;;
    dse/cli)        echo "net constraints models sim dse/common dse/study dse/search dse/report dse/farm dse/validate dse/cli dse/dse.h" ;;
    *)              echo "" ;;
    esac
}

bad=0
for dir in net constraints models sim dse/common dse/study dse/search \
           dse/report dse/farm dse/validate dse/cli; do
    ok=$(allowed "$dir")
    for f in "$dir"/*.c "$dir"/*.h; do
        [ -f "$f" ] || continue
        # shellcheck disable=SC2013
        for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            case $inc in
            */*) ;;
            *) continue ;;                  # own folder
            esac
            hit=0
            for a in $ok; do
                case $inc in
                "$a"|"$a"/*) hit=1 ;;
                esac
            done
            if [ $hit -eq 0 ]; then
                echo "$f: includes \"$inc\", which $dir may not use (docs/architecture.md)" >&2
                bad=1
            fi
        done
    done
done
# tests/ and bench/ may include every layer's public headers, but a
# layer's private header (*_int.h) only where this list names the pair:
# each entry is "FILE HEADER", a test or benchmark that checks or probes
# the internals that header exposes.
private_ok="
tests/test_models_hcube.c models/hcube_pcs_int.h
tests/test_models_hcube.c models/hcube_pcube_int.h
tests/test_sim.c sim/rng_int.h
tests/test_sim2.c sim/sim_int.h
tests/test_sim2_flow.c sim/sim_int.h
tests/test_sim_pipe.c sim/sim_int.h
tests/test_sim_fast.c sim/sim_int.h
tests/test_sim_par.c sim/sim_int.h
tests/test_sim_saturation.c sim/sim_int.h
tests/test_topology.c sim/sim_int.h
tests/test_traffic.c sim/sim_int.h
bench/probe_det.c sim/sim_int.h
bench/sim_parallel.c sim/sim_int.h
bench/probe_duato.c sim/sim_int.h
bench/sim_saturated.c sim/sim_int.h
"
# One grep over every test and benchmark file: FILE:HEADER per quoted
# include of a private header or of test support.
found=$(grep -HoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*(_int\.h|support/[^"]*)"' \
            tests/*.c tests/*.h tests/support/*.c tests/support/*.h \
            tests/fuzz/*.c bench/*.c bench/*.h 2>/dev/null |
        sed 's/:.*"\([^"]*\)".*/ \1/') || true
if ! printf '%s\n' "$found" | awk -v ok="$private_ok" '
    BEGIN { n = split(ok, l, "\n"); for (i = 1; i <= n; i++) allow[l[i]] = 1 }
    NF == 2 {
        if ($2 ~ /_int\.h$/) {
            if (!($0 in allow)) {
                printf "%s: includes the private header \"%s\"; add \"%s\" to private_ok in scripts/check_layers.sh if it needs those internals\n", $1, $2, $0 > "/dev/stderr"
                bad = 1
            }
        } else if ($1 !~ /^tests\//) {
            printf "%s: includes test support \"%s\" (tests/ only)\n", $1, $2 > "/dev/stderr"
            bad = 1
        }
    }
    END { exit bad }'; then
    bad=1
fi
# Nothing but README.md and top-level headers directly under dse/.
for f in dse/*; do
    [ -d "$f" ] && continue
    case $f in
    dse/README.md|dse/*.h) ;;
    *) echo "$f: a file directly under dse/ (put it in the folder of its concept)" >&2; bad=1 ;;
    esac
done
exit $bad
