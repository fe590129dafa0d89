/*
 * test_report_browser.c — the report as an architect sees it: `dse
 * optimize` writes a report for a tiny study (tests/data/report_browser.yaml,
 * with simulations), headless Chromium renders index.html, and
 *   - the screenshot (a PNG, decoded here with zlib) is not blank: enough
 *     non-white pixels, many colours, and the charts' series colours;
 *   - the DOM Chromium built (--dump-dom) holds every chart as an <svg>
 *     whose axis titles and tick labels came through as text.
 * Skipped, not failed, when no Chromium is installed (scripts/deps.sh
 * installs it; DSE_CHROMIUM names another binary).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
        "How the ranking works", "curves.csv",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!strstr(dom, texts[i]))
            fail_msg("index.html as rendered lacks \"%s\"", texts[i]);
    free(dom);

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
