#include "CThreadFrame.h"

OCABI_TLS const void *ocabi_delivering_handle;
OCABI_TLS const void *ocabi_delivering_frame;
