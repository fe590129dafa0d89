/*
 * test_report_browser.c — the report as an architect sees it: `dse
 * optimize` writes a report for a tiny study (tests/data/report_browser.yaml,
 * with simulations), headless Chromium renders index.html, and
 *   - the screenshot (a PNG, decoded here with zlib) is not blank: enough
 *     non-white pixels, many colours, and the charts' series colours;
 *   - the DOM Chromium built (--dump-dom) holds every chart as an <svg>
 *     whose axis titles and tick labels came through as text;
 *   - the data: every simulated design has a curve of at least six
 *     simulated points, one of them past its simulated saturation rate
 *     (curves.json against results.json), and the load chart draws them;
 *   - driven through Chromium's DevTools protocol (--remote-debugging-pipe:
 *     JSON commands on file descriptors 3 and 4): at 800 px the page has no
 *     horizontal scroll; a real mouse move (Input.dispatchMouseEvent) over
 *     a simulated point shows a tooltip naming its design; every series
 *     drawn in every chart has its legend entry; a click on a legend entry
 *     hides its series.
 * Skipped, not failed, when no Chromium is installed (scripts/deps.sh
 * installs it; DSE_CHROMIUM names another binary).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#ifndef DSE_SOURCE_DIR
#define DSE_SOURCE_DIR "."
#endif
#ifndef DSE_BINARY
#define DSE_BINARY "dse"
#endif

static const char *find_chromium(void)
{
    static char found[4096];
    const char *env = getenv("DSE_CHROMIUM");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    static const char *const names[] = {"chromium", "chromium-browser",
                                        "google-chrome", NULL};
    const char *path = getenv("PATH");
    for (int i = 0; names[i]; i++) {
        const char *p = path ? path : "/usr/bin:/bin";
        while (*p) {
            size_t len = strcspn(p, ":");
            snprintf(found, sizeof found, "%.*s/%s", (int)len, p, names[i]);
            if (access(found, X_OK) == 0)
                return found;
            p += len + (p[len] == ':');
        }
    }
    return NULL;
}

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *size = (size_t)n;
    }
    return buf;
}

/* ---- a minimal PNG reader: 8-bit RGB or RGBA, not interlaced ------------ */

typedef struct image {
    unsigned w, h, channels;
    unsigned char *px;       /* w * h * channels */
} image;

static unsigned be32(const unsigned char *p)
{
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* 0, or -1 with why set. */
static int png_decode(const unsigned char *d, size_t n, image *im,
                      const char **why)
{
    static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    memset(im, 0, sizeof *im);
    if (n < 8 || memcmp(d, sig, 8)) {
        *why = "not a PNG";
        return -1;
    }
    unsigned char *z = NULL;
    size_t zn = 0;
    for (size_t at = 8; at + 12 <= n;) {
        unsigned len = be32(d + at);
        const unsigned char *type = d + at + 4, *body = d + at + 8;
        if (at + 12 + len > n)
            break;
        if (!memcmp(type, "IHDR", 4)) {
            im->w = be32(body);
            im->h = be32(body + 4);
            if (body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[12]) {
                *why = "not 8-bit RGB/RGBA non-interlaced";
                free(z);
                return -1;
            }
            im->channels = body[9] == 6 ? 4 : 3;
        } else if (!memcmp(type, "IDAT", 4)) {
            z = realloc(z, zn + len);
            memcpy(z + zn, body, len);
            zn += len;
        }
        at += 12 + len;
    }
    if (!im->w || !im->h || !z) {
        *why = "no IHDR or IDAT";
        free(z);
        return -1;
    }
    size_t stride = (size_t)im->w * im->channels;
    uLongf raw_n = (uLongf)((stride + 1) * im->h);
    unsigned char *raw = malloc(raw_n);
    int zrc = uncompress(raw, &raw_n, z, (uLong)zn);
    free(z);
    if (zrc != Z_OK || raw_n != (stride + 1) * im->h) {
        *why = "bad zlib stream";
        free(raw);
        return -1;
    }
    im->px = malloc(stride * im->h);
    unsigned bpp = im->channels;
    for (unsigned y = 0; y < im->h; y++) {
        const unsigned char *src = raw + y * (stride + 1) + 1;
        unsigned char *row = im->px + y * stride;
        const unsigned char *up = y ? row - stride : NULL;
        int filter = src[-1];
        for (size_t x = 0; x < stride; x++) {
            int a = x >= bpp ? row[x - bpp] : 0, b = up ? up[x] : 0;
            int c = up && x >= bpp ? up[x - bpp] : 0, v = src[x];
            switch (filter) {
            case 1: v += a; break;
            case 2: v += b; break;
            case 3: v += (a + b) / 2; break;
            case 4: v += paeth(a, b, c); break;
            default: break;
            }
            row[x] = (unsigned char)v;
        }
    }
    free(raw);
    return 0;
}

/* ---- the test -------------------------------------------------------------- */

static int run(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0)
        print_error("command failed (%d): %s\n", rc, cmd);
    return rc;
}

static size_t count_str(const char *h, const char *needle)
{
    size_t n = 0;
    for (const char *p = h; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* ---- Chromium's DevTools protocol over a pipe ---------------------------- */

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

typedef struct cdp {
    pid_t pid;
    int to, from;            /* our ends: commands out, replies in */
    char *buf;               /* unread reply bytes */
    size_t len, cap;
    int next_id;
    char session[128];
} cdp;

static int cdp_start(cdp *c, const char *chromium, const char *dir)
{
    int in[2], out[2];
    memset(c, 0, sizeof *c);
    if (pipe(in) || pipe(out))
        return -1;
    c->pid = fork();
    if (c->pid < 0)
        return -1;
    if (c->pid == 0) {
        /* the browser reads commands on fd 3 and writes replies on fd 4 */
        int r = dup(in[0]), w = dup(out[1]);
        dup2(r, 3);
        dup2(w, 4);
        char profile[4200], log[4200];
        snprintf(profile, sizeof profile, "--user-data-dir=%s/cdp-profile", dir);
        snprintf(log, sizeof log, "%s/cdp.log", dir);
        FILE *lf = freopen(log, "w", stderr);
        (void)lf;
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(chromium, chromium, "--headless", "--no-sandbox", "--disable-gpu",
              "--hide-scrollbars", "--no-first-run", "--disable-dev-shm-usage",
              "--remote-debugging-pipe", "--window-size=800,2000", profile,
              "about:blank", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    c->to = in[1];
    c->from = out[0];
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

static void cdp_stop(cdp *c)
{
    if (c->pid > 0) {
        close(c->to);
        close(c->from);
        kill(c->pid, SIGTERM);
        waitpid(c->pid, NULL, 0);
    }
    free(c->buf);
}

/* One NUL-terminated message from the browser (caller frees); NULL after
 * 30 s or on EOF. */
static char *cdp_read(cdp *c)
{
    for (;;) {
        char *nul = c->len ? memchr(c->buf, '\0', c->len) : NULL;
        if (nul) {
            size_t n = (size_t)(nul - c->buf) + 1;
            char *msg = malloc(n);
            memcpy(msg, c->buf, n);
            memmove(c->buf, c->buf + n, c->len - n);
            c->len -= n;
            return msg;
        }
        struct pollfd p = {.fd = c->from, .events = POLLIN};
        if (poll(&p, 1, 30000) <= 0)
            return NULL;
        if (c->cap - c->len < 65536) {
            c->cap = c->cap ? 2 * c->cap : 1 << 20;
            c->buf = realloc(c->buf, c->cap);
        }
        ssize_t got = read(c->from, c->buf + c->len, c->cap - c->len);
        if (got <= 0)
            return NULL;
        c->len += (size_t)got;
    }
}

/* Send method(params) (on the page's session once attached) and return
 * the reply's "result" (caller decrefs); NULL on an error reply. */
static json_t *cdp_call(cdp *c, const char *method, json_t *params)
{
    int id = ++c->next_id;
    json_t *m = json_pack("{s:i, s:s, s:o}", "id", id, "method", method,
                          "params", params ? params : json_object());
    if (c->session[0])
        json_object_set_new(m, "sessionId", json_string(c->session));
    char *text = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    size_t n = strlen(text) + 1; /* the NUL ends the message */
    ssize_t w = write(c->to, text, n);
    free(text);
    if (w != (ssize_t)n)
        return NULL;
    for (;;) {
        char *msg = cdp_read(c);
        if (!msg)
            return NULL;
        json_t *reply = json_loads(msg, 0, NULL);
        free(msg);
        if (!reply)
            continue;
        json_t *rid = json_object_get(reply, "id");
        if (!rid || json_integer_value(rid) != id) {
            json_decref(reply); /* an event */
            continue;
        }
        json_t *res = json_object_get(reply, "result");
        if (res)
            json_incref(res);
        else
            print_message("cdp %s: %s\n", method,
                          json_dumps(json_object_get(reply, "error"), 0));
        json_decref(reply);
        return res;
    }
}

/* Evaluate a JavaScript expression in the page; its value (by value) as
 * JSON (caller decrefs), NULL when it threw. */
static json_t *cdp_eval(cdp *c, const char *expr)
{
    json_t *res = cdp_call(c, "Runtime.evaluate",
                           json_pack("{s:s, s:b}", "expression", expr,
                                     "returnByValue", 1));
    if (!res)
        return NULL;
    json_t *v = NULL;
    if (!json_object_get(res, "exceptionDetails"))
        v = json_deep_copy(json_object_get(json_object_get(res, "result"),
                                           "value"));
    else
        print_message("page script threw: %s\n",
                      json_dumps(json_object_get(res, "exceptionDetails"), 0));
    json_decref(res);
    return v;
}

/* Attach to the page target, load url and wait until it has loaded. */
static int cdp_attach(cdp *c, const char *url)
{
    json_t *t = NULL;
    const char *target = NULL;
    for (int tries = 0; tries < 100 && !target; tries++) {
        json_decref(t);
        t = cdp_call(c, "Target.getTargets", NULL);
        if (!t)
            return -1;
        size_t i;
        json_t *info;
        json_array_foreach(json_object_get(t, "targetInfos"), i, info)
            if (!strcmp(json_string_value(json_object_get(info, "type")),
                        "page"))
                target = json_string_value(json_object_get(info, "targetId"));
        if (!target)
            nap_ms(100);
    }
    if (!target) {
        json_decref(t);
        return -1;
    }
    json_t *a = cdp_call(c, "Target.attachToTarget",
                         json_pack("{s:s, s:b}", "targetId", target,
                                   "flatten", 1));
    json_decref(t);
    if (!a)
        return -1;
    snprintf(c->session, sizeof c->session, "%s",
             json_string_value(json_object_get(a, "sessionId")));
    json_decref(a);
    a = cdp_call(c, "Page.navigate", json_pack("{s:s}", "url", url));
    if (!a)
        return -1;
    json_decref(a);
    for (int tries = 0; tries < 300; tries++) {
        json_t *v = cdp_eval(c, "document.readyState == 'complete' && "
                                "location.protocol == 'file:'");
        int done = v && json_is_true(v);
        json_decref(v);
        if (done)
            return 0;
        nap_ms(100);
    }
    return -1;
}

/* The browser checks: layout at 800 px, hover, legends, toggles. */
static void check_interactive(const char *chromium, const char *dir)
{
    char url[4400];
    snprintf(url, sizeof url, "file://%s/report/index.html", dir);
    cdp c;
    assert_int_equal(cdp_start(&c, chromium, dir), 0);
    if (cdp_attach(&c, url) != 0) {
        cdp_stop(&c);
        fail_msg("could not attach to the page over the DevTools pipe "
                 "(see %s/cdp.log)", dir);
    }
    json_t *r = cdp_call(&c, "Emulation.setDeviceMetricsOverride",
                         json_pack("{s:i, s:i, s:f, s:b}", "width", 800,
                                   "height", 2000, "deviceScaleFactor", 1.0,
                                   "mobile", 0));
    assert_non_null(r);
    json_decref(r);

    /* no horizontal scroll at 800 px: the page is no wider than the
     * window (wide tables scroll inside their own box) */
    json_t *v = cdp_eval(&c, "[document.documentElement.scrollWidth, "
                             "innerWidth]");
    assert_non_null(v);
    long sw = (long)json_integer_value(json_array_get(v, 0));
    long iw = (long)json_integer_value(json_array_get(v, 1));
    print_message("at 800 px: scrollWidth %ld, innerWidth %ld\n", sw, iw);
    json_decref(v);
    assert_int_equal(iw, 800);
    assert_true(sw <= iw);

    /* every series drawn has its legend entry in its chart */
    v = cdp_eval(&c,
                 "(function(){var bad=[];"
                 "document.querySelectorAll('svg.dse-chart').forEach("
                 "function(s){s.querySelectorAll('.dse-series').forEach("
                 "function(g){var k=g.getAttribute('data-group');"
                 "if(!s.querySelector('.dse-legend[data-group=\"'+k+'\"]'))"
                 "bad.push(s.id+':'+k);});});"
                 "return [document.querySelectorAll('svg.dse-chart').length,"
                 "document.querySelectorAll('.dse-series').length,bad];})()");
    assert_non_null(v);
    print_message("%lld charts, %lld series drawn, %zu without a legend "
                  "entry\n",
                  json_integer_value(json_array_get(v, 0)),
                  json_integer_value(json_array_get(v, 1)),
                  json_array_size(json_array_get(v, 2)));
    assert_true(json_integer_value(json_array_get(v, 0)) >= 7);
    assert_int_equal(json_array_size(json_array_get(v, 2)), 0);
    json_decref(v);

    /* hover: scroll the first simulated point of the load chart that no
     * other marker covers into view and move the mouse over it, as a user
     * would */
    v = cdp_eval(&c,
                 "(function(){var ps=document.querySelectorAll("
                 "'#load-latency .dse-series .dse-pt[data-tip*=\"simulated\"]"
                 "');for(var i=0;i<ps.length;i++){var p=ps[i];"
                 "p.scrollIntoView({block:'center'});"
                 "var b=p.getBoundingClientRect(),x=b.left+b.width/2,"
                 "y=b.top+b.height/2,h=document.elementFromPoint(x,y);"
                 "if(h&&h.closest('.dse-pt')===p)"
                 "return [x,y,p.getAttribute('data-tip')];}return null;})()");
    assert_non_null(v);
    assert_true(json_is_array(v));
    double x = json_number_value(json_array_get(v, 0));
    double y = json_number_value(json_array_get(v, 1));
    char want[512];
    snprintf(want, sizeof want, "%s", json_string_value(json_array_get(v, 2)));
    json_decref(v);
    *strchr(want, '\n') = '\0'; /* the design's name, the tip's first line */
    for (int k = 0; k < 2; k++) { /* move in from beside it, then onto it */
        r = cdp_call(&c, "Input.dispatchMouseEvent",
                     json_pack("{s:s, s:f, s:f}", "type", "mouseMoved", "x",
                               x + (k ? 0 : 40), "y", y + (k ? 0 : 40)));
        assert_non_null(r);
        json_decref(r);
    }
    v = cdp_eval(&c, "(function(){var t=document.getElementById('dse-tip');"
                     "return t&&t.style.display!='none'?t.textContent:'';})()");
    assert_non_null(v);
    print_message("hover at (%.0f, %.0f): \"%s\"\n", x, y,
                  json_string_value(v));
    if (!strstr(json_string_value(v), want))
        fail_msg("the tooltip does not name the design \"%s\"", want);
    json_decref(v);

    /* a click on the first legend entry of that chart hides its series */
    v = cdp_eval(&c,
                 "(function(){var l=document.querySelector('#load-latency "
                 ".dse-legend');l.scrollIntoView({block:'center'});"
                 "var b=l.getBoundingClientRect();return [b.left+12,"
                 "b.top+b.height/2,l.getAttribute('data-group')];})()");
    assert_non_null(v);
    x = json_number_value(json_array_get(v, 0));
    y = json_number_value(json_array_get(v, 1));
    char group[32];
    snprintf(group, sizeof group, "%s", json_string_value(json_array_get(v, 2)));
    json_decref(v);
    static const char *const kinds[] = {"mousePressed", "mouseReleased"};
    for (int k = 0; k < 2; k++) {
        r = cdp_call(&c, "Input.dispatchMouseEvent",
                     json_pack("{s:s, s:f, s:f, s:s, s:i}", "type", kinds[k],
                               "x", x, "y", y, "button", "left", "clickCount",
                               1));
        assert_non_null(r);
        json_decref(r);
    }
    char expr[600];
    snprintf(expr, sizeof expr,
             "getComputedStyle(document.querySelector('#load-latency "
             ".dse-series[data-group=\"%s\"]')).display",
             group);
    v = cdp_eval(&c, expr);
    assert_non_null(v);
    assert_string_equal(json_string_value(v), "none");
    json_decref(v);
    cdp_stop(&c);
}

/* Every simulated design's curve: at least six simulated points, one past
 * its simulated saturation rate (curves.json, results.json). */
static void check_curves(const char *dir)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/report/curves.json", dir);
    json_t *curves = json_load_file(path, 0, NULL);
    snprintf(path, sizeof path, "%s/report/results.json", dir);
    json_t *results = json_load_file(path, 0, NULL);
    assert_non_null(curves);
    assert_non_null(results);
    json_t *cands = json_object_get(results, "candidates");
    size_t i, simulated = 0;
    json_t *cv;
    json_array_foreach(json_object_get(curves, "curves"), i, cv) {
        if (json_integer_value(json_object_get(cv, "finalist")) == 0)
            continue;
        json_int_t id = json_integer_value(json_object_get(cv, "id"));
        double sat = json_number_value(json_object_get(
            json_object_get(json_array_get(cands, (size_t)id),
                            "sim_saturation"),
            "rate"));
        json_t *pts = json_object_get(cv, "simulation");
        size_t q, past = 0;
        json_t *p;
        json_array_foreach(pts, q, p)
            past += json_number_value(json_object_get(p, "rate")) > sat;
        print_message("%s: %zu simulated points, %zu past its simulated "
                      "saturation rate %g\n",
                      json_string_value(json_object_get(cv, "label")),
                      json_array_size(pts), past, sat);
        assert_true(isfinite(sat));
        assert_true(json_array_size(pts) >= 6);
        assert_true(past >= 1);
        simulated++;
    }
    assert_true(simulated >= 1);
    json_decref(curves);
    json_decref(results);
}

static void test_report_renders_in_chromium(void **state)
{
    (void)state;
    const char *chromium = find_chromium();
    if (!chromium) {
        print_message("no chromium found: browser check skipped\n");
        skip();
    }
    char tmp[] = "/tmp/dse-browser-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char cmd[16384];
    snprintf(cmd, sizeof cmd,
             "'%s' optimize -q -j 2 -o '%s/report' '%s/tests/data/report_browser.yaml'",
             DSE_BINARY, tmp, DSE_SOURCE_DIR);
    assert_int_equal(run(cmd), 0);
    /* Chromium as root needs --no-sandbox; a private profile keeps runs
     * apart; `timeout` bounds a browser that hangs. */
    const char *flags = "--headless --no-sandbox --disable-gpu "
                        "--hide-scrollbars --no-first-run "
                        "--disable-dev-shm-usage";
    snprintf(cmd, sizeof cmd,
             "timeout 120 '%s' %s --user-data-dir='%s/profile' "
             "--window-size=1400,3000 --screenshot='%s/shot.png' "
             "'file://%s/report/index.html' >'%s/chromium.log' 2>&1",
             chromium, flags, tmp, tmp, tmp, tmp);
    assert_int_equal(run(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "timeout 120 '%s' %s --user-data-dir='%s/profile' --dump-dom "
             "'file://%s/report/index.html' >'%s/dom.html' 2>>'%s/chromium.log'",
             chromium, flags, tmp, tmp, tmp, tmp);
    assert_int_equal(run(cmd), 0);

    char path[4200];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/shot.png", tmp);
    unsigned char *png = slurp(path, &n);
    assert_non_null(png);
    image im;
    const char *why = "";
    if (png_decode(png, n, &im, &why) != 0)
        fail_msg("screenshot: %s", why);
    free(png);
    assert_int_equal(im.w, 1400);
    assert_int_equal(im.h, 3000);
    /* Not blank: the page's text, tables and charts cover a few percent of
     * it in many colours, among them at least two of the charts' series
     * colours (Okabe-Ito: blue, vermillion, bluish green, reddish purple,
     * orange), a couple of hundred pixels each. */
    static const int series_rgb[][3] = {
        {0, 114, 178}, {213, 94, 0}, {0, 158, 115}, {204, 121, 167}, {230, 159, 0},
    };
    size_t nonwhite = 0, hits[5] = {0};
    static unsigned char seen[1 << 12];
    memset(seen, 0, sizeof seen);
    size_t colours = 0;
    for (size_t i = 0; i < (size_t)im.w * im.h; i++) {
        const unsigned char *p = im.px + i * im.channels;
        if (p[0] < 245 || p[1] < 245 || p[2] < 245)
            nonwhite++;
        for (int k = 0; k < 5; k++)
            if (abs(p[0] - series_rgb[k][0]) < 20 && abs(p[1] - series_rgb[k][1]) < 20 &&
                abs(p[2] - series_rgb[k][2]) < 20)
                hits[k]++;
        unsigned q = (unsigned)(p[0] >> 4) << 8 | (unsigned)(p[1] >> 4) << 4 | (p[2] >> 4);
        if (!seen[q]) {
            seen[q] = 1;
            colours++;
        }
    }
    int series_colours = 0;
    for (int k = 0; k < 5; k++)
        series_colours += hits[k] >= 200;
    double frac = (double)nonwhite / ((double)im.w * im.h);
    print_message("screenshot: %.1f%% non-white, %zu colours, series colours "
                  "(pixels) %zu %zu %zu %zu %zu\n",
                  100 * frac, colours, hits[0], hits[1], hits[2], hits[3],
                  hits[4]);
    int ok = frac > 0.03 && colours >= 20 && series_colours >= 2;
    free(im.px);
    assert_true(ok);

    /* The DOM: every chart is an <svg>, and its text came through. */
    snprintf(path, sizeof path, "%s/dom.html", tmp);
    char *dom = (char *)slurp(path, &n);
    assert_non_null(dom);
    size_t svgs = count_str(dom, "<svg");
    print_message("dom: %zu svg elements\n", svgs);
    assert_true(svgs >= 6);
    assert_int_equal(svgs, count_str(dom, "</svg>"));
    static const char *const texts[] = {
        "offered load (messages/node/cycle)", "latency (cycles)",
        "accepted (messages/node/cycle)", "model saturation rate",
        "simulated latency (cycles)", "model latency (cycles)",
        "target rates", "front on these two axes", "0.02",
        "How the decision is made", "curves.csv", "percentiles.svg",
        "simulated front on these two axes",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!strstr(dom, texts[i]))
            fail_msg("index.html as rendered lacks \"%s\"", texts[i]);
    free(dom);

    check_curves(tmp);
    check_interactive(chromium, tmp);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    run(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_renders_in_chromium),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
