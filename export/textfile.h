/*
 * textfile.h: --textfile, the exposition written to a file after each
 * interval for node_exporter's textfile collector.  Atomic: a temporary
 * file in the same directory, then rename, so that a reader sees the old
 * file or the new one, never half of one.  Owns the file; knows nothing
 * of what it holds (export.c).
 */
#ifndef LATTOP_TEXTFILE_H
#define LATTOP_TEXTFILE_H

#include <stddef.h>

/*
 * The file --textfile @arg names (a directory means DIR/lattop.prom) into
 * @path, and a test that a file can be created beside it (made and
 * removed).  0; -2 with a message when @arg itself is wrong (empty, no such
 * directory, not a regular file); -1 with a message when no file can be
 * made there now (permissions, a read-only or full disk).
 */
int textfile_resolve(const char *arg, char *path, size_t pathlen, char *err, size_t errlen);

/* Write @len bytes of @text to @path atomically (mode 0644).  0, or -1 with a message. */
int textfile_write(const char *path, const char *text, size_t len, char *err, size_t errlen);

#endif
