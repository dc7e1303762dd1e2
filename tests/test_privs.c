/*
 * test_privs.c: lattop refuses to run setuid, and drops root for good.
 * Each case runs in a child, since it changes the process's identity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "safety/privs.h"

/* Run @fn in a child; its exit status. */
static int in_child(int (*fn)(void))
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100;
}

static int child_setuid(void)
{
	char err[256];

	/* As a setuid-root binary started by nobody: real nobody, effective root. */
	if (setresuid(65534, 0, 0) < 0)
		return 10;
	return privs_refuse_setuid(err, sizeof(err)) == -1 ? 0 : 1;
}

static int child_plain(void)
{
	char err[256];

	return privs_refuse_setuid(err, sizeof(err)) == 0 ? 0 : 1;
}

static int child_drop_sudo(void)
{
	char who[64], err[256];

	setenv("SUDO_UID", "4321", 1);
	setenv("SUDO_GID", "4322", 1);
	if (privs_drop(who, sizeof(who), err, sizeof(err)) < 0)
		return 1;
	if (getuid() != 4321 || geteuid() != 4321 || getgid() != 4322 || getegid() != 4322)
		return 2;
	if (setuid(0) == 0 || seteuid(0) == 0)
		return 3;       /* root could be regained */
	return privs_dropped() ? 0 : 4;
}

static int child_drop_nobody(void)
{
	char who[64], err[256];

	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	if (privs_drop(who, sizeof(who), err, sizeof(err)) < 0)
		return 1;
	return geteuid() == 65534 && getuid() == 65534 ? 0 : 2;
}

static void test_refuses_setuid(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(in_child(child_setuid), 0);
	assert_int_equal(in_child(child_plain), 0);
}

static void test_drops_root(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(in_child(child_drop_sudo), 0);
	assert_int_equal(in_child(child_drop_nobody), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refuses_setuid),
		cmocka_unit_test(test_drops_root),
	};

	return cmocka_run_group_tests_name("privs", tests, NULL, NULL);
}
