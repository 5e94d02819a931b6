/* Messages, failures and growing strings. */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

FILE *message_stream;

void emit(const char *line)
{
    FILE *stream = message_stream ? message_stream : stdout;
    fputs(line, stream);
    fputc('\n', stream);
    fflush(stream);
}

static void vreport(const char *prefix, const char *format, va_list list)
{
    fprintf(stderr, "ocellus: %s", prefix);
    vfprintf(stderr, format, list);
}

_Noreturn void fail(int status, const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vreport("", format, list);
    va_end(list);
    fputc('\n', stderr);
    exit(status);
}

_Noreturn void usage_error(const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vreport("", format, list);
    va_end(list);
    fputs(" (see ocellus --help)\n", stderr);
    exit(2);
}

void warn(const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vreport("warning: ", format, list);
    va_end(list);
    fputc('\n', stderr);
}

_Noreturn void fail_last_error(void)
{
    fail(1, "%s", oc_last_error_message());
}

void text_init(strbuf *t)
{
    t->capacity = 256;
    t->length = 0;
    t->data = malloc(t->capacity);
    if (!t->data) fail(1, "out of memory");
    t->data[0] = '\0';
}

void text_free(strbuf *t)
{
    free(t->data);
    t->data = NULL;
}

void text_clear(strbuf *t)
{
    t->length = 0;
    t->data[0] = '\0';
}

static void text_reserve(strbuf *t, size_t more)
{
    if (t->length + more + 1 <= t->capacity) return;
    while (t->length + more + 1 > t->capacity) t->capacity *= 2;
    t->data = realloc(t->data, t->capacity);
    if (!t->data) fail(1, "out of memory");
}

void text_append(strbuf *t, const char *s)
{
    if (!s) return;   /* a name the library does not know */
    size_t length = strlen(s);
    text_reserve(t, length);
    memcpy(t->data + t->length, s, length + 1);
    t->length += length;
}

void text_printf(strbuf *t, const char *format, ...)
{
    va_list list;
    va_start(list, format);
    int needed = vsnprintf(NULL, 0, format, list);
    va_end(list);
    if (needed < 0) return;
    text_reserve(t, (size_t)needed);
    va_start(list, format);
    vsnprintf(t->data + t->length, (size_t)needed + 1, format, list);
    va_end(list);
    t->length += (size_t)needed;
}

size_t utf8_width(const char *s)
{
    size_t width = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) width += (*c & 0xC0) != 0x80;
    return width;
}
