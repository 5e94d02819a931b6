/* Messages, failures and growing strings: what every command prints with. */
#ifndef OCELLUS_CLI_OUTPUT_H
#define OCELLUS_CLI_OUTPUT_H

#include <stdio.h>
#include <stddef.h>

/* Where messages go: stdout, or stderr while stdout carries frames (`stream --output -`). */
extern FILE *message_stream;

/* One line to the message stream, flushed so pipes see events as they happen. */
void emit(const char *line);
/* One line on stderr ("ocellus: MESSAGE") and exit(status). */
_Noreturn void fail(int status, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Bad usage: the message, " (see ocellus --help)", exit 2. */
_Noreturn void usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* fail() with the library's last error message. */
_Noreturn void fail_last_error(void);

/* A growing string; never NULL after text_init. */
typedef struct strbuf {
    char *data;
    size_t length, capacity;
} strbuf;
void text_init(strbuf *t);
void text_free(strbuf *t);
void text_clear(strbuf *t);
void text_append(strbuf *t, const char *s);
void text_printf(strbuf *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Characters (code points) of a UTF-8 string, for aligning columns. */
size_t utf8_width(const char *s);

#endif
