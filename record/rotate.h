/*
 * rotate.h: --record-max's rotation, FILE -> FILE.1 ... FILE.8,
 * for record.c (its writer holds a struct rotator).
 *
 * Run as root, lattop gives root up long before the first rotation, and the
 * user it becomes cannot rename in a root-owned directory such as /var/log.
 * So a recorder started as root keeps one process that stays root and does
 * nothing but this rotation, on these names, when the recorder asks; it
 * hands the new FILE back as a descriptor and ends with the recorder.
 */
#ifndef LATTOP_ROTATE_H
#define LATTOP_ROTATE_H

#include <stddef.h>
#include <sys/types.h>

struct rotator {
	pid_t pid;              /* the root helper, or 0: this process rotates */
	int sock;               /* to it, or -1 */
};

/*
 * Can the rotation of @path be done later by whoever will do it (this
 * process, or the helper when root)?  Checked at start, so that a recorder
 * that would stop at its first rotation refuses at once.  0, or -1 with a
 * message naming the user and the directory.
 */
int rotate_check(const char *path, char *err, size_t errlen);

/* When root: start the helper for @path.  0 (no helper when not root), or -1 with a message. */
int rotator_start(struct rotator *r, const char *path, char *err, size_t errlen);

/*
 * Rotate @path: FILE.7 -> FILE.8 ... FILE -> FILE.1, then a new, empty
 * FILE opened for appending.  Its descriptor, or -1 with errno.
 */
int rotator_rotate(struct rotator *r, const char *path);

void rotator_stop(struct rotator *r);

#endif
