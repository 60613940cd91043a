// SPDX-License-Identifier: MIT
/* The kernel's iterators as iter: events (iters.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "kernel/btf_decl.h"
#include "kernel/iters.h"
#include "objfile/kernel_btf.h"
#include "util/textbuf.h"

/* The context's name of target: struct bpf_iter__TARGET. */
#define CTX_PREFIX "bpf_iter__"

/* Whether function type t is an iterator's: its first parameter points to struct bpf_iter_meta. */
static bool iter_func(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_type *proto = btf__type_by_id(btf, t->type), *p;

	if (!proto || !btf_is_func_proto(proto) || !btf_vlen(proto))
		return false;
	p = btf__type_by_id(btf, btf_params(proto)[0].type);
	if (!p || !btf_is_ptr(p))
		return false;
	p = btf__type_by_id(btf, p->type);
	return p && btf_is_struct(p) &&
	       !strcmp(btf__name_by_offset(btf, p->name_off), "bpf_iter_meta");
}

/*
 * Declares the members of struct or union t from the first'th on, one a
 * line; the kernel wraps each pointer of a context in an unnamed union
 * (__bpf_md_ptr), whose members are declared in its place.
 */
static void declare_members(const struct btf *btf, const struct btf_type *t, int first,
			    struct st_btf_decl *d, struct st_textbuf *tb)
{
	const struct btf_member *m = btf_members(t);
	const struct btf_type *mt;
	const char *name;
	char *decl;
	int i;

	for (i = first; i < btf_vlen(t); i++) {
		name = btf__name_by_offset(btf, m[i].name_off);
		mt = btf__type_by_id(btf, m[i].type);
		if (!*name && mt && btf_is_composite(mt)) {
			declare_members(btf, mt, 0, d, tb);
			continue;
		}
		decl = st_btf_decl(d, btf, m[i].type);
		if (decl)
			st_tb_printf(tb, "    %s %s\n", decl, name);
		free(decl);
	}
}

/*
 * The members of struct bpf_iter__TARGET after its meta, one declaration
 * a line as bpftrace's -lv prints them ("    struct task_struct * task").
 * NULL when BTF has no such struct or memory ran out.
 */
static char *ctx_decl(const struct btf *btf, const char *target, struct st_btf_decl *d)
{
	struct st_textbuf tb = {0};
	const struct btf_type *t;
	char name[128];
	int id;

	snprintf(name, sizeof(name), CTX_PREFIX "%s", target);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!t)
		return NULL;
	declare_members(btf, t, 1, d, &tb);
	return st_tb_take(&tb) ?: strdup("");
}

int st_discover_iters(const char *glob, struct st_event_list *out, char *err, size_t errlen)
{
	struct st_btf_decl d = {0};
	const struct btf_type *t;
	const char *name;
	struct st_event *ev;
	struct btf *btf;
	int ret = 0;
	uint32_t id, n;

	btf = st_kernel_btf_load();
	if (!btf) {
		ret = -errno;
		snprintf(err, errlen, "cannot read the kernel's BTF (%s): %s", ST_KERNEL_BTF_PATH,
			 strerror(-ret));
		return ret;
	}
	n = btf__type_cnt(btf);
	for (id = 1; id < n && !ret; id++) {
		t = btf__type_by_id(btf, id);
		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (strncmp(name, ST_ITER_FUNC_PREFIX, strlen(ST_ITER_FUNC_PREFIX)) ||
		    !iter_func(btf, t))
			continue;
		name += strlen(ST_ITER_FUNC_PREFIX);
		if (fnmatch(glob, name, 0))
			continue;
		ev = st_kernel_event_add(out, ST_AP_ITER, "", name);
		if (ev)
			ev->ctx_decl = ctx_decl(btf, name, &d);
		/* No context in BTF: no type for ctx, no probe. */
		if (ev && !ev->ctx_decl) {
			st_event_fini(ev);
			out->nr--;
		}
		if (!ev)
			ret = -ENOMEM;
	}
	if (ret)
		snprintf(err, errlen, "out of memory");
	st_btf_decl_fini(&d);
	btf__free(btf);
	return ret;
}
