/*
 * fleet.c: --listen and --textfile wired together (see fleet.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/fleet.h"
#include "export/httpd.h"
#include "export/textfile.h"

int fleet_open(struct fleet *f, const char *listen, const char *textfile, bool *usage,
	       char *err, size_t errlen)
{
	memset(f, 0, sizeof(f[0]));
	f->fd = -1;
	*usage = false;
	f->active = listen || textfile;
	if (f->active)
		export_keep_memory();
	if (listen) {
		if (listen_parse(listen, &f->addr, err, errlen) < 0) {
			*usage = true;
			return -1;
		}
		if (httpd_bind(&f->addr, &f->fd, f->where, sizeof(f->where), err, errlen) < 0)
			return -1;
		f->listening = true;
	}
	if (textfile) {
		int rc = textfile_resolve(textfile, f->path, sizeof(f->path), err, errlen);

		*usage = rc == -2;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Render both formats and hand them to the server; write the textfile. */
static int publish(struct fleet *f, char *err, size_t errlen)
{
	char *text = NULL, *om = NULL;
	size_t tl = 0, ol = 0;
	int res = 0;

	if ((f->httpd ? export_render_both(&f->x, &text, &tl, &om, &ol)
		      : export_render(&f->x, false, &text, &tl)) < 0) {
		snprintf(err, errlen, "the metrics: out of memory");
		return -1;
	}
	if (f->path[0] && textfile_write(f->path, text, tl, err, errlen) < 0)
		res = -1;
	else if (f->path[0])
		f->written = true;
	if (f->httpd) {
		httpd_publish(f->httpd, text, tl, om, ol);
		text = NULL;
	}
	free(text);
	return res;
}

int fleet_start(struct fleet *f, const struct row *rows, int n, const struct fleet_info *info,
		const struct plan *pl, char *err, size_t errlen)
{
	char path[sizeof(f->path)];

	if (!f->active)
		return 0;
	/* The user lattop runs as now may not be the one that checked before. */
	if (f->path[0] && textfile_resolve(f->path, path, sizeof(path), err, errlen) < 0)
		return -1;
	if (export_init(&f->x, rows, n) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	f->x.microarch = info->microarch;
	f->x.pmu_table = info->pmu_table;
	f->x.source = info->source;
	f->x.version = info->version;
	f->x.interval_s = info->interval_s;
	export_supported(&f->x, pl);
	/* Until the first interval ends, /metrics answers 503: there is nothing true to say. */
	if (f->listening) {
		f->httpd = httpd_start(f->fd, err, errlen);
		f->fd = -1;
		if (!f->httpd)
			return -1;
	}
	return 0;
}

int fleet_tick(struct fleet *f, const struct plan *pl, const struct row *rows, double now,
	       char *err, size_t errlen)
{
	if (!f->active)
		return 0;
	export_update(&f->x, pl, rows, now);
	if (publish(f, err, errlen) == 0) {
		f->last_err[0] = 0;
		return 0;
	}
	if (!strcmp(f->last_err, err))
		return 0;
	snprintf(f->last_err, sizeof(f->last_err), "%s", err);
	return -1;
}

void fleet_close(struct fleet *f)
{
	/* The textfile says lattop stopped: node_exporter must not serve its last numbers as live. */
	if (f->written) {
		char *text = NULL, err[256];
		size_t tl = 0;

		f->x.stopped = true;
		if (export_render(&f->x, false, &text, &tl) == 0)
			textfile_write(f->path, text, tl, err, sizeof(err));
		free(text);
		f->written = false;
	}
	httpd_stop(f->httpd);
	f->httpd = NULL;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	export_free(&f->x);
}
