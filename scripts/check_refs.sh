#!/bin/sh
# Fails (exit 1) when code, help texts, configs or docs point at something
# that is not in the tree.  CMake runs it on every build (target
# check_refs, beside check_layers), so a renamed file, a moved doc section
# or a removed function breaks the build where it is cited, not a reader.
#
# What it checks, over every tracked kind of text file (build directories
# and .git aside):
#   1. a repository path (net/..., models/..., docs/..., ...) names a file
#      or directory that exists;
#   2. a doc section cited as docs/PAGE.md, "Heading" (or without the
#      comma) is a heading of that page: the cited text, backticks aside,
#      starts a heading's text; a comment's line breaks and leaders
#      (" * ", "# ", "//") do not break a citation;
#   3. a Markdown link [text](target) from a page resolves inside the tree,
#      and its #anchor is one of the target page's headings;
#   4. a function written `name()` in a Markdown page is called or declared
#      somewhere in the C sources;
#   5. nothing names a document outside the tree: "../" paths to text
#      files, and the names of the source material the project was written
#      from (which are not in the tree; docs/sources.md cites the papers);
#      and nothing outside docs/history/ names an issue, a session or a
#      finding number.
# POSIX sh, grep, sed and awk only; one awk pass does checks 1-4.
set -eu
top=${1:-$(dirname "$0")/..}
cd "$top"

# Directories whose comments another change is still rewriting; every
# check skips them.  Empty when every directory is clean.
pending=""
# Paths that are written as examples of user input, not as references.
example_paths="configs/mine.yaml configs/x.yaml tests/data/no_such_file.yaml"
# Pages another change is adding; a citation of them passes until then.
promised=""

files=$(find . \( -name .git -o -name 'build*' -o -name node_modules \) -prune -o \
             -type f \( -name '*.c' -o -name '*.h' -o -name '*.md' -o -name '*.sh' \
                        -o -name '*.yaml' -o -name '*.cmake' -o -name CMakeLists.txt \) \
             -print | sed 's|^\./||' | sort)

bad=0

# 5. Documents outside the tree.
forbidden='MODELS\.md|ARCHITECTURE\.md|STYLE\.md|\.\./shared|[0-9]{3}_[0-9a-f]{16}|(^|[ `"'"'"'])(\.\./)+[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*\.(md|txt)'
skip='^$'
for d in $pending; do skip="$skip|^$d/"; done
# shellcheck disable=SC2086
hits=$(printf '%s\n' $files | grep -Ev "$skip" | grep -v '^scripts/check_refs\.sh$' |
       xargs grep -nE "$forbidden" 2>/dev/null || true)
if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | sed 's/$/   <- names a document outside the tree (cite docs\/sources.md or a page under docs\/)/' >&2
    bad=1
fi
# History (issue, session and finding numbers) belongs in git and
# docs/history/, not in code, help texts or reference pages.
# shellcheck disable=SC2086
hits=$(printf '%s\n' $files | grep -Ev "$skip" | grep -v '^docs/history/' |
       grep -v '^scripts/check_refs\.sh$' |
       xargs grep -nE '[Ii]ssues? [0-9]|[Ss]essions? [0-9]|[Ff]indings? [0-9]' 2>/dev/null || true)
if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | sed 's/$/   <- history: say why, or cite a docs page section/' >&2
    bad=1
fi

# Headings of every Markdown page: "PAGE<TAB>heading text" lines.
# shellcheck disable=SC2086
heads=$(printf '%s\n' $files | grep '\.md$' | xargs awk '
    FNR == 1 { fence = 0 }
    /^```/ { fence = !fence; next }
    !fence && /^#+ / { t = $0; sub(/^#+ +/, "", t); sub(/ +#* *$/, "", t); print FILENAME "\t" t }')

# C identifiers followed by "(" anywhere in the C sources.
# shellcheck disable=SC2086
idents=$(printf '%s\n' $files | grep -E '\.[ch]$' | xargs grep -ohE '[A-Za-z_][A-Za-z0-9_]*\(' |
         sort -u | tr -d '(')

# Every file and directory of the tree.
paths=$(find . \( -name .git -o -name 'build*' -o -name node_modules \) -prune -o -print |
        sed 's|^\./||')

# shellcheck disable=SC2086
if ! printf '%s\n' $files | grep -Ev "$skip" | grep -v '^scripts/check_refs\.sh$' |
     xargs awk -v heads="$heads" -v idents="$idents" -v paths="$paths $promised" \
               -v example_paths="$example_paths" '
function slug(s) {
    s = tolower(s)
    gsub(/[^a-z0-9 _-]/, "", s)
    gsub(/ /, "-", s)
    return s
}
function plain(s) { gsub(/`/, "", s); return s }
function exists(p) {
    sub(/\/+$/, "", p)
    return (p in known)
}
function norm(p,    n, i, k, parts, out) {
    n = split(p, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "" || parts[i] == ".") continue
        if (parts[i] == "..") { if (k == 0) return "../"; k--; continue }
        out[++k] = parts[i]
    }
    p = ""
    for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
    return p
}
function report(msg) { printf "%s: %s\n", cur, msg > "/dev/stderr"; bad = 1 }
function check_text(t, md,    s, m, p, sec, rest, q, found, h, dir, tgt, anc, fn) {
    # 1. repository paths (a Markdown link target is relative: check 3)
    s = t
    if (md) gsub(/\]\([^)]*\)/, "]", s)
    while (match(s, /(^|[^A-Za-z0-9_.\/$~-])(net|constraints|models|sim|dse|tests|bench|docs|scripts|configs|cmake)\/[A-Za-z0-9_.\/+-]*[A-Za-z0-9_\/]/)) {
        p = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
        sub(/^[^a-z]/, "", p)
        if (p ~ /[*]/ || substr(s, 1, 1) ~ /[*{$]/) continue
        sub(/\.$/, "", p)
        # bench/bench_NAME and bench/NAME: the program built from
        # bench/NAME.c; dse/NAME: the module NAME.c of a dse/ folder
        if (p ~ /^bench\/bench_/ && exists("bench/" substr(p, 13) ".c")) continue
        if (exists(p ".c") || (p ~ /^dse\/[a-z_]+$/ && (substr(p, 5) in modules))) continue
        if (p in examples) continue
        # a template of a new file in a checklist: sim/route_NAME.c
        if (p ~ /NAME/) continue
        if (!exists(p)) report("names " p ", which does not exist")
    }
    # 2. cited sections
    s = t
    while (match(s, /docs\/[A-Za-z0-9_\/.-]+\.md,? "[^" ][^"]*"/)) {
        m = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
        p = m; sub(/,? ".*/, "", p)
        sec = m; sub(/^[^"]*"/, "", sec); sub(/"$/, "", sec)
        sec = plain(sec)
        if (!exists(p)) continue   # reported by check 1
        found = 0
        for (q = 1; q <= nh; q++)
            if (hp[q] == p && index(ht[q], sec) == 1) { found = 1; break }
        if (!found) report("cites " p ", \"" sec "\", which is not a heading of that page")
    }
    if (!md) return
    # 3. Markdown links
    s = t
    while (match(s, /\]\([^) ]+\)/)) {
        m = substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
        if (m ~ /^[a-z]+:/) continue
        anc = ""
        if (index(m, "#")) { anc = substr(m, index(m, "#") + 1); m = substr(m, 1, index(m, "#") - 1) }
        dir = cur; if (dir ~ /\//) sub(/\/[^\/]*$/, "", dir); else dir = "."
        tgt = (m == "") ? cur : norm(dir "/" m)
        if (tgt == "../" || tgt ~ /^\.\.\//) { report("links " m ", outside the tree"); continue }
        if (!exists(tgt)) { report("links " m " (" tgt "), which does not exist"); continue }
        if (anc != "" && tgt ~ /\.md$/) {
            found = 0
            for (q = 1; q <= nh; q++)
                if (hp[q] == tgt && slug(ht[q]) == anc) { found = 1; break }
            if (!found) report("links " tgt "#" anc ", which is not a heading of that page")
        }
    }
    # 4. functions
    s = t
    while (match(s, /`[A-Za-z_][A-Za-z0-9_]*\(\)`/)) {
        fn = substr(s, RSTART + 1, RLENGTH - 4); s = substr(s, RSTART + RLENGTH)
        if (!(fn in fns)) report("names `" fn "()`, which no C source declares or calls")
    }
}
BEGIN {
    nh = split(heads, hl, "\n")
    for (q = 1; q <= nh; q++) { hp[q] = hl[q]; sub(/\t.*/, "", hp[q]); ht[q] = plain(substr(hl[q], index(hl[q], "\t") + 1)) }
    n = split(idents, il, "\n"); for (q = 1; q <= n; q++) fns[il[q]] = 1
    gsub(/ /, "\n", paths)
    n = split(paths, pl, "\n")
    for (q = 1; q <= n; q++) {
        known[pl[q]] = 1
        if (pl[q] ~ /^dse\/[a-z_]+\/[a-z_]+\.c$/) { m = pl[q]; sub(/.*\//, "", m); sub(/\.c$/, "", m); modules[m] = 1 }
    }
    n = split(example_paths, pl, " "); for (q = 1; q <= n; q++) examples[pl[q]] = 1
}
FNR == 1 {
    if (NR > 1) { cur = prevfile; check_text(buf, prevmd) }
    buf = ""; prevmd = (FILENAME ~ /\.md$/); prevfile = FILENAME
}
{
    line = $0
    sub(/^[ \t]*(\/\*+|\*+\/?|\/\/+|#+)?[ \t]*/, "", line)
    buf = buf " " line
}
END {
    if (NR > 0) { cur = prevfile; check_text(buf, prevmd) }
    exit bad
}'; then
    bad=1
fi
exit $bad
