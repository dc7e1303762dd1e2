/*
 * journal.h: the state journal, so that no register stays changed even
 * after a SIGKILL, a crash or a power cut of the process.
 *
 * Before its first MSR write, lattop records the original value of every
 * register it may write (and which bits of a shared one are its own) in
 * STATE_DIR/journal, synced to disk, and holds an flock on it while it
 * runs.  A clean exit empties the journal.  `lattop --restore` writes the
 * values back from a journal left behind; it is idempotent.  A lattop that
 * finds a non-empty journal nobody holds refuses to start (it would save
 * already-modified values as "original") and says to run --restore.
 *
 * Format, text: "lattop-journal 1", "pid N", "dev DIR", "fw_write 0|1",
 * then "r CPU REG VALUE MASK" lines (hex), then "end".
 */
#ifndef LATTOP_JOURNAL_H
#define LATTOP_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu/msrdev.h"
#include "cpu/pmu.h"

#define JOURNAL_DEFAULT_DIR "/run/lattop"

struct journal {
	int dirfd;
	int fd;          /* STATE_DIR/journal, locked; -1 when none */
};

/*
 * Open (creating the default one, mode 0700) the state directory and lock
 * the journal in it.  Refuses a path that is a symlink, not a directory,
 * not owned by the effective user or writable by others; refuses when
 * another lattop holds the lock or a stale journal is there.  0, or -1
 * with a message.
 */
int journal_open(struct journal *j, const char *state_dir, char *err, size_t errlen);

/* Record the saved registers of @p (device @dev), synced.  0 or -1. */
int journal_write(struct journal *j, const struct pmu *p, const char *dev,
		  char *err, size_t errlen);

/* Empty the journal: every register is back.  Async-signal-safe. */
void journal_clear(struct journal *j);

void journal_close(struct journal *j);

/*
 * lattop --restore: write back what a journal in @state_dir records, on the
 * device @dev_dir (what the journal names must match), and empty it.
 * Returns 0 (also when there was nothing to restore; @msg says which), or
 * -1 with a message.
 */
int journal_restore(const char *state_dir, const char *dev_dir, char *msg, size_t len);

#endif
