/*
 * listen.h: the value of --listen, [ADDR:]PORT.  Parsing only (no
 * socket): options.c refuses a bad value before anything is opened, and
 * httpd.c binds what this returns.  Its own file so that the fuzz harness
 * (tests/fuzz/fuzz_listen.c) links nothing else.
 */
#ifndef LATTOP_LISTEN_H
#define LATTOP_LISTEN_H

#include <stdbool.h>
#include <stddef.h>

/* Loopback unless another address is given.  The port is always given: 10123 is lattop's (man page, PROMETHEUS). */
#define LISTEN_DEFAULT_ADDR "127.0.0.1"

struct listen_addr {
	char host[48];          /* a numeric IPv4 or IPv6 address, without brackets */
	bool ipv6;
	bool any;               /* ":PORT": every address, IPv6 and IPv4 ("::", or 0.0.0.0
				 * where there is no IPv6) */
	unsigned port;          /* 0: the kernel picks one (lattop says which) */
};

/*
 * "PORT", "ADDR:PORT", "[ADDR6]:PORT", "localhost:PORT" (127.0.0.1) or
 * ":PORT" (every address); ADDR numeric, PORT 0 to 65535.  0, or -1 with a
 * message in @err.
 */
int listen_parse(const char *s, struct listen_addr *out, char *err, size_t errlen);

#endif
