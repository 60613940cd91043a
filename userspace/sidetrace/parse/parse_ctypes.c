// SPDX-License-Identifier: MIT
/*
 * The C syntax of values: a cast's type ("(struct sock *)", "(uint16 *)",
 * "(unsigned int)"), and the postfix reads of a C value (p->member,
 * s.member, a[i]). The checker looks the types up (ctypes/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes/ctypes.h"
#include "parse/parse.h"

/* A cast type's words, at most this many bytes: a long C name, or a tag and a name. */
#define CAST_NAME_MAX 128

bool pr_at_type(const struct parser *p)
{
	return p->cur.kind == T_IDENT && st_ctype_word(p->lx.src + p->cur.off, p->cur.len);
}

/* Appends the current word to name (len bytes so far), then moves past it. */
static int add_word(struct parser *p, char *name, size_t *len)
{
	if (*len + 1 + p->cur.len >= CAST_NAME_MAX)
		return pr_err(p, p->cur.pos, "a cast's type name longer than %d bytes",
			      CAST_NAME_MAX - 1);
	*len += sprintf(name + *len, "%s%.*s", *len ? " " : "", (int)p->cur.len,
			p->lx.src + p->cur.off);
	return pr_advance(p);
}

/* A tag and its name ("struct sock"), or an integer's words ("unsigned long"). */
static int type_words(struct parser *p, char *name)
{
	size_t len = 0;
	int err;

	err = add_word(p, name, &len);
	if (!err && (!strcmp(name, "struct") || !strcmp(name, "union") || !strcmp(name, "enum"))) {
		if (p->cur.kind != T_IDENT)
			return pr_err(p, p->cur.pos, "expected a name after '%s' in the cast",
				      name);
		return add_word(p, name, &len);
	}
	while (!err && p->cur.kind == T_IDENT)
		err = add_word(p, name, &len);
	return err;
}

int pr_cast_type(struct parser *p, struct st_cast_type *t)
{
	char name[CAST_NAME_MAX];
	int err;

	err = type_words(p, name);
	while (!err && p->cur.kind == T_STAR) {
		if (t->ptrs == 8)
			return pr_err(p, p->cur.pos, "a cast to more than 8 levels of pointers");
		t->ptrs++;
		err = pr_advance(p);
	}
	if (!err && p->cur.kind != T_RPAREN)
		err = pr_err(p, p->cur.pos, "expected '*' or ')' after the cast's type %s", name);
	if (err)
		return err;
	/* The checker looks every name up, bpftrace's integers (uint8) too. */
	t->name = strdup(name);
	return t->name ? pr_advance(p) : pr_oom(p);
}

/* One postfix read of e: "->NAME", ".NAME" or "[" expr "]". */
static int postfix_one(struct parser *p, struct st_expr *e, struct st_expr **out)
{
	enum st_tok kind = p->cur.kind;
	struct st_expr *node, *index;
	uint32_t h = p->height;
	int err;

	node = st_expr_new(kind == T_LBRACK ? ST_EXPR_INDEX : ST_EXPR_MEMBER, p->cur.pos);
	if (!node) {
		st_expr_free(e);
		return pr_oom(p);
	}
	node->arrow = kind == T_ARROW;
	err = pr_push_kid(p, node, e);
	if (!err)
		err = pr_advance(p);
	if (!err && kind != T_LBRACK) {
		/* ".0": a tuple's element */
		if (p->cur.kind != T_IDENT && (p->cur.kind != T_INT || kind == T_ARROW))
			err = pr_err(p, p->cur.pos, "expected a member's name after '%s'",
				     kind == T_ARROW ? "->" : ".");
		else if (!(node->str = strndup(p->lx.src + p->cur.off, p->cur.len)))
			err = pr_oom(p);
		else
			err = pr_advance(p);
	} else if (!err) {
		err = pr_expr(p, 0, &index);
		if (!err)
			err = pr_push_kid(p, node, index);
		h = p->height > h ? p->height : h;
		if (!err && p->cur.kind != T_RBRACK)
			err = pr_err(p, p->cur.pos, "expected ']' after the index");
		if (!err)
			err = pr_advance(p);
	}
	if (!err)
		err = pr_grow(p, h, node->pos);
	if (err) {
		st_expr_free(node);
		return err;
	}
	*out = node;
	return 0;
}

/* x++ or x-- of a variable or a map element e: the checker makes it a statement before its own. */
static int postfix_incr(struct parser *p, struct st_expr *e, struct st_expr **out)
{
	struct st_expr *n = st_expr_node(ST_EXPR_INCR, e->pos, 1, e, NULL);
	int err;

	if (!n) {
		st_expr_free(e);
		return pr_oom(p);
	}
	n->op = p->cur.kind == T_INC ? ST_OP_ADD : ST_OP_SUB;
	n->post = true;
	err = pr_grow(p, p->height, n->pos) ?: pr_advance(p);
	/* As every parse function: on an error, nothing handed out, nothing kept. */
	if (err) {
		st_expr_free(n);
		return err;
	}
	*out = n;
	return 0;
}

int pr_postfix(struct parser *p, struct st_expr *e, struct st_expr **out)
{
	int err = 0;

	while (p->cur.kind == T_ARROW || p->cur.kind == T_DOT || p->cur.kind == T_LBRACK) {
		err = postfix_one(p, e, &e);
		if (err)
			return err;
	}
	if ((p->cur.kind == T_INC || p->cur.kind == T_DEC) &&
	    (e->kind == ST_EXPR_VAR || e->kind == ST_EXPR_MAP))
		return postfix_incr(p, e, out);
	*out = e;
	return 0;
}
