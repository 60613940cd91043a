// SPDX-License-Identifier: MIT
/*
 * path(): which word of the program's context holds what the kernel names
 * (bpf_d_path()), a struct path * or a struct file * whose f_path it is,
 * in each event of the clause (ST_DPATH_*, the instance's constant that
 * bpf/kernel.bpf.h reads). The kinds' rows say where to look (dpath_in):
 * an iterator's context's members, a trampoline's arguments. The kernel
 * allows the call in some programs only; the loader says where it refuses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

#define WHERE \
	"path() names a struct path * or a struct file *'s f_path: path(args->filp->f_path) " \
	"in fentry:filp_close, path(ctx->file->f_path) in iter:task_file"

/*
 * What path() names of a pointer of C type name, read as X (a struct
 * path *) or X->f_path (a struct file *): ST_DPATH_FILE or 0; -1: neither.
 */
static int ptr_kind(const char *name, bool f_path)
{
	if (!name)
		return -1;
	if (!strncmp(name, "const ", 6))
		name += 6;
	if (f_path)
		return strcmp(name, "struct file *") ? -1 : (int)ST_DPATH_FILE;
	return strcmp(name, "struct path *") ? -1 : 0;
}

/* The context's word of a member bit_off bits in, as ST_DPATH_* holds it; -1: none it can hold. */
static int word_of(uint64_t bit_off)
{
	return bit_off % 64 || bit_off / 64 >= ST_DPATH_WORDS ? -1 : (int)(bit_off / 64);
}

/*
 * With ST_DPATH_FILE in *v, f_path's offset in struct file, as the
 * kernel's BTF lays it out, into *v too.
 */
static int f_path_off(struct checker *c, const struct st_expr *x, uint32_t *v)
{
	struct st_ctypes *r = ck_ctypes(c);
	const struct st_cmember *m;
	struct st_ctype *t;
	uint32_t bit_off;
	char why[256];
	int err;

	if (!(*v & ST_DPATH_FILE))
		return 0;
	if (!r)
		return ck_oom(c);
	err = st_ctypes_named(r, "struct file", &t, why, sizeof(why));
	if (!err)
		err = st_ctype_member(r, t, "f_path", &m, &bit_off);
	if (err == -ENOMEM)
		return ck_oom(c);
	if (err || bit_off % 8 || bit_off / 8 > ST_DPATH_OFF_MAX)
		return ck_err(c, x->pos, "path(): the kernel's BTF has no struct file with f_path");
	*v |= bit_off / 8 << ST_DPATH_OFF_SHIFT;
	return 0;
}

/* x->f_path: x, else NULL. */
static const struct st_expr *f_path_of(const struct st_expr *x)
{
	return x->kind == ST_EXPR_MEMBER && x->arrow && !strcmp(x->str, "f_path") ? x->kids[0]
										  : NULL;
}

/* path(ctx->MEMBER) or path(ctx->MEMBER->f_path): the member's word. */
static int in_ctx(struct checker *c, struct st_expr *x, uint32_t *v)
{
	struct st_expr *src = (struct st_expr *)f_path_of(x) ?: x;
	int kind, word, err;

	if (src->kind != ST_EXPR_MEMBER || !src->arrow || src->kids[0]->kind != ST_EXPR_BUILTIN ||
	    !st_builtin(src->kids[0]->builtin)->kind_ctype)
		return ck_err(c, x->pos, "%s", WHERE);
	err = ck_expr(c, src);
	if (err)
		return err;
	kind = ptr_kind(src->ctype ? src->ctype->name : NULL, src != x);
	word = word_of(src->bit_off);
	if (kind < 0 || word < 0)
		return ck_err(c, x->pos, "%s; ctx->%s is %s", WHERE, src->str,
			      src->ctype ? src->ctype->name : "not a pointer");
	*v = ST_DPATH_ON | kind | word;
	return f_path_off(c, x, v);
}

/* ev has no argument x names: said with those it has. */
static int no_arg(struct checker *c, const struct st_expr *x, const struct st_event *ev)
{
	char names[256] = "";
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < ev->nr_fields && n < sizeof(names); i++)
		if (strcmp(ev->fields[i].name, "retval"))
			n += snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
				      ev->fields[i].name);
	return ck_err(c, x->pos, "%s has no argument %s: its arguments are %s", ev->name,
		      x->path[0].name, n ? names : "none");
}

/* path(args->NAME) or path(args->NAME->f_path) in ev: the argument's word. */
static int in_args(struct checker *c, const struct st_expr *x, const struct st_event *ev,
		   uint32_t *v)
{
	bool f_path = x->nr_path == 2;
	const struct st_arg_spec *spec;
	const char *name = x->path[0].name;
	int kind;
	uint32_t i;

	for (i = 0; i < ev->nr_fields && strcmp(ev->fields[i].name, name); i++)
		;
	if (i == ev->nr_fields)
		return no_arg(c, x, ev);
	spec = &ev->sites[0].sdt.spec[i];
	kind = ptr_kind(ev->fields[i].type.c_name, f_path);
	if (kind < 0 || spec->loc != ST_LOC_FUNC_ARG || spec->val >= ST_DPATH_WORDS)
		return ck_err(c, x->pos, "%s; in %s, args->%s is %s%s", WHERE, ev->name, name,
			      ev->fields[i].type.c_name ?: "not a pointer",
			      spec->val >= ST_DPATH_WORDS ? ", past the arguments path() reads"
							  : "");
	*v = ST_DPATH_ON | kind | spec->val;
	return f_path_off(c, x, v);
}

/* Whether x is args->NAME or args->NAME->f_path ('.' or '->' alike, as for any field). */
static bool args_form(const struct st_expr *x)
{
	return x->kind == ST_EXPR_FIELD && !strcmp(x->str, "args") &&
	       (x->nr_path == 1 || (x->nr_path == 2 && x->path[1].kind == ST_SEG_NAME &&
				    !strcmp(x->path[1].name, "f_path")));
}

/* Where path() looks in the clause's probes; ST_DPATH_IN_NONE where they differ. */
static enum st_dpath_in clause_in(const struct st_clause *cl)
{
	enum st_dpath_in in = ST_DPATH_IN_NONE;
	uint32_t i;

	for (i = 0; i < cl->nr_points; i++) {
		if (i && st_probe_kind(cl->points[i].kind)->dpath_in != in)
			return ST_DPATH_IN_NONE;
		in = st_probe_kind(cl->points[i].kind)->dpath_in;
	}
	return in;
}

/* Each event's word into dpath[], one clause's path() agreeing with its others. */
static int set_words(struct checker *c, struct st_expr *x, enum st_dpath_in in, uint32_t *dpath)
{
	struct st_clause *cl = c->clause;
	uint32_t v = 0;
	uint32_t i;
	int err;

	for (i = 0; i < cl->nr_events; i++) {
		err = in == ST_DPATH_IN_CTX ? in_ctx(c, x, &v) : in_args(c, x, cl->events[i], &v);
		if (err)
			return err;
		if (dpath[i] && dpath[i] != v)
			return ck_err(c, x->pos,
				      "a second path() of another argument: the kernel names one "
				      "path per event");
		dpath[i] = v;
	}
	return 0;
}

int ck_dpath(struct checker *c, struct st_expr *call)
{
	struct st_clause *cl = c->clause;
	struct st_expr *x = call->kids[0];
	enum st_dpath_in in = clause_in(cl);
	int err;

	if (in == ST_DPATH_IN_NONE)
		return ck_err(c, call->pos,
			      "path() names a file's path where the kernel lets a program name "
			      "one (bpf_d_path()): in iter:task_file, and in fentry: and fexit: "
			      "of some functions (filp_close, security_file_open, vfs_truncate, "
			      "...), in clauses of those probes alone; "
			      "str(X->f_path.dentry->d_name.name) reads a file's last name");
	if (in == ST_DPATH_IN_ARGS && !args_form(x))
		return ck_err(c, x->pos, "%s", WHERE);
	if (!cl->dpath && cl->nr_events) {
		cl->dpath = calloc(cl->nr_events, sizeof(*cl->dpath));
		if (!cl->dpath)
			return ck_oom(c);
	}
	err = set_words(c, x, in, cl->dpath);
	if (err)
		return err;
	call->vtype = ST_VT_STR;
	return 0;
}
