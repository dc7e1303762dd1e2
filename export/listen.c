/*
 * listen.c: parse --listen (see listen.h).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "export/listen.h"

/* The message names the value, its first 64 bytes, a control character or non-ASCII byte as '?'. */
static int bad(char *err, size_t errlen, const char *s, const char *why)
{
	char shown[65];
	size_t n = 0;

	for (; s[n] && n < sizeof(shown) - 1; n++)
		shown[n] = (unsigned char)s[n] < 0x20 || (unsigned char)s[n] >= 0x7f ? '?' : s[n];
	shown[n] = 0;
	snprintf(err, errlen, "--listen '%s': %s", shown, why);
	return -1;
}

int listen_parse(const char *s, struct listen_addr *out, char *err, size_t errlen)
{
	const char *port = s, *colon;
	unsigned long v = 0;
	unsigned char addr[16];
	size_t hl;

	memset(out, 0, sizeof(*out));
	snprintf(out->host, sizeof(out->host), "%s", LISTEN_DEFAULT_ADDR);
	if (s[0] == '[') {
		const char *end = strchr(s, ']');

		if (!end || end[1] != ':')
			return bad(err, errlen, s, "an IPv6 address is written [ADDR]:PORT");
		hl = (size_t)(end - s - 1);
		if (hl == 0 || hl >= sizeof(out->host))
			return bad(err, errlen, s, "not an IPv6 address");
		memcpy(out->host, s + 1, hl);
		out->host[hl] = 0;
		if (inet_pton(AF_INET6, out->host, addr) != 1)
			return bad(err, errlen, s, "not an IPv6 address");
		out->ipv6 = true;
		port = end + 2;
	} else if ((colon = strrchr(s, ':'))) {
		hl = (size_t)(colon - s);
		if (memchr(s, ':', hl))
			return bad(err, errlen, s, "an IPv6 address is written [ADDR]:PORT");
		if (hl == 0) {
			/* node_exporter's ":9100": every address, IPv6 and IPv4. */
			snprintf(out->host, sizeof(out->host), "::");
			out->ipv6 = out->any = true;
		} else if (hl == 9 && !strncmp(s, "localhost", 9)) {
			snprintf(out->host, sizeof(out->host), "%s", LISTEN_DEFAULT_ADDR);
		} else {
			if (hl >= sizeof(out->host))
				return bad(err, errlen, s, "not an IPv4 address such as 127.0.0.1");
			memcpy(out->host, s, hl);
			out->host[hl] = 0;
			if (inet_pton(AF_INET, out->host, addr) != 1)
				return bad(err, errlen, s, "not an IPv4 address such as 127.0.0.1, "
					   "localhost, or none (:PORT, every address)");
		}
		port = colon + 1;
	}
	if (!*port)
		return bad(err, errlen, s, "no port");
	for (const char *p = port; *p; p++) {
		if (*p < '0' || *p > '9')
			return bad(err, errlen, s, "the port must be a number, 0 to 65535");
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 65535)
			return bad(err, errlen, s, "the port must be a number, 0 to 65535");
	}
	out->port = (unsigned)v;
	return 0;
}
