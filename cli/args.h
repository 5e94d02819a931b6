/* Command-line arguments (args.c): options may appear anywhere after the command. */
#ifndef OCELLUS_CLI_ARGS_H
#define OCELLUS_CLI_ARGS_H

#include <ocellus.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct arguments {
    char **items;
    int count;
    /* The first usage problem met while taking options (an option without its value), for args_finish. */
    char problem[256];
} arguments;
/* `--name value` or `--name=value`, removed; the last one wins; NULL when absent. */
const char *args_value(arguments *a, const char *name);
/* Every `--name value`, in order; returns how many (at most `max`). */
int args_values(arguments *a, const char *name, const char **out, int max);
/* `--name` alone: returns true with *value NULL; `--name value` when value is not an option. */
bool args_optional_value(arguments *a, const char *name, const char **value);
bool args_flag(arguments *a, const char *name);
/* The first argument that is not an option. */
const char *args_positional(arguments *a);
/* The next argument when it is not an option (an optional leading CAMERA). */
const char *args_leading_positional(arguments *a);
/* 0, or the usage error (printed; 2) for a problem met while taking options or anything left. */
int args_finish(const arguments *a);

/* Values of options: false, with the usage error printed, for one that does not parse. */
bool parse_size(const char *text, uint32_t *width, uint32_t *height);
bool parse_seconds(const char *text, double *seconds);
bool parse_rate(const char *text, oc_fraction *rate);

#endif
