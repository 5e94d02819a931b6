/* Which file the code linked with this shim was loaded from (dladdr is a GNU extension that
 * Swift's Glibc module does not import): how libocellus finds its plugins in LIBDIR/ocellus/. */
#ifndef OCELLUS_LOADED_OBJECT_H
#define OCELLUS_LOADED_OBJECT_H

/* The path of the executable or shared object holding this function, as the loader opened it;
 * NULL when unknown. Static storage owned by the loader; any thread. */
const char *ocellus_loaded_object_path(void);

#endif
