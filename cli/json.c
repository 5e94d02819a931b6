/* Just enough JSON for the command's output; key order is fixed by the caller,
 * so the output reads the same every time. */
#include "json.h"

#include "output.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void json_start(json *w, strbuf *out)
{
    w->out = out;
    w->depth = 0;
    w->needs_comma[0] = false;
}

/* The separator before a value: none after a key, ", " between members. */
static void json_value_prefix(json *w)
{
    if (w->needs_comma[w->depth]) text_append(w->out, ", ");
    w->needs_comma[w->depth] = true;
}

static void json_open(json *w, const char *bracket)
{
    json_value_prefix(w);
    text_append(w->out, bracket);
    if (w->depth < 15) w->depth++;
    w->needs_comma[w->depth] = false;
}

static void json_close(json *w, const char *bracket)
{
    text_append(w->out, bracket);
    if (w->depth > 0) w->depth--;
}

void json_object_begin(json *w) { json_open(w, "{"); }
void json_object_end(json *w) { json_close(w, "}"); }
void json_array_begin(json *w) { json_open(w, "["); }
void json_array_end(json *w) { json_close(w, "]"); }

static void json_quote(strbuf *out, const char *value)
{
    text_append(out, "\"");
    for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
        switch (*c) {
        case '"': text_append(out, "\\\""); break;
        case '\\': text_append(out, "\\\\"); break;
        case '\n': text_append(out, "\\n"); break;
        case '\r': text_append(out, "\\r"); break;
        case '\t': text_append(out, "\\t"); break;
        default:
            if (*c < 0x20) {
                text_printf(out, "\\u%04x", *c);
            } else {
                char one[2] = { (char)*c, 0 };
                text_append(out, one);
            }
        }
    }
    text_append(out, "\"");
}

void json_key(json *w, const char *key)
{
    json_value_prefix(w);
    json_quote(w->out, key);
    text_append(w->out, ": ");
    w->needs_comma[w->depth] = false;   /* the value follows without a comma */
}

void json_string(json *w, const char *value)
{
    json_value_prefix(w);
    if (value) json_quote(w->out, value); else text_append(w->out, "null");
}

void json_int(json *w, int64_t value)
{
    json_value_prefix(w);
    text_printf(w->out, "%" PRId64, value);
}

const char *number_text(double value, char buffer[32])
{
    double rounded = round(value * 1000) / 1000;
    if (!isfinite(rounded)) rounded = 0;
    if (rounded == round(rounded)) {
        snprintf(buffer, 32, "%" PRId64, (int64_t)rounded);
        return buffer;
    }
    snprintf(buffer, 32, "%.3f", rounded);
    size_t length = strlen(buffer);
    while (length > 0 && buffer[length - 1] == '0') buffer[--length] = '\0';
    return buffer;
}

void json_number(json *w, double value)
{
    char buffer[32];
    json_value_prefix(w);
    text_append(w->out, number_text(value, buffer));
}

void json_bool(json *w, bool value)
{
    json_value_prefix(w);
    text_append(w->out, value ? "true" : "false");
}

void json_null(json *w)
{
    json_value_prefix(w);
    text_append(w->out, "null");
}
