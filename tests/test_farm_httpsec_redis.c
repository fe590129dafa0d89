/*
 * test_farm_httpsec_redis.c — the web page of `dse serve --http` against
 * hostile data and hostile clients (integration: its own redis-server and
 * daemon, loopback only; skipped without redis-server or curl).
 *
 *   - markup planted in a study's id, status and phase is shown as text,
 *     and the Content-Security-Policy forbids <base>, forms and frames;
 *   - a done study links only the report files that exist;
 *   - an HTTP/1.1 request without Host, or with two Content-Length
 *     headers, is answered 400;
 *   - 70 clients trickling header lines and 100 idle connections (from
 *     another loopback address) leave the page answering a normal request
 *     at once, and a trickling connection is cut within the header
 *     deadline.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/time.h>

#include "test_farm_util.h"

typedef struct web {
    test_redis r;
    pid_t serve;
    int port;
    char root[300];
} web;

static web W;

static int http_ok(int port)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd,
             "curl -s -m 2 -o /dev/null 'http://127.0.0.1:%d/studies.json'",
             port);
    return system(cmd) == 0;
}

static int setup(void **state)
{
    (void)state;
    if (!test_redis_installed() || system("command -v curl >/dev/null 2>&1"))
        return 0;
    if (test_redis_start(&W.r))
        return -1;
    snprintf(W.root, sizeof W.root, "%s/out", W.r.dir);
    mkdir(W.root, 0755);
    W.port = test_free_port();
    char port[32];
    snprintf(port, sizeof port, "127.0.0.1:%d", W.port);
    pid_t pid = fork();
    if (pid == 0) {
        char log[400];
        snprintf(log, sizeof log, "%s/serve.log", W.r.dir);
        test_child_output(log);
        execl(DSE_BINARY, DSE_BINARY, "serve", "--redis", W.r.url,
              "--output-root", W.root, "--http", port, (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    W.serve = pid;
    for (int i = 0; i < 100 && !http_ok(W.port); i++)
        test_sleep(0.05);
    return http_ok(W.port) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    if (W.serve > 0) {
        kill(W.serve, SIGTERM);
        waitpid(W.serve, NULL, 0);
        test_untrack(W.serve);
    }
    test_redis_fini(&W.r);
    return 0;
}

#define NEED_WEB()                                                           \
    do {                                                                     \
        if (W.serve <= 0)                                                    \
            skip();                                                          \
    } while (0)

/* curl's output (headers with -i) of a path into a static buffer. */
static const char *get(const char *opts, const char *path)
{
    static char buf[1 << 17];
    char cmd[600];
    snprintf(cmd, sizeof cmd, "curl -s -m 5 %s 'http://127.0.0.1:%d%s'", opts,
             W.port, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    pclose(p);
    return buf;
}

static void plant(const char *id, size_t n, const char *const *f,
                  const char *const *v)
{
    dse_store st;
    test_store_open(&W.r, &st);
    char key[64];
    snprintf(key, sizeof key, "dse:study:%s", id);
    assert_int_equal(st.ops->hset(st.self, key, n, f, v, NULL), 0);
    assert_int_equal(st.ops->push(st.self, "dse:studies", id, 0, NULL), 0);
    dse_store_close(&st);
}

/* Before: id, status and phase were printed raw, and a planted <base>
 * landed in the page (the CSP had no base-uri). */
static void test_fields_escaped_and_csp(void **state)
{
    (void)state;
    NEED_WEB();
    const char *f1[] = {"id", "status", "phase", "name"};
    const char *v1[] = {"<base href=//evil.example/>", "running",
                        "<i>phase</i>", "x"};
    plant("6", 4, f1, v1);
    const char *f2[] = {"id", "status", "name"};
    const char *v2[] = {"8", "<b onmouseover=x>done</b>", "y"};
    plant("8", 3, f2, v2);
    const char *page = get("", "/");
    assert_non_null(strstr(page, "&lt;base href=//evil.example/&gt;"));
    assert_null(strstr(page, "<base"));
    assert_null(strstr(page, "<i>"));
    assert_null(strstr(page, "<b "));
    assert_non_null(strstr(page, "&lt;i&gt;phase"));
    const char *head = get("-I", "/");
    assert_non_null(strstr(head, "base-uri 'none'"));
    assert_non_null(strstr(head, "form-action 'none'"));
    assert_non_null(strstr(head, "frame-ancestors 'none'"));
}

/* A done study whose formats left out index.html and candidates.csv:
 * before, the page linked them anyway (404). */
static void test_links_only_existing_files(void **state)
{
    (void)state;
    NEED_WEB();
    char dir[400], p[500];
    snprintf(dir, sizeof dir, "%s/5", W.root);
    mkdir(dir, 0755);
    const char *names[] = {"report.md", "results.json"};
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fputs("x\n", f);
        fclose(f);
    }
    const char *f[] = {"id", "status", "name", "report"};
    const char *v[] = {"5", "done", "links", dir};
    plant("5", 4, f, v);
    const char *page = get("", "/");
    assert_non_null(strstr(page, "/studies/5/report/report.md"));
    assert_non_null(strstr(page, "/studies/5/report/results.json"));
    assert_null(strstr(page, "/studies/5/report/candidates.csv"));
    assert_null(strstr(page, "/studies/5/report/\""));
    assert_non_null(strstr(get("", "/studies/5/report/report.md"), "x"));
}

/* A connection from source address src to the page (non-blocking off). */
static int dial(const char *src)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    inet_pton(AF_INET, src, &a.sin_addr);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    a.sin_port = htons((uint16_t)W.port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
        close(fd);
        return -1;
    }
    struct timeval tv = {3, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

/* Send a raw request; the status line of the answer. */
static const char *raw(const char *req)
{
    static char buf[512];
    buf[0] = '\0';
    int fd = dial("127.0.0.1");
    assert_true(fd >= 0);
    assert_true(send(fd, req, strlen(req), MSG_NOSIGNAL) > 0);
    ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
    char *nl = strchr(buf, '\r');
    if (nl)
        *nl = '\0';
    return buf;
}

static void test_bad_headers_refused(void **state)
{
    (void)state;
    NEED_WEB();
    assert_string_equal(raw("GET / HTTP/1.1\r\n\r\n"), "HTTP/1.1 400 Bad Request");
    assert_string_equal(raw("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n"
                            "Content-Length: 5\r\n\r\nhello"),
                        "HTTP/1.1 400 Bad Request");
    assert_string_equal(raw("GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
                        "HTTP/1.1 200 OK");
}

/* Before: 70 trickling clients held the 64 connections (the idle timeout
 * restarts with every byte) and the page was unavailable for 40 s; 100
 * idle connections stalled it 10 s. */
static void test_slow_clients_do_not_starve_the_page(void **state)
{
    (void)state;
    NEED_WEB();
    int fds[170], nfd = 0;
    for (int i = 0; i < 170; i++) {
        int fd = dial("127.0.0.2");
        if (fd < 0)
            continue;
        fcntl(fd, F_SETFL, O_NONBLOCK);
        if (i < 70)
            send(fd, "GET / HTTP/1.1\r\n", 16, MSG_NOSIGNAL);
        fds[nfd++] = fd;
    }
    assert_true(nfd >= 100);
    double worst = 0;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < nfd && i < 70; i++) /* one header line each */
            send(fds[i], "X-Slow: 1\r\n", 11, MSG_NOSIGNAL);
        double t0 = dse_now_s();
        char cmd[300];
        snprintf(cmd, sizeof cmd,
                 "curl -sf -m 3 -o /dev/null 'http://127.0.0.1:%d/'", W.port);
        int rc = system(cmd);
        double dt = dse_now_s() - t0;
        if (rc != 0)
            fail_msg("round %d: the page did not answer (%.1f s) during the "
                     "slow-client attack",
                     round, dt);
        worst = dt > worst ? dt : worst;
        test_sleep(0.5);
    }
    assert_true(worst < 2.0);
    for (int i = 0; i < nfd; i++)
        close(fds[i]);
}

/* A client that keeps sending header lines is cut when its request is
 * not complete within the header deadline (5 s), not kept forever. */
static void test_trickling_request_cut(void **state)
{
    (void)state;
    NEED_WEB();
    int fd = dial("127.0.0.3");
    assert_true(fd >= 0);
    assert_true(send(fd, "GET / HTTP/1.1\r\n", 16, MSG_NOSIGNAL) > 0);
    double t0 = dse_now_s(), cut = -1;
    while (dse_now_s() - t0 < 12 && cut < 0) {
        if (send(fd, "X-Slow: 1\r\n", 11, MSG_NOSIGNAL) < 0) {
            cut = dse_now_s() - t0;
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 500) > 0) {
            char b[256];
            ssize_t n = recv(fd, b, sizeof b, MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN))
                cut = dse_now_s() - t0;
        }
    }
    close(fd);
    if (cut < 0)
        fail_msg("a request trickling for 12 s was never cut");
    assert_true(cut > 4.0 && cut < 8.0);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_escaped_and_csp),
        cmocka_unit_test(test_links_only_existing_files),
        cmocka_unit_test(test_bad_headers_refused),
        cmocka_unit_test(test_slow_clients_do_not_starve_the_page),
        cmocka_unit_test(test_trickling_request_cut),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
