/* JSON lines (json.c): members separated by ", ", keys by ": ", keys in a fixed order. */
#ifndef OCELLUS_CLI_JSON_H
#define OCELLUS_CLI_JSON_H

#include "output.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct json {
    strbuf *out;
    int depth;
    bool needs_comma[16];
} json;
void json_start(json *w, strbuf *out);
void json_object_begin(json *w);
void json_object_end(json *w);
void json_array_begin(json *w);
void json_array_end(json *w);
void json_key(json *w, const char *key);
void json_string(json *w, const char *value);     /* NULL writes null */
void json_int(json *w, int64_t value);
void json_number(json *w, double value);           /* to 3 decimals, whole numbers without a point */
void json_bool(json *w, bool value);
void json_null(json *w);
/* A number as json_number() writes it, for text output ("29.97", "30"). */
const char *number_text(double value, char buffer[32]);

#endif
