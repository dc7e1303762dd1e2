/*
 * msrpeek.c: read or write one MSR through DIR/CPU/msr, the way lattop does
 * (cpu/msrdev.c: open O_RDWR, pread/pwrite of 8 bytes at offset = address).
 *
 *	msrpeek [-n BYTES] DIR CPU REG           print the value as 0x%016llx
 *	msrpeek [-n BYTES] DIR CPU REG VALUE     write it
 *	msrpeek [-n BYTES] -F FD REG [VALUE]     the same on an fd already open
 *
 * -n: transfer BYTES instead of 8 (to test the driver's EINVAL); a read of a
 * multiple of 8 prints every 8-byte value, space-separated; a write repeats
 * VALUE.  On error prints the errno name (EIO) to stderr and exits 1; a short
 * transfer prints "short N".  Usage errors exit 2.
 *
 * A test tool for tests/e2e_*.sh: owns nothing of lattop's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSRPEEK_MAX 256   /* bytes one call moves at most (-n) */

static int msrpeek_usage(void)
{
	fprintf(stderr, "usage: msrpeek [-n BYTES] DIR CPU REG [VALUE]\n"
			"       msrpeek [-n BYTES] -F FD REG [VALUE]\n");
	return 2;
}

static int msrpeek_fail(int e)
{
	const char *name = strerrorname_np(e);

	if (name)
		fprintf(stderr, "%s\n", name);
	else
		fprintf(stderr, "errno %d\n", e);
	return 1;
}

static int msrpeek_number(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end || *v > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long long reg, val = 0, n = 8, fdarg = 0;
	int argi = 1, fd = -1, use_fd = 0, write_mode;
	unsigned char buf[MSRPEEK_MAX];
	char path[4096];
	ssize_t got;

	while (argi < argc && argv[argi][0] == '-' && argv[argi][1]) {
		if (!strcmp(argv[argi], "-n") && argi + 1 < argc) {
			if (msrpeek_number(argv[argi + 1], 1 << 20, &n))
				return msrpeek_usage();
		} else if (!strcmp(argv[argi], "-F") && argi + 1 < argc) {
			if (msrpeek_number(argv[argi + 1], 1 << 20, &fdarg))
				return msrpeek_usage();
			use_fd = 1;
		} else {
			return msrpeek_usage();
		}
		argi += 2;
	}
	argc -= argi;
	argv += argi;
	if (use_fd) {
		if (argc < 1 || argc > 2)
			return msrpeek_usage();
		fd = (int)fdarg;
	} else {
		if (argc < 3 || argc > 4)
			return msrpeek_usage();
		snprintf(path, sizeof(path), "%s/%s/msr", argv[0], argv[1]);
		argc -= 2;
		argv += 2;
	}
	write_mode = argc == 2;
	if (msrpeek_number(argv[0], 0xffffffffull, &reg) ||
	    (write_mode && msrpeek_number(argv[1], UINT64_MAX, &val)))
		return msrpeek_usage();

	if (n > MSRPEEK_MAX)
		return msrpeek_usage();
	if (!use_fd) {
		fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			return msrpeek_fail(errno);
	}
	if (write_mode) {
		for (unsigned long long i = 0; i < n; i++)
			buf[i] = (unsigned char)(val >> (8 * (i % 8)));
		got = pwrite(fd, buf, n, (off_t)reg);
	} else {
		got = pread(fd, buf, n, (off_t)reg);
	}
	if (got < 0)
		return msrpeek_fail(errno);
	if ((unsigned long long)got != n) {
		fprintf(stderr, "short %zd\n", got);
		return 1;
	}
	if (!write_mode) {
		for (unsigned long long i = 0; i + 8 <= n; i += 8) {
			uint64_t v;

			memcpy(&v, buf + i, 8);
			printf("%s0x%016llx", i ? " " : "", (unsigned long long)v);
		}
		if (n % 8)
			for (unsigned long long i = n - n % 8; i < n; i++)
				printf(" %02x", buf[i]);
		printf("\n");
	}
	if (!use_fd)
		close(fd);
	return 0;
}
