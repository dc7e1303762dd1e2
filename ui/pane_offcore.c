/*
 * pane_offcore.c: the offcore pane: demand data reads that miss the L2 per
 * second and their mean latency in core cycles and nanoseconds.  Where the
 * reads are counted but their latency is not (Nehalem), the reads show and
 * the latency columns n/a (pane_cells), the reason on the title line.
 *
 * Which columns, in which order, is this file's; their headers, widths and
 * formats are the column table's (output/columns.c).  Draws only inside the
 * box it is given.
 */
#include "ui/ui_internal.h"

static const enum col_id offcore_ids[] = { COL_READS, COL_OFF_CYCLES, COL_OFF_NS };
#define NIDS ((int)(sizeof(offcore_ids) / sizeof(offcore_ids[0])))

static const struct ui_col offcore_cols[] = {
	{ NULL, &columns[COL_READS], 0 },
	{ NULL, &columns[COL_OFF_CYCLES], 0 },
	{ NULL, &columns[COL_OFF_NS], 0 },
};

static void offcore_width(const struct ui *ui, int *pref, int *max)
{
	*pref = *max = pane_width(ui, offcore_ids, NIDS);
}

static void offcore_head(struct ui *ui, const struct pane_view *v, int y, int x, int w)
{
	(void)v;
	draw_fill(ui, y, x, w, UA_COLHDR);
	pane_heads(ui, &pane_offcore, offcore_ids, NIDS, y, x);
}

static void offcore_row(struct ui *ui, const struct pane_view *v, int y, int x, int w,
			const struct pane_row *r)
{
	(void)v;
	(void)w;
	pane_cells(ui, offcore_ids, NIDS, y, x, r->m, r->ok && r->m->off.supported,
		   r->total ? UA_TOTAL : UA_NORMAL, NULL);
}

const struct pane pane_offcore = {
	.name = "Offcore", .what = "offcore", .toggle = '3',
	.about = "demand data reads that miss the L2 (on the Atoms, leave the module)",
	PANE_OF(offcore), .section = CS_OFFCORE,
};
