// SPDX-License-Identifier: MIT
/*
 * Messages of the checker: errors at a position, lists of names, "did you mean".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

int ck_err(struct checker *c, struct st_pos pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_diag_vset(c->diag, c->prog->filename, pos, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int ck_oom(struct checker *c)
{
	st_diag_set(c->diag, c->prog->filename, (struct st_pos){0}, "out of memory");
	return -ENOMEM;
}

void ck_names_add(struct names *l, const char *a, const char *b)
{
	size_t room = sizeof(l->buf) - l->len;
	int n;

	if (room <= 5)
		return;
	n = snprintf(l->buf + l->len, room, "%s%s%s%s", l->n ? ", " : "", a, b ? ":" : "",
		     b ? b : "");
	/* Cut cleanly when the list does not fit. */
	if ((size_t)n >= room)
		strcpy(l->buf + sizeof(l->buf) - 5, "...");
	l->len = strlen(l->buf);
	l->n++;
}

/* Levenshtein distance, for "did you mean" suggestions. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, tmp, best;
	size_t *row = calloc(lb + 1, sizeof(*row));

	/* Without memory there is no suggestion: report them all as far. */
	if (!row)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* Close enough to be a typo: a third of the length, at least 2 edits. */
bool ck_is_near(const char *want, const char *have)
{
	size_t limit = strlen(want) / 3 > 2 ? strlen(want) / 3 : 2;

	return edit_distance(want, have) <= limit;
}

const char *ck_point_kind_name(const struct st_attach_point *p)
{
	return st_probe_kind(p->kind)->name;
}
