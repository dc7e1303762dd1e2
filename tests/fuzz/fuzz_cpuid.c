/*
 * fuzz_cpuid.c: libFuzzer harness for the CPUID dump reader.
 *
 * Owns nothing but the harness: each input is written to a memfd (a file
 * under /tmp, removed at exit, where memfd_create is missing) because
 * cpuid_raw_file() takes a path, then read back through cpuid_raw_file(),
 * cpuid_decode() and uarch_detect().  Besides the sanitizers' findings it
 * aborts when the reader breaks its contract: a refusal must come with a
 * one-line message naming the file, an acceptance with a leaf 0 that is not
 * all zero and with the leaves the text says (read here without libcpuid),
 * and detection must always name a microarchitecture.
 * Must not touch anything but its own temporary file.
 *
 * Build: make tests/fuzz/fuzz_cpuid (clang -fsanitize=fuzzer,address,undefined).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu/uarch.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_fd = -1;
static char fuzz_path[64];
static char fuzz_tmp[64];       /* the /tmp fallback, removed at exit */

static void fuzz_cleanup(void)
{
	if (fuzz_tmp[0])
		unlink(fuzz_tmp);
}

static void fuzz_die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_cpuid: %s: \"%s\"\n", what, err);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_fd = memfd_create("fuzz_cpuid.raw", MFD_CLOEXEC);
	if (fuzz_fd >= 0) {
		snprintf(fuzz_path, sizeof(fuzz_path), "/proc/self/fd/%d", fuzz_fd);
		if (access(fuzz_path, R_OK) == 0)
			return 0;
		close(fuzz_fd);         /* no /proc: use a real file */
	}
	snprintf(fuzz_tmp, sizeof(fuzz_tmp), "/tmp/fuzz_cpuid.XXXXXX");
	fuzz_fd = mkstemp(fuzz_tmp);
	if (fuzz_fd < 0) {
		perror("fuzz_cpuid: mkstemp");
		exit(1);
	}
	atexit(fuzz_cleanup);
	snprintf(fuzz_path, sizeof(fuzz_path), "%s", fuzz_tmp);
	return 0;
}

/* Replace the file's content with @data. */
static void fuzz_write(const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (ftruncate(fuzz_fd, 0) < 0) {
		perror("fuzz_cpuid: ftruncate");
		abort();
	}
	while (off < size) {
		ssize_t n = pwrite(fuzz_fd, data + off, size - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror("fuzz_cpuid: pwrite");
			abort();
		}
		off += (size_t)n;
	}
}

/*
 * The leaves the text of an accepted dump gives its first CPU, read
 * independently of libcpuid: what cpuid_raw_file() returns must agree.
 */
static void fuzz_expect(const uint8_t *data, size_t size, struct cpuid_raw *want)
{
	const char *p = (const char *)data, *end = p + size;
	int seps = 0;

	memset(want, 0, sizeof(*want));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		unsigned idx, r[4];
		char line[128];

		p += n + 1;
		if (n >= sizeof(line))
			continue;
		memcpy(line, p - n - 1, n);
		line[n] = '\0';
		if (!strncmp(line, "--------------------------------------------------------------------------------", 80))
			break;
		if (!strncmp(line, "_________________ Logical CPU #", 31) && ++seps > 1)
			break;
		if (sscanf(line, "basic_cpuid[%u]=%x %x %x %x", &idx, &r[0], &r[1], &r[2], &r[3]) == 5 &&
		    idx < CPUID_RAW_BASIC) {
			memcpy(want->basic[idx], r, sizeof(r));
			want->basic_present |= 1u << idx;       /* which lines there were */
		}
		else if (sscanf(line, "ext_cpuid[%u]=%x %x %x %x", &idx, &r[0], &r[1], &r[2], &r[3]) == 5 &&
			 idx < CPUID_RAW_EXT)
			memcpy(want->ext[idx], r, sizeof(r));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpuid_raw want;
	struct cpuid_raw raw;
	struct cpuid_info id;
	struct cpu_desc desc;
	char err[512];
	size_t len, i;

	if (fuzz_fd < 0)
		LLVMFuzzerInitialize(NULL, NULL);
	fuzz_write(data, size);
	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	if (cpuid_raw_file(fuzz_path, &raw, err, sizeof(err)) < 0) {
		len = strlen(err);
		if (len == 0 || len >= sizeof(err) - 1 || strncmp(err, fuzz_path, strlen(fuzz_path)))
			fuzz_die("refusal without a message naming the file", err);
		for (i = 0; i < len; i++)
			if ((unsigned char)err[i] < 0x20 || err[i] == 0x7f)
				fuzz_die("a control character in the message", err);
		return 0;
	}
	if (!raw.basic[0][0] && !raw.basic[0][1] && !raw.basic[0][2] && !raw.basic[0][3])
		fuzz_die("accepted a dump whose leaf 0 is all zero", "");
	fuzz_expect(data, size, &want);
	if (memcmp(&want, &raw, sizeof(raw)))
		fuzz_die("libcpuid read other leaves than the dump says", "");
	cpuid_decode(&raw, &id);
	if (strlen(id.vendor) > 12 || strlen(id.brand) > 48)
		fuzz_die("decoded strings too long", id.vendor);
	uarch_detect(&id, &desc);
	if (!desc.uarch || !desc.uarch->name)
		fuzz_die("no microarchitecture", "");
	if (!desc.supported &&
	    (!desc.reason[0] || strchr(desc.reason, '\n') ||
	     strlen(desc.reason) >= sizeof(desc.reason) - 1))
		fuzz_die("unsupported without a one-line reason", desc.reason);
	return 0;
}
