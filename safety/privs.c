/*
 * privs.c: refuse setuid, drop root after opening what needs it (see privs.h).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "safety/privs.h"

static bool dropped;

int privs_refuse_setuid(char *err, size_t errlen)
{
	if (getuid() != geteuid() || getgid() != getegid()) {
		snprintf(err, errlen, "lattop refuses to run setuid or setgid: run it with sudo instead");
		return -1;
	}
	return 0;
}

bool privs_dropped(void)
{
	return dropped;
}

/* A numeric id from the environment, or -1. */
static long env_id(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v <= 0 || v > 0x7fffffffL ? -1 : v;
}

/* Keep capability @cap alone, permitted and effective, after the uid change: 0 or -errno. */
static int keep_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct c[2];

	memset(c, 0, sizeof(c));
	c[cap / 32].permitted = c[cap / 32].effective = 1u << (cap % 32);
	return syscall(SYS_capset, &h, c) < 0 ? -errno : 0;
}

int privs_drop(char *who, size_t wholen, char *err, size_t errlen)
{
	return privs_drop_keep(-1, who, wholen, err, errlen);
}

int privs_drop_keep(int cap, char *who, size_t wholen, char *err, size_t errlen)
{
	long uid = env_id("SUDO_UID"), gid = env_id("SUDO_GID");
	struct passwd *pw;
	int r;

	if (geteuid() != 0)
		return 0;
	/* Through the uid change, the permitted set stays (the effective one is cleared). */
	if (cap >= 0 && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0) {
		snprintf(err, errlen, "cannot keep capability %d past root: %s", cap, strerror(errno));
		return -1;
	}
	if (uid < 0 || gid < 0) {
		pw = getpwnam("nobody");
		if (!pw) {
			snprintf(err, errlen, "cannot drop root: no user 'nobody'");
			return -1;
		}
		uid = pw->pw_uid;
		gid = pw->pw_gid;
		snprintf(who, wholen, "nobody");
	} else {
		pw = getpwuid((uid_t)uid);
		snprintf(who, wholen, "%s", pw ? pw->pw_name : "SUDO_UID");
	}
	if (setgroups(0, NULL) < 0 || setresgid((gid_t)gid, (gid_t)gid, (gid_t)gid) < 0 ||
	    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) < 0) {
		snprintf(err, errlen, "cannot drop root to %s: %s", who, strerror(errno));
		return -1;
	}
	if (cap >= 0) {
		prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
		if ((r = keep_cap(cap)) < 0) {
			snprintf(err, errlen, "cannot keep capability %d as %s: %s", cap, who,
				 strerror(-r));
			return -1;
		}
	}
	/* Gone for good: neither root nor its groups may come back. */
	if (setuid(0) == 0 || seteuid(0) == 0 || setgid(0) == 0) {
		snprintf(err, errlen, "dropping root failed: it could be regained");
		return -1;
	}
	/* No core dump of a process that held root's descriptors. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	dropped = true;
	return 0;
}
