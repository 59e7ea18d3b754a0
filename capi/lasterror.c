// The per-thread last error, the static status texts and the version:
// plain C, so they work even where Go cannot be entered (a forked child).
#include <string.h>

#include "idgen.h"
#include "capi.h"

static _Thread_local char last_error[1024];

void idgenp_set_error(const char *msg, size_t n) {
    if (n >= sizeof last_error) {
        n = sizeof last_error - 1;
    }
    memcpy(last_error, msg, n);
    last_error[n] = '\0';
}

void idgenp_set_error_str(const char *msg) { idgenp_set_error(msg, strlen(msg)); }

const char *idgen_last_error(void) { return last_error; }

const char *idgen_version(void) { return IDGEN_VERSION_STRING; }

const char *idgen_strerror(int status) {
    switch (status) {
    case IDGEN_OK:
        return "success";
    case IDGEN_EINVAL:
        return "invalid argument or configuration";
    case IDGEN_ECLOCK:
        return "clock moved backwards beyond tolerance";
    case IDGEN_EOVERFLOW:
        return "time or epoch range of the layout is used up";
    case IDGEN_ECLOSED:
        return "generator handle is closed or unknown";
    case IDGEN_EWORKER:
        return "no worker id available, or its lease was lost";
    case IDGEN_ERANGE:
        return "value or buffer does not fit";
    case IDGEN_EFORKED:
        return "called in a process forked after idgen was loaded";
    case IDGEN_EINTERNAL:
        return "internal error in idgen";
    }
    return "unknown status";
}
