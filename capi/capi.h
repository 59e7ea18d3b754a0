// Private declarations shared by the C files of capi and the Go exports.
#ifndef IDGEN_CAPI_H
#define IDGEN_CAPI_H

#include <stddef.h>

void idgenp_set_error(const char *msg, size_t n);
void idgenp_set_error_str(const char *msg);

#endif
