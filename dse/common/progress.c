/*
 * progress.c — see progress.h.  Redraws at most 10 times a second so a
 * fast phase does not spend its time printing.
 */
#include "dse/common/progress.h"

#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Seconds on one of the POSIX clocks. */
static double clock_s(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double dse_now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

double dse_cpu_s(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

double dse_thread_cpu_s(void)
{
    return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

double dse_peak_rss_mb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_maxrss / 1024.0;   /* Linux: kilobytes */
}

void dse_progress_init(dse_progress *p, FILE *out, int quiet)
{
    memset(p, 0, sizeof *p);
    p->out = out ? out : stderr;
    p->tty = isatty(fileno(p->out));
    p->quiet = quiet;
    p->plain_interval_s = 5.0;
    pthread_mutex_init(&p->lock, NULL);
}

void dse_progress_fini(dse_progress *p)
{
    pthread_mutex_destroy(&p->lock);
}

static void format_eta(char *buf, size_t size, double seconds)
{
    if (!(seconds >= 0) || seconds > 360000) {
        snprintf(buf, size, "?");
        return;
    }
    long s = (long)(seconds + 0.5);
    snprintf(buf, size, "%ld:%02ld", s / 60, s % 60);
}

/* Caller holds the lock. */
static void print_line(dse_progress *p, double now, int final)
{
    double elapsed = now - p->start_s;
    double rate = elapsed > 0 ? (double)p->done / elapsed : 0;
    double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;
    char eta[32];
    if (final) {
        fprintf(p->out, "%s%-9s %zu/%zu  done in %.1f s%s%s\n",
                p->tty ? "\r\033[K" : "", p->phase, p->done, p->total,
                elapsed, p->extra[0] ? "  " : "", p->extra);
    } else {
        format_eta(eta, sizeof eta,
                   rate > 0 ? (double)(p->total - p->done) / rate : -1);
        /* slow phases (simulations) run well under one job a second */
        char speed[32];
        if (rate >= 1 || rate == 0)
            snprintf(speed, sizeof speed, "%.1f/s", rate);
        else
            snprintf(speed, sizeof speed, "%.1f/min", rate * 60);
        fprintf(p->out, "%s%-9s %zu/%zu  %3.0f%%  %s  ETA %s%s%s%s",
                p->tty ? "\r\033[K" : "", p->phase, p->done, p->total, pct,
                speed, eta, p->extra[0] ? "  " : "", p->extra,
                p->tty ? "" : "\n");
    }
    fflush(p->out);
    p->last_print_s = now;
}

void dse_progress_begin(dse_progress *p, const char *phase, size_t total)
{
    pthread_mutex_lock(&p->lock);
    p->phase = phase;
    p->total = total;
    p->done = 0;
    p->start_s = p->last_print_s = dse_now_s();
    p->cpu_start_s = dse_cpu_s();
    p->longest_job_s = 0;
    p->extra[0] = '\0';
    if (!p->quiet && p->tty)
        print_line(p, p->start_s, 0);
    pthread_mutex_unlock(&p->lock);
}

void dse_progress_step(dse_progress *p, size_t n)
{
    pthread_mutex_lock(&p->lock);
    p->done += n;
    if (!p->quiet) {
        double now = dse_now_s();
        double every = p->tty ? 0.1 : p->plain_interval_s;
        if (now - p->last_print_s >= every && p->done < p->total)
            print_line(p, now, 0);
    }
    pthread_mutex_unlock(&p->lock);
}

void dse_progress_job(dse_progress *p, double cpu_s)
{
    pthread_mutex_lock(&p->lock);
    if (cpu_s > p->longest_job_s)
        p->longest_job_s = cpu_s;
    pthread_mutex_unlock(&p->lock);
}

void dse_progress_note(dse_progress *p, const char *text)
{
    pthread_mutex_lock(&p->lock);
    snprintf(p->extra, sizeof p->extra, "%s", text ? text : "");
    pthread_mutex_unlock(&p->lock);
}

void dse_progress_end(dse_progress *p)
{
    pthread_mutex_lock(&p->lock);
    if (p->nphases < DSE_PROGRESS_PHASES) {
        dse_phase_time *ph = &p->phases[p->nphases++];
        snprintf(ph->name, sizeof ph->name, "%s", p->phase ? p->phase : "");
        ph->steps = p->done;
        ph->wall_s = dse_now_s() - p->start_s;
        ph->cpu_s = dse_cpu_s() - p->cpu_start_s;
        ph->longest_job_s = p->longest_job_s;
        ph->peak_rss_mb = dse_peak_rss_mb();
    } else {
        p->phases_dropped++;
    }
    if (!p->quiet)
        print_line(p, dse_now_s(), 1);
    pthread_mutex_unlock(&p->lock);
}
