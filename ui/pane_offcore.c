/*
 * pane_offcore.c: the offcore pane: demand data reads that miss the L2 per
 * second and their mean latency in core cycles and nanoseconds.  Where the
 * reads are counted but their latency is not (Nehalem), the reads show.
 *
 * Draws only inside the box it is given.
 */
#include <math.h>
#include <stdio.h>

#include "ui/ui_internal.h"

#define W_READS 8               /* " Reads/s" */
#define W_CYC   9               /* " Lat(cyc)" */
#define W_NS    8               /* " Lat(ns)" */
#define W_FIXED (W_READS + W_CYC + W_NS)

static double offcore_reads(const struct metrics *m)
{
	return m->off.supported ? m->off.reads_per_sec : NAN;
}

static double offcore_cycles(const struct metrics *m)
{
	return m->off.avg_latency_cycles;
}

static const struct ui_col offcore_cols[] = {
	{ "Reads/s", offcore_reads },
	{ "Lat(cyc)", offcore_cycles },
};

static void offcore_width(const struct ui *ui, int *pref, int *max)
{
	(void)ui;
	*pref = W_FIXED;
	*max = W_FIXED;
}

static void offcore_head(struct ui *ui, const struct pane_view *v, int y, int x, int w)
{
	(void)v;
	draw_fill(ui, y, x, w, UA_COLHDR);
	draw_right(ui, y, x, W_READS, ui_sorted(ui, &offcore_cols[0]) ? UA_COLHDR_SORT : UA_COLHDR,
		   offcore_cols[0].name);
	draw_right(ui, y, x + W_READS, W_CYC,
		   ui_sorted(ui, &offcore_cols[1]) ? UA_COLHDR_SORT : UA_COLHDR,
		   offcore_cols[1].name);
	draw_right(ui, y, x + W_READS + W_CYC, W_NS, UA_COLHDR, "Lat(ns)");
}

static void offcore_row(struct ui *ui, const struct pane_view *v, int y, int x, int w,
		    const struct pane_row *r)
{
	const struct metrics *m = r->m;
	enum ui_attr base = r->total ? UA_TOTAL : UA_NORMAL;
	double cyc, ns;
	char b[32];

	(void)v;
	(void)w;
	if (!r->ok || !m->off.supported) {
		draw_na(ui, y, x, W_READS);
		draw_na(ui, y, x + W_READS, W_CYC);
		draw_na(ui, y, x + W_READS + W_CYC, W_NS);
		return;
	}
	cyc = m->off.avg_latency_cycles;
	ns = m->off.avg_latency_ns;
	draw_si(b, sizeof(b), m->off.reads_per_sec);
	draw_right(ui, y, x, W_READS, base, b);
	draw_fixed(b, sizeof(b), cyc, 0);
	draw_right(ui, y, x + W_READS, W_CYC, base, b);
	draw_fixed(b, sizeof(b), ns, !isnan(ns) && ns < 100 ? 1 : 0);
	draw_right(ui, y, x + W_READS + W_CYC, W_NS, base, b);
}

/* Nothing measured, or the reads without their latency (Nehalem): why. */
static const char *offcore_reason(const struct metrics *m)
{
	if (!m->off.supported)
		return m->off.reason ? m->off.reason : "not measured";
	return m->off.latency_reason;
}

const struct pane pane_offcore = {
	.name = "Offcore",
	.what = "offcore",
	.about = "demand data reads that miss the L2 (on the Atoms, leave the module)",
	.toggle = '3',
	.cols = offcore_cols,
	.ncols = sizeof(offcore_cols) / sizeof(offcore_cols[0]),
	.width = offcore_width,
	.prepare = NULL,
	.head = offcore_head,
	.row = offcore_row,
	.reason = offcore_reason,
	.key = NULL,
};
