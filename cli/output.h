/* Messages, failures and growing strings: what every command prints with. */
#ifndef OCELLUS_CLI_OUTPUT_H
#define OCELLUS_CLI_OUTPUT_H

#include <stdio.h>
#include <stddef.h>

/* Where messages go: stdout, or stderr while stdout carries frames (`stream --output -`). */
extern FILE *message_stream;

/* One line to the message stream, flushed so pipes see events as they happen. */
void emit(const char *line);
/* One line on stderr ("ocellus: MESSAGE"); returns `status`, the command's: `return fail(1, …)`. */
int fail(int status, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Bad usage: the message and " (see ocellus --help)" on stderr; returns 2. */
int usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* fail(1, …) with the library's last error message. */
int fail_last_error(void);
/* Memory ran out: nothing sensible is left to do (exit 1). */
_Noreturn void out_of_memory(void);

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
