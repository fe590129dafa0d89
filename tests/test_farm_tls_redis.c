/*
 * test_farm_tls_redis.c — the farm through TLS tunnels (docs/farm.md,
 * "Across machines: TLS with stunnel"): hiredis 0.14 has no TLS, so each
 * machine talks plain Redis to a local stunnel client end on loopback,
 * which carries it over TLS to a stunnel server end in front of
 * redis-server.  Here all three run on loopback ports with a pre-shared
 * key, the server requiring a password; a worker and a coordinator that
 * know only the client end's port run farm_tiny.yaml, and the results
 * are those of a local run.  Skipped, saying why, without redis-server
 * or stunnel (scripts/deps.sh installs stunnel4 for the tests).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_farm_util.h"

static pid_t stunnel(const char *conf)
{
    pid_t pid = fork();
    if (pid == 0) {
        test_child_output(NULL);
        execlp("stunnel", "stunnel", conf, (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    return pid;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    chmod(path, 0600);
}

static void test_farm_through_stunnel(void **state)
{
    (void)state;
    if (!test_redis_installed()) {
        print_message("skipped: no redis-server\n");
        skip();
    }
    if (system("command -v stunnel >/dev/null 2>&1")) {
        print_message("skipped: stunnel is not installed (Debian package "
                      "stunnel4; scripts/deps.sh installs it)\n");
        skip();
    }
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    /* the server wants a password: it must cross the tunnel too */
    char cmd[600], out[64];
    snprintf(cmd, sizeof cmd,
             "redis-cli -p %d CONFIG SET requirepass tunnelpass >/dev/null",
             r.port);
    assert_int_equal(system(cmd), 0);
    int server_port = test_free_port(), client_port = test_free_port();
    while (client_port == server_port)
        client_port = test_free_port();
    char psk[400], sconf[400], cconf[400], text[2000];
    snprintf(psk, sizeof psk, "%s/psk.txt", r.dir);
    write_file(psk, "farm:0123456789abcdef0123456789abcdef\n");
    snprintf(sconf, sizeof sconf, "%s/server.conf", r.dir);
    snprintf(text, sizeof text,
             "foreground = yes\npid =\ndebug = 5\noutput = %s/stunnel-server.log\n"
             "[redis]\naccept = 127.0.0.1:%d\nconnect = 127.0.0.1:%d\n"
             "ciphers = PSK\nPSKsecrets = %s\n",
             r.dir, server_port, r.port, psk);
    write_file(sconf, text);
    snprintf(cconf, sizeof cconf, "%s/client.conf", r.dir);
    snprintf(text, sizeof text,
             "foreground = yes\npid =\ndebug = 5\noutput = %s/stunnel-client.log\n"
             "[redis]\nclient = yes\naccept = 127.0.0.1:%d\n"
             "connect = 127.0.0.1:%d\nciphers = PSK\nPSKsecrets = %s\n",
             r.dir, client_port, server_port, psk);
    write_file(cconf, text);
    pid_t s1 = stunnel(sconf), s2 = stunnel(cconf);
    /* the farm sees only the client end */
    test_redis tunnel = r;
    tunnel.port = client_port;
    snprintf(tunnel.url, sizeof tunnel.url, "redis://:tunnelpass@127.0.0.1:%d",
             client_port);
    int up = 0;
    for (int i = 0; i < 100 && !up; i++) {
        test_sleep(0.05);
        up = test_redis_ping(&tunnel) == 0;
    }
    assert_true(up);
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    int rc;
    err e;
    char *local = test_run_json(&s, NULL, &rc, &e);
    assert_non_null(local);
    pid_t w = test_worker_start(&tunnel, "tls", NULL, NULL);
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    fo.no_worker_timeout_s = 20;
    dse_farm *farm;
    assert_int_equal(dse_farm_open_url(tunnel.url, &fo, &farm, &e), 0);
    dse_executor ex;
    dse_farm_executor(farm, &ex);
    char *json = test_run_json(&s, &ex, &rc, &e);
    if (rc)
        fail_msg("farm run through stunnel: %s", e.msg);
    assert_string_equal(json, local);
    assert_int_equal(dse_farm_failures(farm, NULL), 0);
    dse_farm_destroy(farm);
    assert_int_equal(test_worker_stop(w), 0);
    /* the tunnel did carry it: the server end logged TLS sessions */
    snprintf(cmd, sizeof cmd,
             "grep -c 'accepted connection' '%s/stunnel-server.log'", r.dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    pclose(p);
    assert_true(atoi(out) >= 2);
    free(json);
    free(local);
    cfg_study_fini(&s);
    kill(s2, SIGTERM);
    kill(s1, SIGTERM);
    waitpid(s2, NULL, 0);
    waitpid(s1, NULL, 0);
    test_untrack(s1);
    test_untrack(s2);
    test_redis_fini(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_farm_through_stunnel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
