/*
 * cli.c — see cli.h.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Print line `line` of file and a caret under character `column`
 * (1-based; tabs kept so the caret lines up). */
static void show_source(const char *file, int line, int column)
{
    if (line < 1)
        return;
    FILE *f = fopen(file, "rb");
    if (!f)
        return;
    char buf[4096];
    int at = 1;
    int found = 0;
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strlen(buf);
        int complete = len > 0 && buf[len - 1] == '\n';
        if (at == line) {
            found = 1;
            break;
        }
        if (complete)
            at++;
    }
    fclose(f);
    if (!found)
        return;
    buf[strcspn(buf, "\r\n")] = '\0';
    fprintf(stderr, "    %s\n    ", buf);
    /* column counts characters: skip UTF-8 continuation bytes */
    int chars = 0;
    for (const unsigned char *p = (const unsigned char *)buf;
         *p && chars < column - 1; p++) {
        if ((*p & 0xC0) == 0x80)
            continue;
        fputc(*p == '\t' ? '\t' : ' ', stderr);
        chars++;
    }
    fprintf(stderr, "^\n");
}

void dse_cli_print_error(const err *e)
{
    char buf[ERR_MSG_MAX + ERR_FILE_MAX + ERR_PATH_MAX + 64];
    fprintf(stderr, "%s\n", err_format(e, buf, sizeof buf));
    if (e->file[0] && e->line > 0)
        show_source(e->file, e->line, e->column);
}
