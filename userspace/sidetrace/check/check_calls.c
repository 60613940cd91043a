// SPDX-License-Identifier: MIT
/*
 * The arguments of the functions bpftrace has beside the core ones:
 * join(), ntop(), pton(), cgroupid(), and where each may run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "check/check.h"

int ck_host_has(struct checker *c, const struct st_expr *call)
{
	const struct st_func_row *f = st_func(call->func);

	if (c->no_args && f->host == ST_FC_NONE)
		return ck_err(c, call->pos, "%s() in %s: %s", f->name,
			      ck_point_kind_name(c->no_args), f->no_host);
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

/* An integer literal: ntop()'s address family. */
static bool literal_int(const struct st_expr *e, uint64_t *v)
{
	*v = e->uval;
	return e->kind == ST_EXPR_INT;
}

/*
 * ntop(addr), ntop(af, addr): an IPv4 address as an integer, af a
 * constant AF_INET. The address forms that are arrays (char[4], char[16])
 * and AF_INET6 read typed memory, which sidetrace does not read yet.
 */
int ck_ntop(struct checker *c, struct st_expr *call)
{
	struct st_expr *addr = call->kids[call->nr_kids - 1];
	uint64_t af = AF_INET;
	int err;

	if (call->nr_kids == 2) {
		err = ck_int(c, call->kids[0], "ntop()'s address family");
		if (err)
			return err;
		if (!literal_int(call->kids[0], &af))
			return ck_err(c, call->kids[0]->pos,
				      "ntop()'s address family must be a constant: AF_INET (2)");
		if (af == AF_INET6)
			return ck_err(c, call->kids[0]->pos,
				      "ntop(AF_INET6, addr) reads a char[16] address, which needs "
				      "typed memory reads sidetrace does not have yet");
		if (af != AF_INET)
			return ck_err(c, call->kids[0]->pos,
				      "ntop()'s address family is AF_INET (2) or AF_INET6 (10), "
				      "not %llu",
				      (unsigned long long)af);
	}
	err = ck_expr(c, addr);
	if (!err && addr->vtype == ST_VT_STR)
		return ck_err(c, addr->pos,
			      "ntop() of a char[4] or char[16] array needs typed memory reads, "
			      "which sidetrace does not have yet: pass an IPv4 address as an "
			      "integer");
	if (!err)
		err = ck_int(c, addr, "ntop()'s address");
	call->vtype = st_func(call->func)->vtype;
	return err;
}

/* pton("addr"): an array of bytes, which no value of sidetrace's holds. */
int ck_pton(struct checker *c, struct st_expr *call)
{
	return ck_err(c, call->pos, "pton() %s", st_func(call->func)->no_bpf);
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
	st_expr_free(path);
	free(call->kids);
	free(call->str);
	call->kids = NULL;
	call->nr_kids = 0;
	call->str = NULL;
	call->kind = ST_EXPR_INT;
	call->uval = st.st_ino;
	call->is_unsigned = st.st_ino > INT64_MAX;
	call->vtype = call->is_unsigned ? ST_VT_UINT : ST_VT_INT;
	return 0;
}
