/*
 * httpd.h: --listen, the HTTP server of /metrics (libmicrohttpd).
 *
 * Read-only: GET and HEAD of /metrics (and /, a pointer to it); 405 for
 * other methods, 404 for other paths.  It runs in threads of its own and
 * serves the last exposition the tick loop published: publishing swaps a
 * pointer under a mutex, so no client, however slow, can stall sampling.
 * Bounded: connections in all and per client address, request size, and
 * the time a client may take to send its request's headers.
 * Owns the socket and its threads; knows nothing of what it serves.
 */
#ifndef LATTOP_HTTPD_H
#define LATTOP_HTTPD_H

#include <stddef.h>

#include "export/listen.h"

#define HTTPD_MAX_CONNECTIONS   128     /* in all */
#define HTTPD_MAX_PER_ADDRESS   32      /* from one client address */
#define HTTPD_MAX_REQUEST       16384   /* bytes of request line and headers */
#define HTTPD_HEADER_SECONDS    5       /* to send a request's headers, from connecting or
					 * from the end of the request before */
#define HTTPD_IDLE_SECONDS      10      /* without any traffic */

struct httpd;

/*
 * Bind and listen on @a: before any register is written, so that an
 * address in use is refused with nothing changed.  The socket in *@fd; its
 * address as text in @where ("127.0.0.1:10123").  0, or -1 with a message.
 */
int httpd_bind(const struct listen_addr *a, int *fd, char *where, size_t wherelen,
	       char *err, size_t errlen);

/* Serve on @fd (taken over), from threads of its own.  NULL with a message. */
struct httpd *httpd_start(int fd, char *err, size_t errlen);

/*
 * Serve @text (Prometheus text format) and @om (OpenMetrics) from now on;
 * both malloc'd, taken over (freed when no client needs them any more).
 */
void httpd_publish(struct httpd *h, char *text, size_t textlen, char *om, size_t omlen);

/* Stop serving, close the socket, free everything.  NULL is fine. */
void httpd_stop(struct httpd *h);

#endif
