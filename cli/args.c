/* A small argument reader: options may appear anywhere after the command. */
#include "args.h"

#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void args_remove(arguments *a, int index, int count)
{
    memmove(a->items + index, a->items + index + count, sizeof(char *) * (size_t)(a->count - index - count));
    a->count -= count;
}

/* The value of the first `--name value` or `--name=value`, removed; NULL when there is none. */
static const char *args_take(arguments *a, const char *name)
{
    size_t length = strlen(name);
    for (int index = 0; index < a->count; index++) {
        const char *argument = a->items[index];
        if (strcmp(argument, name) == 0) {
            if (index + 1 >= a->count) {
                if (!a->problem[0]) snprintf(a->problem, sizeof a->problem, "%s needs a value", name);
                args_remove(a, index, 1);
                return NULL;
            }
            const char *value = a->items[index + 1];
            args_remove(a, index, 2);
            return value;
        }
        if (strncmp(argument, name, length) == 0 && argument[length] == '=') {
            args_remove(a, index, 1);
            return argument + length + 1;
        }
    }
    return NULL;
}

const char *args_value(arguments *a, const char *name)
{
    const char *found = NULL, *next;
    while ((next = args_take(a, name))) found = next;
    return found;
}

int args_values(arguments *a, const char *name, const char **out, int max)
{
    int count = 0;
    const char *next;
    while ((next = args_take(a, name))) {
        if (count == max) {
            if (!a->problem[0]) snprintf(a->problem, sizeof a->problem, "too many %s options (at most %d)", name, max);
            break;
        }
        out[count++] = next;
    }
    return count;
}

bool args_optional_value(arguments *a, const char *name, const char **value)
{
    *value = NULL;
    for (int index = 0; index < a->count; index++) {
        if (strcmp(a->items[index], name) != 0) continue;
        args_remove(a, index, 1);
        if (index < a->count && a->items[index][0] != '-') {
            *value = a->items[index];
            args_remove(a, index, 1);
        }
        return true;
    }
    return false;
}

bool args_flag(arguments *a, const char *name)
{
    bool found = false;
    for (int index = 0; index < a->count;) {
        if (strcmp(a->items[index], name) == 0) {
            args_remove(a, index, 1);
            found = true;
        } else {
            index++;
        }
    }
    return found;
}

const char *args_positional(arguments *a)
{
    for (int index = 0; index < a->count; index++) {
        if (strncmp(a->items[index], "--", 2) == 0) continue;
        const char *value = a->items[index];
        args_remove(a, index, 1);
        return value;
    }
    return NULL;
}

const char *args_leading_positional(arguments *a)
{
    if (a->count == 0 || a->items[0][0] == '-') return NULL;
    const char *value = a->items[0];
    args_remove(a, 0, 1);
    return value;
}

int args_finish(const arguments *a)
{
    if (a->problem[0]) return usage_error("%s", a->problem);
    if (a->count > 0) return usage_error("unexpected argument '%s'", a->items[0]);
    return 0;
}

bool parse_size(const char *text, uint32_t *width, uint32_t *height)
{
    char *end = NULL;
    unsigned long w = strtoul(text, &end, 10);
    unsigned long h = 0;
    bool good = end != text && *end == 'x';
    if (good) {
        const char *rest = end + 1;
        h = strtoul(rest, &end, 10);
        good = end != rest && *end == '\0' && w > 0 && h > 0 && w <= UINT32_MAX && h <= UINT32_MAX;
    }
    if (!good || text[0] == '-' || text[0] == '+') {
        usage_error("bad size '%s' (expected WIDTHxHEIGHT)", text);
        return false;
    }
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    return true;
}

bool parse_seconds(const char *text, double *seconds)
{
    char *end = NULL;
    *seconds = strtod(text, &end);
    /* 1e300 overflowed the wait's deadline and ended at once; under a millisecond no frame can come. */
    if (end == text || *end || !isfinite(*seconds) || *seconds < 0.001 || *seconds > 31536000) {
        usage_error("bad duration '%s' (seconds, from 0.001 to 31536000)", text);
        return false;
    }
    return true;
}

bool parse_rate(const char *text, oc_fraction *rate)
{
    char *end = NULL;
    unsigned long numerator = strtoul(text, &end, 10), denominator = 1;
    bool good = end != text && numerator > 0 && numerator <= UINT32_MAX && text[0] != '-';
    if (good && *end == '/') {
        const char *rest = end + 1;
        denominator = strtoul(rest, &end, 10);
        good = end != rest && denominator > 0 && denominator <= UINT32_MAX;
    }
    if (!good || *end) {
        usage_error("bad frame rate '%s'", text);
        return false;
    }
    *rate = (oc_fraction){ (uint32_t)numerator, (uint32_t)denominator };
    return true;
}
