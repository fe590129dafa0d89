/*
 * test_cli_help.c — every subcommand `dse --help` lists, checked the same
 * way, so a new subcommand is tested by adding it to the table in
 * dse/cli/main.c: `dse CMD --help` prints its usage on stdout and exits 0,
 * an unknown option exits 2 with a message on stderr, and README.md's
 * command reference names it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define MAX_COMMANDS 64

/* Runs cmd; its stdout into out (truncated), returns the exit status. */
static int run(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0)
        ;
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* The command names of `dse --help`'s "commands:" block. */
static size_t commands(char names[][32])
{
    static char out[16384];
    assert_int_equal(run(DSE_BINARY " --help", out, sizeof out), 0);
    char *block = strstr(out, "\ncommands:\n");
    assert_non_null(block);
    size_t count = 0;
    for (char *line = block + strlen("\ncommands:\n");
         strncmp(line, "  ", 2) == 0 && count < MAX_COMMANDS;) {
        assert_int_equal(sscanf(line, " %31s", names[count]), 1);
        count++;
        char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    return count;
}

static void test_every_command_has_help(void **state)
{
    (void)state;
    char names[MAX_COMMANDS][32];
    size_t count = commands(names);
    assert_true(count >= 1);
    static char out[65536];
    for (size_t i = 0; i < count; i++) {
        char cmd[256], want[64];
        snprintf(cmd, sizeof cmd, DSE_BINARY " %s --help", names[i]);
        if (run(cmd, out, sizeof out) != 0)
            fail_msg("dse %s --help does not exit 0", names[i]);
        snprintf(want, sizeof want, "usage: dse %s", names[i]);
        if (strncmp(out, want, strlen(want)) != 0)
            fail_msg("dse %s --help does not start with \"%s\"", names[i],
                     want);
        snprintf(cmd, sizeof cmd,
                 DSE_BINARY " %s --no-such-option 2>&1 >/dev/null",
                 names[i]);
        if (run(cmd, out, sizeof out) != 2 || !out[0])
            fail_msg("dse %s --no-such-option: want exit 2 and a message "
                     "on stderr",
                     names[i]);
    }
}

static void test_readme_names_every_command(void **state)
{
    (void)state;
    char names[MAX_COMMANDS][32];
    size_t count = commands(names);
    FILE *f = fopen(DSE_SOURCE_DIR "/README.md", "r");
    assert_non_null(f);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    for (size_t i = 0; i < count; i++) {
        char want[64];
        snprintf(want, sizeof want, "dse %s", names[i]);
        if (!strstr(text, want))
            fail_msg("README.md never mentions \"%s\"", want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_has_help),
        cmocka_unit_test(test_readme_names_every_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
