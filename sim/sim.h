/*
 * sim.h — dse's flit-level, cycle-driven network simulator.
 *
 * One call, sim_run(), simulates one (design, workload) at one injection
 * rate and seed and returns latency with a 95% confidence half-width,
 * throughput, hop counts and a saturation or deadlock verdict.  It mirrors
 * the analytic models' interface (models/model.h): same design and workload
 * structs, same units (cycles; rates in messages/node/cycle), the same
 * latency definition (generation to last flit consumed, as in the source
 * papers: docs/models.md).
 *
 * Semantics (the rules the models' source papers simulate; the full
 * event-ordering rule is in sim/engine.c):
 *   - a physical channel carries at most one flit per cycle, shared flit by
 *     flit, round robin, among its virtual channels (VCs) that have a flit
 *     ready and room downstream;
 *   - a header spends D_r cycles (design.router_delay) on its routing
 *     decision at every router where it must pick a network output, then
 *     takes a free VC the routing function permits (random among equals);
 *     at its destination it goes straight to an ejection channel;
 *   - data flits follow in pipeline; a VC is released when the tail leaves
 *     it; each VC buffers design.buffer_flits flits; with credit delay 0 a
 *     flit may move into a slot vacated in the same cycle;
 *   - zero-load latency is exactly hops * (1 + D_r) + L cycles: a message
 *     generated in cycle t0 has its header in the source router's
 *     injection buffer in cycle t0; each channel crossing takes one cycle;
 *     the last flit is consumed L cycles after the header reaches its
 *     destination router.  Example: 1 hop, D_r = 0, L = 1 gives 2.
 *
 * Supported: torus, mesh, hypercube, dcsh (buses with (k-1)V-input
 * multiplexers: flit level, message level for deterministic V = 1), express
 * (interchanges, m express channels); deterministic (dimension order,
 * Dally-Seitz dateline classes on tori and express rings), duato (adaptive VCs
 * plus deterministic escape VCs), minimal_adaptive (Quaglia et al.'s 2D-torus
 * scheme, model M2), pcube (hypercube), hop_based (dcsh, hypercube, torus,
 * mesh); wormhole switching, and pcs on the hypercube (minimal_adaptive probes
 * with backtracking); uniform, hotspot, transpose, bit_reversal and shuffle
 * traffic, and broadcast (spanning trees of one-hop copies) on the torus and
 * the DCSH.  Anything else is rejected with ERR_UNSUPPORTED and the reason.
 *
 * Zero-load latency (what the tests check): wormhole h (1 + D_r) + L, h
 * the exact hop count of the pair (express interchanges count as hops and
 * charge D_r); PCS h (3 + D_r) + L (probe, acknowledgement, data: pcs.c);
 * a broadcast depth (1 + D_r + L), depth = sum floor(k_i/2) on the torus
 * and n on the DCSH (bcast.c).
 *
 * Threads: no global mutable state.  Any number of runs may go on at once
 * on different threads; a (params, seed) pair gives the same result bit for
 * bit on any machine and whatever the thread count.
 */
#ifndef DSE_SIM_H
#define DSE_SIM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "net/net.h"

/* How long to measure. */
typedef enum {
    SIM_STOP_MESSAGES = 0,   /* measure exactly `messages` messages */
    SIM_STOP_CI = 1,         /* measure until the relative 95% half-width of
                                mean latency (batch means) < ci_target */
} sim_stop_rule;

/* What a run ended with. */
#define SIM_STATUS_LIST(X)                                                   \
    X(SIM_OK, "ok")                    /* steady state measured */           \
    X(SIM_SATURATED, "saturated")      /* no steady state at this rate */    \
    X(SIM_DEADLOCK, "deadlock")        /* a set of VCs can never move */     \
    X(SIM_CYCLE_LIMIT, "cycle limit")  /* max_cycles hit before the end */   \
    X(SIM_STOPPED, "stopped")          /* *stop became non-zero */

#define SIM_ENUM_(e, name) e,
typedef enum { SIM_STATUS_LIST(SIM_ENUM_) SIM_STATUS_COUNT } sim_status;
#undef SIM_ENUM_

/* Passed to the progress callback (from the simulating thread). */
typedef struct sim_progress {
    double rate;
    uint64_t seed;
    long cycles;             /* simulated so far */
    long generated;          /* messages generated so far */
    long measured;           /* measured messages delivered so far */
    long target;             /* measured messages wanted (0: unknown, CI) */
} sim_progress;

typedef struct sim_params {
    net_design design;
    net_workload workload;
    double rate;             /* lambda, messages/node/cycle, > 0 */
    uint64_t seed;
    long warmup_messages;    /* generated before measuring (20000) */
    sim_stop_rule stop;      /* SIM_STOP_MESSAGES */
    long messages;           /* messages to measure, STOP_MESSAGES (200000) */
    double ci_target;        /* relative half-width, STOP_CI (0.02) */
    long min_messages;       /* STOP_CI: measure at least this many (20000) */
    long max_messages;       /* STOP_CI: give up after this many (5000000) */
    long max_cycles;         /* hard cap on simulated cycles (0: none) */
    int credit_delay;        /* cycles before a freed slot is seen
                                upstream (0: same cycle) */
    long deadlock_cycles;    /* watchdog: a flit stuck this long is
                                examined for deadlock (5000) */
    double saturation_queue; /* mean source-queue length, messages per
                                sending node, that declares saturation (50) */
    double saturation_ratio; /* saturated when accepted < ratio * offered
                                over the measurement window (0.95) */
    double saturation_ceiling;/* sim_saturation only: > 0 asks one question
                                instead of the search, "is this rate
                                above the saturation rate?", answered by
                                one probe at it (0: the whole search) */
    double saturation_bound; /* sim_saturation only: the design's
                                channel-load bound, messages/node/cycle
                                (models/bound.c; 0: unknown); the search
                                confirms an answer near it with a long
                                probe (sim/saturation.c, 7.) */
    int allow_deadlock_prone;/* 1: skip net_check's minimum-VC rule (to test
                                the watchdog); never for real results */
    int track_delivery;      /* 1: count deliveries per message (tests) */
    long *latency_trace;     /* tests: if set, the latency of every measured
                                unicast message delivered, in delivery
                                order, up to latency_trace_cap of them */
    long latency_trace_cap;
    void (*progress)(void *ctx, const sim_progress *p);
    void *progress_ctx;
    long progress_cycles;    /* call progress every this many cycles (1<<16) */
    const volatile sig_atomic_t *stop_flag; /* non-zero: stop (may be NULL) */
    /* 1: the partitioned engine (sim/engine_par.c): one run on `threads`
     * threads, routers split into contiguous blocks; the result is the
     * same bit for bit for every thread count (one included) but not the
     * serial engines' (another allocation order and other random
     * streams, statistically equivalent).  Point-to-point wormhole
     * networks, router=unit, unicast traffic, credit_delay 1 only
     * (ERR_UNSUPPORTED otherwise).  0 (default): the serial engines. */
    int partitioned;
    int threads;             /* threads of a partitioned run (1); more than
                                1 needs partitioned = 1 */
} sim_params;

typedef struct sim_result {
    sim_status status;
    int saturated;           /* status == SIM_SATURATED */
    int deadlock;            /* status == SIM_DEADLOCK */
    /* Latency fields are 0 unless status == SIM_OK. */
    double latency;          /* mean, generation to last flit consumed */
    double latency_ci95;     /* 95% half-width (batch means or replications) */
    double network_latency;  /* header injection to last flit consumed */
    double network_latency_ci95;
    double source_wait;      /* generation to header injection */
    /* Latency percentiles (nearest rank) and maximum over every measured
     * unicast message delivered (under the CI rule that may include a few
     * past the complete batches the mean uses), from a log-linear
     * histogram: each percentile within 1/128 of the exact one, relative;
     * the maximum exact.  Replications merged: percentiles averaged, the
     * maximum the largest. */
    double latency_p50, latency_p95, latency_p99, latency_max;
    /* 95% half-widths of the three percentiles from the spread of the
     * replications' own percentiles (t with n-1 d.o.f., as latency_ci95);
     * 0 for a single run (no estimate: one run gives one percentile). */
    double latency_p50_ci95, latency_p95_ci95, latency_p99_ci95;
    double hops;             /* mean channel hops of measured messages */
    double message_flits;    /* mean length of measured messages */
    /* Throughput over the measurement window, per node per cycle (all N
     * nodes counted, silent ones included). */
    double offered_flits, accepted_flits;
    double offered_messages, accepted_messages;
    long messages;           /* measured messages */
    int batches;             /* batch means used for the CI */
    int ci_met;              /* STOP_CI: target reached */
    long cycles;             /* cycles simulated in total */
    long nodes;              /* N */
    long silent_nodes;       /* sources a permutation maps to themselves:
                                they send nothing */
    int replications;        /* 1, or the count merged by sim_result_merge */
    uint64_t seed;
    double rate;
    /* traffic = broadcast: the latency, hop and length fields above are
     * the unicast messages'; a broadcast's latency runs from its
     * generation to the last flit of its last copy consumed at the last
     * node reached.  0 unless status == SIM_OK. */
    double broadcast_latency;
    double broadcast_latency_ci95;   /* batch means (replications: spread) */
    long broadcasts;         /* measured broadcasts completed (included in
                                `messages`) */
    /* switching = pcs (0 otherwise): mean cycles from the probe's start to
     * the acknowledgement's return, and probe back-ups per message. */
    double path_setup;
    double backtracks;
    char detail[512];        /* why saturated / the deadlocked channels /
                                notes (silent nodes, broadcast and PCS
                                figures); "" if nothing to say */
} sim_result;

/* Defaults as documented in sim_params; design and workload from
 * net_design_init / net_workload_init; rate 0 (must be set). */
void sim_params_init(sim_params *p);

/* Static text of a status ("ok", "saturated", ...). */
const char *sim_status_name(sim_status s);

/* 0 if the simulator supports (design, workload); else ERR_UNSUPPORTED
 * (e.g. broadcast off the torus and DCSH) or ERR_INFEASIBLE / ERR_INVALID
 * (net_check, net_workload_check) with the reason in e. */
int sim_supports(const net_design *d, const net_workload *w, err *e);

/* Estimates made before anything is allocated, for callers that must
 * refuse a run too large for the machine (the farm's workers):
 * sim_memory_estimate is the bytes sim_net_create would allocate for p
 * (channels, VCs, queues, per-node state; an over- rather than an
 * under-estimate, within a small factor), sim_work_estimate the
 * router-cycles the run may take: routers x the cycles to inject the
 * warm-up and measured messages at p->rate, capped by max_cycles. */
double sim_memory_estimate(const sim_params *p);
double sim_work_estimate(const sim_params *p);

/* Simulate p at p->rate and p->seed.  Fills *r and returns 0 when the run
 * ended (r->status says how: ok, saturated, deadlock, cycle limit,
 * stopped); a negative ERR_* with the reason in e when it could not start
 * (ERR_UNSUPPORTED, ERR_INFEASIBLE, ERR_INVALID).  Checks the flit and
 * credit conservation invariants at the end (ERR_INVALID if broken: a bug).
 */
int sim_run(const sim_params *p, sim_result *r, err *e);

/* Run njobs independent simulations (jobs[i] -> results[i], codes[i] = what
 * sim_run returned) on `threads` threads (<= 0: 1).  Results depend only on
 * the jobs, never on the thread count or scheduling.  wall_s (may be NULL)
 * receives each job's wall-clock seconds (kept out of sim_result so that
 * results compare bit for bit).  on_done (may be NULL) is called from the
 * worker thread after each job.  Returns 0, or the code of the
 * lowest-indexed failing job with its message in e. */
int sim_run_many(const sim_params *jobs, int njobs, int threads,
                 sim_result *results, int *codes, double *wall_s,
                 void (*on_done)(void *ctx, int job, const sim_result *r),
                 void *ctx, err *e);

#define SIM_HAS_SATURATION 1 /* sim_saturation() exists (benches that also
                                build against older revisions test it) */

/* What sim_saturation found.  Rates in messages/node/cycle. */
typedef struct sim_saturation_result {
    sim_status status;       /* SIM_OK; SIM_STOPPED (*stop_flag),
                                SIM_CYCLE_LIMIT (p->max_cycles spent),
                                SIM_DEADLOCK: the interval so far */
    double rate;             /* the estimate */
    double rate_lo, rate_hi; /* its interval (about 95%) */
    double lo, hi;           /* highest rate probed stable, lowest probed
                                unstable (0: none) */
    double flits;            /* rate x mean message length:
                                flits/node/cycle */
    double throughput;       /* accepted flits/node/cycle when offered one
                                flit/node/cycle, over the overload probe's
                                short span (it may include the burst an
                                empty network accepts first): the classic
                                "throughput" figure, the first estimate */
    int probes;              /* simulations run (overload included) */
    long cycles;             /* cycles simulated in total */
    long warm_cycles, span_cycles;  /* of each probe */
    char detail[256];        /* why not narrowed / the deadlock; "" */
} sim_saturation_result;

/* The saturation rate of p's design and workload, from the simulator: the
 * largest offered rate whose backlog (flits generated but not consumed)
 * does not grow, i.e. the boundary a manual sim_run sweep finds between
 * "ok" and "saturated".  An overload run (one flit/node/cycle offered)
 * gives the accepted throughput (r->throughput), the first estimate; then
 * probes on fresh networks, each offered 20% above the current estimate,
 * take the accepted rate just past saturation as the next estimate (or
 * step up when a probe turns out stable), until two estimates agree within
 * 2%; where the accepted rate collapses past saturation (an estimate below
 * a rate a probe sustained), it brackets instead: the answer is the
 * highest rate sustained, the interval [lo, hi] narrowed to 6%.  An
 * answer in doubt (its lower end within 90% of p->saturation_bound, or a
 * bracket under a hot spot) is confirmed by a probe 8 times as long; one
 * that overturns it re-brackets below with such probes.  At most 8
 * probes of a few thousand cycles (lengths scale with the zero-load
 * latency; 10 under a hot spot), 2 more to confirm and 2 more after an
 * overturn (sim/saturation.c).  Rates count messages; under
 * broadcast traffic a broadcast's copies are counted in its flits.  Uses
 * p->design, workload, seed, saturation_bound,
 * credit_delay, deadlock_cycles and allow_deadlock_prone; p->rate, the
 * stop rule and the message counts are ignored.  p->max_cycles > 0 caps
 * the cycles simulated in total (SIM_CYCLE_LIMIT); p->stop_flag is polled
 * every 64 cycles (SIM_STOPPED).  Deterministic: a pure function of those
 * inputs.  Returns 0 with *r filled (r->status says whether the search
 * finished; r->detail why not converged), or a negative ERR_* (as sim_run)
 * when the design cannot be simulated.
 *
 * Past saturation the accepted rate of dimension-order tori with dateline
 * VC classes falls well below its peak (sim/saturation.c): r->throughput
 * then understates the saturation throughput, which is why the probes may
 * step upwards from it. */
int sim_saturation(const sim_params *p, sim_saturation_result *r, err *e);

/* p->saturation_ceiling > 0: sim_saturation runs one probe of the search
 * at that rate, with the search's warm-up, span and stability test (a
 * quarter span first, enough when the backlog grows as fast over it as the
 * whole span's threshold allows in all).
 * Unstable: r->hi = r->rate_hi = the ceiling (the saturation rate lies
 * below it, on the evidence the search's own upper end rests on), r->lo =
 * r->rate_lo = 0; stable: r->lo = r->rate_lo = the ceiling, r->hi = 0,
 * r->rate_hi = the injection limit.  r->rate = the ceiling either way. */

/* The router-cycles sim_saturation(p) may take at most (nodes x the cycles
 * of all its probes, capped by p->max_cycles), for a worker's limits; its
 * memory is sim_memory_estimate's (one probe's network at a time). */
double sim_saturation_work_estimate(const sim_params *p);

/* How far a reported percentile (latency_p50/p95/p99) may be from the
 * exact nearest-rank one, relative (the histogram's bucket width, hist.c):
 * never below exact x (1 - SIM_PERCENTILE_REL_ERR). */
#define SIM_PERCENTILE_REL_ERR (1.0 / 128)

/* Merge independent replications of one point (same design, workload and
 * rate; different seeds) into *out: latencies averaged, CI from the spread
 * of the replication means (t with n-1 d.o.f.; the single run's batch-means
 * CI when n == 1; the percentiles' from the spread of the replications'
 * percentiles), throughput averaged, counts summed.  Saturated or
 * deadlocked if any replication was. */
void sim_result_merge(const sim_result *rs, int n, sim_result *out);

/* ---- step-by-step access (tests, benches) ----------------------------- */

typedef struct sim_net sim_net;

/* Counters of a running network. */
typedef struct sim_counts {
    long cycle;              /* current cycle */
    long generated;          /* messages generated */
    long delivered;          /* messages whose tail was consumed */
    long queued;             /* messages waiting in source queues */
    long in_network;         /* messages injected, not yet delivered */
    long flits_generated;    /* flits of generated messages */
    long flits_injected;     /* flits that entered an injection buffer */
    long flits_consumed;     /* flits consumed at destinations */
    long flits_buffered;     /* flits sitting in VC buffers now */
    long duplicates;         /* deliveries of an already delivered message,
                                or broadcast receipts by a node already
                                reached (track_delivery only; must be 0) */
    long undelivered;        /* tracked messages not (yet) delivered */
    /* broadcast traffic: generated / delivered above count a broadcast
     * once (delivered when its last node is reached); its copies are
     * counted here and their flits in the flit counters */
    long broadcasts_live;    /* broadcasts not yet complete */
    long copies_made, copies_delivered, copies_live;
    long probes;             /* PCS: probes out */
} sim_counts;

/* Build the network for p (rate, seed included); *out owned by the caller,
 * free with sim_net_destroy.  Errors as sim_run. */
int sim_net_create(const sim_params *p, sim_net **out, err *e);
void sim_net_destroy(sim_net *net);   /* accepts NULL */
/* Run the full measurement protocol of sim_run on a fresh network. */
int sim_net_run(sim_net *net, sim_result *r, err *e);
/* Advance `cycles` cycles.  Returns 0, or ERR_DEADLOCK (description in e)
 * when the watchdog finds VCs that can never move. */
int sim_net_step(sim_net *net, long cycles, err *e);
/* Turn message generation off (0) or on (1). */
void sim_net_set_sources(sim_net *net, int on);
/* With sources off, step until no message is left anywhere; 0, or
 * ERR_DEADLOCK, or ERR_NOCONVERGE after max_cycles. */
int sim_net_drain(sim_net *net, long max_cycles, err *e);
void sim_net_counts(const sim_net *net, sim_counts *c);
/* Count the flits that cross each network channel from now on; returns
 * the number of network channels (sim_net_channel_flits reads them). */
long sim_net_count_channels(sim_net *net);
/* Flits that crossed network channel ch since counting began. */
int64_t sim_net_channel_flits(const sim_net *net, long ch);
/* Check flit and credit conservation (every flit generated is queued, in
 * exactly one buffer, or consumed; buffers within depth; VC ownership
 * consistent; credits + occupancy + credits in flight = depth).  0 or
 * ERR_INVALID with the first violation. */
int sim_check_invariants(const sim_net *net, err *e);

#endif
