// SPDX-License-Identifier: MIT
/* Functions by symbol and their inlined copies, their parameters from DWARF (functions.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <side/abi/type-description.h>

#include "dwarf/dwarf.h"
#include "objfile/debuginfo.h"
#include "objfile/elf.h"
#include "dwarf/func_symbols.h"
#include "dwarf/functions.h"
#include "dwarf/inlined.h"
#include "objfile/insns.h"
#include "objfile/sdt_args.h"

/* The System V ABI's argument registers and the return register. */

/* reg() and sargN read the registers where bpftrace reads them: at the function's symbol. */
#define REGS_AT_ENTRY \
	"the clause reads registers (reg(), sargN), so it probes the function's first " \
	"instruction, where DWARF's parameters are not yet stored; arg0..arg5 are there raw"
#define NO_DWARF \
	"it has no debug info (DWARF): build it with -g, or install its debug symbols " \
	"(the -dbgsym package); arg0..arg5 and retval are there raw"

static int put_field(struct st_event *ev, const char *name, const struct st_type *type,
		     const char *unreadable)
{
	struct st_field *f = &ev->fields[ev->nr_fields];

	f->name = strdup(name);
	if (!f->name)
		return -ENOMEM;
	ev->nr_fields++;
	f->type = *type;
	if (unreadable && !(f->type.unreadable = strdup(unreadable)))
		return -ENOMEM;
	return 0;
}

/* A raw 64-bit register value (arg0..arg5, retval without DWARF); unreadable: why not, or NULL. */
static int put_raw(struct st_event *ev, const char *name, const char *reg, struct st_arg_spec *spec,
		   const char *unreadable)
{
	struct st_type t = {.label = SIDE_TYPE_U64, .size = 8};

	memset(spec, 0, sizeof(*spec));
	spec->loc = ST_LOC_REG;
	spec->reg = st_sdt_reg_word(reg, strlen(reg));
	spec->size = 8;
	return put_field(ev, name, &t, unreadable);
}

/* Moves a DWARF value into the event (its type and reason now the event's). */
static int put_value(struct st_event *ev, struct st_dwarf_value *v, struct st_arg_spec *spec)
{
	int err = put_field(ev, v->name, &v->type, v->unreadable);

	if (!err) {
		memset(&v->type, 0, sizeof(v->type));
		*spec = v->spec;
	}
	return err;
}

/*
 * A Go string's length: a spec after the fields, named by the field's
 * type (len_arg1); without room for it, the string cannot be read.
 */
static int put_lengths(struct st_event *ev, struct st_dwarf_func *df, struct st_sdt_args *sdt)
{
	uint32_t i, j;

	for (i = 0, j = 0; i < ev->nr_fields && j < df->nr_params; i++, j++) {
		struct st_type *t = &ev->fields[i].type;

		if (!t->counted || t->label != SIDE_TYPE_STRING_UTF8 || t->unreadable)
			continue;
		if (sdt->nr >= ST_MAX_SDT_ARGS) {
			t->unreadable =
				strdup("too many values at this probe to read its length too");
			if (!t->unreadable)
				return -ENOMEM;
			continue;
		}
		sdt->spec[sdt->nr] = df->params[j].len_spec;
		t->len_arg1 = ++sdt->nr;
	}
	return 0;
}

/*
 * The fields: DWARF's parameters (or retval), then what the ABI says;
 * no_abi: why the ABI's registers do not hold the arguments, or NULL.
 */
static int make_fields(struct st_event *ev, struct st_dwarf_func *df, struct st_sdt_args *sdt,
		       const char *no_abi)
{
	uint32_t i, cap = ST_MAX_SDT_ARGS;
	char raw[8];
	int err = 0;

	ev->fields = calloc(cap + 1, sizeof(*ev->fields));
	if (!ev->fields)
		return -ENOMEM;
	if (st_event_kind(ev)->retval) {
		sdt->nr = 1;
		if (df && df->has_ret)
			return put_value(ev, &df->ret, &sdt->spec[0]);
		return put_raw(ev, "retval", "%rax", &sdt->spec[0], NULL);
	}
	for (i = 0; df && i < df->nr_params && !err && ev->nr_fields < cap - ST_NR_ABI_ARGS / 2;
	     i++)
		err = put_value(ev, &df->params[i], &sdt->spec[ev->nr_fields]);
	/* Room for the Go strings' lengths (put_lengths()). */
	for (i = 0; df && i < df->nr_params && i < cap - ST_NR_ABI_ARGS / 2; i++)
		cap -= df->params[i].type.counted &&
		       df->params[i].type.label == SIDE_TYPE_STRING_UTF8 &&
		       !df->params[i].unreadable;
	for (i = 0; i < ST_NR_ABI_ARGS && !err && ev->nr_fields < cap; i++) {
		snprintf(raw, sizeof(raw), "arg%u", i);
		err = put_raw(ev, raw, st_abi_args[i], &sdt->spec[ev->nr_fields], no_abi);
	}
	sdt->nr = ev->nr_fields;
	return err || !df ? err : put_lengths(ev, df, sdt);
}

/*
 * A Go function's return probe: a plain uprobe on each RET instruction,
 * with the specs of site 0 (retval in %rax) copied to the others.
 */
static int go_return_sites(struct st_elf *e, const struct func *fn, struct st_event *ev, char *err,
			   size_t errlen)
{
	uint64_t *rets;
	size_t nr, i;
	void *sites;
	int ret;

	ret = st_insn_rets(e, fn->addr, fn->size, &rets, &nr, err, errlen);
	if (ret)
		return ret;
	sites = realloc(ev->sites, nr * sizeof(*ev->sites));
	if (!sites) {
		free(rets);
		return -ENOMEM;
	}
	ev->sites = sites;
	for (i = 0; i < nr; i++) {
		ev->sites[i] = ev->sites[0];
		ev->sites[i].pc = rets[i];
	}
	ev->nr_sites = nr;
	ev->at_returns = true;
	free(rets);
	return 0;
}

static int name_event(struct st_event *ev, const struct func *fn, uint64_t offset, const char *path,
		      enum st_ap_kind kind)
{
	int ret;

	ev->kind = kind;
	ev->path = strdup(path);
	ev->provider = strdup("");
	ev->usdt_provider = strdup("");
	if (offset)
		ret = asprintf(&ev->name, "%s+%llu", fn->name, (unsigned long long)offset);
	else
		ret = (ev->name = strdup(fn->name)) ? 0 : -1;
	ev->usdt_name = ev->name ? strdup(ev->name) : NULL;
	ev->sites = calloc(1, sizeof(*ev->sites));
	ev->nr_sites = 1;
	return ret < 0 || !ev->path || !ev->provider || !ev->usdt_provider || !ev->usdt_name ||
			       !ev->sites
		       ? -ENOMEM
		       : 0;
}

/* Where each site is in the file, for the uprobe. */
static int site_offsets(struct st_elf *e, struct st_event *ev, char *err, size_t errlen)
{
	uint32_t i;

	for (i = 0; i < ev->nr_sites; i++) {
		if (!st_elf_vaddr_to_offset(e, ev->sites[i].pc, 1, true,
					    &ev->sites[i].file_offset)) {
			snprintf(err, errlen,
				 "function %s at 0x%llx is not in an executable segment", ev->name,
				 (unsigned long long)ev->sites[i].pc);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * One function's event: where it is probed, and its fields there. A
 * return probe sits on the entry (it replaces the return address found at
 * the top of the stack there), or for Go on each return; a Go entry probe
 * sits past the stack-growth check, which Go runs again after growing the
 * stack.
 */
static int make_event(struct st_elf *e, struct st_dwarf *dw, const struct func *fn, uint64_t offset,
		      bool go, bool at_entry, const char *path, enum st_ap_kind kind,
		      struct st_event *ev, char *err, size_t errlen)
{
	bool ret_probe = st_probe_kind(kind)->retval;
	uint64_t at = go && !ret_probe && !at_entry
			      ? st_insn_after_go_stack_check(e, fn->addr, fn->size)
			      : 0;
	struct st_dwarf_func df;
	bool have_df;
	int ret;

	memset(ev, 0, sizeof(*ev));
	if (offset) {
		char why[256];

		ret = st_insn_boundary(e, fn->addr, fn->size, offset, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: %s", fn->name, why);
			return ret;
		}
	}
	if (name_event(ev, fn, offset, path, kind))
		return -ENOMEM;
	/* At an offset into a function, DWARF's entry view does not hold: raw registers. */
	have_df = dw && !offset && !at_entry && !st_dwarf_function(dw, fn->addr, at, &df);
	if (ret_probe)
		ev->sites[0].pc = fn->addr;
	else
		ev->sites[0].pc = have_df ? df.probe_addr : (at ? at : fn->addr + offset);
	if (!have_df && !(ev->error = strdup(at_entry	    ? REGS_AT_ENTRY
					     : dw || offset ? "DWARF does not describe it here"
							    : NO_DWARF)))
		ret = -ENOMEM;
	else
		ret = make_fields(ev, have_df ? &df : NULL, &ev->sites[0].sdt, NULL);
	if (have_df)
		st_dwarf_func_fini(&df);
	if (!ret && go && ret_probe)
		ret = go_return_sites(e, fn, ev, err, errlen);
	return ret ? ret : site_offsets(e, ev, err, errlen);
}

/*
 * An inlined copy's event: named as its function, probed where the copy
 * starts (nth: its number among the function's copies in that caller).
 * What cannot be read there says which copy it is, and the ABI's
 * registers hold no arguments: nothing called it.
 */
static int make_copy_event(struct st_elf *e, struct st_inlined *in, uint32_t nth, const char *path,
			   struct st_event *ev, char *err, size_t errlen)
{
	struct func fn = {.name = in->name, .addr = in->df.probe_addr};
	char where[256], *why;
	uint32_t i;
	int ret;

	memset(ev, 0, sizeof(*ev));
	if (name_event(ev, &fn, 0, path, ST_AP_UPROBE))
		return -ENOMEM;
	ev->sites[0].pc = fn.addr;
	if (nth > 1)
		ret = asprintf(&ev->inlined, "%s #%u", in->caller, nth);
	else
		ret = (ev->inlined = strdup(in->caller)) ? 0 : -1;
	if (ret < 0)
		return -ENOMEM;
	snprintf(where, sizeof(where), "its copy inlined into %s at 0x%llx", ev->inlined,
		 (unsigned long long)fn.addr);
	for (i = 0; i < in->df.nr_params; i++) {
		if (!in->df.params[i].unreadable)
			continue;
		if (asprintf(&why, "%s, in %s", in->df.params[i].unreadable, where) < 0)
			return -ENOMEM;
		free(in->df.params[i].unreadable);
		in->df.params[i].unreadable = why;
	}
	if (asprintf(&why, "%s is not called: the ABI's registers do not hold its arguments there",
		     where) < 0)
		return -ENOMEM;
	ret = make_fields(ev, &in->df, &ev->sites[0].sdt, why);
	free(why);
	return ret ? ret : site_offsets(e, ev, err, errlen);
}

/* An event for each inlined copy, after those of the out-of-line functions. */
static int add_copies(struct st_elf *e, struct st_inlined_list *in, const char *path,
		      struct st_event_list *out, char *err, size_t errlen)
{
	uint32_t nth;
	size_t i, j;
	int ret = 0;

	for (i = 0; i < in->nr && !ret; i++) {
		for (j = 0, nth = 1; j < i; j++)
			nth += !strcmp(in->v[j].name, in->v[i].name) &&
			       !strcmp(in->v[j].caller, in->v[i].caller);
		ret = make_copy_event(e, &in->v[i], nth, path, &out->events[out->nr], err, errlen);
		out->nr++;
	}
	return ret;
}

/* "first, second and third" (the first few): where name's copies are; all copies for NULL. */
static void copy_callers(const struct st_inlined_list *in, const char *name, char *buf, size_t size)
{
	size_t i, n = 0, shown = 0, len;

	buf[0] = '\0';
	for (i = 0; i < in->nr; i++) {
		if (name && strcmp(in->v[i].name, name))
			continue;
		if (n++ < 3) {
			len = strlen(buf);
			snprintf(buf + len, size - len, "%s%s", len ? ", " : "", in->v[i].caller);
			shown++;
		}
	}
	len = strlen(buf);
	if (n > shown)
		snprintf(buf + len, size - len, " and %zu more", n - shown);
}

/*
 * A return probe: an inlined copy has no return, so only out-of-line
 * functions are probed, each saying which calls it misses (evs, one per
 * function of fs); a pattern that matches only inlined copies is refused.
 */
static int note_missed(const struct funcs *fs, const struct st_inlined_list *in,
		       struct st_event *evs, const char *glob, char *err, size_t errlen)
{
	char callers[256];
	size_t i;

	if (!fs->nr && in->nr) {
		copy_callers(in, NULL, callers, sizeof(callers));
		snprintf(err, errlen,
			 "%s is only inlined (into %s): an inlined copy has no return to probe; "
			 "uprobe: probes where each copy starts",
			 glob, callers);
		return -ENOENT;
	}
	for (i = 0; i < fs->nr; i++) {
		copy_callers(in, evs[i].name, callers, sizeof(callers));
		if (callers[0] &&
		    asprintf(&evs[i].missed,
			     "%s returns only from its out-of-line copy here: its copies "
			     "inlined into %s have no return to probe",
			     evs[i].name, callers) < 0) {
			evs[i].missed = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/* Go binaries carry a build-info section or a Go build-id note. */
static bool is_go(struct st_elf *e)
{
	GElf_Shdr sh;

	return st_elf_find_section(e, ".go.buildinfo", &sh) ||
	       st_elf_find_section(e, ".note.go.buildid", &sh);
}

/*
 * "NAME+OFFSET": the glob and the offset; 0 or -EINVAL. An offset starts
 * with a digit: C++'s "operator+(A const&, A const&)" is a name.
 */
static int split_offset(const char *pattern, char **glob, uint64_t *offset)
{
	const char *plus = strrchr(pattern, '+');
	char *end;

	*offset = 0;
	if (plus && plus != pattern && isdigit((unsigned char)plus[1])) {
		errno = 0;
		*offset = strtoull(plus + 1, &end, 0);
		if (errno || *end)
			return -EINVAL;
		*glob = strndup(pattern, plus - pattern);
	} else {
		*glob = strdup(pattern);
	}
	return *glob ? 0 : -ENOMEM;
}

int st_function_pattern(const char *pattern, const char *no_offset, char **glob, uint64_t *offset,
			char *err, size_t errlen)
{
	int ret = split_offset(pattern, glob, offset);

	if (!ret && *offset && no_offset)
		ret = -EINVAL;
	if (ret) {
		snprintf(err, errlen, "%s",
			 ret == -ENOMEM ? "out of memory"
			 : *offset	? no_offset
					: "a bad +OFFSET (FUNCTION+16, FUNCTION+0x10)");
		free(*glob);
		*glob = NULL;
	}
	return ret;
}

/* A separate debug file opened for its symbols only. */
struct debug_syms {
	int fd;
	Elf *elf;
};

/*
 * The separate debug file whose symbols name a stripped object's
 * functions: dw's, or, where its DWARF is not read (args_unused), the
 * file's ELF alone into ds.
 */
static Elf *debug_symbols(struct st_elf *e, const char *path, struct st_dwarf *dw, bool args_unused,
			  struct debug_syms *ds)
{
	Elf *debug = st_dwarf_debug_elf(dw);

	if (debug || !args_unused || st_elf_find_section(e, ".symtab", &(GElf_Shdr){0}))
		return debug;
	ds->fd = st_debuginfo_open(e, path);
	ds->elf = ds->fd >= 0 ? elf_begin(ds->fd, ELF_C_READ_MMAP, NULL) : NULL;
	return ds->elf;
}

int st_discover_functions(const char *path, const char *pattern, enum st_ap_kind kind,
			  bool args_unused, bool at_entry, struct st_event_list *out, char *err,
			  size_t errlen)
{
	struct st_inlined_list in = {0};
	struct funcs fs = {0};
	struct st_dwarf *dw = NULL;
	struct debug_syms ds = {.fd = -1};
	struct st_event *evs;
	struct st_elf e;
	Elf *debug;
	uint64_t offset, at;
	char *glob = NULL;
	size_t i;
	bool go, symtab = true, by_address;
	int ret;

	ret = st_function_pattern(pattern, st_probe_kind(kind)->no_offset, &glob, &offset, err,
				  errlen);
	if (ret)
		return ret;
	by_address = st_func_address(glob, &at);
	if (by_address && offset) {
		snprintf(err, errlen, "an address takes no +OFFSET: add it to the address");
		ret = -EINVAL;
		goto out_glob;
	}
	ret = st_elf_open(path, &e, err, errlen);
	if (ret)
		goto out_glob;
	dw = st_dwarf_open(&e, args_unused ? NULL : path);
	debug = debug_symbols(&e, path, dw, args_unused, &ds);
	if (by_address)
		ret = st_func_symbols_at(&e, debug, at, kind, &fs, &offset, out, err, errlen);
	else
		ret = st_func_symbols_find(&e, debug, glob, NULL, &fs, &symtab);
	/* +OFFSET counts from a symbol, which an inlined copy has not; an address from none. */
	if (!ret && dw && !offset && !by_address)
		ret = st_inlined_find(dw, st_func_symbol_matches, glob, ST_MAX_FUNCTIONS - fs.nr,
				      &in);
	if (!ret && !symtab && !fs.nr && !in.nr)
		ret = st_func_symbols_stripped(&e, out);
	if (ret == -E2BIG)
		snprintf(err, errlen, "more than %d functions match %s: name fewer",
			 ST_MAX_FUNCTIONS, glob);
	if (ret)
		goto cleanup;
	go = is_go(&e);
	evs = realloc(out->events, (out->nr + fs.nr + in.nr + 1) * sizeof(*evs));
	if (!evs) {
		ret = -ENOMEM;
		goto cleanup;
	}
	out->events = evs;
	out->cap = out->nr + fs.nr + in.nr + 1;
	for (i = 0; i < fs.nr && !ret; i++) {
		ret = make_event(&e, dw, &fs.v[i], offset, go, at_entry, path, kind,
				 &out->events[out->nr], err, errlen);
		out->nr++;
	}
	if (!ret && !st_probe_kind(kind)->retval)
		ret = add_copies(&e, &in, path, out, err, errlen);
	else if (!ret)
		ret = note_missed(&fs, &in, &out->events[out->nr - fs.nr], glob, err, errlen);
cleanup:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	st_inlined_free(&in);
	st_dwarf_close(dw);
	if (ds.elf)
		elf_end(ds.elf);
	if (ds.fd >= 0)
		close(ds.fd);
	for (i = 0; i < fs.nr; i++)
		free(fs.v[i].name);
	free(fs.v);
	st_elf_close(&e);
out_glob:
	free(glob);
	return ret;
}
