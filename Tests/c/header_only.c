/* The public header must compile on its own, warning-free, as C99. */
#include <ocellus.h>

int main(void)
{
    oc_context_options options;
    oc_context_options_init(&options);
    return OCELLUS_VERSION_MAJOR + (int)sizeof(options) * 0;
}
