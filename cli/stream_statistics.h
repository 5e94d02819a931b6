/* Frames counted on the stream thread (stream_statistics.c): arrival times and capture-to-callback
 * latencies, the latencies in a fixed histogram (0.1 ms buckets up to 2 s, then one overflow bucket),
 * so a frame costs a few instructions and no memory, however long the stream runs. */
#ifndef OCELLUS_CLI_STREAM_STATISTICS_H
#define OCELLUS_CLI_STREAM_STATISTICS_H

#include <pthread.h>
#include <stdint.h>

enum { BUCKET_NS = 100000, BUCKETS = 20000 };
typedef struct stream_statistics {
    pthread_mutex_t lock;
    uint64_t limit;   /* frames counted at most; 0: no limit */
    uint32_t histogram[BUCKETS + 1];
    uint64_t counted;
    uint64_t first, last;
} stream_statistics;

/* The frame's number (1-based), or 0 once `limit` frames were counted. */
uint64_t statistics_record(stream_statistics *s, uint64_t captured_ns);
uint64_t statistics_count(stream_statistics *s);
/* Frames per second between the first and the last frame. */
double statistics_fps(stream_statistics *s);
/* Latency quantile in milliseconds (0.5 median, 0.99 p99), to the bucket's middle (±0.05 ms). */
double statistics_latency(stream_statistics *s, double quantile);

#endif
