/*
 * pipe_int.h — the pipelined virtual-channel router (design key
 * router=pipelined): its state and the calls run.c, check.c and deadlock.c
 * make.  The engine itself is pipe.c; its timing rules are documented
 * there.
 *
 * The unit-latency router (router=unit, engine.c) keeps its own state in
 * sim_net; a pipelined run uses sim_net only for what both routers share:
 * the channel graph, the routing function, the sources and their queues,
 * the message pool and the statistics.  net->vc stays allocated but idle.
 */
#ifndef DSE_SIM_PIPE_INT_H
#define DSE_SIM_PIPE_INT_H

#include "sim_int.h"

/* A flit event: the flit at the front of input VC x arrives (x >= 0: the
 * flit itself is already in x's buffer, m and seq unused), or a flit
 * arrives at the PE of an ejection VC (x = -2 - (router * V + v)).  seq
 * (here and in a buffered flit, sim_pbuf) carries PIPE_TAIL on a message's
 * last flit, so that a switch traversal need not read the message. */
typedef struct sim_pflit {
    int32_t x, m, seq;
} sim_pflit;

/* A flit in an input VC's buffer ring: the ring also holds the flits on
 * their way to it (sent, not arrived), so that a flit arriving behind
 * others needs no event. */
typedef struct sim_pbuf {
    int32_t m, seq;              /* message, flit index (| PIPE_TAIL) */
    uint32_t t;                  /* cycle it arrives, modulo 2^32 */
} sim_pbuf;

/* A ring of per-cycle event lists (calendar queue over a bounded
 * horizon): slot t % size holds the events of cycle t. */
typedef struct sim_pcal {
    int size;
    void *ev;                    /* [slot * cap + i] events */
    int *n;                      /* [slot] used */
    int32_t cap;                 /* room per slot: the most events one
                                    cycle can have */
    size_t esize;                /* bytes per event */
} sim_pcal;

/* The fields of input VC x that the stages read for nearly every flit,
 * together (one cache line) rather than an array each. */
typedef struct sim_pvc {
    int64_t rdy;                 /* VA: cycle it may request a VC;
                                    ACTIVE: cycle its front flit may
                                    request the switch */
    int64_t sa_t;                /* completion cycle of a switch grant,
                                    -1 none */
    int32_t out;                 /* allocated output VC: y >= 0, or
                                    -2 - v (ejection VC v), -1 none */
    int32_t oport;               /* local output port of that output VC
                                    (valid while ACTIVE) */
    int32_t bh, bn;              /* buffer ring head, flits buffered or
                                    on their way (the front is here iff
                                    x's bit of occ_m is set) */
    int32_t cred;                /* credits in hand for x as the output
                                    VC of its upstream router (or PE) */
    int32_t vip;                 /* its local input port */
    int32_t vrt;                 /* its router */
    int32_t vpos;                /* its bit in the router's VC sets: word
                                    vpos >> 6, bit vpos & 63 */
    int32_t cdel;                /* cycles from a flit leaving x to its
                                    credit reaching the upstream router
                                    (or PE); for a network VC, those
                                    from a switch grant upstream to the
                                    flit's arrival in x are cdel -
                                    credit_delay + st_final_delay */
    uint32_t since;              /* cycle its front flit got to the front
                                    (deadlock detection), modulo 2^32:
                                    here, not in an array of its own,
                                    because front_ready() writes it for
                                    nearly every flit */
    /* the round-robin pointers a switch grant to x sets (sa_direct):
     * the port's VC after x, the input port after vip, the output port
     * after oport (set with oport) */
    int16_t slot_nx, ip_nx, op_nx;
    uint8_t state;               /* PIPE_IDLE, PIPE_VA, PIPE_ACTIVE */
} sim_pvc;
_Static_assert(sizeof(sim_pvc) == 64, "sim_pvc is one cache line");

typedef struct sim_pipe {
    /* design */
    int rd, dva, dsa, st, cd, spec;
    int V, B;
    int32_t nch;                 /* channels: network + injection */
    int32_t nvc;                 /* nch * V */
    int32_t *lat;                /* [ch] link delay in cycles */

    /* ports: per router, local input ports (input channels, or DCSH input
     * multiplexers) then local output ports (channels, or DCSH buses,
     * then ejection for routers with a PE) */
    int32_t *in_loc;             /* [ch] local input port at chan.dst */
    int32_t *out_loc;            /* [ch] local output port at chan.src
                                    (network channels; -1 injection) */
    int32_t *nin, *nout;         /* [router] port counts (nout includes
                                    ejection) */
    int32_t *in_off, *out_off;   /* [router] offset of its ports in the
                                    flat per-port arrays */
    int32_t *rvc_off;            /* [router + 1] its input VCs are
                                    rvc[rvc_off[r] .. rvc_off[r+1]) */
    int32_t *rvc;
    int32_t *slot;               /* [x] index of VC x among the VCs of its
                                    input port (switch round robin) */
    int32_t *nslot;              /* [flat in-port] VCs of the port */
    int maxin, maxout;           /* largest port counts of a router */

    /* input VCs [x] */
    sim_pvc *vc;
    int64_t *va_t;               /* completion cycle of a VC allocation in
                                    progress, -1 none */
    int32_t *va_y;               /* VC granted by that VA (-1: failed) */
    sim_pbuf *buf;               /* [x*B + i] buffer ring */
    int32_t *rbusy;              /* [router] input VCs holding a flit
                                    (occ_m) */
    /* the same sets as bits, so the stages visit only their members (in
     * the router's VC order, as a scan would): bit i of word w of router r
     * at [r * mw + w] stands for its input VC rvc[rvc_off[r] + 64 w + i] */
    int mw;                      /* words per router */
    uint64_t *occ_m;             /* holds a flit (its front has
                                    arrived) */
    uint64_t *va_m;              /* in VC allocation */
    uint64_t *go_m;              /* ACTIVE, its output VC has a credit */
    uint64_t *pend_m;            /* a switch grant pending (sa_t >= 0) */
    uint64_t *vab_m;             /* a VC allocation in progress (va_t >= 0) */
    uint64_t *sleep_m;           /* in VC allocation, found no free
                                    candidate: waits for one to be freed */
    uint64_t *rb_m;              /* routers with rbusy > 0 */
    int32_t *rvi;                /* [x] index of x among its router's VCs */
    /* the route of the header at the front of x in VC allocation, kept
     * while it retries: its candidate output VCs in the routing
     * function's order, with their tiers; -1 not computed yet, more than
     * PIPE_ROUTE_CACHE: too many to keep (recomputed at every attempt) */
    int8_t *rc_n;
    int32_t *rc_y;               /* [x * PIPE_ROUTE_CACHE + j] */
    uint8_t *rc_tier;
    int32_t nnet_vc;             /* VCs of network channels: the first */
    int32_t *act;                /* scratch: the VCs sa_direct() grants */

    /* output VCs, as the upstream router (or PE) sees them [y] (and
     * vc[y].cred) */
    int32_t *used;               /* input VC that holds it, -1 free,
                                    -2 the PE; DCSH: [bus rep * V + v] */
    int32_t *ej_cred, *ej_used;  /* [router * V + v] ejection VCs */

    /* allocators: iSLIP pointers (grant per output, accept per input) and
     * the switch's per-input-port VC round robin */
    int32_t *va_g;               /* [flat output port * V + v] */
    int32_t *va_a;               /* [rvc_off[r] + i]: input VC i of r */
    int32_t *sa_g, *sa_a, *sw_rr;/* [flat port] */

    /* PEs, per injection queue */
    int32_t *pe_m, *pe_seq, *pe_v, *pe_last;
    long pe_busy;                /* queues with a message being sent */
    uint64_t *iq_m;              /* queues with a message queued or being
                                    sent, unless waiting for a credit:
                                    inject() visits only these */

    sim_pcal flits, credits;

    /* scratch of one router's allocation */
    int32_t *rq_in, *rq_out, *rq_y;
    int nrq, rq_cap;
    int32_t *g_in, *g_rq, *a_out, *a_rq;
    int32_t *touch_o, *touch_i;
    int32_t *sa_req;             /* [in * maxout + out] VC, -1 */
    uint8_t *sa_spec;            /* that request is speculative */
    int32_t *pairs;              /* the pairs requested in this cycle */
    /* the switch allocator over bit sets (routers of at most 64 input
     * and 64 output ports): inputs requesting each output, outputs
     * granting each input */
    int sa_bits;                 /* every router fits */
    uint64_t *sa_oreq, *sa_igr;  /* [maxout], [maxin], zero between uses */
    uint64_t sa_outs;            /* outputs with a request */
    int32_t *spec_out;           /* [x] speculative: the output port its VA
                                    requested first, this cycle; -1 */

    /* checks */
    int64_t *in_stamp, *out_stamp; /* [flat port] cycle of its last
                                      switch traversal */
    long port_conflicts;         /* two flits through one port in a
                                    cycle (must stay 0) */
} sim_pipe;

enum { PIPE_IDLE = 0, PIPE_VA = 1, PIPE_ACTIVE = 2 };
#define PIPE_ROUTE_CACHE 8
#define PIPE_TAIL (INT32_C(1) << 30)

/* Build net->pipe for net's design (after the channel graph and routing
 * are set up); 0 or an error. */
int sim__pipe_create(sim_net *net, err *e);
void sim__pipe_destroy(sim_pipe *p);
/* One cycle of the pipelined network. */
void sim__pipe_cycle(sim_net *net);
/* Conservation and credit invariants (sim_check_invariants). */
int sim__pipe_check(const sim_net *net, err *e);
/* Input VCs that can never move (sim__deadlock_find). */
long sim__pipe_deadlock_find(sim_net *net, long min_stuck);
/* Flits in input buffers and on links. */
long sim__pipe_flits_buffered(const sim_net *net);

#endif
