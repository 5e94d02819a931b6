/* What an idle context costs: instructions counted by callgrind while a context that
 * streams nothing sits for SECONDS seconds (the window marked by client requests),
 * whatever the rest of the machine does meanwhile (bench/footprint.sh writes to
 * /dev/null around it). */
#include <ocellus.h>
#include <valgrind/callgrind.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int seconds = argc > 1 ? atoi(argv[1]) : 3;
    if (seconds < 1 || seconds > 60) seconds = 3;
    oc_context *ctx = NULL;
    if (oc_context_create("org.ocellus.bench.idle", NULL, &ctx) != OC_OK) {
        fprintf(stderr, "%s\n", oc_last_error_message());
        return 1;
    }
    sleep(1);   /* discovery settles */
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    sleep((unsigned)seconds);
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT("window");
    oc_context_destroy(ctx);
    return 0;
}
