/*
 * saturation.c — sim_saturation(): a design's saturation throughput from
 * the simulator, in a bounded number of cycles.
 *
 * DEFINITION.  The saturation rate is the largest offered rate (messages
 * per node per cycle) the network accepts in steady state; above it the
 * backlog (flits generated but not consumed: source queues and buffers)
 * grows without bound.  It is what a manual sweep with sim_run finds as the
 * boundary between "ok" and "saturated".
 *
 * UNITS.  Rates are messages/node/cycle; the probes measure flits.  A
 * generated message puts msg_flits flits into the network: its length L,
 * except under broadcast traffic, where a broadcast is C copies of L flits
 * (sim__bcast_copies, bcast.c: 255 on a 16x16 torus, 85 on a 4x4x4x4 DCSH),
 * so msg_flits = L ((1 - beta) + beta C), and an accepted flit rate is
 * msg_flits times the message rate.  Dividing by L alone had put the
 * 16x16 Duato torus (V = 3, B = 1, 4-wire channels, 128-bit messages,
 * beta = 0.04) at 0.0555, 12.6 times its channel-load bound 0.0044
 * (models/bound.c), where dse sim finds it ok at 0.003, saturated at
 * 0.004.  The overload probe stays at 1/L messages/node/cycle (one flit of
 * unicast traffic per node and cycle; past any broadcast design's
 * saturation).  The backlog counts the copies a broadcast has still to
 * make (net->bcast_flits_owed): a copy stuck behind a congested channel
 * holds back its subtree, which flits generated alone would not show.  It
 * fills for as long as a broadcast lives, so the warm-up is at least
 * SAT_WARM_BCAST broadcast zero-load latencies (4-ary 4-cube, 128-flit
 * copies: 3 x 1032 cycles; after the 2,000 of unicast traffic the backlog
 * was still filling at 75% of the bound, and the search answered
 * 0.000886).  The bound's figure 0.0044 was itself a little low: 0.00459
 * since its adaptive ties are counted the way that best evens the two
 * directions (models/bound.c).
 *
 * WHY NOT THE OVERLOAD THROUGHPUT ALONE.  The accepted throughput when
 * every node is offered one flit per cycle (the classic "throughput"
 * measurement) equals the saturation throughput only on networks whose
 * accepted rate stays flat past saturation.  Tori with dimension-order
 * routing and dateline VC classes do not: at full overload every source
 * pushes into the over-used class-0 VCs and the accepted rate falls well
 * below its peak (8x8, V=2, B=4, L=16: 0.22 against 0.245 flits/node/cycle;
 * V=4, B=2: 0.26 against 0.32+), while a mesh or a Duato torus stays
 * flat.  Just past saturation, though, the accepted rate is still the peak
 * (the starved sources' queues grow, the others keep up).
 *
 * PAST SATURATION (is the fall real?).  Measured with
 * bench_sim_saturated --queues / --sweep and the fixed-cycle cases, seed 1
 * unless said:
 *   - 8x8 torus, DOR, V=2, B=4, L=16 at 0.017 msgs/node/cycle (10% past
 *     saturation): accepted 0.245-0.25 flits/node/cycle, steady over 100000
 *     cycles, but 45% of the source queues are empty while the nodes in
 *     columns x = 4..6 hold hundreds of messages each: the same columns with
 *     seeds 1 and 2 and with the active-list engine.  At one flit/node/cycle
 *     every queue is backlogged and the accepted rate falls to 0.22.
 *   - The same torus with V=4, B=2: stable at 0.32, 0.31 at 0.03 offered,
 *     0.257 at full overload.  With Duato routing (adaptive VCs plus
 *     escape): 0.447-0.449 from 0.03 to full overload (flat).  An 8x8 mesh,
 *     DOR, V=2, B=4: 0.305-0.309 (flat).  4-ary 5-cube, DOR, V=6, B=1:
 *     0.36-0.367 (flat, rising slightly with the pressure).
 *   So the fall is real in the model, not an artefact of allocation or
 *   visit order: it appears only with the dateline VC classes of
 *   dimension-order tori, whose class-0 VCs carry more traffic than the
 *   class-1 ones, and it comes with a stable starvation pattern: sources
 *   just upstream of the dateline lose the round-robin arbitration for the
 *   class-0 VCs their packets need.  Just past saturation those sources
 *   throttle themselves (their queues grow, the rest keep up) and the
 *   network still delivers its peak; when every source is backlogged
 *   (full overload) they all push into the contended class-0 VCs and
 *   throughput drops (tree saturation behind the dateline).  A simulator
 *   that balances the dateline classes, prioritises by age, or limits
 *   injection would show a flat plateau, as the reference simulator does
 *   on all but one network.
 *   Larger Duato tori with 1-flit buffers fall too, and much further (dse sim
 *   --saturation, seed 1; 8-wire channels, 16-flit exponential messages, D_r =
 *   1): 16x16, V = 3, accepts 0.096 flits/node/cycle at overload against 0.152
 *   sustained at 0.0095; 32x32, V = 6, 0.044 against 0.141 at 0.0088; while
 *   8x8, V = 3 or 6, stays within 5% of its peak.  Their escape VCs are the
 *   dimension-order dateline classes, which every worm falls back on once the
 *   adaptive VCs are full, so the same mechanism is the likely cause; it has
 *   not been traced further.  The search handles it (SEARCH, 4).
 *
 * SEARCH.
 *   1. Overload probe (one flit/node/cycle offered, a quarter of the
 *      length of the others): its accepted rate is r->throughput and the
 *      first estimate.  So short a span still includes the burst an empty
 *      network accepts at first (32x32 torus: 0.111 against a plateau of
 *      0.100), which the next probes correct.
 *   2. Probe at SAT_OVER (20%) above the current estimate.  A probe is
 *      unstable when its backlog grows (least-squares trend over the
 *      measured span, sampled every SAT_SAMPLE cycles) by more than
 *      SAT_GROWTH of the flits generated in the span: then its accepted
 *      rate, measured just past saturation, is the new estimate.  A stable
 *      probe means saturation lies higher: the next probe is SAT_STEP above
 *      it.
 *   3. Stop when two successive estimates agree within SAT_REL_WIDTH; the
 *      answer is their mean, and its interval the larger of the last
 *      probe's 95% batch-means half-width of accepted (SAT_BATCHES
 *      sub-spans) and half the disagreement.
 *   4. FALLING THROUGHPUT.  Steps 2-3 assume the accepted rate just past
 *      saturation is about the saturation rate (a plateau, or a gentle
 *      fall).  Where it collapses, the estimate lands below rates the
 *      network sustains: 32x32 Duato torus, V = 6, 8-wire channels,
 *      16-flit exponential messages (the main study's best torus) accepts
 *      0.044 flits/node/cycle at overload and 0.128 at 0.008 offered; dse sim:
 *      ok at 0.0088, saturated at 0.0092, where the accepted rate has already
 *      fallen to 0.0028 messages.  Steps 2-3 alone answer 0.00278 there (3.2x
 *      low): no stable probe ever overrides the estimate.  So, once the
 *      estimate is 20% below a stable probe (two stable climbs in a row) or an
 *      unstable probe accepts less than a stable one offered, the search
 *      switches to a bracket: climb by SAT_CLIMB from stable probes, bisect
 *      [lo, hi] geometrically until hi / lo <= 1 + SAT_BRACKET; the answer is
 *      lo, the highest rate a probe sustained, with the interval [lo, hi].
 *      That 32x32 torus: 0.008465 [0.008465, 0.008905] in 8 probes, 7.2 s CPU.
 *      CLIMBING TO THE BOUND.  Climbing by SAT_CLIMB from an estimate a
 *      tenth of the answer spends the budget on the way up: the 64x64
 *      torus of configs/vlsi_4096.yaml (V = 6, 16-wire channels, minimal
 *      adaptive, 8-flit exponential messages) accepts 0.0085 flits/node/
 *      cycle at overload, and climbing by SAT_CLIMB ended at
 *      [0.008038, 0.012058], not narrowed in 8 probes (dse sim
 *      --saturation, seed 1, 54 s CPU).  Where the design's channel-load
 *      bound is known (p->saturation_bound), saturation lies between the
 *      highest rate sustained and it, so until a probe is unstable the
 *      bound stands in for hi and the search bisects that range
 *      geometrically; a lo within SAT_BRACKET of the bound is followed
 *      by a probe SAT_BRACKET past the bound (not a stop at the bound: a
 *      network that sustains more than its bound shows the bound wrong,
 *      which the caller reports; nothing is capped).  That torus (bound
 *      0.0156): 0.008342 [0.008342, 0.008675] in 8 probes and the same
 *      43,500 cycles, but 95-103 s CPU (idle machine): its probes now lie
 *      near saturation, where a cycle costs more.  The main job
 *      (configs/vlsi_1024.yaml) recommends the same design, its
 *      saturation 0.00750 (0.00750-0.00774) instead of 0.00699
 *      (0.00699-0.00774), in 156 s wall instead of 135.
 *
 *   5. HOT SPOTS AND STARVED SOURCES.  An overload that falls on a few
 *      channels hides in the total: 5% of each of 255 nodes' messages to
 *      one node of an 8-cube (Duato, V = 4, 2-wire channels, 64-bit
 *      messages, immediate consumption), offered 15% more than its 8 input
 *      channels carry, adds 0.7% of the flits generated to the backlog,
 *      under SAT_GROWTH; the search answered 0.0235, above the 0.01825 the
 *      hot node can take in.  So a probe is also unstable when the
 *      backlog to the hot node grows by SAT_GROWTH of the flits sent to it,
 *      or the node received SAT_HOT_SHORT less than was sent to it over
 *      the span (hot-spot spans are SAT_HOT_SPAN times longer, so that a
 *      few percent of overload outgrows the noise of the messages in
 *      flight), or one source's queue grew by more than SAT_QUEUE_MIN
 *      messages and SAT_QUEUE_FRAC of what it generated.  Such a probe's
 *      estimate is the rate times the share the hot node absorbed, and the
 *      search brackets from below as in 4.  That 8-cube: 0.01768
 *      [0.01768, 0.01834] in 7 probes, 3.8 s CPU; dse sim, 200000
 *      messages: ok at 0.0175 (104 cycles), at 0.0189 latency 294 cycles
 *      with 98.5% accepted (saturating).
 *
 *   6. LOCAL RESOLUTION.  A small local overload grows the backlog so
 *      slowly that a probe of the usual span calls it stable: on a 6-cube
 *      with dimension-order routing and the same hot spot (V = 3, 2-wire
 *      channels, 64-bit messages), whose channel-load bound 0.01501 is
 *      exact (the hot node's dimension-5 input carries 32 sources'
 *      messages to it), a 12,000-cycle probe sustained 0.01577 (5% over)
 *      and 200,000-message runs saturate at 0.015.  So under hot-spot
 *      traffic the probes that narrow a bracket span SAT_HOT_FINE times
 *      longer (and a bracketed lo is always confirmed as in 7.).  A probe is also
 *      unstable when one network channel carried a flit in SAT_CHANNEL_FULL
 *      of the span's cycles (under broadcast traffic, only a confirming
 *      probe's, 7.): no channel carries more than one, so it is at
 *      its capacity whatever the backlog shows (the same 6-cube with
 *      V = 6: 0.9902 flits per cycle at 0.01561, 4% over, where the
 *      backlog tests saw nothing).  That 6-cube: V = 3 0.01492 in 7
 *      probes, 1.5 s CPU; V = 6 0.01472 in 9 probes, 2.0 s.  Even so an
 *      overload of a percent or two can pass: a worm blocked downstream
 *      leaves its channel idle, so the busiest channel of the 4x4x4 torus
 *      (same traffic, dimension order, V = 6) carries 0.966 flits per
 *      cycle at 0.01362, 1.25% over its exact bound 0.01345, and the
 *      backlog grows by 0.26% of the flits.  So where an unstable probe's
 *      overload was local the interval's lower end is one bracket width
 *      (SAT_BRACKET) below lo: the search's resolution, stated rather
 *      than hidden (decide.c flags a rate only when its whole interval
 *      lies above the channel-load bound).
 *
 *   7. CONFIRMATION, where the answer is in doubt.  Steps 2-3 assume the
 *      accepted rate just past saturation is the saturation rate, and a
 *      short probe can call stable a congestion that builds more slowly
 *      than it lasts.  P-cube routing on the 10-cube (3-wire channels,
 *      V = 3..6, B = 1, exponential 128-bit messages, one ejection
 *      channel) showed both: every P-cube path passes node s & d, so node
 *      0's channels carry 5.67 times the mean load and bound the rate at
 *      0.00410 (dse sim, 100000 messages: ok at 0.0041, saturated at
 *      0.0045); the overload probe accepts 0.368 flits/node/cycle while
 *      node 0 fills, two such estimates agreed at 0.00586 without any
 *      probe sustaining it, and 4,000-cycle probes sustained 0.00482.  So
 *      before the search stops, an answer in doubt has its lower end (lo,
 *      or the converged interval's) probed over SAT_CONFIRM_SPAN spans
 *      unless such a probe sustained it already (under a hot spot
 *      SAT_CONFIRM_SPAN = SAT_HOT_FINE: the same span as its narrowing
 *      probes).  In doubt: a lower end within SAT_NEAR_BOUND of the
 *      design's channel-load bound (p->saturation_bound, which dse
 *      optimize and dse sim pass; models/bound.c), which no network
 *      sustains and wormhole networks stay well below; under a hot spot
 *      every bracketed lo (6.); and everything after an overturn.  Not a
 *      converged answer that no probe sustained: nearly every search
 *      converges that way (tests/data/opt_small.yaml: 18 of its 26
 *      searches, all on two unstable probes), so confirming them all cost what
 *      confirming every answer did (the searches of that study 2.2 times
 *      the CPU, the main job 550 s CPU against 478 s).  A confirming probe
 *      that is unstable overturns the rate: the bracket is rebuilt below,
 *      from the highest rate a confirming probe sustained, or, where none
 *      did, by a confirming probe one bracket width below the overturned
 *      rate and below what that probe accepted; from then on every probe
 *      of the search spans the confirming length (short probes that lied
 *      once are no guide: fooled 25% over, they had led to one overturn
 *      per rate they sustained).  A confirming probe may run SAT_CONFIRM
 *      probes beyond the budget, a search with an overturn SAT_CONFIRM
 *      more, and where the budget ends before lo is confirmed, a lower
 *      rate a confirming probe sustained is the answer.  A rate at or
 *      above the channel-load bound needs a confirming probe
 *      SAT_BOUND_SPAN times longer still (confirm_span_at): no network
 *      sustains it, so a stable probe there was fooled or the bound is
 *      wrong, and the congestion around an exact bound can take longer
 *      than the confirming span to show.  The 1-wire P-cube 10-cube
 *      (V = 5, B = 1, exponential 128-flit messages, D_r = 1), whose exact
 *      bound is 0.001377: at 0.001432 (4% over) node 0's congestion tree
 *      fills the network over some 10^5 cycles (fixed-cycle run, seed 1:
 *      0.181 of 0.185 offered flits/node/cycle accepted and the backlog
 *      grown by 2.2% of the flits generated over cycles 8,000-32,000,
 *      under SAT_GROWTH; 0.168 of 0.182 and 7.8% over 88,000-120,000),
 *      so the 33,120-cycle confirming probe sustained it.  The search
 *      answered 0.00143 before,
 *      0.001354 [0.001354, 0.001401] now (43 s CPU on a loaded machine).
 *      Even that is not the end of it: fixed-cycle runs at 0.001354 and
 *      at 0.00125 still see the backlog start to grow after 40,000 and
 *      100,000 cycles (queues of 1.2 messages a node after 200,000 cycles
 *      at 0.00125), where a 200,000-message `dse sim` run calls both rates
 *      ok.  Where the congestion of an exact bound takes 10^5 cycles to
 *      build, the saturation rate depends on how long one looks; the
 *      search stays below the bound and may lie about 10% above what runs
 *      ten times longer sustain.  Confirming every answer within
 *      SAT_NEAR_BOUND of the bound this way put V = 5 at 0.001308, but
 *      cost the hot-spot searches of tests/data/heldout_small.yaml half
 *      as much CPU again (bench_decide, Release: decision 24 s against
 *      14 s CPU; both certified, the same front, nothing above a bound).
 *      Under broadcast
 *      traffic a short probe's busy channel is not judged (6.): at 84% of
 *      its bound a broadcast 4x4x4 torus's busiest channel of 192 is busy
 *      in every cycle of some 4,000-cycle spans.  Measured (Release, seed
 *      1, dse sim --saturation): that P-cube 10-cube, V = 6: 0.005857
 *      [0.00539, 0.00633] in 3 probes before, 0.004017 [0.004017,
 *      0.004223] in 8 after (3.1 against 23 s CPU on a loaded machine);
 *      V = 3: 0.003476; broadcast_256's 4-ary 4-cube (Duato, V = 3, B = 1,
 *      1-wire channels, 128-bit messages, beta = 0.04): 0.001856
 *      [0.00173, 0.00198] before, 0.001333 [0.001253, 0.001451] after,
 *      against its bound 0.001457; the test 4x4x4 Duato torus under
 *      broadcast (beta = 0.1, 32-flit messages, bound 0.00911;
 *      test_models_bound): 0.01105 [0.0107, 0.0114] before, 0.008031
 *      [0.007549, 0.008334] after (dse sim: ok at 0.0080, saturated at
 *      0.0088).  No answer of the uniform studies comes near its bound:
 *      opt_small's 24 searches end at 0.43-0.73 of it, the main job's 14
 *      (configs/vlsi_1024.yaml) at 0.16-0.52; none is confirmed, and
 *      both give the same answers in the same probes as without the
 *      confirmation (test_optimize, Release: 11.0 s CPU against 11.4 s).
 *      test_heldout's 29 hot-spot searches (lower ends at 0.61-0.88 of
 *      their bounds) confirm their brackets as before: the same 172
 *      probes and 9.24 M cycles, 45.0 s CPU against 45.6 s (probe counts
 *      from a temporary trace of every search; CPU from /usr/bin/time -v
 *      on the Release test binaries, load average 13-20).
 *
 * COST.  Probes run on fresh networks (seed p->seed) for warm + span
 * cycles, warm = max(SAT_MIN_WARM, 15 T0), span = max(2 warm, SAT_MIN_SPAN),
 * T0 the zero-load latency (mean hops x (1 + D_r) + L; broadcast: see
 * UNITS); the overload probe
 * runs a quarter of each; a confirming probe SAT_CONFIRM_SPAN spans (7.).
 * At most SAT_MAX_PROBES probes (the overload one included; under a hot
 * spot SAT_CONFIRM more), SAT_CONFIRM more to confirm an answer in doubt
 * and SAT_CONFIRM more after an overturn (7.), and never more than
 * p->max_cycles simulated cycles in total when that is set (status
 * SIM_CYCLE_LIMIT with the estimate so far).  p->stop_flag is polled every
 * SAT_SAMPLE cycles (SIM_STOPPED).  The answer is a pure function of
 * (design, workload, seed, credit delay, cycle cap).  One probe's network
 * exists at a time, with one count per node (the source queues at the
 * start of the span).
 *   The probes sit 20% past saturation rather than just past it because
 *   short probes measure the accepted rate while it still ramps up on some
 *   networks (the 4-ary 5-cube takes ~6000 cycles); a little extra pressure
 *   makes up for it there and costs nothing where the rate is flat or
 *   falls only at full overload.
 *
 * MEASURED (bench_sim_saturated --saturation and --sweep, seed 1):
 *   8x8 torus, DOR, V=2, B=4, L=16: 0.01543 msgs/node/cycle in 0.10 s CPU;
 *     dse sim: ok at 0.0150, saturated at 0.0155 (seeds 1-5 of an
 *     earlier variant probing 10% over: 0.0151-0.0156).
 *   4-ary 5-cube, DOR, V=6, B=1, D_r=1, L=128: 0.002795 in 8.7 s CPU
 *     (20182 cycles, load average 8); dse sim: accepted within 1% of
 *     offered up to 0.0028, 97% at 0.0029, 96% at 0.0030 (still "ok").
 *   32x32 torus, same router and messages: 0.000804 in 3.7 s CPU (16200
 *     cycles); fixed-cycle sweep (10000 + 20000 cycles): backlog growth
 *     0.2% at 0.000749, 1.0% at 0.000779, 2.8% at 0.000810, accepted
 *     0.0995-0.100 flits/node/cycle from 0.00081 up.
 *   All within 5% of the sweeps; CPU times on a shared 2-core machine
 *   under load (load average 4-10).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "sim_int.h"

#define SAT_GROWTH 0.03          /* backlog growth / generated: unstable */
#define SAT_QUARTER_GROWTH (4 * SAT_GROWTH) /* the same, over a quarter
                                    span (the ceiling question) */
#define SAT_STEP 1.25            /* up from a stable probe */
#define SAT_OVER 1.20            /* offered / estimate in a probe */
#define SAT_REL_WIDTH 0.02       /* converged: two estimates this close */
#define SAT_BATCHES 8            /* sub-spans for the accepted rate's CI */
#define SAT_CLIMB 1.5             /* up from a stable probe, falling */
#define SAT_BRACKET 0.06         /* falling: hi / lo narrowed to this */
#define SAT_MAX_PROBES 8
#define SAT_CONFIRM 2            /* probes allowed beyond SAT_MAX_PROBES
                                    to confirm the answer's lower end (7.) */
#define SAT_CONFIRM_SPAN 8       /* a confirming probe spans this many
                                    times a probe's span (7.): 4 let the
                                    P-cube 10-cube sustain 0.00438 */
#define SAT_NEAR_BOUND 0.9       /* an answer this close to the design's
                                    channel-load bound is confirmed (7.) */
#define SAT_BOUND_SPAN 4         /* a rate at or above that bound is
                                    confirmed by a probe this many times
                                    the confirming span (7.) */
#define SAT_LOG 32               /* rates sustained, kept for a re-bracket */
#define SAT_MIN_WARM 2000        /* cycles of warm-up, at least */
#define SAT_WARM_T0 15           /* warm-up / a message's zero-load latency */
#define SAT_WARM_BCAST 3         /* warm-up / a broadcast's zero-load latency */
#define SAT_MIN_SPAN 4000        /* measured cycles, at least */
#define SAT_SAMPLE 64            /* cycles between backlog samples */
#define SAT_HOT_SHORT 0.02       /* the hot node delivered this much less
                                    than was sent to it over the span */
#define SAT_HOT_SPAN 3           /* hot-spot traffic: spans this much longer
                                    (the hot node's backlog grows by the
                                    overload x its share of the traffic) */
#define SAT_HOT_FINE 8           /* hot-spot traffic: the bracket's probes
                                    span this much longer again (below) */
#define SAT_HOT_MIN 64           /* messages to the hot node in a span
                                    below which its trend is not judged */
#define SAT_CHANNEL_FULL 0.99    /* a channel that carried a flit in this
                                    share of the span's cycles is at its
                                    capacity: unstable */
#define SAT_QUEUE_MIN 16         /* one source's queue growing by more
                                    messages than this ... */
#define SAT_QUEUE_FRAC 0.25      /* ... and this share of the messages it
                                    generated in the span: unstable */

typedef struct probe_out {
    double offered, accepted;    /* flits/node/cycle over the span */
    double growth;               /* backlog trend over the span / flits
                                    generated in it */
    double ci;                   /* 95% half-width of accepted (batch
                                    means over SAT_BATCHES sub-spans) */
    double hot_growth;           /* hot-spot traffic: the backlog to the
                                    hot node's trend / flits generated for
                                    it (0 otherwise) */
    double hot_share;            /* flits delivered to it / generated for
                                    it over the span (1 otherwise) */
    long queue_growth;           /* largest growth of one source's queue
                                    over the span, messages */
    double channel_busy;         /* flits per cycle over the span on the
                                    busiest network channel */
    int local;                   /* unstable by the hot node, or by one
                                    source's queue and not the total */
    int stable;
} probe_out;

typedef struct search {
    const sim_params *p;
    double len;                  /* mean message length, flits */
    double msg_flits;            /* flits the network carries per generated
                                    message: len, and a broadcast's copies
                                    (UNITS above) */
    long warm, span;
    long confirm_span;           /* span of the probes that confirm the
                                    answer's lower end (7.) */
    long fine_span;              /* span of the probes that narrow a
                                    bracket (longer under a hot spot) */
    int max_probes;
    sim__probe_script script;    /* tests: the verdicts instead of runs */
    void *script_ctx;
    long budget;                 /* cycles left (LONG_MAX-like if none) */
    sim_saturation_result *r;
} search;

/* The messages waiting at each node's injection queues into q[0..nodes);
 * diff: q[u] = now - q[u] instead (the growth since q was taken). */
static void source_queues(const sim_net *net, long *q, int diff)
{
    int ipn = net->topo.ipn;
    for (long u = 0; u < net->nodes; u++) {
        long len = 0;
        for (int j = 0; j < ipn; j++)
            len += net->iq[u * ipn + j].len;
        q[u] = diff ? len - q[u] : len;
    }
}

/* What a probe gathers: the counts at the end of the warm-up, the
 * least-squares sums of the backlog against time over the span (sh, sth:
 * the backlog to the hot node), the hot node's counters and each source's
 * queue at the end of the warm-up, and the flits consumed per sub-span. */
typedef struct probe_acc {
    sim_counts a;
    double n, st, sb, stt, stb, sh, sth;
    long hot_gen0, hot_del0;
    long owed0;                  /* broadcast flits owed at the warm end */
    long *q0;
    int64_t *ch0;                /* each channel's flits at the warm end */
    long nch;
    double bcons[SAT_BATCHES];
    long last_cons;
} probe_acc;

/* The samples after the first `done` cycles: the starting counts exactly
 * at the end of the warm-up, then the sub-span's consumption and the
 * backlog. */
static void probe_sample(const sim_net *net, probe_acc *acc, long done,
                         long warm, long span)
{
    if (done == warm) {
        sim_net_counts(net, &acc->a);
        acc->hot_gen0 = net->hot_flits_generated;
        acc->hot_del0 = net->hot_flits_delivered;
        acc->owed0 = net->bcast_flits_owed;
        source_queues(net, acc->q0, 0);
        for (long c = 0; c < acc->nch; c++)
            acc->ch0[c] = sim_net_channel_flits(net, c);
    }
    if (done > warm) {
        int k = (int)((done - warm - 1) * SAT_BATCHES / span);
        acc->bcons[k < SAT_BATCHES ? k : SAT_BATCHES - 1] +=
            (double)(net->flits_consumed - acc->last_cons);
    }
    acc->last_cons = net->flits_consumed;
    if (done >= warm) {
        double t = (double)(done - warm);
        double bl = (double)(net->flits_generated + net->bcast_flits_owed -
                             net->flits_consumed);
        double hb = (double)(net->hot_flits_generated -
                             net->hot_flits_delivered);
        acc->n++;
        acc->st += t;
        acc->sb += bl;
        acc->stt += t * t;
        acc->stb += t * bl;
        acc->sh += hb;
        acc->sth += t * hb;
    }
}

/* One source's queue growing: starved sources (a dateline class, P-cube's
 * node 0, the hot node's own injection) hold the backlog where the total
 * hides it.  Sets o->queue_growth; returns whether one grew too much. */
static int sources_unstable(const sim_net *net, long *q0, double rate,
                            long cycles, probe_out *o)
{
    source_queues(net, q0, 1);
    o->queue_growth = 0;
    double per_source = rate * (double)cycles;   /* queue entries */
    int queue_bad = 0;
    for (long u = 0; u < net->nodes; u++) {
        if (q0[u] > o->queue_growth)
            o->queue_growth = q0[u];
        if (q0[u] > SAT_QUEUE_MIN && q0[u] > SAT_QUEUE_FRAC * per_source)
            queue_bad = 1;
    }
    return queue_bad;
}

/* 95% half-width of the accepted rate, flits/node/cycle: batch means over
 * the SAT_BATCHES sub-spans. */
static double accepted_ci(const double *bcons, long nodes, long span)
{
    double m = 0, v = 0, bn = (double)nodes * (double)span / SAT_BATCHES;
    for (int k = 0; k < SAT_BATCHES; k++)
        m += bcons[k] / bn / SAT_BATCHES;
    for (int k = 0; k < SAT_BATCHES; k++)
        v += (bcons[k] / bn - m) * (bcons[k] / bn - m);
    return sim__t95(SAT_BATCHES - 1) *
           sqrt(v / (SAT_BATCHES - 1) / SAT_BATCHES);
}

/* The probe's figures over its span and its verdict: stable, or not (and
 * whether the overload is local). */
static void probe_figures(const search *s, const sim_net *net, double rate,
                          long span, probe_acc *acc, probe_out *o)
{
    sim_counts b;
    const sim_counts *a = &acc->a;
    sim_net_counts(net, &b);
    double nc = (double)net->nodes * (double)(b.cycle - a->cycle);
    /* a broadcast's flits count when it is generated, made or owed */
    double gen = (double)(b.flits_generated - a->flits_generated +
                          net->bcast_flits_owed - acc->owed0);
    double cons = (double)(b.flits_consumed - a->flits_consumed);
    o->offered = gen / nc;
    o->accepted = cons / nc;
    double n = acc->n, st = acc->st;
    double den = n * acc->stt - st * st;
    double slope = (n * acc->stb - st * acc->sb) / den;
    o->growth = slope * (double)(b.cycle - a->cycle) / gen;
    /* The hot node: its ejection (or the channels into it) may be
     * overloaded while the total backlog grows by well under
     * SAT_GROWTH of all flits (5% of 256 nodes' messages to it, 15% too
     * many: 0.7% of all flits); so its own backlog is judged against
     * the flits sent to it. */
    double hgen = (double)(net->hot_flits_generated - acc->hot_gen0);
    double hdel = (double)(net->hot_flits_delivered - acc->hot_del0);
    o->hot_growth = 0;
    o->hot_share = 1;
    if (net->hot_node >= 0 && hgen >= SAT_HOT_MIN * s->len) {
        o->hot_growth = (n * acc->sth - st * acc->sh) / den *
                        (double)(b.cycle - a->cycle) / hgen;
        o->hot_share = hdel / hgen;
    }
    int queue_bad = sources_unstable(net, acc->q0,
                                     rate * s->msg_flits / s->len,
                                     b.cycle - a->cycle, o);
    int hot_bad = o->hot_growth > SAT_GROWTH ||
                  1 - o->hot_share > SAT_HOT_SHORT;
    o->channel_busy = 0;
    for (long c = 0; c < acc->nch; c++)
        o->channel_busy =
            fmax(o->channel_busy,
                 (double)(sim_net_channel_flits(net, c) - acc->ch0[c]) /
                     (double)(b.cycle - a->cycle));
    /* Under broadcast traffic a busy channel over a short span is no sign
     * of overload: at 84% of its bound a broadcast torus's busiest channel
     * (of 192) is busy in every cycle of some 4000-cycle spans (its copies
     * come in bursts of a tree).  There only a confirming probe judges it. */
    int channel_full = o->channel_busy >= SAT_CHANNEL_FULL &&
                       (s->p->workload.traffic != NET_TRAFFIC_BROADCAST ||
                        span >= s->confirm_span);
    o->stable = o->growth <= SAT_GROWTH && !hot_bad && !queue_bad &&
                !channel_full;
    o->local = hot_bad || (!o->stable && o->growth <= SAT_GROWTH);
    o->ci = accepted_ci(acc->bcons, net->nodes, span);
}

/* An early look at a probe: the figures of its first `span` measured
 * cycles, taken on the way (the ceiling question's quarter span). */
typedef struct probe_early {
    long span;
    probe_acc acc;
    probe_out out;
    int stopped;                 /* stop_early ended the probe there */
} probe_early;

/* The next sample point after `done` of a probe of warm + span cycles: every
 * SAT_SAMPLE cycles, exactly at the end of the warm-up, and at the end. */
static long next_sample(long done, long warm, long total)
{
    if (done < warm)
        return done + SAT_SAMPLE < warm ? done + SAT_SAMPLE : warm;
    long next = warm + ((done - warm) / SAT_SAMPLE + 1) * SAT_SAMPLE;
    return next < total ? next : total;
}

/* Steps the probe's network warm + span cycles, sampling every
 * SAT_SAMPLE cycles and once exactly at the end of the warm-up, where the
 * measured counts start.  With early (not NULL), also samples into
 * early->acc at the points a probe of warm + early->span cycles would
 * sample, takes its figures at its end and stops there when `stop_early`
 * says its verdict is clear: the network is the one a shorter probe of the
 * same seed would have built, so its figures are that probe's exactly.
 * 0, or the sim_status that ended it early. */
static int probe_run(search *s, sim_net *net, double rate, long warm,
                     long span, probe_acc *acc, probe_early *early,
                     int (*stop_early)(const probe_out *))
{
    long total = warm + span;
    long early_end = early ? warm + early->span : -1;
    for (long done = 0; done < total;) {
        long until = next_sample(done, warm, total);
        if (done < early_end && until > early_end)
            until = early_end;
        long chunk = until - done;
        if (chunk > s->budget)
            return SIM_CYCLE_LIMIT;
        err e2;
        if (sim_net_step(net, chunk, &e2)) {
            snprintf(s->r->detail, sizeof s->r->detail,
                     "deadlock at rate %.6g: %.180s", rate, e2.msg);
            return SIM_DEADLOCK;
        }
        done += chunk;
        s->budget -= chunk;
        s->r->cycles += chunk;
        if (done <= early_end)
            probe_sample(net, &early->acc, done, warm, early->span);
        if (done <= warm || (done - warm) % SAT_SAMPLE == 0 || done == total)
            probe_sample(net, acc, done, warm, span);
        if (done == early_end) {
            probe_figures(s, net, rate, early->span, &early->acc,
                          &early->out);
            s->r->probes++;
            if (stop_early(&early->out)) {
                early->stopped = 1;
                return 0;
            }
        }
        if (s->p->stop_flag && *s->p->stop_flag)
            return SIM_STOPPED;
    }
    return 0;
}

/* Run one probe at rate; 0, or the sim_status that ended it early
 * (SIM_STOPPED, SIM_DEADLOCK, SIM_CYCLE_LIMIT), or a negative ERR_*.
 * With early, its first early->span measured cycles are judged on the way
 * (probe_run); when stop_early ends the probe there, *o is left alone. */
static int probe_with(search *s, double rate, long warm, long span,
                      probe_out *o, probe_early *early,
                      int (*stop_early)(const probe_out *), err *e)
{
    sim_params q = *s->p;
    q.rate = rate;
    q.max_cycles = 0;
    sim_net *net;
    int rc = sim_net_create(&q, &net, e);
    if (rc)
        return rc;
    probe_acc acc;
    memset(&acc, 0, sizeof acc);
    acc.q0 = xcalloc((size_t)net->nodes + 1, sizeof *acc.q0);
    acc.nch = sim_net_count_channels(net);
    acc.ch0 = xcalloc((size_t)acc.nch + 1, sizeof *acc.ch0);
    if (early) {
        memset(&early->acc, 0, sizeof early->acc);
        early->acc.q0 = xcalloc((size_t)net->nodes + 1, sizeof *acc.q0);
        early->acc.nch = acc.nch;
        early->acc.ch0 = xcalloc((size_t)acc.nch + 1, sizeof *acc.ch0);
        early->stopped = 0;
    }
    int status = probe_run(s, net, rate, warm, span, &acc, early,
                           stop_early);
    if (status == 0 && !(early && early->stopped)) {
        probe_figures(s, net, q.rate, span, &acc, o);
        s->r->probes++;
    }
    if (early) {
        free(early->acc.q0);
        free(early->acc.ch0);
    }
    free(acc.q0);
    free(acc.ch0);
    sim_net_destroy(net);
    return status;
}

static int probe(search *s, double rate, long warm, long span, probe_out *o,
                 err *e)
{
    return probe_with(s, rate, warm, span, o, NULL, NULL, e);
}

/* A probe of the search: probe(), or in tests the script's verdict. */
static int search_probe(search *s, double rate, long warm, long span,
                        probe_out *o, err *e)
{
    if (!s->script)
        return probe(s, rate, warm, span, o, e);
    if (warm + span > s->budget)
        return SIM_CYCLE_LIMIT;
    s->budget -= warm + span;
    s->r->cycles += warm + span;
    memset(o, 0, sizeof *o);
    o->hot_share = 1;
    o->stable = s->script(s->script_ctx, rate, span, &o->accepted);
    s->r->probes++;
    return 0;
}

/* Zero-load latency of the design, cycles (for the probe lengths). */
static double zero_load_cycles(const sim_params *p)
{
    double hops = net_avg_distance(&p->design);
    if (!(hops > 0) || !isfinite(hops))
        hops = 1;
    return hops * (1 + p->design.router_delay) +
           net_message_flits(&p->design, &p->workload);
}

/* The warm-up of every probe, cycles: SAT_WARM_T0 zero-load latencies of a
 * message, and under broadcast traffic SAT_WARM_BCAST of a broadcast's (its
 * tree's depth of one-hop copies, bcast.c), whose copies are most of the
 * backlog and which lives longest. */
static double warm_cycles(const sim_params *p)
{
    double warm = fmax(SAT_MIN_WARM, SAT_WARM_T0 * zero_load_cycles(p));
    if (p->workload.traffic == NET_TRAFFIC_BROADCAST) {
        double len = net_message_flits(&p->design, &p->workload);
        double bcast = sim__bcast_depth(&p->design) *
                       (1 + p->design.router_delay + len);
        warm = fmax(warm, SAT_WARM_BCAST * bcast);
    }
    return warm;
}

/* Where the search stands, messages/node/cycle: the highest rate a probe
 * sustained (lo) and the lowest it did not (hi), the last two estimates of
 * the saturation rate and the last one's CI half-width; whether two
 * estimates agreed, and whether throughput falls past saturation. */
typedef struct bracket {
    double lo, hi, est, prev, ci;
    int converged, falling;
    int local;                   /* an unstable probe's overload was local */
    long lo_span;                /* span of the probe that sustained lo */
    int overturned;              /* a confirming probe overturned a rate */
    int nsus;                    /* the rates probes sustained, and the */
    double sus[SAT_LOG];         /* spans that did */
    long sus_span[SAT_LOG];
} bracket;

/* 1. The overload probe (one flit per node per cycle offered, a quarter
 * of the usual length): its accepted rate is the first estimate.  Returns
 * < 0 on error, 1 when it settles the answer (the run ended early,
 * nothing was accepted, or everything was), 0 to search on. */
static int overload_probe(search *s, probe_out *o, err *e)
{
    sim_saturation_result *r = s->r;
    double len = s->len;
    int rc = search_probe(s, 1.0 / len, s->warm / 4, s->span / 4, o, e);
    if (rc < 0)
        return rc;
    if (rc > 0) {
        r->status = (sim_status)rc;
        return 1;
    }
    r->throughput = o->accepted;
    if (!(o->accepted > 0)) {
        snprintf(r->detail, sizeof r->detail,
                 "nothing accepted at overload in %ld cycles", s->span);
        r->status = SIM_DEADLOCK;
        return 1;
    }
    if (o->stable) {             /* accepts everything it can be offered */
        r->lo = r->rate = r->rate_lo = r->rate_hi = 1.0 / len;
        r->flits = r->rate * s->msg_flits;
        snprintf(r->detail, sizeof r->detail,
                 "stable at the injection limit (1 flit/node/cycle)");
        return 1;
    }
    return 0;
}

/* A stable probe at *x: saturation lies above it.  The next rate into
 * *x; 1 when the bracket is narrow enough to stop.  bound is the design's
 * channel-load bound (0: unknown): saturation lies in (lo, bound], so
 * until a probe is unstable the next one is the geometric middle of that
 * range, and once lo is within a bracket width of the bound, a probe just
 * past it (4., CLIMBING TO THE BOUND). */
static int after_stable(bracket *b, double bound, double *x)
{
    b->lo = *x > b->lo ? *x : b->lo;
    if (b->est < b->lo / SAT_OVER) /* the estimate was 20% under lo */
        b->falling = 1;
    if (b->falling && b->hi > 0) {
        if (b->hi / b->lo <= 1 + SAT_BRACKET)
            return 1;
        *x = sqrt(b->lo * b->hi);
    } else if (!(b->hi > 0) && bound > b->lo * (1 + SAT_BRACKET)) {
        *x = sqrt(b->lo * bound);
    } else if (!(b->hi > 0) && bound > b->lo) {
        /* just past the bound: a network that sustains that shows the
         * bound wrong (or a probe fooled, 7.), which is to be seen and
         * reported, not capped */
        *x = bound * (1 + SAT_BRACKET);
    } else {
        *x *= b->falling ? SAT_CLIMB : SAT_STEP;
    }
    return 0;
}

/* An unstable probe at *x: its accepted rate is the new estimate, unless
 * throughput falls (then bisect).  The next rate into *x; 1 when the
 * bracket is narrow enough or two estimates agree. */
static int after_unstable(bracket *b, const probe_out *o, double msg_flits,
                          double *x)
{
    int overturned = *x <= b->lo; /* a longer probe than lo's */
    if (overturned)
        b->lo = 0;
    b->hi = b->hi > 0 && b->hi < *x ? b->hi : *x;
    b->prev = b->est;
    b->est = o->accepted / msg_flits;
    b->ci = o->ci / msg_flits;
    if (o->local) {
        b->local = 1;
        /* The overload is local (the hot node, one source): the total
         * accepted rate is no estimate of where it starts, the share
         * the hot node absorbed is.  Bracket it from below. */
        b->est = fmin(b->est, *x * o->hot_share);
        b->falling = 1;
    }
    if (b->falling || b->est < b->lo) {
        b->falling = 1;
        if (overturned) {        /* just under the overturned lo */
            *x /= 1 + SAT_BRACKET;
            return 0;
        }
        if (!(b->lo > 0)) {      /* nothing sustained yet: probe lower */
            *x = fmin(b->est * (1 - SAT_BRACKET), *x / SAT_STEP);
            return 0;
        }
        if (b->hi / b->lo <= 1 + SAT_BRACKET)
            return 1;
        *x = sqrt(b->lo * b->hi);
        return 0;
    }
    if (b->prev > 0 && fabs(b->est / b->prev - 1) <= SAT_REL_WIDTH) {
        b->converged = 1;
        return 1;
    }
    *x = b->est * SAT_OVER;
    return 0;
}

/* A stable probe at x over span: kept, so that a re-bracket after an
 * overturn can fall back on the highest rate still sustained. */
static void note_sustained(bracket *b, double x, long span)
{
    for (int i = 0; i < b->nsus; i++)
        if (b->sus[i] == x) {
            b->sus_span[i] = b->sus_span[i] > span ? b->sus_span[i] : span;
            return;
        }
    if (b->nsus < SAT_LOG) {
        b->sus[b->nsus] = x;
        b->sus_span[b->nsus++] = span;
    }
}

/* The lower end of a converged estimate's interval (search_answer). */
static double converged_lower(const bracket *b)
{
    double rate = 0.5 * (b->est + b->prev);
    return rate - fmax(b->ci, 0.5 * fabs(b->est - b->prev));
}

/* Is an answer whose lower end is x, not yet sustained by a confirming
 * probe, in doubt (7.)?  When a confirming probe overturned a rate in this
 * search, or when x lies within SAT_NEAR_BOUND of the design's
 * channel-load bound (p->saturation_bound, when known), which no network
 * sustains and real ones stay well under. */
static int in_doubt(const search *s, const bracket *b, double x)
{
    if (b->overturned)
        return 1;
    double bound = s->p->saturation_bound;
    return bound > 0 && x >= SAT_NEAR_BOUND * bound;
}

/* The span a probe must have lasted for a rate x it sustained to count as
 * confirmed (7.): the confirming span, and SAT_BOUND_SPAN times that at or
 * above the design's channel-load bound, which no network sustains: there
 * a stable probe is either fooled by a congestion that builds more slowly
 * than it lasts or shows that the bound is wrong, and only a longer one
 * tells which. */
static long confirm_span_at(const search *s, double x)
{
    double bound = s->p->saturation_bound;
    return bound > 0 && x >= bound ? s->confirm_span * SAT_BOUND_SPAN
                                   : s->confirm_span;
}

/* What the search does once after_stable or after_unstable would stop. */
enum { SEARCH_STOP, SEARCH_CONFIRM, SEARCH_PROBE };

/* The search would stop here: is the answer's lower end sustained by a
 * confirming probe (7.)?  SEARCH_STOP if it is; SEARCH_CONFIRM with the
 * rate to confirm in *x if not (two agreeing estimates taken past
 * saturation say nothing about where it starts: if the confirming probe
 * does not sustain their lower end, the search brackets from below). */
static int before_stop(const search *s, bracket *b, double *x)
{
    if (b->converged) {
        double lower = converged_lower(b);
        for (int i = 0; i < b->nsus; i++)
            if (b->sus[i] >= lower &&
                b->sus_span[i] >= confirm_span_at(s, b->sus[i]))
                return SEARCH_STOP;
        if (!in_doubt(s, b, lower))
            return SEARCH_STOP;
        *x = lower;
        return SEARCH_CONFIRM;
    }
    if (b->falling && b->lo > 0 && b->lo_span < confirm_span_at(s, b->lo) &&
        (s->p->workload.traffic == NET_TRAFFIC_HOTSPOT ||
         in_doubt(s, b, b->lo))) {
        *x = b->lo;
        return SEARCH_CONFIRM;
    }
    return SEARCH_STOP;
}

/* A confirming probe at *x was unstable: saturation lies below *x whatever
 * shorter probes sustained there, and what they sustained anywhere is no
 * guide (fooled 25% over, they led to one overturn per rate they had
 * sustained).  Bracket again from the highest rate a confirming probe
 * sustained below it; where there is none, confirm one bracket width
 * below *x and below what the probe accepted.  The next rate into *x; a
 * SEARCH_ code. */
static int overturn(const search *s, bracket *b, const probe_out *o,
                    double *x)
{
    b->converged = 0;
    b->falling = 1;
    b->overturned = 1;
    b->hi = b->hi > 0 && b->hi < *x ? b->hi : *x;
    b->prev = b->est;
    b->est = o->accepted / s->msg_flits;
    b->ci = o->ci / s->msg_flits;
    if (o->local) {
        b->local = 1;
        b->est = fmin(b->est, *x * o->hot_share);
    }
    b->lo = 0;
    b->lo_span = 0;
    for (int i = 0; i < b->nsus; i++)
        if (b->sus[i] < b->hi && b->sus[i] > b->lo &&
            b->sus_span[i] >= confirm_span_at(s, b->sus[i])) {
            b->lo = b->sus[i];
            b->lo_span = b->sus_span[i];
        }
    if (!(b->lo > 0)) {          /* below, and below what it accepted */
        *x = fmin(b->hi / (1 + SAT_BRACKET), b->est * (1 - SAT_BRACKET));
        return SEARCH_CONFIRM;
    }
    if (b->hi / b->lo <= 1 + SAT_BRACKET)
        return before_stop(s, b, x);
    *x = sqrt(b->lo * b->hi);
    return SEARCH_PROBE;
}

/* 2.-3. the self-consistent point: probe SAT_OVER above the last
 * estimate; an unstable probe's accepted rate is the new estimate.
 * 4. where the accepted rate falls past saturation (the estimate drops
 * below a rate a probe sustained: FALLING THROUGHPUT above), the
 * estimates are no guide: climb by SAT_CLIMB from the stable probes
 * and bisect [lo, hi] to SAT_BRACKET; the answer is lo.
 * 7. the answer's lower end is confirmed by a long probe; one that
 * overturns it re-brackets below. */
static int search_probes(search *s, probe_out *o, bracket *b, err *e)
{
    sim_saturation_result *r = s->r;
    double len = s->len;
    double x = b->est * SAT_OVER;
    int confirm = 0;
    /* a confirming probe may run SAT_CONFIRM beyond the budget (an answer
     * nothing sustained is no answer), and a search whose answer a
     * confirming probe overturned has SAT_CONFIRM probes more to bracket
     * it again */
    while (r->probes < s->max_probes + (b->overturned ? SAT_CONFIRM : 0) ||
           (confirm && r->probes < s->max_probes + SAT_CONFIRM +
                                       (b->overturned ? SAT_CONFIRM : 0))) {
        if (x > 1.0 / len)
            x = 1.0 / len;
        /* once a confirming probe overturned a rate the short probes
         * sustained, they are no guide for this design: all probes span
         * the confirming length */
        long span = confirm || b->overturned ? confirm_span_at(s, x)
                    : b->falling && b->lo > 0 && b->hi > 0 ? s->fine_span
                                                           : s->span;
        int rc = search_probe(s, x, s->warm, span, o, e);
        if (rc < 0)
            return rc;
        if (rc > 0) {
            r->status = (sim_status)rc;
            break;
        }
        if (o->stable) {
            note_sustained(b, x, span);
            if (x >= b->lo) {
                b->lo_span = x > b->lo || span > b->lo_span ? span
                                                            : b->lo_span;
                b->lo = x;
            }
        }
        int next;
        if (confirm) {
            if (o->stable && !(b->falling && b->hi / b->lo > 1 + SAT_BRACKET))
                break;           /* the answer's lower end is sustained */
            if (o->stable) {     /* sustained below a wide bracket */
                x = sqrt(b->lo * b->hi);
                next = SEARCH_PROBE;
            } else {
                next = overturn(s, b, o, &x);
            }
        } else if (o->stable ? after_stable(b, s->p->saturation_bound, &x)
                             : after_unstable(b, o, s->msg_flits, &x)) {
            next = before_stop(s, b, &x);
        } else {
            next = SEARCH_PROBE;
        }
        if (next == SEARCH_STOP)
            break;
        confirm = next == SEARCH_CONFIRM;
    }
    return 0;
}

/* The answer from where the search stopped: falling throughput, the
 * highest rate sustained bracketed by the lowest not; otherwise the last
 * estimate (the mean of the last two when they agreed) with its CI. */
static void search_answer(search *s, const bracket *b)
{
    sim_saturation_result *r = s->r;
    double len = s->len, lo = b->lo, hi = b->hi;
    /* the budget ran out before lo was confirmed: a lower rate a
     * confirming probe sustained is the surer answer */
    if (b->falling && b->lo_span < confirm_span_at(s, lo)) {
        double best = 0;
        for (int i = 0; i < b->nsus; i++)
            if (b->sus_span[i] >= confirm_span_at(s, b->sus[i]) &&
                b->sus[i] < lo)
                best = fmax(best, b->sus[i]);
        if (best > 0)
            lo = best;
    }
    r->lo = lo;
    r->hi = hi;
    if (b->falling) {
        r->rate = lo;
        /* A local overload adds to the backlog only its share of the
         * traffic: a stable probe shows it is small, not that there is
         * none.  Saturation may lie one bracket width below lo (LOCAL
         * RESOLUTION above). */
        r->rate_lo = b->local ? lo * (1 - SAT_BRACKET) : lo;
        r->rate_hi = hi > 0 ? hi : 1.0 / len;
        r->flits = r->rate * s->msg_flits;
        if (r->status == SIM_OK && !(hi > 0 && hi / lo <= 1 + SAT_BRACKET))
            snprintf(r->detail, sizeof r->detail,
                     "throughput falls past saturation; bracket %.4g-%.4g "
                     "not narrowed to %.0f%% in %d probes", lo, r->rate_hi,
                     100 * SAT_BRACKET, r->probes);
        else if (r->status == SIM_OK)
            snprintf(r->detail, sizeof r->detail,
                     "throughput falls past saturation (%.4g flits/node/"
                     "cycle at overload): bracketed", r->throughput);
        return;
    }
    double est = b->est, prev = b->prev;
    r->rate = b->converged ? 0.5 * (est + prev) : est;
    double half = b->converged ? fmax(b->ci, 0.5 * fabs(est - prev)) : b->ci;
    r->rate_lo = r->rate - half;
    r->rate_hi = r->rate + half;
    r->flits = r->rate * s->msg_flits;
    if (r->status == SIM_OK && !b->converged)
        snprintf(r->detail, sizeof r->detail,
                 "not converged in %d probes", r->probes);
}

/* The quarter span's verdict of the ceiling question is clear. */
static int quarter_unstable(const probe_out *o)
{
    return o->growth > SAT_QUARTER_GROWTH;
}

/* The one-probe question of sim_params.saturation_ceiling (sim.h). */
static int below_ceiling(search *s, double ceiling, err *e)
{
    sim_saturation_result *r = s->r;
    double top = 1.0 / s->len;
    double x = ceiling < top ? ceiling : top;
    probe_out o;
    /* A quarter span first: a design far past saturation shows it at once.
     * Judged on the same absolute backlog growth the whole span tolerates
     * (SAT_GROWTH of a whole span's flits: SAT_QUARTER_GROWTH of a
     * quarter's), so a filling network's transient that the whole probe
     * would call stable is not called unstable here; anything less clear
     * gets the whole probe.  The whole probe goes on from the quarter's
     * network: the same seed would rebuild it cycle for cycle, so the
     * verdicts are those of two probes run apart, for a third less
     * simulation when the quarter is not clear. */
    probe_early quarter = {.span = s->span / 4};
    int rc = probe_with(s, x, s->warm, s->span, &o, &quarter,
                        quarter_unstable, e);
    if (rc == 0 && quarter.stopped)
        o = quarter.out;
    if (rc < 0)
        return rc;
    if (rc > 0) {
        r->status = (sim_status)rc;
        return 0;
    }
    r->rate = x;
    r->flits = x * s->msg_flits;
    if (o.stable) {
        r->lo = r->rate_lo = x;
        r->rate_hi = top;
        snprintf(r->detail, sizeof r->detail, "stable at %.4g", x);
    } else {
        r->hi = r->rate_hi = x;
        snprintf(r->detail, sizeof r->detail, "unstable at %.4g", x);
    }
    return 0;
}

static int saturation_search(const sim_params *p, sim__probe_script script,
                             void *ctx, sim_saturation_result *r, err *e)
{
    memset(r, 0, sizeof *r);
    r->status = SIM_OK;
    double len = net_message_flits(&p->design, &p->workload);
    search s = {.p = p, .len = len, .msg_flits = len, .r = r,
                .script = script, .script_ctx = ctx};
    if (p->workload.traffic == NET_TRAFFIC_BROADCAST) {
        double beta = p->workload.broadcast_fraction;
        s.msg_flits = len * ((1 - beta) +
                             beta * (double)sim__bcast_copies(&p->design));
    }
    s.warm = (long)warm_cycles(p);
    s.span = (long)fmax(2 * s.warm, SAT_MIN_SPAN);
    s.fine_span = s.span;
    s.max_probes = SAT_MAX_PROBES;
    if (p->workload.traffic == NET_TRAFFIC_HOTSPOT) {
        s.span *= SAT_HOT_SPAN;
        s.fine_span = s.span * SAT_HOT_FINE;
        s.max_probes += SAT_CONFIRM;
    }
    s.confirm_span = s.span * SAT_CONFIRM_SPAN;
    s.budget = p->max_cycles > 0 ? p->max_cycles : (long)1 << 62;
    r->warm_cycles = s.warm;
    r->span_cycles = s.span;

    if (p->saturation_ceiling > 0)
        return below_ceiling(&s, p->saturation_ceiling, e);
    probe_out o;
    int rc = overload_probe(&s, &o, e);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    bracket b = {.lo = 0, .hi = 0, .est = o.accepted / s.msg_flits,
                 .prev = 0, .ci = o.ci / s.msg_flits};
    rc = search_probes(&s, &o, &b, e);
    if (rc < 0)
        return rc;
    search_answer(&s, &b);
    return 0;
}

int sim_saturation(const sim_params *p, sim_saturation_result *r, err *e)
{
    return saturation_search(p, NULL, NULL, r, e);
}

int sim__saturation_scripted(const sim_params *p, sim__probe_script script,
                             void *ctx, sim_saturation_result *r, err *e)
{
    return saturation_search(p, script, ctx, r, e);
}

double sim_saturation_work_estimate(const sim_params *p)
{
    double warm = warm_cycles(p);
    double span = fmax(2 * warm, SAT_MIN_SPAN);
    /* the overload probe runs a quarter of each, the others all of it */
    double fine = span, probes = SAT_MAX_PROBES + 2 * SAT_CONFIRM;
    if (p->workload.traffic == NET_TRAFFIC_HOTSPOT) {
        span *= SAT_HOT_SPAN;
        fine = span * SAT_HOT_FINE;
        probes += SAT_CONFIRM;
    }
    /* at most half the probes after the overload one narrow a bracket;
     * an answer in doubt may take 3 SAT_CONFIRM long ones (to confirm, to
     * re-bracket after an overturn, and those the budget allows) */
    double cycles = (warm + span) / 4 + (probes - 1) * warm +
                    (SAT_MAX_PROBES - 1) * 0.5 * (span + fine) +
                    3 * SAT_CONFIRM * span * SAT_CONFIRM_SPAN;
    if (p->max_cycles > 0 && (double)p->max_cycles < cycles)
        cycles = (double)p->max_cycles;
    return (double)net_nodes(&p->design) * cycles;
}
