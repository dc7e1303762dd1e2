/*
 * privs.h: least privilege.  lattop needs root only to open the msr
 * files and its state journal; once they are open it drops to the user who
 * ran sudo (SUDO_UID/SUDO_GID), or to nobody, keeping the descriptors.
 * Through perf_event_open(2) it keeps the one capability that opens
 * CPU-wide events.
 */
#ifndef LATTOP_PRIVS_H
#define LATTOP_PRIVS_H

#include <stdbool.h>
#include <stddef.h>

/* -1 with a message when lattop runs setuid or setgid: it refuses to. */
int privs_refuse_setuid(char *err, size_t errlen);

/*
 * Drop root for good, when root.  0 (also when not root), or -1 with a
 * message; then the caller must not go on.  @who gets the user dropped to.
 */
int privs_drop(char *who, size_t wholen, char *err, size_t errlen);

/*
 * The same, keeping capability @cap (CAP_PERFMON for the perf backend,
 * which opens events again when the thresholds change) permitted and
 * effective, and nothing else; @cap -1 keeps none.
 */
int privs_drop_keep(int cap, char *who, size_t wholen, char *err, size_t errlen);

bool privs_dropped(void);

#endif
