#!/bin/sh
# Fails (exit 1) when a source file includes a header of a layer it may not
# use.  The rules are docs/architecture.md's table "What may include what";
# CMake runs this on every build (target check_layers), so a wrong include
# fails the build, not a review.  A quoted include without a slash is a
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
# Nothing but README.md and top-level headers directly under dse/.
for f in dse/*; do
    [ -d "$f" ] && continue
    case $f in
    dse/README.md|dse/*.h) ;;
    *) echo "$f: a file directly under dse/ (put it in the folder of its concept)" >&2; bad=1 ;;
    esac
done
exit $bad
