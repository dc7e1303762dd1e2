/*
 * pane_cell.c: the column table's cells on the screen, for the panes: which
 * columns --show and --hide leave, their headers right-aligned in their
 * widths with the sort column marked, their numbers formatted as the
 * table's screen style says (columns_cell, numfmt's digits).
 *
 * Knows no pane's layout: each pane_*.c says which columns it draws and
 * where; the headers, widths, formats and what is sorted are the table's.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/ui_internal.h"

const char *pane_why(const struct pane *p, const struct metrics *m)
{
	return columns_section_why(p->section, m);
}

/* Column @id is not measured in @m, and says why (NULL: it is, or has nothing to say). */
static const char *pane_col_why(enum col_id id, const struct metrics *m)
{
	const struct column *c = &columns[id];

	if (!c->why || !isnan(columns_sort_value(c, m, 0)))
		return NULL;
	return c->why(m);
}

bool pane_note(const struct ui *ui, const struct pane *p, const struct metrics *m, char *buf,
	       size_t len)
{
	const char *why = NULL;
	size_t o = 0;

	buf[0] = 0;
	if (pane_why(p, m))
		return false;
	for (int k = 0; k < p->nids && o < len; k++) {
		const char *w = pane_col_why(p->ids[k], m);

		if (!w || !pane_shows(ui, p->ids[k]) || (why && strcmp(w, why)))
			continue;
		why = w;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "",
				      columns[p->ids[k]].screen.head);
	}
	if (why && o < len)
		snprintf(buf + o, len - o, " n/a: %s", why);
	return why != NULL;
}

bool pane_chosen(const struct ui *ui, enum col_id id)
{
	return !(ui->opts.hidden & COL_BIT(id));
}

bool pane_shows(const struct ui *ui, enum col_id id)
{
	const struct ui_snap *s = ui_shown(ui);

	if (!pane_chosen(ui, id))
		return false;
	if (!(columns[id].flags & COL_F_REMOTE))
		return true;
	return s && s->valid && columns_present(&columns[id], &s->f.total);
}

int pane_width(const struct ui *ui, const enum col_id *ids, int n)
{
	int w = 0;

	for (int k = 0; k < n; k++)
		if (pane_shows(ui, ids[k]))
			w += columns[ids[k]].screen.width;
	return w;
}

/* Is column @id the sort column, through pane @p's sortable columns? */
static bool pane_sorted(const struct ui *ui, const struct pane *p, enum col_id id)
{
	for (int j = 0; j < p->ncols; j++)
		if (p->cols[j].col == &columns[id])
			return ui_sorted(ui, &p->cols[j]);
	return false;
}

int pane_heads(struct ui *ui, const struct pane *p, const enum col_id *ids, int n, int y, int x)
{
	for (int k = 0; k < n; k++) {
		const struct col_style *st = &columns[ids[k]].screen;

		if (!pane_shows(ui, ids[k]))
			continue;
		draw_right(ui, y, x, st->width, pane_sorted(ui, p, ids[k]) ? UA_COLHDR_SORT : UA_COLHDR,
			   st->head);
		x += st->width;
	}
	return x;
}

void pane_format(enum col_id id, const struct metrics *m, int i, char *buf, size_t len)
{
	columns_cell(&columns[id], &columns[id].screen, m, i, buf, len);
}

int pane_cells(struct ui *ui, const enum col_id *ids, int n, int y, int x, const struct metrics *m,
	       bool ok, enum ui_attr base, const enum ui_attr *attr)
{
	char b[32];

	for (int k = 0; k < n; k++) {
		int w = columns[ids[k]].screen.width;

		if (!pane_shows(ui, ids[k]))
			continue;
		if (ok && !pane_col_why(ids[k], m)) {
			pane_format(ids[k], m, 0, b, sizeof(b));
			draw_right(ui, y, x, w, attr ? attr[k] : base, b);
		} else {
			draw_na(ui, y, x, w);
		}
		x += w;
	}
	return x;
}
