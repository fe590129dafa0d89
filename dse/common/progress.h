/*
 * progress.h — progress reporting for long phases (scoring, simulation).
 *
 * On a terminal: one live line redrawn in place ("simulate  37/120  31%
 * 2.4 jobs/s  ETA 0:35").  Not a terminal (CI, a log file): a plain line
 * every few seconds and one at the end.  Quiet: nothing.  Safe to call
 * dse_progress_step from many threads.
 */
#ifndef DSE_PROGRESS_H
#define DSE_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

/* What one phase cost: its steps, wall and CPU seconds (the whole
 * process's, every thread's), the CPU seconds of its longest job and the
 * process's peak resident memory when it ended.  Kept for every phase, so
 * that a long run can say where its time went (results.json's timings,
 * bench/scale.c).  The longest job is what no number of threads or farm
 * workers can shorten: a phase ends when its last job does. */
typedef struct dse_phase_time {
    char name[16];
    size_t steps;
    double wall_s, cpu_s;
    double longest_job_s;     /* 0 when no job was timed (dse_progress_job) */
    double peak_rss_mb;
} dse_phase_time;

/* Phases kept per progress; later ones are counted in phases_dropped. */
#define DSE_PROGRESS_PHASES 256

typedef struct dse_progress {
    FILE *out;                /* stderr by default */
    int tty;                  /* redraw in place */
    int quiet;                /* print nothing */
    const char *phase;        /* borrowed */
    size_t total, done;
    double start_s, last_print_s;
    double plain_interval_s;  /* non-terminal print period (5 s) */
    char extra[128];          /* appended to the line, e.g. farm status */
    double cpu_start_s;
    double longest_job_s;     /* this phase's, so far */
    dse_phase_time phases[DSE_PROGRESS_PHASES]; /* ended phases, in order */
    size_t nphases, phases_dropped;
    pthread_mutex_t lock;
} dse_progress;

/* Prepare for output to `out` (NULL: stderr); quiet suppresses output. */
void dse_progress_init(dse_progress *p, FILE *out, int quiet);
void dse_progress_fini(dse_progress *p);
/* Begin a phase of `total` steps. */
void dse_progress_begin(dse_progress *p, const char *phase, size_t total);
/* Count n finished steps; prints when due. */
void dse_progress_step(dse_progress *p, size_t n);
/* One job of the phase took cpu_s seconds of its thread's CPU. */
void dse_progress_job(dse_progress *p, double cpu_s);
/* Replace the extra text shown after the counts. */
void dse_progress_note(dse_progress *p, const char *text);
/* End the phase with a final line ("score  1200/1200  done in 3.2 s")
 * and keep what it cost in p->phases (even when quiet). */
void dse_progress_end(dse_progress *p);

/* CPU seconds of the whole process (all threads). */
double dse_cpu_s(void);
/* CPU seconds of the calling thread. */
double dse_thread_cpu_s(void);
/* The process's peak resident memory so far, MB. */
double dse_peak_rss_mb(void);

/* Monotonic seconds. */
double dse_now_s(void);

#endif
