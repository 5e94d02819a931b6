/* A small argument reader: options may appear anywhere after the command. */
#include "cli.h"

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
            if (index + 1 >= a->count) usage_error("%s needs a value", name);
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
        if (count == max) usage_error("too many %s options (at most %d)", name, max);
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

void args_finish(const arguments *a)
{
    if (a->count > 0) usage_error("unexpected argument '%s'", a->items[0]);
}
