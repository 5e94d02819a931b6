/* Frames counted on the stream thread (stream_statistics.h). */
#include "stream_statistics.h"

#include "library.h"
#include <stddef.h>

uint64_t statistics_record(stream_statistics *s, uint64_t captured_ns)
{
    uint64_t arrival = monotonic_ns();
    uint64_t latency = arrival > captured_ns ? arrival - captured_ns : 0;
    uint64_t bucket = latency / BUCKET_NS;
    pthread_mutex_lock(&s->lock);
    uint64_t number = 0;
    if (s->limit == 0 || s->counted < s->limit) {
        s->histogram[bucket < BUCKETS ? bucket : BUCKETS]++;
        number = ++s->counted;
        if (number == 1) s->first = arrival;
        s->last = arrival;
    }
    pthread_mutex_unlock(&s->lock);
    return number;
}

uint64_t statistics_count(stream_statistics *s)
{
    pthread_mutex_lock(&s->lock);
    uint64_t count = s->counted;
    pthread_mutex_unlock(&s->lock);
    return count;
}

double statistics_fps(stream_statistics *s)
{
    pthread_mutex_lock(&s->lock);
    double fps = s->counted > 1 && s->last > s->first ? (double)(s->counted - 1) * 1e9 / (double)(s->last - s->first) : 0;
    pthread_mutex_unlock(&s->lock);
    return fps;
}

double statistics_latency(stream_statistics *s, double quantile)
{
    pthread_mutex_lock(&s->lock);
    double result = 0;
    if (s->counted > 0) {
        uint64_t rank = (uint64_t)((double)s->counted * quantile);
        if (rank > s->counted - 1) rank = s->counted - 1;
        uint64_t seen = 0;
        result = (double)BUCKETS * BUCKET_NS / 1e6;
        for (size_t bucket = 0; bucket <= BUCKETS; bucket++) {
            seen += s->histogram[bucket];
            if (seen > rank) { result = ((double)bucket + 0.5) * BUCKET_NS / 1e6; break; }
        }
    }
    pthread_mutex_unlock(&s->lock);
    return result;
}
