#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "loaded_object.h"

const char *ocellus_loaded_object_path(void) {
    Dl_info info;
    return dladdr((const void *)&ocellus_loaded_object_path, &info) != 0 ? info.dli_fname : NULL;
}
