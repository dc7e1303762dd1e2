/*
 * nobody.h: run a piece of a unit test in a child, or as the user nobody
 * (header only).
 *
 * The permission and limit tests of the perf device, on the real kernel
 * and on the simulated one, need a process of their own (a lower
 * RLIMIT_NOFILE) or one without capabilities: a child (that becomes uid
 * and gid 65534) runs @fn(@arg), whose _exit status says what it found (0:
 * as wanted).  As nobody, skipped when not root.  Owns nothing outside the
 * test that includes it; include after <cmocka.h>.
 */
#ifndef LATTOP_TEST_NOBODY_H
#define LATTOP_TEST_NOBODY_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

static inline void in_child(void (*fn)(void *arg), void *arg, bool nobody)
{
	int status;
	pid_t pid;

	if (nobody && geteuid() != 0)
		skip();
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (nobody && (setgid(NOBODY) || setuid(NOBODY)))
			_exit(3);
		fn(arg);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static inline void as_nobody(void (*fn)(void *arg), void *arg)
{
	in_child(fn, arg, true);
}

#endif
