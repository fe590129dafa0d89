#!/bin/sh
# run.sh — regenerate the BookSim2 reference figures of this folder.
#
# Usage: run.sh BOOKSIM_BINARY [CONFIG...]
#
# For each configuration file NAME.cfg (all of them when none is named) it
# writes NAME.csv with one row per BookSim2 run:
#   kind      zero_load | overload | curve
#   offered   injection rate, flits per node per cycle
#   fraction  offered / saturation (curve rows; empty otherwise)
#   latency   BookSim2's overall average packet latency, cycles (creation
#             to tail ejection, source queueing included); empty when the
#             run was aborted as unstable or has no latency (overload)
#   accepted  overall average accepted rate, flits per node per cycle
# The saturation throughput is the accepted rate at overload (offered 1.0,
# sim_type = throughput, so no drain); the curve runs at fixed fractions of
# it.  The configuration file is passed unchanged; only injection_rate (and
# sim_type for the overload run) are set on the command line, which BookSim2
# accepts as KEY=VALUE arguments after the file.
set -eu
bs=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
    set -- "$here"/*.cfg
fi

# value LABEL FILE: the number after "LABEL = " in the overall statistics
value() {
    sed -n '/Overall Traffic Statistics/,$p' "$2" |
        sed -n "s/^$1 = \([0-9.e+-]*\).*/\1/p" | head -n 1
}

for cfg in "$@"; do
    name=$(basename "$cfg" .cfg)
    out="$here/$name.csv"
    tmp=$(mktemp)
    log=$(mktemp)
    echo "kind,offered,fraction,latency,accepted" > "$tmp"

    # BookSim2 exits with 255 after a successful run: judge by its output
    "$bs" "$cfg" injection_rate=0.01 > "$log" 2>&1 || true
    echo "zero_load,0.01,,$(value 'Packet latency average' "$log"),$(value 'Accepted flit rate average' "$log")" >> "$tmp"

    # a configuration may bound its overload run: a comment line
    # "// run.sh overload: KEY=VALUE ..." adds those arguments to it
    over=$(sed -n 's|^// run.sh overload: ||p' "$cfg")
    # shellcheck disable=SC2086
    "$bs" "$cfg" injection_rate=1.0 sim_type=throughput $over > "$log" 2>&1 || true
    sat=$(value 'Accepted flit rate average' "$log")
    echo "overload,1.0,,,$sat" >> "$tmp"

    for f in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.85 0.9 0.95 1.05 1.2; do
        rate=$(echo "$sat * $f" | bc -l | sed 's/^\./0./')
        "$bs" "$cfg" injection_rate="$rate" > "$log" 2>&1 || true
        if grep -q 'Overall Traffic Statistics' "$log"; then
            lat=$(value 'Packet latency average' "$log")
            acc=$(value 'Accepted flit rate average' "$log")
        else
            lat=
            acc=
        fi
        echo "curve,$rate,$f,$lat,$acc" >> "$tmp"
    done
    mv "$tmp" "$out"
    rm -f "$log"
    echo "$name: saturation $sat flits/node/cycle -> $out"
done
