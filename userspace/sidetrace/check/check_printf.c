// SPDX-License-Identifier: MIT
/*
 * printf("fmt", args...): the format parsed once, its conversions matched
 * with the arguments by count and kind, dynamic fields typed by the
 * conversion they meet.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "parse/format.h"

/* The column of byte off of a string literal's text (exact without escapes). */
static struct st_pos literal_pos(const struct st_expr *lit, uint32_t off)
{
	struct st_pos pos = lit->pos;

	pos.col += 1 + off;
	return pos;
}

/* Whether checked e is buf()'s bytes, which print with %r only (not ntop()'s or macaddr()'s). */
static bool raw_bytes(const struct st_expr *e)
{
	if (e->kind == ST_EXPR_STR)
		return ST_BUF_KIND(e->str[0]) == ST_BUF_BYTES;
	return e->kind == ST_EXPR_CALL && st_func(e->func)->bpf == ST_FC_BUF &&
	       e->uval == ST_BUF_BYTES;
}

/* %r, %rx, %rh print a buffer; %s prints an address or a MAC address's text, as bpftrace. */
static int check_buf_arg(struct checker *c, const struct st_conv *cv, struct st_expr *arg,
			 uint32_t n)
{
	if (cv->arg == ST_CONV_BUF && arg->vtype != ST_VT_BUF)
		return ck_err(c, arg->pos,
			      "printf: argument %u is %s, but %%r prints a buffer: buf(addr, len)",
			      n, ck_vtype_kind(arg->vtype));
	if (cv->arg == ST_CONV_BUF || (cv->arg == ST_CONV_STR && !raw_bytes(arg)))
		return 0;
	return ck_err(c, arg->pos, "printf: argument %u is a buffer: print it with %%r%s", n,
		      cv->arg == ST_CONV_STR ? ", %rx or %rh" : "");
}

static int check_arg(struct checker *c, const struct st_conv *cv, struct st_expr *arg, uint32_t n)
{
	bool want_str = cv->arg == ST_CONV_STR;
	int err;

	/* Only a field is a float: as an argument itself, never inside one. */
	c->float_ok = arg->kind == ST_EXPR_FIELD;
	err = ck_expr(c, arg);
	c->float_ok = false;
	if (!err && cv->arg == ST_CONV_FLOAT && arg->vtype == ST_VT_NONE)
		return ck_err(c, arg->pos,
			      "printf: argument %u is a dynamic field, which sidetrace reads as an "
			      "integer or a string, but its conversion prints a floating-point "
			      "value",
			      n);
	if (!err && cv->arg == ST_CONV_FLOAT && arg->vtype != ST_VT_FLOAT)
		return ck_err(c, arg->pos,
			      "printf: argument %u is %s, but its conversion prints a "
			      "floating-point value: use %s",
			      n, ck_vtype_kind(arg->vtype),
			      arg->vtype == ST_VT_STR ? "%s" : "%d, %u or %x");
	if (!err && cv->arg == ST_CONV_FLOAT)
		return 0;
	if (!err && (cv->arg == ST_CONV_BUF || arg->vtype == ST_VT_BUF))
		return check_buf_arg(c, cv, arg, n);
	if (!err && arg->vtype == ST_VT_FLOAT)
		return ck_err(c, arg->pos,
			      "printf: argument %u is a floating-point value: print it with %%f, "
			      "%%e or %%g",
			      n);
	if (!err)
		err = ck_settle(c, arg, want_str ? ST_VT_STR : ST_VT_INT,
				want_str ? "printed with %s" : "printed as a number");
	if (err)
		return err;
	/*
	 * An enum field prints its label with %s, ksym() and usym() their
	 * function, kstack and ustack their frames (compile/records.c).
	 */
	if (!want_str && st_kept_is_text(st_expr_kept(arg)))
		return ck_err(c, arg->pos,
			      "printf: argument %u is text the collector makes, but its conversion "
			      "wants an integer: use %%s",
			      n);
	if (want_str && arg->vtype != ST_VT_STR && !st_expr_enum(arg) &&
	    !st_kept_is_text(st_expr_kept(arg)) && !st_kept_is_named(st_expr_kept(arg)))
		return ck_err(c, arg->pos,
			      "printf: argument %u is an integer, but its conversion is %%s: use "
			      "%%d, %%u or %%x",
			      n);
	/* A kernel record's char * printed as a number is its address, as bpftrace prints it. */
	if (!want_str && arg->vtype == ST_VT_STR) {
		err = ck_string_pointer(c, arg);
		if (err)
			return err;
	}
	if (!want_str && arg->vtype == ST_VT_STR)
		return ck_err(c, arg->pos,
			      "printf: argument %u is a string, but its conversion wants an "
			      "integer: use %%s",
			      n);
	return 0;
}

/*
 * debugf()'s format as bpf_trace_printk() takes it (the kernel checks it
 * when it prints, and prints nothing for one it refuses): printable text,
 * and conversions %[0+- ][width][l[l]]d, i, u, x, X, and %s, %c, %p.
 */
static int debugf_format(struct checker *c, const struct st_expr *lit)
{
	const char *s = lit->str, *p;
	uint32_t i;

	if (strlen(s) >= ST_STR_LEN)
		return ck_err(c, lit->pos,
			      "debugf()'s format is longer than %d bytes: the kernel's copy of "
			      "it holds that many",
			      ST_STR_LEN - 1);
	for (i = 0; s[i]; i++) {
		if (!isprint((unsigned char)s[i]) && !isspace((unsigned char)s[i]))
			return ck_err(c, literal_pos(lit, i),
				      "debugf()'s format holds a byte bpf_trace_printk() refuses "
				      "(not printable)");
		if (s[i] != '%' || s[i + 1] == '%') {
			i += s[i] == '%';
			continue;
		}
		p = s + i + 1;
		p += strspn(p, "0+- ");
		p += strspn(p, "0123456789");
		if (*p != 's' && *p != 'c' && *p != 'p')
			p += *p == 'l' ? (p[1] == 'l' ? 2 : 1) : 0;
		if (!*p || !strchr("diuxXscp", *p))
			return ck_err(c, literal_pos(lit, i),
				      "debugf() prints with bpf_trace_printk(), which takes "
				      "%%[0+- ][width][l|ll]d, i, u, x, X, and %%s, %%c, %%p: "
				      "printf() takes the others");
		i = p - s;
	}
	return 0;
}

int ck_printf(struct checker *c, struct st_expr *call)
{
	struct st_expr *lit = call->nr_kids ? call->kids[0] : NULL;
	struct st_format *f;
	uint32_t at = 0, i, n = 0;
	char err[256];
	int ret;

	if (!lit || lit->kind != ST_EXPR_STR)
		return ck_err(c, lit ? lit->pos : call->pos,
			      "%s takes a format string first: %s(\"fmt\", args...)",
			      st_func_name(call->func), st_func_name(call->func));
	if (call->nr_kids > st_func(call->func)->max_args)
		return ck_err(c, call->pos, "%s() takes a format and at most %u values",
			      st_func_name(call->func), st_func(call->func)->max_args - 1);
	f = calloc(1, sizeof(*f));
	if (!f)
		return ck_oom(c);
	call->fmt = f;
	ret = st_format_parse(lit->str, f, err, sizeof(err), &at);
	if (ret == -ENOMEM)
		return ck_oom(c);
	if (ret)
		return ck_err(c, literal_pos(lit, at), "%s", err);
	if (call->nr_kids - 1 != f->nr_convs)
		return ck_err(c,
			      call->nr_kids - 1 > f->nr_convs ? call->kids[f->nr_convs + 1]->pos
							      : call->pos,
			      "printf: the format has %u conversion%s but %u argument%s follow%s",
			      f->nr_convs, f->nr_convs == 1 ? "" : "s", call->nr_kids - 1,
			      call->nr_kids == 2 ? "" : "s", call->nr_kids == 2 ? "s" : "");
	for (i = 0; i < f->nr_pieces; i++) {
		if (!f->pieces[i].is_conv)
			continue;
		n++;
		ret = check_arg(c, &f->pieces[i].conv, call->kids[n], n);
		if (ret)
			return ret;
	}
	if (st_func(call->func)->host != ST_FC_DEBUGF)
		return 0;
	/* sidetrace's own clause prints through sidetrace_debugf (bpf/user.bpf.h). */
	c->prog->user_debugf |= c->no_args != NULL;
	return debugf_format(c, lit);
}

int ck_print_value(struct checker *c, struct st_expr *call)
{
	struct st_expr *v = call->kids[0];
	struct st_format *f;
	const char *text;
	char err[256];
	uint32_t at;
	int ret;

	ret = ck_settle_default(c, v, "printed by print()");
	if (ret)
		return ret;
	if (v->vtype == ST_VT_BUF)
		text = "%r\n";
	else if (v->vtype == ST_VT_STR || st_kept_is_text(st_expr_kept(v)) ||
		 st_kept_is_named(st_expr_kept(v)))
		text = "%s\n";
	else
		text = v->vtype == ST_VT_INT ? "%lld\n" : "%llu\n";
	f = calloc(1, sizeof(*f));
	if (!f)
		return ck_oom(c);
	call->fmt = f;
	ret = st_format_parse(text, f, err, sizeof(err), &at);
	if (ret == -ENOMEM)
		return ck_oom(c);
	return ret ? ck_err(c, call->pos, "internal error: %s", err) : 0;
}

/*
 * time("fmt") prints the event's time (nsecs), as bpftrace's time() prints
 * the time it is handled: rewritten into printf("%s", strftime("fmt",
 * nsecs)), it is a printf in every way after this.
 */
int ck_time(struct checker *c, struct st_expr *call)
{
	struct st_expr *fmt, *tm, *ns, *tfmt, **kids, **tkids;

	if (call->nr_kids > 1 || (call->nr_kids && call->kids[0]->kind != ST_EXPR_STR))
		return ck_err(c, call->nr_kids ? call->kids[0]->pos : call->pos,
			      "time() takes a format string: time(\"%%H:%%M:%%S\\n\")");
	fmt = st_expr_new(ST_EXPR_STR, call->pos);
	tm = st_expr_new(ST_EXPR_CALL, call->pos);
	ns = st_expr_new(ST_EXPR_BUILTIN, call->pos);
	tfmt = call->nr_kids ? call->kids[0] : st_expr_new(ST_EXPR_STR, call->pos);
	kids = calloc(2, sizeof(*kids));
	tkids = calloc(2, sizeof(*tkids));
	if (fmt)
		fmt->str = strdup("%s");
	if (tfmt && !tfmt->str)
		tfmt->str = strdup("%H:%M:%S\n");
	if (!fmt || !fmt->str || !tm || !ns || !tfmt || !tfmt->str || !kids || !tkids) {
		st_expr_free(fmt);
		st_expr_free(tm);
		st_expr_free(ns);
		if (!call->nr_kids)
			st_expr_free(tfmt);
		free(kids);
		free(tkids);
		return ck_oom(c);
	}
	ns->builtin = ST_BUILTIN_NSECS;
	tm->func = ST_FN_STRFTIME;
	tm->kids = tkids;
	tm->nr_kids = 2;
	tkids[0] = tfmt;
	tkids[1] = ns;
	free(call->kids);
	call->kids = kids;
	call->nr_kids = 2;
	kids[0] = fmt;
	kids[1] = tm;
	call->func = ST_FN_PRINTF;
	call->from_time = true;
	return ck_printf(c, call);
}
