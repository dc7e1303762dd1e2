/*
 * httpd.c: the /metrics server (see httpd.h).
 *
 * libmicrohttpd parses HTTP; its one internal thread polls every
 * connection (epoll), so a slow client costs a descriptor, never a thread.
 * What it cannot bound by itself, the total time to send a request's
 * headers (it only times idleness, and a client that sends a byte now and
 * then is never idle), a watchdog thread bounds: each connection's clock
 * starts when it opens or finishes a request, stops when its headers are
 * in, and past HTTPD_HEADER_SECONDS its socket is shut down, which ends
 * the connection in libmicrohttpd's own thread.
 *
 * Each exposition is one libmicrohttpd response object per format, made
 * once per interval and queued for every client that asks: the
 * response's own reference count frees the text when the last client has
 * it.  Signals are blocked in both threads: they go to the tick loop.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "export/export.h"
#include "export/httpd.h"

struct httpd_conn {
	struct httpd_conn *next, *prev;
	int fd;
	bool in_request;                /* headers received, request not finished */
	bool cut;                       /* shut down by the watchdog */
	double since;                   /* when its header clock started */
};

struct httpd {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;           /* the responses, the connections, stop */
	pthread_cond_t wake;
	struct MHD_Response *text, *om;
	struct MHD_Response *not_found, *not_allowed, *index, *unavailable;
	struct httpd_conn conns;        /* list head */
	pthread_t watchdog;
	bool watchdog_running;
	bool stop;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int httpd_bind(const struct listen_addr *a, int *fdp, char *where, size_t wherelen,
	       char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd = -1, one = 1;
	char host[INET6_ADDRSTRLEN];
	struct listen_addr v4;

	/* Every address where there is no IPv6: IPv4's. */
	if (a->any && (fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 &&
	    errno == EAFNOSUPPORT) {
		v4 = *a;
		snprintf(v4.host, sizeof(v4.host), "0.0.0.0");
		v4.ipv6 = v4.any = false;
		a = &v4;
	} else if (a->any && fd >= 0) {
		close(fd);
	}
	memset(&ss, 0, sizeof(ss));
	if (a->ipv6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)a->port);
		inet_pton(AF_INET6, a->host, &s6->sin6_addr);
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)a->port);
		inet_pton(AF_INET, a->host, &s4->sin_addr);
		sl = sizeof(*s4);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a->ipv6) {
		int only = !a->any;     /* [::]:PORT is IPv6's alone; :PORT takes IPv4 too */

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof(only));
	}
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, 64) < 0)
		goto fail_fd;
	sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		goto fail_fd;
	if (a->ipv6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		snprintf(where, wherelen, "[%s]:%u", host, ntohs(s6->sin6_port));
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		snprintf(where, wherelen, "%s:%u", host, ntohs(s4->sin_port));
	}
	*fdp = fd;
	return 0;
fail_fd:
	{
		int e = errno;

		close(fd);
		errno = e;
	}
fail:
	snprintf(err, errlen, "--listen %s%s%s:%u: %s", a->ipv6 ? "[" : "", a->host,
		 a->ipv6 ? "]" : "", a->port, strerror(errno));
	return -1;
}

/* A small fixed response; NULL when out of memory. */
static struct MHD_Response *fixed(const char *body, const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body,
								 MHD_RESPMEM_PERSISTENT);

	if (!r)
		return NULL;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	return r;
}

/* True when the Accept header asks for OpenMetrics. */
static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);

	return accept && strstr(accept, "application/openmetrics-text");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **req_cls)
{
	struct httpd *h = cls;
	const union MHD_ConnectionInfo *ci;
	struct MHD_Response *r;
	unsigned status = MHD_HTTP_OK;
	enum MHD_Result ret;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)req_cls;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	pthread_mutex_lock(&h->lock);
	if (ci && ci->socket_context)
		((struct httpd_conn *)ci->socket_context)->in_request = true;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		r = h->not_allowed;
		status = MHD_HTTP_METHOD_NOT_ALLOWED;
	} else if (!strcmp(url, "/metrics")) {
		r = wants_openmetrics(c) ? h->om : h->text;
		if (!r) {
			r = h->unavailable;
			status = MHD_HTTP_SERVICE_UNAVAILABLE;
		}
	} else if (!strcmp(url, "/")) {
		r = h->index;
	} else {
		r = h->not_found;
		status = MHD_HTTP_NOT_FOUND;
	}
	/* Queued under the lock: publishing cannot destroy it meanwhile. */
	ret = MHD_queue_response(c, status, r);
	pthread_mutex_unlock(&h->lock);
	return ret;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct httpd *h = cls;
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	(void)req_cls;
	(void)toe;
	pthread_mutex_lock(&h->lock);
	if (ci && ci->socket_context) {
		struct httpd_conn *k = ci->socket_context;

		k->in_request = false;
		k->since = now_s();
	}
	pthread_mutex_unlock(&h->lock);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct httpd *h = cls;
	struct httpd_conn *k = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		k = calloc(1, sizeof(*k));
		if (!k)
			return;         /* then only the idle timeout bounds it */
		k->fd = ci ? ci->connect_fd : -1;
		k->since = now_s();
		pthread_mutex_lock(&h->lock);
		k->next = h->conns.next;
		k->prev = &h->conns;
		h->conns.next->prev = k;
		h->conns.next = k;
		pthread_mutex_unlock(&h->lock);
		*socket_context = k;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && k) {
		/* Before libmicrohttpd closes the socket: the watchdog never sees a reused one. */
		pthread_mutex_lock(&h->lock);
		k->prev->next = k->next;
		k->next->prev = k->prev;
		pthread_mutex_unlock(&h->lock);
		free(k);
		*socket_context = NULL;
	}
}

static void *watchdog(void *arg)
{
	struct httpd *h = arg;

	pthread_mutex_lock(&h->lock);
	while (!h->stop) {
		struct timespec ts;
		double now = now_s();

		for (struct httpd_conn *k = h->conns.next; k != &h->conns; k = k->next) {
			if (!k->in_request && !k->cut && k->fd >= 0 &&
			    now - k->since > HTTPD_HEADER_SECONDS) {
				shutdown(k->fd, SHUT_RDWR);
				k->cut = true;
			}
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&h->wake, &h->lock, &ts);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

struct httpd *httpd_start(int fd, char *err, size_t errlen)
{
	struct httpd *h = calloc(1, sizeof(*h));
	sigset_t all, old;
	int e;

	if (!h) {
		close(fd);
		snprintf(err, errlen, "--listen: out of memory");
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake, NULL);
	h->conns.next = h->conns.prev = &h->conns;
	h->not_found = fixed("Not found: lattop serves /metrics.\n", NULL);
	h->not_allowed = fixed("Method not allowed: lattop answers GET and HEAD.\n", "GET, HEAD");
	h->index = fixed("lattop: the metrics are at /metrics.\n", NULL);
	h->unavailable = fixed("No metrics yet.\n", NULL);
	if (!h->not_found || !h->not_allowed || !h->index || !h->unavailable) {
		close(fd);
		httpd_stop(h);
		snprintf(err, errlen, "--listen: out of memory");
		return NULL;
	}
	/* The threads inherit the mask: every signal stays with the tick loop. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&h->watchdog, NULL, watchdog, h);
	h->watchdog_running = e == 0;
	if (e == 0)
		h->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO,
			0, NULL, NULL, on_request, h,
			MHD_OPTION_LISTEN_SOCKET, fd,
			MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTPD_MAX_CONNECTIONS,
			MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)HTTPD_MAX_PER_ADDRESS,
			MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTPD_MAX_REQUEST,
			MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTPD_IDLE_SECONDS,
			MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
			MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
			MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->daemon) {
		if (e == 0)
			e = errno ? errno : EIO;
		close(fd);
		httpd_stop(h);
		snprintf(err, errlen, "--listen: the HTTP server did not start: %s", strerror(e));
		return NULL;
	}
	return h;
}

static struct MHD_Response *exposition(char *text, size_t len, const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback(len, text, free);

	if (!r) {
		free(text);
		return NULL;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	return r;
}

void httpd_publish(struct httpd *h, char *text, size_t textlen, char *om, size_t omlen)
{
	struct MHD_Response *t = exposition(text, textlen, export_type_text);
	struct MHD_Response *o = exposition(om, omlen, export_type_openmetrics);
	struct MHD_Response *old_t, *old_o;

	pthread_mutex_lock(&h->lock);
	old_t = h->text;
	old_o = h->om;
	/* Out of memory: keep serving the last one rather than nothing. */
	if (t && o) {
		h->text = t;
		h->om = o;
	}
	pthread_mutex_unlock(&h->lock);
	if (t && o) {
		if (old_t)
			MHD_destroy_response(old_t);
		if (old_o)
			MHD_destroy_response(old_o);
	} else {
		if (t)
			MHD_destroy_response(t);
		if (o)
			MHD_destroy_response(o);
	}
}

void httpd_stop(struct httpd *h)
{
	struct MHD_Response *rs[6];

	if (!h)
		return;
	if (h->daemon)
		MHD_stop_daemon(h->daemon);     /* closes the listening socket too */
	if (h->watchdog_running) {
		pthread_mutex_lock(&h->lock);
		h->stop = true;
		pthread_cond_signal(&h->wake);
		pthread_mutex_unlock(&h->lock);
		pthread_join(h->watchdog, NULL);
	}
	rs[0] = h->text;
	rs[1] = h->om;
	rs[2] = h->not_found;
	rs[3] = h->not_allowed;
	rs[4] = h->index;
	rs[5] = h->unavailable;
	for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
		if (rs[i])
			MHD_destroy_response(rs[i]);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->wake);
	free(h);
}
