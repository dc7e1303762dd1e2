/*
 * textfile.c: write the exposition atomically (see textfile.h).
 *
 * The temporary file is ".lattop.prom.XXXXXX" style (the target's name
 * with a dot before and a random suffix after): it does not end in
 * ".prom", so node_exporter never reads it half written.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/textfile.h"

/* "DIR/.NAME.XXXXXX" for @path "DIR/NAME". */
static int temp_name(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (slash)
		n = snprintf(tmp, len, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		n = snprintf(tmp, len, ".%s.XXXXXX", path);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int textfile_write(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	char tmp[4200];
	int fd;
	size_t off = 0;

	if (temp_name(path, tmp, sizeof(tmp)) < 0) {
		snprintf(err, errlen, "--textfile %s: the name is too long", path);
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (fchmod(fd, 0644) < 0)
		goto fail_fd;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail_fd;
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail_tmp;
	}
	if (rename(tmp, path) < 0) {
		fd = -1;
		goto fail_tmp;
	}
	return 0;
fail_fd:
	{
		int e = errno;

		close(fd);
		errno = e;
	}
fail_tmp:
	{
		int e = errno;

		unlink(tmp);
		errno = e;
	}
fail:
	snprintf(err, errlen, "--textfile %s: %s", path, strerror(errno ? errno : EIO));
	return -1;
}

int textfile_resolve(const char *arg, char *path, size_t pathlen, char *err, size_t errlen)
{
	struct stat st;
	int n;

	if (!*arg) {
		snprintf(err, errlen, "--textfile '': an empty path");
		return -2;
	}
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		n = snprintf(path, pathlen, "%s%slattop.prom", arg,
			     arg[strlen(arg) - 1] == '/' ? "" : "/");
	else
		n = snprintf(path, pathlen, "%s", arg);
	if (n < 0 || (size_t)n >= pathlen) {
		snprintf(err, errlen, "--textfile %.64s...: the name is too long", arg);
		return -2;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--textfile %s: not a regular file", path);
		return -2;
	}
	/* Can a file be made there?  Made and removed: nothing is left behind. */
	{
		char tmp[4200];
		int fd;

		if (temp_name(path, tmp, sizeof(tmp)) < 0) {
			snprintf(err, errlen, "--textfile %s: the name is too long", path);
			return -2;
		}
		fd = mkostemp(tmp, O_CLOEXEC);
		if (fd < 0 && (errno == EACCES || errno == EPERM)) {
			/* Root could; the user lattop gave root up to cannot: say who, and what to do. */
			int e = errno;
			struct passwd *pw = getpwuid(geteuid());
			char who[64], dir[4096];

			snprintf(who, sizeof(who), "%s", pw ? pw->pw_name : "this user");
			snprintf(dir, sizeof(dir), "%s", path);
			snprintf(err, errlen, "--textfile %s: %s, the user lattop writes it as (after "
				 "giving up root: SUDO_UID, or nobody), cannot create files in %s (%s): "
				 "make that directory writable by %s", path, who, dirname(dir),
				 strerror(e), who);
			return -1;
		}
		if (fd < 0) {
			int e = errno;

			snprintf(err, errlen, "--textfile %s: cannot create a file beside it: %s", path,
				 strerror(e));
			/* No such directory is the value's fault; a full or read-only disk is not. */
			return e == ENOENT || e == ENOTDIR ? -2 : -1;
		}
		close(fd);
		unlink(tmp);
	}
	return 0;
}
