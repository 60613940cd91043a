// SPDX-License-Identifier: MIT
/* Kernel functions and their parameters from BTF (kfuncs.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "events/events.h"
#include "dwarf/functions.h"
#include "kernel/btf_decl.h"
#include "kernel/kfuncs.h"
#include "objfile/symbols.h"
#include "objfile/tracefs.h"
#include "objfile/kernel_btf.h"
#include "objfile/sdt_args.h"

#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe/type"
/* Pointers followed to a struct's members, and type nodes made, per event. */
#define KF_MAX_DEPTH 3
#define KF_MAX_NODES 16384
#define KF_MAX_FUNCS 4096
/* The kernel's BTF and its modules', one file each. */
#define KF_BTF_DIR "/sys/kernel/btf"

bool st_kprobes_supported(char *err, size_t errlen)
{
	if (!access(KPROBE_PMU, R_OK))
		return true;
	snprintf(err, errlen,
		 "this kernel has no kprobes (no %s: CONFIG_KPROBES is off); tracepoints work "
		 "here: sidetrace -l 'tracepoint:*' lists them",
		 KPROBE_PMU);
	return false;
}

bool st_trampolines_supported(void)
{
	return libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACING, NULL) == 1;
}

/* What one event's types may still take. */
struct kf_ctx {
	const struct btf *btf;
	uint32_t nodes;
	/* pointers followed: KF_MAX_DEPTH, 0 for a listing's or unread args' declarations */
	int max_depth;
	struct st_btf_decl decl; /* the parameters' C declarations, bpftrace's -lv lines */
};

/* id past typedefs and qualifiers; *user when a "user" type tag was crossed. */
static uint32_t peel(const struct btf *btf, uint32_t id, bool *user)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		if (btf_is_type_tag(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "user"))
			*user = true;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

static const char *map_type(struct kf_ctx *k, uint32_t id, struct st_type *t, int depth);

/*
 * The members of struct or union bt at byte offset base into t->fields;
 * an anonymous struct or union's members are the parent's, as C names them.
 */
static int add_members(struct kf_ctx *k, const struct btf_type *bt, struct st_type *t, int depth,
		       uint32_t base)
{
	const struct btf_member *m = btf_members(bt);
	uint16_t i, n = btf_vlen(bt);
	const struct btf_type *mt;
	struct st_field *fields, *f;
	const char *name, *why;
	bool user = false;
	int err = 0;

	for (i = 0; i < n && !err; i++, m++) {
		name = btf__name_by_offset(k->btf, m->name_off);
		if (!name || !*name) {
			mt = btf__type_by_id(k->btf, peel(k->btf, m->type, &user));
			if (mt && btf_is_composite(mt))
				err = add_members(k, mt, t, depth,
						  base + btf_member_bit_offset(bt, i) / 8);
			continue;
		}
		if (k->nodes >= KF_MAX_NODES)
			return 0;
		k->nodes++;
		fields = realloc(t->fields, (t->nr_fields + 1) * sizeof(*fields));
		if (!fields)
			return -ENOMEM;
		t->fields = fields;
		f = &fields[t->nr_fields];
		memset(f, 0, sizeof(*f));
		f->name = strdup(name);
		if (!f->name)
			return -ENOMEM;
		t->nr_fields++;
		why = map_type(k, m->type, &f->type, depth);
		if (btf_member_bitfield_size(bt, i) || btf_member_bit_offset(bt, i) % 8)
			why = "a bit field, which sidetrace does not read yet";
		f->type.member_offset = base + btf_member_bit_offset(bt, i) / 8;
		if (why && !f->type.unreadable && !(f->type.unreadable = strdup(why)))
			err = -ENOMEM;
	}
	return err;
}

/* A struct or union's members, in place at their offsets. */
static void members(struct kf_ctx *k, const struct btf_type *bt, struct st_type *t, int depth)
{
	t->label = SIDE_TYPE_STRUCT;
	add_members(k, bt, t, depth, 0);
}

/* A pointer: a string, a way to a struct's members, or an address. */
static const char *pointer_type(struct kf_ctx *k, uint32_t to, struct st_type *t, bool user,
				int depth)
{
	uint32_t id = peel(k->btf, to, &user);
	const struct btf_type *p = btf__type_by_id(k->btf, id);

	t->label = SIDE_TYPE_POINTER;
	t->size = 8;
	t->kernel = !user;
	if (p && btf_is_int(p) && p->size == 1) {
		t->label = SIDE_TYPE_STRING_UTF8;
		t->size = 1;
	} else if (p && btf_is_composite(p) && depth < k->max_depth) {
		t->elem = calloc(1, sizeof(*t->elem));
		if (t->elem)
			members(k, p, t->elem, depth + 1);
	}
	return NULL;
}

/* The st_type of BTF type id; the reason it cannot be read, or NULL. */
static const char *map_type(struct kf_ctx *k, uint32_t id, struct st_type *t, int depth)
{
	const struct btf_type *bt;
	bool user = false;

	memset(t, 0, sizeof(*t));
	t->kernel = true;
	id = peel(k->btf, id, &user);
	bt = btf__type_by_id(k->btf, id);
	if (!bt || !id)
		return "void";
	if (btf_is_int(bt)) {
		if (btf_int_encoding(bt) & BTF_INT_BOOL) {
			t->label = SIDE_TYPE_BOOL;
			t->size = bt->size;
			return NULL;
		}
		st_type_set_int(t, bt->size, btf_int_encoding(bt) & BTF_INT_SIGNED);
		return NULL;
	}
	if (btf_is_any_enum(bt)) {
		st_type_set_int(t, bt->size, btf_is_enum64(bt) ? false : !!btf_kflag(bt));
		return NULL;
	}
	if (btf_is_ptr(bt))
		return pointer_type(k, bt->type, t, user, depth);
	if (btf_is_array(bt)) {
		const struct btf_array *a = btf_array(bt);
		const struct btf_type *e = btf__type_by_id(k->btf, peel(k->btf, a->type, &user));

		return st_type_set_array(t, e && btf_is_int(e) && e->size == 1, depth);
	}
	if (btf_is_composite(bt)) {
		members(k, bt, t, depth);
		return depth ? NULL : "a struct passed by value";
	}
	st_type_set_int(t, 8, false);
	return btf_is_float(bt) ? "a floating-point value" : "a type sidetrace does not read";
}

/*
 * Where a kprobe reads a raw 64-bit register (arg0..arg5, retval); where
 * a trampoline's program reads argument i (i < 0: the return value).
 */
static struct st_arg_spec reg_spec(const char *reg)
{
	return (struct st_arg_spec){
		.loc = ST_LOC_REG, .reg = st_sdt_reg_word(reg, strlen(reg)), .size = 8};
}

static struct st_arg_spec func_spec(int i)
{
	return (struct st_arg_spec){
		.loc = i < 0 ? ST_LOC_FUNC_RET : ST_LOC_FUNC_ARG, .val = i < 0 ? 0 : i, .size = 8};
}

/* Field name of type t (unreadable: why), read where spec says. */
static int put_field(struct st_event *ev, const char *name, const struct st_type *type,
		     const char *why, struct st_arg_spec spec)
{
	struct st_field *f = &ev->fields[ev->nr_fields];
	struct st_sdt_args *sdt = &ev->sites[0].sdt;

	f->name = strdup(name);
	if (!f->name)
		return -ENOMEM;
	ev->nr_fields++;
	f->type = *type;
	if (why && !f->type.unreadable && !(f->type.unreadable = strdup(why)))
		return -ENOMEM;
	sdt->spec[sdt->nr++] = spec;
	return 0;
}

/* retval, of the function's return type. */
static int put_retval(struct kf_ctx *k, const struct btf_type *proto, struct st_event *ev,
		      struct st_arg_spec spec)
{
	struct st_type t;
	const char *why = map_type(k, proto->type, &t, 0);

	/* Without a declaration it still reads: the -lv line is sidetrace's own then. */
	t.c_name = st_btf_decl(&k->decl, k->btf, proto->type);
	return put_field(ev, "retval", &t, why, spec);
}

/*
 * The fields of function fn: a kprobe's are its parameters (at its entry)
 * in the ABI's registers, then arg0..arg5, a kretprobe's retval; a
 * trampoline's are the parameters the kernel hands it, and retval at exit.
 */
static int make_fields(struct kf_ctx *k, const struct btf_type *proto, struct st_event *ev,
		       bool params)
{
	const struct btf_param *p = btf_params(proto);
	struct st_type raw = {.label = SIDE_TYPE_U64, .size = 8}, t;
	const struct st_probe_kind *kind = st_event_kind(ev);
	/* A trampoline's context holds the parameters; a kprobe's, the registers. */
	bool tramp = kind->family == ST_FAMILY_FENTRY || kind->family == ST_FAMILY_FEXIT;
	uint16_t i, n = btf_vlen(proto), max = tramp ? ST_MAX_SDT_ARGS - 1 : ST_NR_ABI_ARGS, named;
	const char *why, *name;
	char argn[8];
	int err = 0;

	/* Room for its parameters, a kprobe's registers, retval: a listing holds thousands. */
	named = !params ? 0 : n < max ? n : max;
	ev->fields = calloc(named + ST_NR_ABI_ARGS + 1, sizeof(*ev->fields));
	if (!ev->fields)
		return -ENOMEM;
	if (!kind->params)
		return put_retval(k, proto, ev, reg_spec("%rax"));
	for (i = 0; params && i < n && i < max && !err; i++) {
		name = btf__name_by_offset(k->btf, p[i].name_off);
		if (!name || !*name)
			break;
		why = map_type(k, p[i].type, &t, 0);
		t.c_name = st_btf_decl(&k->decl, k->btf, p[i].type);
		err = put_field(ev, name, &t, why, tramp ? func_spec(i) : reg_spec(st_abi_args[i]));
	}
	if (tramp)
		return err || !kind->retval ? err : put_retval(k, proto, ev, func_spec(-1));
	for (i = 0; i < ST_NR_ABI_ARGS && !err && ev->sites[0].sdt.nr < ST_MAX_SDT_ARGS; i++) {
		snprintf(argn, sizeof(argn), "arg%u", i);
		err = put_field(ev, argn, &raw, NULL, reg_spec(st_abi_args[i]));
	}
	return err;
}

/* A function of the kernel's BTF or a module's: its name, its prototype there. */
struct kf_func {
	const char *name; /* first: bsearch() compares names through it */
	uint32_t proto;
	const struct btf *btf;
	uint32_t order; /* its BTF's: vmlinux's 0, first among functions of one name */
};

static int add_func(struct kf_ctx *k, const struct kf_func *f, uint64_t offset,
		    enum st_ap_kind kind, enum st_query_for query_for, struct st_event_list *out)
{
	const struct btf_type *proto = btf__type_by_id(f->btf, f->proto);
	struct st_event *ev;
	char full[512];

	if (offset)
		snprintf(full, sizeof(full), "%s+%llu", f->name, (unsigned long long)offset);
	ev = st_kernel_event_add(out, kind, "", offset ? full : f->name);
	if (!ev)
		return -ENOMEM;
	ev->kfunc_offset = offset;
	ev->kfunc_module = f->order > 0;
	k->btf = f->btf;
	k->nodes = 0;
	return query_for == ST_QUERY_NAMES ? 0 : make_fields(k, proto, ev, !offset);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_func(const void *a, const void *b)
{
	const struct kf_func *x = a, *y = b;

	return strcmp(x->name, y->name) ? strcmp(x->name, y->name)
					: (x->order > y->order) - (x->order < y->order);
}

/*
 * Marks in found[] the functions (sorted by name) that f lists, a line
 * each: kallsyms' text symbols ("ADDR t NAME"), or tracefs' traceable
 * functions ("NAME [MODULE]").
 */
static void mark_listed(FILE *f, bool kallsyms, const struct kf_func *fs, size_t nr, bool *found)
{
	char line[512], type = 't', sym[256];
	const char *key = sym;
	const struct kf_func *hit;

	while (fgets(line, sizeof(line), f)) {
		if (kallsyms ? sscanf(line, "%*s %c %255s", &type, sym) != 2
			     : sscanf(line, "%255s", sym) != 1)
			continue;
		if (type != 't' && type != 'T')
			continue;
		hit = bsearch(&key, fs, nr, sizeof(*fs), cmp_name);
		if (hit)
			found[hit - fs] = true;
	}
}

/*
 * Marks in found[] the functions (sorted by name) the kernel probes:
 * those tracefs lists as traceable, as bpftrace reads them (no __init
 * function, which is gone after boot, none marked notrace); where that
 * list cannot be read, kallsyms' text symbols (an inlined function has
 * none).
 */
static void traceable(const struct kf_func *fs, size_t nr, bool *found)
{
	const char *dir;
	char path[PATH_MAX];
	FILE *f = NULL;
	bool kallsyms;

	if (!nr)
		return;
	dir = st_tracefs_dir();
	if (dir) {
		snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
		f = fopen(path, "r");
	}
	kallsyms = !f;
	if (!f)
		f = fopen("/proc/kallsyms", "r");
	if (!f)
		return;
	mark_listed(f, kallsyms, fs, nr, found);
	fclose(f);
}

struct kf_funcs {
	struct kf_func *v;
	size_t nr, cap; /* cap doubles: tens of thousands of functions, few copies */
};

/* Appends to fs the functions of btf (of order, kf_func's) that glob matches. */
static int match_funcs(const struct btf *btf, uint32_t order, const char *glob, size_t max,
		       struct kf_funcs *fs)
{
	uint32_t id = order ? btf__type_cnt(btf__base_btf(btf)) : 1, n = btf__type_cnt(btf);
	const struct btf_type *t;
	struct kf_func *grown;
	const char *name;

	for (; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || fnmatch(glob, name, 0))
			continue;
		if (fs->nr == max)
			return -E2BIG;
		if (fs->nr == fs->cap) {
			grown = realloc(fs->v, (fs->cap ? 2 * fs->cap : 64) * sizeof(*fs->v));
			if (!grown)
				return -ENOMEM;
			fs->v = grown;
			fs->cap = fs->cap ? 2 * fs->cap : 64;
		}
		fs->v[fs->nr++] = (struct kf_func){name, t->type, btf, order};
	}
	return 0;
}

/* Sorted by name, each once: vmlinux's where a module has a function of the same name. */
static void sort_funcs(struct kf_funcs *fs)
{
	size_t i, kept;

	if (fs->nr)
		qsort(fs->v, fs->nr, sizeof(*fs->v), cmp_func);
	for (i = 1, kept = fs->nr ? 1 : 0; i < fs->nr; i++)
		if (strcmp(fs->v[i].name, fs->v[kept - 1].name))
			fs->v[kept++] = fs->v[i];
	fs->nr = kept;
}

/* A BTF and its module's name: "vmlinux", else its file's in /sys/kernel/btf (a module's name). */
struct kf_btf {
	struct btf *btf;
	char module[NAME_MAX + 1];
};

struct kf_btfs {
	struct kf_btf *v;
	size_t nr;
};

/*
 * The kernel's BTF (v[0]) and its modules', split on it: a module's
 * that cannot be read is left out. 0, or a negative errno with the reason.
 */
static int load_btfs(struct kf_btfs *b, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct kf_btf *grown;
	struct dirent *e;
	struct btf *m;
	int ret;
	DIR *d;

	b->v = calloc(1, sizeof(*b->v));
	if (!b->v)
		return -ENOMEM;
	b->v[0].btf = st_kernel_btf_load();
	if (!b->v[0].btf) {
		ret = -errno;
		snprintf(err, errlen, "cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): %s",
			 strerror(-ret));
		return ret;
	}
	snprintf(b->v[0].module, sizeof(b->v[0].module), "vmlinux");
	b->nr = 1;
	d = opendir(KF_BTF_DIR);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "vmlinux"))
			continue;
		snprintf(path, sizeof(path), KF_BTF_DIR "/%s", e->d_name);
		m = btf__parse_split(path, b->v[0].btf);
		grown = m ? realloc(b->v, (b->nr + 1) * sizeof(*b->v)) : NULL;
		if (!grown) {
			btf__free(m);
			continue;
		}
		b->v = grown;
		b->v[b->nr].btf = m;
		snprintf(b->v[b->nr++].module, sizeof(b->v->module), "%s", e->d_name);
	}
	if (d)
		closedir(d);
	return 0;
}

static void free_btfs(struct kf_btfs *b)
{
	/* The modules' first: they are split on vmlinux's. */
	while (b->nr > 0)
		btf__free(b->v[--b->nr].btf);
	free(b->v);
}

/*
 * Whether offset lies inside kernel function name, as kallsyms places it
 * (where it hides addresses, the kernel says at attach): 0, or -ERANGE
 * with why in err.
 */
static int offset_inside(const char *name, uint64_t offset, char *err, size_t errlen)
{
	uint64_t size;

	if (st_kallsyms_size(name, &size) || offset < size)
		return 0;
	snprintf(err, errlen,
		 "%s: +%llu is past the function's end (%llu bytes, to the next symbol "
		 "/proc/kallsyms lists)",
		 name, (unsigned long long)offset, (unsigned long long)size);
	return -ERANGE;
}

int st_discover_kfuncs(const char *pattern, enum st_ap_kind kind, enum st_query_for query_for,
		       bool args_unused, struct st_event_list *out, char *err, size_t errlen)
{
	bool listing = query_for != ST_QUERY_PROBE;
	struct kf_ctx k = {.max_depth = listing || args_unused ? 0 : KF_MAX_DEPTH};
	struct kf_btfs btfs = {0};
	struct kf_funcs fs = {0};
	char *glob = NULL, *module;
	const char *colon;
	uint64_t offset;
	bool *found = NULL;
	size_t i;
	int ret;

	/* MODULE:FUNCTION (kinds/probe_kinds.h, module_optional): the module's functions only. */
	colon = strchr(pattern, ':');
	module = colon ? strndup(pattern, colon - pattern) : NULL;
	if (colon && !module)
		return -ENOMEM;
	ret = st_function_pattern(colon ? colon + 1 : pattern, st_probe_kind(kind)->no_offset,
				  &glob, &offset, err, errlen);
	if (ret) {
		free(module);
		return ret;
	}
	ret = load_btfs(&btfs, err, errlen);
	for (i = 0; i < btfs.nr && !ret; i++)
		if (!module || !fnmatch(module, btfs.v[i].module, 0))
			ret = match_funcs(btfs.v[i].btf, i, glob, listing ? SIZE_MAX : KF_MAX_FUNCS,
					  &fs);
	if (ret == -E2BIG)
		snprintf(err, errlen, "more than %d kernel functions match %s: name fewer",
			 KF_MAX_FUNCS, glob);
	sort_funcs(&fs);
	found = calloc(fs.nr + 1, sizeof(*found));
	if (!ret && !found)
		ret = -ENOMEM;
	if (ret)
		goto cleanup;
	/* A function the kernel cannot probe (inlined everywhere, gone after boot) is left out. */
	traceable(fs.v, fs.nr, found);
	for (i = 0; i < fs.nr && !ret; i++) {
		if (!found[i])
			continue;
		if (!listing && st_kind_bans(kind, fs.v[i].name)) {
			/* bpftrace's words, which scripts may look for. */
			snprintf(err, errlen,
				 "%s:%s can't be used as it might lock up your system (a return "
				 "probe of a spin lock's function)",
				 st_probe_kind(kind)->name, fs.v[i].name);
			ret = -EPERM;
			goto cleanup;
		}
		ret = offset ? offset_inside(fs.v[i].name, offset, err, errlen) : 0;
		if (!ret)
			ret = add_func(&k, &fs.v[i], offset, kind, query_for, out);
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
cleanup:
	st_btf_decl_fini(&k.decl);
	free(found);
	free(fs.v);
	free(glob);
	free(module);
	free_btfs(&btfs);
	return ret;
}
