#!/bin/sh
# gen_completion.sh DSE OUT — write a bash completion script for dse to
# OUT from the built program's help texts: the commands of `dse --help`
# and, per command, the long options its `dse COMMAND --help` lists.  Run
# by the build (CMakeLists.txt); `cmake --install` puts it where
# bash-completion looks (share/bash-completion/completions/dse).
set -eu
dse=$1
out=$2
tmp="$out.tmp"
commands=$("$dse" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && $1 { print $1 }')
{
    echo '# bash completion for dse, generated from its help texts'
    echo '# (scripts/gen_completion.sh); do not edit.'
    echo '_dse() {'
    echo '    local cur cmd opts'
    echo '    cur=${COMP_WORDS[COMP_CWORD]}'
    echo '    if [ "$COMP_CWORD" -eq 1 ]; then'
    printf '        COMPREPLY=($(compgen -W "%s --help --version" -- "$cur"))\n' \
        "$(echo $commands)"
    echo '        return'
    echo '    fi'
    echo '    cmd=${COMP_WORDS[1]}'
    echo '    case $cmd in'
    for c in $commands; do
        opts=$("$dse" "$c" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u | tr '\n' ' ')
        printf '    %s) opts="%s";;\n' "$c" "$opts"
    done
    echo '    *) opts="";;'
    echo '    esac'
    echo '    if [[ $cur == -* ]]; then'
    echo '        COMPREPLY=($(compgen -W "$opts" -- "$cur"))'
    echo '    else'
    echo '        COMPREPLY=($(compgen -f -- "$cur"))'
    echo '    fi'
    echo '}'
    echo 'complete -o filenames -F _dse dse'
} > "$tmp"
mv "$tmp" "$out"
