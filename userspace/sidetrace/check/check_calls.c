// SPDX-License-Identifier: MIT
/*
 * The arguments of the functions bpftrace has beside the core ones:
 * join(), ntop(), pton(), cgroupid(), signal(), and where each may run;
 * the byte buffers' calls are in check_bufs.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <arpa/inet.h>

#include "check/check.h"
#include "util/interned.h"

int ck_host_has(struct checker *c, const struct st_expr *call)
{
	const struct st_func_row *f = st_func(call->func);

	if (c->no_args && f->host == ST_FC_NONE)
		return ck_err(c, call->pos, "%s() in %s: %s", f->name,
			      ck_point_kind_name(c->no_args), f->no_host);
	return 0;
}

int ck_unsafe(struct checker *c, const struct st_expr *call)
{
	if (st_func(call->func)->unsafe && !c->prog->unsafe)
		return ck_err(c, call->pos,
			      "%s() acts on the system: as in bpftrace, it runs only with --unsafe",
			      st_func_name(call->func));
	return 0;
}

/* join(arr), join(arr, "delim"): the array's address, a literal delimiter. */
int ck_join(struct checker *c, struct st_expr *call)
{
	int err = ck_host_has(c, call);

	if (!err && (call->nr_kids < 1 || call->nr_kids > 2))
		return ck_err(c, call->pos,
			      "join() takes an array of strings and an optional delimiter: "
			      "join(args->argv), join(args->argv, \",\")");
	if (!err)
		err = ck_int(c, call->kids[0], "join()'s array");
	if (!err && call->nr_kids == 2 && call->kids[1]->kind != ST_EXPR_STR)
		return ck_err(c, call->kids[1]->pos, "join()'s delimiter must be a string literal");
	return err;
}

/* An integer literal: ntop()'s address family, a buffer's length. */
static bool literal_int(const struct st_expr *e, uint64_t *v)
{
	*v = e->uval;
	return e->kind == ST_EXPR_INT;
}

/* The address family of ntop(af, addr): a constant AF_INET or AF_INET6, or 1: none yet. */
static int ntop_family(struct checker *c, struct st_expr *af, uint64_t *v)
{
	int err = ck_int(c, af, "ntop()'s address family");

	if (err)
		return err;
	/* A family known only when the probe fires: by_family() reads it there. */
	if (!literal_int(af, v))
		return af->kind == ST_EXPR_CALL || af->kind == ST_EXPR_INCR ||
				       af->kind == ST_EXPR_BUILTIN
			       ? ck_err(c, af->pos,
					"ntop()'s address family is read twice: keep it in a "
					"variable first ($af = ...; ntop($af, addr))")
			       : 1;
	if (*v != AF_INET && *v != AF_INET6)
		return ck_err(c, af->pos,
			      "ntop()'s address family is AF_INET (2) or AF_INET6 (10), not %llu",
			      (unsigned long long)*v);
	return 0;
}

/*
 * ntop(addr), ntop(af, addr): an IPv4 address as an integer, or a byte
 * array (char[4], char[16], pton()'s), whose size says the family where
 * af does not: the array's bytes become an ST_BUF_INET buffer, af's 4 or
 * 16 of them as bpftrace reads them.
 */
/*
 * ntop() of an IPv4 address as bytes, as bpftrace makes every ntop() a
 * buffer, so that a variable assigned ntop(0) first, then ntop() of an
 * IPv6 array, holds one kind of value (the tcp tools' idiom): a constant
 * made the constant's 4 bytes in memory, a 4-byte integer read from
 * memory (skc_rcv_saddr) read as its bytes. 1 when call became a buffer.
 */
static int inet_bytes(struct checker *c, struct st_expr *call, struct st_expr *addr, uint64_t af)
{
	struct st_ctypes *r = ck_ctypes(c);
	struct st_ctype *byte;
	uint32_t v;

	if (af == AF_INET6 || !r)
		return r ? 0 : ck_oom(c);
	if (addr->kind == ST_EXPR_INT) {
		v = (uint32_t)addr->uval;
		return ck_buf_const(c, call, ST_BUF_INET, &v, 4) ?: 1;
	}
	if ((addr->kind != ST_EXPR_MEMBER && addr->kind != ST_EXPR_INDEX &&
	     addr->kind != ST_EXPR_DEREF) ||
	    !addr->ctype || !st_ctype_scalar(addr->ctype) || addr->ctype->kind == ST_CT_PTR ||
	    addr->ctype->size != 4 || addr->bit_size)
		return 0;
	byte = st_ctype_int(r, 1, false);
	addr->ctype = byte ? st_ctype_array(r, byte, 4) : NULL;
	if (!addr->ctype)
		return ck_oom(c);
	return ck_make_buf(c, call, ST_BUF_INET, 4) ?: 1;
}

/* A node of by_family(): kind over a and b, or NULL (both freed) when out of memory. */
static struct st_expr *node(enum st_expr_kind kind, struct st_pos pos, struct st_expr *a,
			    struct st_expr *b)
{
	struct st_expr *e = a && b ? st_expr_node(kind, pos, 2, a, b) : NULL;

	if (!e) {
		st_expr_free(a);
		st_expr_free(b);
	}
	return e;
}

/* call, ntop(af, addr), with the constant family v and an empty cond: a ? b : c's c. */
static struct st_expr *family_branch(const struct st_expr *call, uint64_t v, struct st_expr *no)
{
	struct st_expr *n = st_expr_clone(call), *af = st_expr_new(ST_EXPR_INT, call->pos);
	struct st_expr *is = node(ST_EXPR_BINARY, call->pos, st_expr_clone(call->kids[0]),
				  st_expr_new(ST_EXPR_INT, call->pos));
	struct st_expr *t = st_expr_new(ST_EXPR_TERNARY, call->pos);
	struct st_expr **kids = calloc(3, sizeof(*kids));

	if (!n || !af || !is || !t || !kids || !no) {
		st_expr_free(n);
		st_expr_free(af);
		st_expr_free(is);
		st_expr_free(t);
		st_expr_free(no);
		free(kids);
		return NULL;
	}
	af->uval = v;
	st_expr_free(n->kids[0]);
	n->kids[0] = af;
	is->op = ST_OP_EQ;
	is->kids[1]->uval = v;
	kids[0] = is;
	kids[1] = n;
	kids[2] = no;
	t->kids = kids;
	t->nr_kids = 3;
	return t;
}

/*
 * ntop(af, addr) of a family known only when the probe fires
 * (args->family): af == AF_INET ? ntop(AF_INET, addr) : af == AF_INET6 ?
 * ntop(AF_INET6, addr) : no address (""), as bpftrace prints it.
 */
static int by_family(struct checker *c, struct st_expr *call)
{
	struct st_expr *none = st_expr_new(ST_EXPR_STR, call->pos), *t;

	if (!none || ck_buf_const(c, none, ST_BUF_INET, "", 0)) {
		st_expr_free(none);
		return ck_oom(c);
	}
	t = family_branch(call, AF_INET, family_branch(call, AF_INET6, none));
	if (!t)
		return ck_oom(c);
	st_expr_replace(call, t);
	return ck_expr(c, call);
}

int ck_ntop(struct checker *c, struct st_expr *call)
{
	uint64_t af = 0;
	struct st_expr *addr;
	int err;

	if (call->nr_kids < 1 || call->nr_kids > 2)
		return ck_err(c, call->pos,
			      "ntop() takes an IPv4 or IPv6 address, after an optional address "
			      "family: ntop(addr), ntop(AF_INET6, args->saddr_v6)");
	addr = call->kids[call->nr_kids - 1];
	err = call->nr_kids == 2 ? ntop_family(c, call->kids[0], &af) : 0;
	if (err == 1)
		return by_family(c, call);
	if (!err)
		err = ck_bytes_arg(c, addr);
	if (err)
		return err;
	err = inet_bytes(c, call, addr, af);
	if (err)
		return err < 0 ? err : 0;
	if (ck_bytes_of(addr))
		return ck_make_buf(c, call, ST_BUF_INET, af == AF_INET6 ? 16 : af ? 4 : 0);
	if (af == AF_INET6)
		return ck_err(c, call->kids[0]->pos,
			      "ntop(AF_INET6, addr) of an integer: an IPv6 address is 16 bytes, "
			      "pass them as an array (args->saddr_v6, a char[16] member)");
	err = ck_need_int(c, addr, "ntop()'s address");
	call->vtype = st_func(call->func)->vtype;
	return err;
}

/*
 * pton("addr"): the address's bytes, uint8[4] or uint8[16] (a '.' says
 * IPv4, as bpftrace tells them), a constant ST_BUF_ARRAY buffer.
 */
int ck_pton(struct checker *c, struct st_expr *call)
{
	struct st_expr *a = call->nr_kids == 1 ? call->kids[0] : NULL;
	bool v4 = a && a->kind == ST_EXPR_STR && strchr(a->str, '.');
	uint8_t bytes[16];

	if (!a || a->kind != ST_EXPR_STR)
		return ck_err(c, a ? a->pos : call->pos,
			      "pton() takes an address as a string literal: pton(\"127.0.0.1\"), "
			      "pton(\"::1\")");
	if (inet_pton(v4 ? AF_INET : AF_INET6, a->str, bytes) != 1)
		return ck_err(c, a->pos, "pton(): %s is not an IPv%d address", a->str, v4 ? 4 : 6);
	return ck_buf_const(c, call, ST_BUF_ARRAY, bytes, v4 ? 4 : 16);
}

/*
 * cgroupid("path"): the id of the cgroup v2 directory at path, its inode,
 * read when the program is checked, as bpftrace resolves it when it
 * compiles; the call becomes that literal.
 */
int ck_cgroupid(struct checker *c, struct st_expr *call)
{
	struct st_expr *path = call->nr_kids == 1 ? call->kids[0] : NULL;
	struct statfs fs;
	struct stat st;

	if (!path || path->kind != ST_EXPR_STR)
		return ck_err(c, call->pos,
			      "cgroupid() takes a cgroup's path: "
			      "cgroupid(\"/sys/fs/cgroup/user.slice\")");
	if (stat(path->str, &st) || statfs(path->str, &fs))
		return ck_err(c, path->pos, "cgroupid(): %s: %s", path->str, strerror(errno));
	if (fs.f_type != CGROUP2_SUPER_MAGIC)
		return ck_err(c, path->pos,
			      "cgroupid(): %s is not in a cgroup v2 hierarchy: only those have ids",
			      path->str);
	st_expr_make_int(call, st.st_ino);
	return 0;
}

int ck_strings(struct checker *c, struct st_expr *e)
{
	const char *fn = st_func_name(e->func);
	char role[64];
	uint32_t i;
	int err;

	for (i = 0; i < e->nr_kids; i++) {
		err = ck_expr(c, e->kids[i]);
		if (!err)
			err = ck_settle(c, e->kids[i], ST_VT_STR, "passed to a string function");
		if (err)
			return err;
		snprintf(role, sizeof(role), "%s()'s %s", fn, i ? "second" : "first");
		if (e->kids[i]->vtype != ST_VT_STR)
			return ck_err(c, e->kids[i]->pos,
				      "%s needs a string: str(addr) reads one at an address", role);
	}
	e->vtype = st_func(e->func)->vtype;
	return 0;
}

int ck_kept_arg(struct checker *c, struct st_expr *call, const struct st_expr *lit)
{
	int id = st_intern(lit->str);

	if (id == -ENOSPC)
		return ck_err(c, lit->pos, "more than %d formats and filters in one sidetrace",
			      ST_INTERNED_MAX);
	if (id < 0)
		return ck_oom(c);
	call->uval = (uint64_t)id;
	return 0;
}

int ck_cgroup_path(struct checker *c, struct st_expr *e)
{
	int err;

	if (e->nr_kids < 1 || e->nr_kids > 2)
		return ck_err(c, e->pos,
			      "cgroup_path() takes a cgroup's id, and a filter of hierarchies: "
			      "cgroup_path(cgroup), cgroup_path(cgroup, \"unified\")");
	if (e->nr_kids == 2 && e->kids[1]->kind != ST_EXPR_STR)
		return ck_err(c, e->kids[1]->pos,
			      "cgroup_path()'s filter is a literal string, a glob of the "
			      "hierarchies' names: \"unified\", \"cpu*\"");
	e->vtype = ST_VT_UINT;
	err = ck_int(c, e->kids[0], "passed to cgroup_path()");
	return err || e->nr_kids < 2 ? err : ck_kept_arg(c, e, e->kids[1]);
}

/* The signals bpf_send_signal() sends: 1 to 64, as bpftrace allows. */
#define SIGNAL_MAX 64

/* The number of signal name ("SIGKILL", as kill -l names it), or 0. */
static int signal_number(const char *name)
{
	const char *abbrev;
	int sig;

	if (strncmp(name, "SIG", 3))
		return 0;
	for (sig = 1; sig < NSIG; sig++) {
		abbrev = sigabbrev_np(sig);
		if (abbrev && !strcmp(abbrev, name + 3))
			return sig;
	}
	return 0;
}

/*
 * signal(n), signal("SIGNAME"): a number, checked when it is a literal,
 * or a name that becomes its number.
 */
int ck_signal(struct checker *c, struct st_expr *call)
{
	struct st_expr *sig = call->nr_kids == 1 ? call->kids[0] : NULL;
	int err = ck_host_has(c, call), n;

	if (!err && !sig)
		return ck_err(c, call->pos,
			      "signal() takes a signal: signal(9), signal(\"SIGKILL\")");
	if (!err && sig->kind == ST_EXPR_STR) {
		n = signal_number(sig->str);
		if (!n)
			return ck_err(c, sig->pos,
				      "signal(): %s is not a signal's name (SIGKILL, ...)",
				      sig->str);
		free(sig->str);
		sig->str = NULL;
		sig->kind = ST_EXPR_INT;
		sig->uval = n;
	}
	if (!err)
		err = ck_int(c, sig, "signal()'s number");
	if (!err && sig->kind == ST_EXPR_INT && (sig->uval < 1 || sig->uval > SIGNAL_MAX))
		return ck_err(c, sig->pos, "signal(): %lld is not a signal: they are 1 to %d",
			      (long long)sig->uval, SIGNAL_MAX);
	return err;
}

int ck_unwatch(struct checker *c, struct st_expr *call)
{
	int err = ck_host_has(c, call);

	if (!err && call->nr_kids != 1)
		return ck_err(c, call->pos, "unwatch() takes an address: unwatch(@addr)");
	return err ?: ck_int(c, call->kids[0], "unwatch()'s address") ?: ck_print_value(c, call);
}

/* str(s, n): the call node that cuts s to its first n bytes; NULL when out of memory. */
static struct st_expr *cut(struct st_expr *s, uint64_t n)
{
	struct st_expr *len = st_expr_new(ST_EXPR_INT, s->pos);
	struct st_expr *call = st_expr_node(ST_EXPR_CALL, s->pos, 2, s, len);

	if (call)
		call->str = strdup("str");
	if (!call || !call->str) {
		if (call) {
			/* s stays the caller's. */
			call->kids[0] = NULL;
			st_expr_free(call);
		} else {
			st_expr_free(len);
		}
		return NULL;
	}
	call->func = ST_FN_STR;
	len->uval = n;
	return call;
}

int ck_strncmp(struct checker *c, struct st_expr *e)
{
	struct st_expr *n = e->nr_kids == 3 ? e->kids[2] : NULL, *a, *b;

	if (!n || n->kind != ST_EXPR_INT || n->uval >= ST_STR_LEN)
		return ck_err(c, n ? n->pos : e->pos,
			      "strncmp(a, b, n): n must be an integer constant from 0 to %d",
			      ST_STR_LEN - 1);
	/* strncmp(a, b, n) is str(a, n) != str(b, n), which every engine compares. */
	a = cut(e->kids[0], n->uval);
	b = a ? cut(e->kids[1], n->uval) : NULL;
	if (!a || !b) {
		if (a)
			a->kids[0] = NULL;
		st_expr_free(a);
		return ck_oom(c);
	}
	st_expr_free(n);
	free(e->str);
	e->str = NULL;
	e->kids[0] = a;
	e->kids[1] = b;
	e->nr_kids = 2;
	e->kind = ST_EXPR_BINARY;
	e->op = ST_OP_NE;
	return ck_expr(c, e);
}

int ck_bswap(struct checker *c, struct st_expr *e)
{
	struct st_expr *x = e->nr_kids == 1 ? e->kids[0] : NULL;
	int err;

	if (!x)
		return ck_err(c, e->pos, "bswap() takes one integer: bswap(v)");
	err = ck_int(c, x, "bswap()");
	if (err)
		return err;
	/* As bpftrace: the width of the value's type; 64 bits for a computed one. */
	e->uval = x->ctype && x->ctype->size ? x->ctype->size
		  : x->kind == ST_EXPR_CAST  ? x->cast.bits / 8
		  : x->kind == ST_EXPR_FIELD && x->nr_refs && x->refs[0].type->size
			  ? x->refs[0].type->size
			  : 8;
	e->vtype = ST_VT_UINT;
	return 0;
}
