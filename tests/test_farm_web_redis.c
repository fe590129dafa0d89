/*
 * test_farm_web_redis.c — what a team uses of the farm, against a real
 * redis-server (integration; skipped without redis-server): `dse serve
 * --http` with one `dse worker`, and the commands as processes.
 *
 *   - the web page, /studies.json and /studies/ID.json (curl): a done
 *     study with elapsed time, its report files with their types; no file
 *     of a study that is not done; no path traversal (.., %2e%2e, %2f,
 *     other names, other ids); read-only (POST is 405); bound to 127.0.0.1;
 *     a study's name and reason HTML-escaped;
 *   - a headless Chromium renders the page (a screenshot that is not
 *     blank, decoded here) and its DOM lists the study (skipped without
 *     chromium; scripts/deps.sh installs it);
 *   - dse status --json (elapsed_s, eta_s), dse results (the report
 *     through Redis, byte-identical to the one on disk; refuses a
 *     non-empty directory), dse cancel of a queued and of a running study;
 *   - SIGTERM stops the daemon and its web server (the port closes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <zlib.h>

#include "test_farm_util.h"

typedef struct web {
    test_redis r;
    char root[400];
    int port;
    pid_t serve, worker;
    dse_store st;
} web;

static web W;

static pid_t serve_start(web *w)
{
    char port[32];
    snprintf(port, sizeof port, "%d", w->port);
    pid_t pid = fork();
    if (pid == 0) {
        char log[300];
        snprintf(log, sizeof log, "%s/serve.log", w->r.dir);
        test_child_output(log);
        execl(DSE_BINARY, DSE_BINARY, "serve", "--redis", w->r.url,
              "--output-root", w->root, "--http", port, "--worker-timeout",
              "30", (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    return pid;
}

/* Run a shell command; its stdout into out (NUL-terminated); exit status. */
static int sh(const char *cmd, char *out, size_t size)
{
    return test_sh(cmd, out, size);
}

static int dse(const char *args, char *out, size_t size)
{
    char cmd[1500];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", DSE_BINARY, args);
    return sh(cmd, out, size);
}

/* HTTP status code of GET path (curl --path-as-is: sent as written). */
static int http_code(const char *method, const char *path, char *ctype,
                     size_t size)
{
    char cmd[1200], out[512];
    char how[32]; /* curl -X HEAD would wait for a body */
    snprintf(how, sizeof how, strcmp(method, "HEAD") ? "-X %s" : "-I", method);
    snprintf(cmd, sizeof cmd,
             "curl -s --path-as-is %s -o /dev/null -w '%%{http_code} "
             "%%{content_type}' 'http://127.0.0.1:%d%s'",
             how, W.port, path);
    if (sh(cmd, out, sizeof out) != 0)
        return -1;
    if (ctype)
        snprintf(ctype, size, "%s", strchr(out, ' ') ? strchr(out, ' ') + 1 : "");
    return atoi(out);
}

/* GET path's body (caller frees), NULL when curl fails. */
static char *http_get(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "curl -sf 'http://127.0.0.1:%d%s'", W.port, path);
    char *out = calloc(1, 1 << 21);
    if (sh(cmd, out, 1 << 21) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 21);
    size_t n = fread(buf, 1, (1 << 21) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void field(const char *id, const char *name, char *buf, size_t size)
{
    test_study_field(&W.st, id, name, buf, size);
}

/* Study 1's report directory, as the daemon recorded it (whatever layout
 * the daemon uses under --output-root). */
static const char *report_dir(void)
{
    static char dir[1024];
    field("1", "report", dir, sizeof dir);
    assert_true(dir[0] != '\0');
    return dir;
}

static int wait_status(const char *id, const char *want, double seconds)
{
    char buf[256];
    for (double t = 0; t < seconds; t += 0.1) {
        field(id, "status", buf, sizeof buf);
        if (strcmp(buf, want) == 0)
            return 1;
        test_sleep(0.1);
    }
    fprintf(stderr, "study %s: status '%s', wanted '%s'\n", id, buf, want);
    return 0;
}

static int submit(const char *file)
{
    char args[800], out[64];
    snprintf(args, sizeof args, "submit '%s/tests/data/%s' --redis %s",
             DSE_SOURCE_DIR, file, W.r.url);
    if (dse(args, out, sizeof out) != 0)
        return -1;
    return atoi(out);
}

/* One redis-server, one worker, one daemon with its web page, and one
 * study run to done (id 1). */
static int setup(void **state)
{
    (void)state;
    if (!test_redis_installed() ||
        system("command -v curl >/dev/null 2>&1") != 0)
        return 0; /* the tests skip */
    assert_int_equal(test_redis_start(&W.r), 0);
    snprintf(W.root, sizeof W.root, "%s/out", W.r.dir);
    assert_int_equal(mkdir(W.root, 0755), 0);
    test_store_open(&W.r, &W.st);
    W.port = test_free_port();
    W.worker = test_worker_start(&W.r, "w", NULL, NULL);
    W.serve = serve_start(&W);
    assert_int_equal(submit("opt_small.yaml"), 1);
    /* the whole study on one sanitized worker: it has taken over 2
     * minutes with other tests sharing the cores */
    assert_true(wait_status("1", "done", 480));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (W.serve > 0) {
        kill(W.serve, SIGTERM);
        waitpid(W.serve, NULL, 0);
        test_untrack(W.serve);
    }
    if (W.worker > 0) { /* it may be in a cancelled study's long job */
        kill(W.worker, SIGKILL);
        waitpid(W.worker, NULL, 0);
        test_untrack(W.worker);
    }
    if (W.r.pid > 0) {
        dse_store_close(&W.st);
        test_redis_fini(&W.r);
    }
    return 0;
}

#define NEED_SERVER()                                                        \
    do {                                                                     \
        if (W.r.pid <= 0)                                                    \
            skip();                                                          \
    } while (0)

/* ---- curl ------------------------------------------------------------------ */

static void test_http_pages(void **state)
{
    (void)state;
    NEED_SERVER();
    char ct[128];
    assert_int_equal(http_code("GET", "/", ct, sizeof ct), 200);
    assert_string_equal(ct, "text/html; charset=utf-8");
    char *page = http_get("/");
    assert_non_null(page);
    assert_non_null(strstr(page, "id=\"study-1\""));
    assert_non_null(strstr(page, "opt_small"));
    assert_non_null(strstr(page, ">done<"));
    assert_non_null(strstr(page, "href=\"/studies/1/report/\""));
    /* one script: the page's own, which its CSP allows by hash */
    const char *sc = strstr(page, "<script>");
    assert_non_null(sc);
    assert_null(strstr(sc + 1, "<script"));
    free(page);

    char *js = http_get("/studies.json");
    assert_non_null(js);
    json_error_t je;
    json_t *o = json_loads(js, 0, &je);
    free(js);
    assert_non_null(o);
    json_t *s0 = json_array_get(json_object_get(o, "studies"), 0);
    assert_string_equal(json_string_value(json_object_get(s0, "status")), "done");
    assert_true(json_is_number(json_object_get(s0, "elapsed_s")));
    assert_true(json_is_null(json_object_get(s0, "eta_s")));
    assert_true(json_is_true(json_object_get(s0, "report_stored")));
    json_decref(o);
    assert_int_equal(http_code("GET", "/studies/1.json", NULL, 0), 200);
    assert_int_equal(http_code("GET", "/studies/99.json", NULL, 0), 404);

    /* the report: each file with its type, identical to the one on disk */
    const char *files[][2] = {{"", "text/html; charset=utf-8"},
                              {"index.html", "text/html; charset=utf-8"},
                              {"report.md", "text/markdown; charset=utf-8"},
                              {"candidates.csv", "text/csv; charset=utf-8"},
                              {"results.json", "application/json"}};
    for (size_t i = 0; i < 5; i++) {
        char path[200];
        snprintf(path, sizeof path, "/studies/1/report/%s", files[i][0]);
        assert_int_equal(http_code("GET", path, ct, sizeof ct), 200);
        assert_string_equal(ct, files[i][1]);
    }
    char *served = http_get("/studies/1/report/results.json");
    char disk[1100];
    snprintf(disk, sizeof disk, "%s/results.json", report_dir());
    char *ondisk = read_text(disk);
    assert_non_null(served);
    assert_non_null(ondisk);
    assert_string_equal(served, ondisk);
    free(served);
    free(ondisk);
}

/* A study's name and reason are untrusted text: escaped on the page. */
static void test_http_escapes(void **state)
{
    (void)state;
    NEED_SERVER();
    const char *f[] = {"id", "name", "status", "reason"};
    const char *v[] = {"999", "<script>alert(1)</script>", "failed",
                       "bad \"<img src=x onerror=alert(2)>\" & more"};
    assert_int_equal(W.st.ops->hset(W.st.self, "dse:study:999", 4, f, v, NULL),
                     0);
    assert_int_equal(W.st.ops->push(W.st.self, "dse:studies", "999", 0, NULL),
                     0);
    char *page = http_get("/");
    assert_non_null(page);
    assert_null(strstr(page, "<script>alert"));
    assert_null(strstr(page, "<img"));
    assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(page, "bad &quot;&lt;img src=x onerror=alert(2)&gt;"
                                 "&quot; &amp; more"));
    free(page);
    W.st.ops->lrem(W.st.self, "dse:studies", "999", NULL);
    W.st.ops->del(W.st.self, "dse:study:999", NULL);
    assert_int_equal(http_code("HEAD", "/", NULL, 0), 200);
}

static void test_http_refuses(void **state)
{
    (void)state;
    NEED_SERVER();
    /* a file beside the report that is not one of its four */
    char extra[1100];
    snprintf(extra, sizeof extra, "%s/secret.txt", report_dir());
    FILE *f = fopen(extra, "w");
    assert_non_null(f);
    fputs("secret\n", f);
    fclose(f);
    snprintf(extra, sizeof extra, "%s/secret.txt", W.root);
    f = fopen(extra, "w");
    assert_non_null(f);
    fputs("secret\n", f);
    fclose(f);
    const char *bad[] = {
        "/studies/1/report/secret.txt",
        "/studies/1/report/../secret.txt",
        "/studies/1/report/../../secret.txt",
        "/studies/1/report/%2e%2e/%2e%2e/secret.txt",
        "/studies/1/report/..%2f..%2fsecret.txt",
        "/studies/1/report/../../../../../../etc/passwd",
        "/studies/1/report/%2fetc%2fpasswd",
        "/studies/1/report//etc/passwd",
        "/studies/1/../../secret.txt",
        "/studies/../secret.txt",
        "/secret.txt",
        "/out/secret.txt",
        "/studies/1x/report/index.html",
        "/studies/-1/report/index.html",
        "/studies/2/report/index.html",          /* no such study */
        "/studies/1/report/index.html/",
        /* (".../index.html%00.txt" is not here: libmicrohttpd's decoding
         * stops at the NUL, which leaves the allowed name index.html) */
        "/studies/1/reportindex.html",
        "/etc/passwd",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int code = http_code("GET", bad[i], NULL, 0);
        if (code != 404)
            fprintf(stderr, "%s: %d\n", bad[i], code);
        assert_int_equal(code, 404);
        char *body = http_get(bad[i]);
        assert_null(body); /* curl -f: no body of a 404 */
    }
    /* read-only */
    assert_int_equal(http_code("POST", "/", NULL, 0), 405);
    assert_int_equal(http_code("PUT", "/studies/1/report/index.html", NULL, 0),
                     405);
    assert_int_equal(http_code("DELETE", "/studies/1.json", NULL, 0), 405);
    /* loopback only by default: not on another address of this machine */
    char out[256], cmd[300];
    if (sh("hostname -I 2>/dev/null | awk '{print $1}'", out, sizeof out) == 0 &&
        out[0] && strncmp(out, "127.", 4) != 0) {
        out[strcspn(out, "\n")] = '\0';
        snprintf(cmd, sizeof cmd,
                 "curl -s -m 3 -o /dev/null 'http://%s:%d/'", out, W.port);
        assert_int_not_equal(sh(cmd, NULL, 0), 0);
    }
}

/* ---- headless Chromium ----------------------------------------------------- */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Distinct pixel colours of an 8-bit RGB or RGBA, non-interlaced PNG
 * (what Chromium writes), counted up to 4096; -1 if not such a PNG. */
static long png_colours(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc((size_t)size);
    if (fread(d, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(d);
        return -1;
    }
    fclose(f);
    long result = -1;
    unsigned char *idat = malloc((size_t)size), *raw = NULL;
    size_t nidat = 0;
    uint32_t w = 0, h = 0;
    int bpp = 0;
    if (size < 33 || memcmp(d, "\x89PNG\r\n\x1a\n", 8))
        goto out;
    for (long at = 8; at + 12 <= size;) {
        uint32_t len = be32(d + at);
        const unsigned char *type = d + at + 4, *body = d + at + 8;
        if (at + 12 + (long)len > size)
            goto out;
        if (!memcmp(type, "IHDR", 4)) {
            w = be32(body);
            h = be32(body + 4);
            if (body[8] != 8 || body[12] != 0 || (body[9] != 2 && body[9] != 6))
                goto out;
            bpp = body[9] == 2 ? 3 : 4;
        } else if (!memcmp(type, "IDAT", 4)) {
            memcpy(idat + nidat, body, len);
            nidat += len;
        }
        at += 12 + (long)len;
    }
    if (!w || !h || !bpp)
        goto out;
    size_t stride = (size_t)w * (size_t)bpp;
    uLongf rawlen = (uLongf)((stride + 1) * h);
    raw = malloc(rawlen);
    if (uncompress(raw, &rawlen, idat, (uLong)nidat) != Z_OK ||
        rawlen != (stride + 1) * h)
        goto out;
    uint32_t seen[4096];
    size_t nseen = 0;
    unsigned char *prev = NULL;
    for (uint32_t y = 0; y < h; y++) {
        unsigned char *line = raw + y * (stride + 1), *px = line + 1;
        for (size_t x = 0; x < stride; x++) {
            int a = x >= (size_t)bpp ? px[x - bpp] : 0;
            int b = prev ? prev[x] : 0;
            int c = prev && x >= (size_t)bpp ? prev[x - bpp] : 0;
            int add = 0;
            switch (line[0]) {
            case 0: add = 0; break;
            case 1: add = a; break;
            case 2: add = b; break;
            case 3: add = (a + b) / 2; break;
            case 4: add = paeth(a, b, c); break;
            default: goto out;
            }
            px[x] = (unsigned char)(px[x] + add);
        }
        for (uint32_t x = 0; x < w && nseen < 4096; x++) {
            const unsigned char *p = px + (size_t)x * (size_t)bpp;
            uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
            size_t k = 0;
            while (k < nseen && seen[k] != v)
                k++;
            if (k == nseen)
                seen[nseen++] = v;
        }
        prev = px;
    }
    result = (long)nseen;
out:
    free(d);
    free(idat);
    free(raw);
    return result;
}

static void test_chromium(void **state)
{
    (void)state;
    NEED_SERVER();
    if (system("command -v chromium >/dev/null 2>&1") != 0)
        skip(); /* scripts/deps.sh installs it: CI runs this */
    char png[400], cmd[1200], dom[65536];
    snprintf(png, sizeof png, "%s/page.png", W.r.dir);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && HOME='%s' timeout 120 chromium --headless --no-sandbox "
             "--disable-gpu --screenshot='%s' --window-size=1400,3000 "
             "'http://127.0.0.1:%d/' >/dev/null 2>&1",
             W.r.dir, W.r.dir, png, W.port);
    assert_int_equal(sh(cmd, NULL, 0), 0);
    long colours = png_colours(png);
    fprintf(stderr, "chromium screenshot: %ld distinct colours\n", colours);
    assert_true(colours > 8); /* text, links, status colours, table lines */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && HOME='%s' timeout 120 chromium --headless --no-sandbox "
             "--disable-gpu --dump-dom 'http://127.0.0.1:%d/' 2>/dev/null",
             W.r.dir, W.r.dir, W.port);
    assert_int_equal(sh(cmd, dom, sizeof dom), 0);
    assert_non_null(strstr(dom, "id=\"study-1\""));
    assert_non_null(strstr(dom, "opt_small"));
    assert_non_null(strstr(dom, "done"));
    assert_non_null(strstr(dom, "href=\"/studies/1/report/\""));
    assert_non_null(strstr(dom, "href=\"/studies/1\""));
    /* the report page renders too (inline SVG charts) */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && HOME='%s' timeout 120 chromium --headless --no-sandbox "
             "--disable-gpu --dump-dom 'http://127.0.0.1:%d/studies/1/report/' "
             "2>/dev/null",
             W.r.dir, W.r.dir, W.port);
    assert_int_equal(sh(cmd, dom, sizeof dom), 0);
    assert_non_null(strstr(dom, "<svg"));
}

/* ---- the commands ----------------------------------------------------------- */

static void test_status_json_and_results(void **state)
{
    (void)state;
    NEED_SERVER();
    char args[1200], out[8192];
    snprintf(args, sizeof args, "status 1 --json --redis %s", W.r.url);
    assert_int_equal(dse(args, out, sizeof out), 0);
    json_error_t je;
    json_t *o = json_loads(out, 0, &je);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "done");
    assert_true(json_number_value(json_object_get(o, "elapsed_s")) >= 0);
    json_decref(o);
    snprintf(args, sizeof args, "status --json --redis %s", W.r.url);
    assert_int_equal(dse(args, out, sizeof out), 0);
    o = json_loads(out, 0, &je);
    assert_non_null(o);
    assert_int_equal(json_array_size(json_object_get(o, "studies")), 1);
    assert_true(json_is_array(
        json_object_get(json_object_get(o, "farm"), "workers")));
    json_decref(o);

    /* the report through Redis, identical to the daemon's copy */
    char dir[600];
    snprintf(dir, sizeof dir, "%s/fetched", W.r.dir);
    snprintf(args, sizeof args, "results 1 --redis %s --output '%s'", W.r.url,
             dir);
    assert_int_equal(dse(args, out, sizeof out), 0);
    const char *names[] = {"index.html", "report.md", "candidates.csv",
                           "results.json"};
    for (size_t i = 0; i < 4; i++) {
        char a[1100], b[1100];
        snprintf(a, sizeof a, "%s/%s", dir, names[i]);
        snprintf(b, sizeof b, "%s/%s", report_dir(), names[i]);
        char *x = read_text(a), *y = read_text(b);
        assert_non_null(x);
        assert_non_null(y);
        assert_string_equal(x, y);
        free(x);
        free(y);
    }
    /* a non-empty directory is refused and left alone */
    assert_int_equal(dse(args, out, sizeof out), 1);
    /* an empty one is used */
    snprintf(dir, sizeof dir, "%s/empty", W.r.dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(args, sizeof args, "results 1 --redis %s --output '%s'", W.r.url,
             dir);
    assert_int_equal(dse(args, out, sizeof out), 0);
    /* no such study; not a number */
    snprintf(args, sizeof args, "results 42 --redis %s --output '%s/x'",
             W.r.url, W.r.dir);
    assert_int_equal(dse(args, out, sizeof out), 1);
    snprintf(args, sizeof args, "results ../1 --redis %s --output '%s/y'",
             W.r.url, W.r.dir);
    assert_int_equal(dse(args, out, sizeof out), 1);
}

static void test_cancel(void **state)
{
    (void)state;
    NEED_SERVER();
    /* a long study runs; a second one waits behind it */
    int running = submit("opt_interrupt.yaml");
    int queued = submit("opt_interrupt.yaml");
    assert_true(running > 1 && queued == running + 1);
    char id_r[16], id_q[16], args[600], out[4096];
    snprintf(id_r, sizeof id_r, "%d", running);
    snprintf(id_q, sizeof id_q, "%d", queued);
    assert_true(wait_status(id_r, "running", 30));
    char phase[64];
    for (int i = 0; i < 300; i++) { /* until its simulations are out */
        field(id_r, "phase", phase, sizeof phase);
        if (!strcmp(phase, "simulate"))
            break;
        test_sleep(0.1);
    }
    /* the running study has elapsed time on the page and in JSON */
    char path[64];
    snprintf(path, sizeof path, "/studies/%d.json", running);
    char *js = http_get(path);
    assert_non_null(js);
    assert_non_null(strstr(js, "\"status\": \"running\""));
    free(js);
    char *page = http_get("/");
    assert_non_null(page);
    assert_non_null(strstr(page, "class=\"bar\""));
    free(page);

    snprintf(args, sizeof args, "cancel %s --redis %s", id_q, W.r.url);
    assert_int_equal(dse(args, out, sizeof out), 0);
    field(id_q, "status", out, sizeof out);
    assert_string_equal(out, "cancelled"); /* at once */
    snprintf(args, sizeof args, "cancel %s --redis %s", id_r, W.r.url);
    assert_int_equal(dse(args, out, sizeof out), 0);
    assert_true(wait_status(id_r, "cancelled", 30));
    /* cancelling again: already finished */
    assert_int_equal(dse(args, out, sizeof out), 1);
    snprintf(args, sizeof args, "cancel 1 --redis %s", W.r.url);
    assert_int_equal(dse(args, out, sizeof out), 1);
    /* no report for a cancelled study */
    snprintf(path, sizeof path, "/studies/%d/report/", running);
    assert_int_equal(http_code("GET", path, NULL, 0), 404);
    /* the daemon goes on: study 1 still served */
    assert_int_equal(http_code("GET", "/studies/1/report/", NULL, 0), 200);
}

static void test_sigterm_stops_web(void **state)
{
    (void)state;
    NEED_SERVER();
    assert_int_equal(http_code("GET", "/", NULL, 0), 200);
    kill(W.serve, SIGTERM);
    int st;
    assert_int_equal(waitpid(W.serve, &st, 0), W.serve);
    test_untrack(W.serve);
    W.serve = 0;
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "curl -s -m 3 -o /dev/null 'http://127.0.0.1:%d/'",
             W.port);
    assert_int_not_equal(sh(cmd, NULL, 0), 0); /* connection refused */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http_pages),
        cmocka_unit_test(test_http_escapes),
        cmocka_unit_test(test_http_refuses),
        cmocka_unit_test(test_chromium),
        cmocka_unit_test(test_status_json_and_results),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_sigterm_stops_web),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
