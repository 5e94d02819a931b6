/* oc_context_destroy() time: the median of N create/destroy rounds, in milliseconds. */
#include <ocellus.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    if (rounds < 1 || rounds > 1000) rounds = 20;
    double times[1000];
    for (int round = 0; round < rounds; round++) {
        oc_context *ctx = NULL;
        if (oc_context_create("org.ocellus.bench.destroy", NULL, &ctx) != OC_OK) {
            fprintf(stderr, "%s\n", oc_last_error_message());
            return 1;
        }
        double start = now_ms();
        oc_context_destroy(ctx);
        times[round] = now_ms() - start;
    }
    qsort(times, (size_t)rounds, sizeof times[0], by_value);
    printf("%.2f\n", times[rounds / 2]);
    return 0;
}
