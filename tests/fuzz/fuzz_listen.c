/*
 * fuzz_listen.c: libFuzzer harness for the --listen parser (export/listen.c),
 * lattop's own parsing of a network address; the HTTP requests themselves
 * are libmicrohttpd's to parse.
 *
 * Each input, cut at its first NUL, goes to listen_parse().  An accepted
 * value must give a numeric address of its family and a port up to 65535,
 * and its canonical form ("HOST:PORT" or "[HOST]:PORT") must parse back to
 * the same; a refusal must come as one line starting "--listen '" with no
 * control character (a value is never echoed raw to a terminal).
 *
 * Build: make tests/fuzz/fuzz_listen (clang -fsanitize=fuzzer,address,undefined).
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/listen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[512], err[256], canon[128];
	struct listen_addr a, b;
	unsigned char bin[16];

	if (size >= sizeof(s))
		size = sizeof(s) - 1;
	memcpy(s, data, size);
	s[size] = 0;
	if (listen_parse(s, &a, err, sizeof(err)) < 0) {
		if (strncmp(err, "--listen '", 10))
			abort();
		for (const char *p = err; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
				abort();
		return 0;
	}
	if (a.port > 65535 || inet_pton(a.ipv6 ? AF_INET6 : AF_INET, a.host, bin) != 1)
		abort();
	snprintf(canon, sizeof(canon), a.ipv6 ? "[%s]:%u" : "%s:%u", a.host, a.port);
	if (listen_parse(canon, &b, err, sizeof(err)) < 0 || strcmp(a.host, b.host) ||
	    a.port != b.port || a.ipv6 != b.ipv6)
		abort();
	return 0;
}
