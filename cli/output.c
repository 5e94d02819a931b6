/* Messages, failures and growing strings. */
#include "output.h"

#include <ocellus.h>


#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

FILE *message_stream;

/* Length of the valid UTF-8 sequence at `s` (1-4), or 0 if the bytes there are not one. */
static size_t utf8_sequence(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t length = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    for (size_t i = 1; i < length; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
    }
    return length;
}

/* Writes `text` so that a terminal shows it and does nothing else: device names, messages and
 * paths come from other processes (a PipeWire node can be named anything), so control
 * characters (ESC sequences, carriage returns, C1 controls) are written as escapes and bytes
 * that are not UTF-8 as U+FFFD. Newlines and tabs stay (tables and multi-line output); JSON
 * output is unchanged, since its strings escape controls already. */
static void write_safely(FILE *stream, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t length = utf8_sequence(s);
        if (length == 0) {
            fputs("\xef\xbf\xbd", stream);
            s++;
        } else if ((*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f) {
            fprintf(stream, "\\x%02x", *s);
            s++;
        } else if (length == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
            fprintf(stream, "\\u%04x", s[1]);   /* C1 control, e.g. U+009B (CSI) */
            s += 2;
        } else {
            fwrite(s, 1, length, stream);
            s += length;
        }
    }
}

void emit(const char *line)
{
    FILE *stream = message_stream ? message_stream : stdout;
    flockfile(stream);   /* whole lines from the stream's and outputs' threads alike */
    write_safely(stream, line);
    fputc('\n', stream);
    fflush(stream);
    funlockfile(stream);
}

static void vreport(const char *prefix, const char *format, va_list list)
{
    char message[2048];
    vsnprintf(message, sizeof message, format, list);
    fprintf(stderr, "ocellus: %s", prefix);
    write_safely(stderr, message);
}

int fail(int status, const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vreport("", format, list);
    va_end(list);
    fputc('\n', stderr);
    return status;
}

int usage_error(const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vreport("", format, list);
    va_end(list);
    fputs(" (see ocellus --help)\n", stderr);
    return 2;
}

_Noreturn void out_of_memory(void)
{
    fail(1, "out of memory");
    exit(1);
}

void warn(const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vreport("warning: ", format, list);
    va_end(list);
    fputc('\n', stderr);
}

int fail_last_error(void)
{
    return fail(1, "%s", oc_last_error_message());
}

void text_init(strbuf *t)
{
    t->capacity = 256;
    t->length = 0;
    t->data = malloc(t->capacity);
    if (!t->data) out_of_memory();
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
    if (!t->data) out_of_memory();
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
