/* What linking Ocellus costs a program: the shared libraries loaded and the resident memory
 * at main (calling only oc_version()), then after oc_context_create(). FFmpeg must not be
 * among the libraries: it is loaded on first use. Prints "libraries N rss_kb N ffmpeg 0|1"
 * at main, then "context_rss_kb N ffmpeg 0|1". */
#define _GNU_SOURCE
#include <ocellus.h>

#include <link.h>
#include <stdio.h>
#include <string.h>

static int count_library(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    int *counts = data;
    if (info->dlpi_name && info->dlpi_name[0]) counts[0]++;
    if (info->dlpi_name && strstr(info->dlpi_name, "libavcodec")) counts[1] = 1;
    return 0;
}

static long rss_kb(void)
{
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (status && fgets(line, sizeof line, status)) {
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
    }
    if (status) fclose(status);
    return kb;
}

int main(void)
{
    int counts[2] = { 0, 0 };
    dl_iterate_phdr(count_library, counts);
    printf("libraries %d rss_kb %ld ffmpeg %d version %s\n", counts[0], rss_kb(), counts[1], oc_version());
    oc_context *ctx = NULL;
    if (oc_context_create("org.ocellus.test.footprint", NULL, &ctx) != OC_OK) {
        printf("context failed: %s\n", oc_last_error_message());
        return 1;
    }
    counts[1] = 0;
    dl_iterate_phdr(count_library, counts);
    printf("context_rss_kb %ld ffmpeg %d\n", rss_kb(), counts[1]);
    oc_context_destroy(ctx);
    return 0;
}
