// SPDX-License-Identifier: MIT
/*
 * sargN, stack argument N of a function, the word N + 1 above the return
 * address: bpftrace's sugar for a read at reg("sp"), made that read here.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/functions.h"
#include "parse/parse.h"

bool pr_is_sarg(const char *s)
{
	return !strncmp(s, "sarg", 4) && s[4] && strspn(s + 4, "0123456789") == strlen(s + 4) &&
	       strlen(s + 4) < 3;
}

static struct st_expr *leaf(enum st_expr_kind kind, struct st_pos pos, const char *str, uint64_t v)
{
	struct st_expr *e = st_expr_new(kind, pos);

	if (e && str && !(e->str = strdup(str))) {
		st_expr_free(e);
		return NULL;
	}
	if (e)
		e->uval = v;
	return e;
}

/* parent with kid pushed; NULL, both freed, if either is NULL or out of memory. */
static struct st_expr *with_kid(struct parser *p, struct st_expr *parent, struct st_expr *kid)
{
	if (!parent || !kid) {
		st_expr_free(parent);
		st_expr_free(kid);
		return NULL;
	}
	if (pr_push_kid(p, parent, kid)) {
		st_expr_free(parent);
		return NULL;
	}
	return parent;
}

/*
 * sargN, as bpftrace reads it on x86-64: *(uint64 *)(reg("sp") + 8 * (N + 1)),
 * in e (the identifier), the checker's rules for reg() and the read its own.
 */
int pr_sarg(struct parser *p, struct st_expr *e)
{
	uint64_t off = 8 * (strtoull(e->str + 4, NULL, 10) + 1);
	struct st_expr *cast = st_expr_new(ST_EXPR_CAST, e->pos);
	struct st_expr *sum = st_expr_new(ST_EXPR_BINARY, e->pos);
	struct st_expr *reg = leaf(ST_EXPR_CALL, e->pos, "reg", 0);

	if (cast && !(cast->cast.name = strdup("uint64"))) {
		st_expr_free(cast);
		cast = NULL;
	}
	if (cast)
		cast->cast.ptrs = 1;
	if (sum)
		sum->op = ST_OP_ADD;
	if (reg)
		reg->func = ST_FN_REG;
	reg = with_kid(p, reg, leaf(ST_EXPR_STR, e->pos, "sp", 0));
	sum = with_kid(p, with_kid(p, sum, reg), leaf(ST_EXPR_INT, e->pos, NULL, off));
	cast = with_kid(p, cast, sum);
	if (!cast || pr_push_kid(p, e, cast))
		return pr_oom(p);
	e->kind = ST_EXPR_DEREF;
	return pr_grow(p, 4, e->pos);
}
