/*
 * rotate.c: --record-max's rotation and the root helper that does it for
 * a recorder started as root (see rotate.h).
 *
 * The helper is forked before root is given up and before any thread or
 * signal handler exists; it closes every descriptor but its socket, ignores
 * the terminal's signals, dies with its parent, and answers each byte it
 * reads with one rotation of the names fixed at its start: it takes no
 * name, no path and no command from the recorder.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/record.h"
#include "record/rotate.h"

/* The directory of @path into @dir. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

static void user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
}

int rotate_check(const char *path, char *err, size_t errlen)
{
	char dir[4096], who[64], name[4200];
	struct stat st;
	uid_t uid = geteuid();

	dir_of(path, dir, sizeof(dir));
	user_name(uid, who, sizeof(who));
	if (access(dir, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "--record-max: rotating %s renames files in %s, which %s "
			 "cannot write (%s): record into a directory %s may write", path, dir, who,
			 strerror(errno), who);
		return -1;
	}
	/* A sticky directory (/tmp): only its owner renames over another user's files. */
	if (uid == 0 || stat(dir, &st) < 0 || !(st.st_mode & S_ISVTX) || st.st_uid == uid)
		return 0;
	for (int k = 0; k <= RECORD_KEEP; k++) {
		if (k)
			snprintf(name, sizeof(name), "%s.%d", path, k);
		else
			snprintf(name, sizeof(name), "%s", path);
		if (lstat(name, &st) == 0 && st.st_uid != uid) {
			snprintf(err, errlen, "--record-max: rotating %s renames %s, which %s may not "
				 "rename in the sticky directory %s: it is not theirs", path, name,
				 who, dir);
			return -1;
		}
	}
	return 0;
}

/* The rotation itself, by whoever runs it.  The new FILE's descriptor, or -1 with errno. */
static int rotate_names(const char *path)
{
	size_t len = strlen(path) + 16;
	char *from = malloc(len), *to = malloc(len);
	int fd = -1;

	if (!from || !to) {
		errno = ENOMEM;
		goto out;
	}
	for (int k = RECORD_KEEP - 1; k >= 1; k--) {
		snprintf(from, len, "%s.%d", path, k);
		snprintf(to, len, "%s.%d", path, k + 1);
		if (rename(from, to) < 0 && errno != ENOENT)
			goto out;
	}
	snprintf(to, len, "%s.1", path);
	if (rename(path, to) < 0)
		goto out;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
out:
	{
		int e = errno;

		free(from);
		free(to);
		errno = e;
	}
	return fd;
}

/* The helper's life: one rotation per byte read, until the recorder is gone. */
static void helper(int sock, const char *path, pid_t parent)
{
	static const int quiet[] = { SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE };
	static const int dfl[] = { SIGTERM, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGCONT };
	int null = open("/dev/null", O_RDWR);

	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		signal(quiet[i], SIG_IGN);
	for (size_t i = 0; i < sizeof(dfl) / sizeof(dfl[0]); i++)
		signal(dfl[i], SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (getppid() != parent)
		_exit(0);
	/* Nothing of the recorder's but the socket: not the msr files, not the journal's lock. */
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	if (dup2(sock, 3) < 0)
		_exit(1);
	if (close_range(4, ~0u, 0) < 0)
		for (int fd = 4; fd < 1024; fd++)
			close(fd);
	for (;;) {
		char c;
		ssize_t k = read(3, &c, 1);
		int fd, e;
		char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
		struct iovec iov = { .iov_base = &e, .iov_len = sizeof(e) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			_exit(0);
		fd = rotate_names(path);
		e = fd < 0 ? errno : 0;
		if (fd >= 0) {
			struct cmsghdr *cm;

			m.msg_control = ctl;
			m.msg_controllen = sizeof(ctl);
			cm = CMSG_FIRSTHDR(&m);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(cm), &fd, sizeof(int));
		}
		if (sendmsg(3, &m, MSG_NOSIGNAL) < 0)
			_exit(0);
		if (fd >= 0)
			close(fd);
	}
}

int rotator_start(struct rotator *r, const char *path, char *err, size_t errlen)
{
	int sv[2];
	pid_t parent = getpid();

	r->pid = 0;
	r->sock = -1;
	if (geteuid() != 0)
		return 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "--record-max: the rotation helper: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0) {
		snprintf(err, errlen, "--record-max: the rotation helper: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		r->pid = 0;
		return -1;
	}
	if (r->pid == 0) {
		close(sv[0]);
		helper(sv[1], path, parent);
		_exit(0);
	}
	close(sv[1]);
	r->sock = sv[0];
	return 0;
}

int rotator_rotate(struct rotator *r, const char *path)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	int e = 0;
	struct iovec iov = { .iov_base = &e, .iov_len = sizeof(e) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;
	ssize_t k;
	int fd;

	if (r->sock < 0)
		return rotate_names(path);
	while ((k = send(r->sock, "R", 1, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	if (k != 1)
		goto gone;
	while ((k = recvmsg(r->sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (k != (ssize_t)sizeof(e))
		goto gone;
	if (e) {
		errno = e;
		return -1;
	}
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len != CMSG_LEN(sizeof(int)))
		goto gone;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
gone:
	errno = ECHILD;         /* the helper is gone: said as such by the caller */
	return -1;
}

void rotator_stop(struct rotator *r)
{
	if (r->sock >= 0)
		close(r->sock);
	r->sock = -1;
	if (r->pid > 0) {
		int st;

		/* It reads end of file and exits; it is killed only should it not. */
		for (int i = 0; i < 200 && waitpid(r->pid, &st, WNOHANG) == 0; i++)
			usleep(5000);
		if (waitpid(r->pid, &st, WNOHANG) == 0) {
			kill(r->pid, SIGKILL);
			waitpid(r->pid, &st, 0);
		}
	}
	r->pid = 0;
}
