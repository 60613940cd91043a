// SPDX-License-Identifier: MIT
/* Functions by symbol and their inlined copies, their parameters from DWARF (functions.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "objfile/demangle.h"
#include "dwarf/dwarf.h"
#include "objfile/elf.h"
#include "dwarf/functions.h"
#include "dwarf/inlined.h"
#include "objfile/insns.h"
#include "objfile/sdt_args.h"
#include "objfile/symbols.h"
#include "util/grow.h"

/* The System V ABI's argument registers and the return register. */

#define NO_DWARF \
	"it has no debug info (DWARF): build it with -g, or install its debug symbols " \
	"(the -dbgsym package); arg0..arg5 and retval are there raw"

/* Where a demangled signature's parameter list starts: the '(' matching its last ')'. */
static const char *params_start(const char *sig)
{
	const char *p = strrchr(sig, ')');
	int depth = 0;

	for (; p && p >= sig; p--) {
		if (*p == ')')
			depth++;
		else if (*p == '(' && !--depth)
			return p;
	}
	return NULL;
}

/*
 * gcc's copies of a whole function keep its name with suffixes: .isra.N
 * and .constprop.N (parameters replaced or folded), .lto_priv.N,
 * .localalias. .part.N and .cold are pieces of one, whose start is not
 * its entry. The length of name before them when all its suffixes are of
 * the first kind ("scale.constprop.0": 5), else 0.
 */
static size_t whole_clone_base(const char *name)
{
	static const char *const whole[] = {"isra", "constprop", "lto_priv", "localalias"};
	const char *dot = strchr(name, '.'), *p, *end;
	size_t n, i;
	bool known;

	if (!dot || dot == name)
		return 0;
	for (p = dot; *p; p = end) {
		p++;
		end = p + strcspn(p, ".");
		n = end - p;
		if (n && strspn(p, "0123456789") >= n)
			continue;
		for (i = 0, known = false; i < sizeof(whole) / sizeof(whole[0]) && !known; i++)
			known = strlen(whole[i]) == n && !strncmp(p, whole[i], n);
		if (!known)
			return 0;
	}
	return dot - name;
}

/*
 * A name matches a glob, or is it: a C++ name holds what fnmatch() reads
 * as a pattern ("[clone .isra.0]", "operator[]"), and the name -l prints
 * reads back as itself.
 */
static bool name_matches(const char *glob, const char *name)
{
	return !strcmp(glob, name) || !fnmatch(glob, name, 0);
}

/*
 * Whether a symbol matches glob: its own name, a C function's clone by
 * its source name ("scale.constprop.0" as scale, *shown), or for C++ its
 * demangled signature ("Calc::add(int)": that overload) or name
 * ("Calc::add": all overloads). *shown is the name to name it by
 * (malloc'ed), if not the symbol's.
 */
static bool symbol_matches(const char *name, const char *glob, char **shown)
{
	size_t base_len = whole_clone_base(name);
	const char *paren, *clone;
	char *base;
	bool match = false;

	*shown = NULL;
	if (name_matches(glob, name))
		return true;
	if (base_len && (base = strndup(name, base_len))) {
		if (name_matches(glob, base)) {
			*shown = base;
			return true;
		}
		free(base);
	}
	*shown = st_demangle(name);
	if (!*shown)
		return false;
	/* gcc's clones keep their source name: "f(int) [clone .isra.0]"; not a piece of one. */
	clone = strstr(*shown, " [clone ");
	if (clone && !base_len) {
		free(*shown);
		*shown = NULL;
		return false;
	}
	match = name_matches(glob, *shown) ||
		(clone && (base = strndup(*shown, clone - *shown)) &&
		 (match = name_matches(glob, base), free(base), match));
	paren = params_start(*shown);
	if (!match && paren && (base = strndup(*shown, paren - *shown))) {
		match = name_matches(glob, base);
		free(base);
	}
	if (!match) {
		free(*shown);
		*shown = NULL;
	}
	return match;
}

/* A symbol that matched: its name and address, once per address. */
struct func {
	char *name;
	uint64_t addr;
	uint64_t size;
};

struct funcs {
	struct func *v;
	size_t nr, cap;
};

static int add_func(struct funcs *fs, const char *name, uint64_t addr, uint64_t size)
{
	size_t i;

	for (i = 0; i < fs->nr; i++)
		if (fs->v[i].addr == addr)
			return 0;
	if (fs->nr == ST_MAX_FUNCTIONS)
		return -E2BIG;
	if (st_grow(&fs->v, &fs->cap, fs->nr, sizeof(*fs->v), 16))
		return -ENOMEM;
	fs->v[fs->nr].name = strdup(name);
	if (!fs->v[fs->nr].name)
		return -ENOMEM;
	fs->v[fs->nr].size = size;
	fs->v[fs->nr++].addr = addr;
	return 0;
}

/*
 * The defined functions of one symbol table of elf whose names match glob,
 * or (glob NULL) the one that holds address *at.
 */
static int scan_symbols(Elf *elf, Elf_Scn *scn, const char *glob, const uint64_t *at,
			struct funcs *fs)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	GElf_Shdr sh;
	GElf_Sym sym;
	const char *name;
	char *shown;
	size_t i, n;
	int err;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(data, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		shown = NULL;
		if (!name || (glob && !symbol_matches(name, glob, &shown)) ||
		    (!glob && (*at < sym.st_value || *at - sym.st_value >= (sym.st_size ?: 1))))
			continue;
		err = add_func(fs, shown ? shown : name, sym.st_value, sym.st_size);
		free(shown);
		if (err)
			return err;
	}
	return 0;
}

static Elf_Scn *section_of_type(Elf *elf, GElf_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	return NULL;
}

/*
 * The functions glob matches, by the object's symbol table, else (it is
 * stripped) that of its separate debug file, else its exported functions
 * (.dynsym); *symtab: whether it had a symbol table either way.
 */
static int find_funcs(struct st_elf *e, struct st_dwarf *dw, const char *glob, const uint64_t *at,
		      struct funcs *fs, bool *symtab)
{
	Elf *elf = e->elf, *debug = st_dwarf_debug_elf(dw);
	Elf_Scn *scn = section_of_type(elf, SHT_SYMTAB);

	if (!scn && debug && (scn = section_of_type(debug, SHT_SYMTAB)))
		elf = debug;
	*symtab = scn;
	if (!scn)
		scn = section_of_type(elf, SHT_DYNSYM);
	return scn ? scan_symbols(elf, scn, glob, at, fs) : 0;
}

/*
 * Nothing matched in a stripped object: functions are found by symbol,
 * and it names only its exported ones; why, and what works instead, into
 * out->why_none. 0 or -ENOMEM.
 */
static int stripped(struct st_elf *e, struct st_event_list *out)
{
	bool notes = st_elf_find_section(e, ".note.stapsdt", &(GElf_Shdr){0});

	free(out->why_none);
	if (asprintf(&out->why_none,
		     "it is stripped: no symbol table names its functions but the exported ones "
		     "(none matches), nor does a debug file of it (install its -dbgsym package, or "
		     "build it unstripped)%s",
		     notes ? "; its usdt: and side: probes need no symbols" : "") < 0) {
		out->why_none = NULL;
		return -ENOMEM;
	}
	return 0;
}

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
		      bool go, const char *path, enum st_ap_kind kind, struct st_event *ev,
		      char *err, size_t errlen)
{
	bool ret_probe = st_probe_kind(kind)->retval;
	uint64_t at = go && !ret_probe ? st_insn_after_go_stack_check(e, fn->addr, fn->size) : 0;
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
	have_df = dw && !offset && !st_dwarf_function(dw, fn->addr, at, &df);
	if (ret_probe)
		ev->sites[0].pc = fn->addr;
	else
		ev->sites[0].pc = have_df ? df.probe_addr : (at ? at : fn->addr + offset);
	if (!have_df &&
	    !(ev->error = strdup(dw || offset ? "DWARF does not describe it here" : NO_DWARF)))
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

/* A pattern that is a number is an address in the object (uprobe:BIN:0x4a2b30), as bpftrace's. */
static bool address_of(const char *glob, uint64_t *at)
{
	char *end;

	if (!isdigit((unsigned char)*glob))
		return false;
	errno = 0;
	*at = strtoull(glob, &end, 0);
	return !errno && !*end;
}

/*
 * The function that holds address at, and at's offset into it: sidetrace
 * probes an address only inside a function it knows, where it checks that
 * an instruction starts there. 0, or a negative errno with why in err.
 */
static int find_address(struct st_elf *e, struct st_dwarf *dw, uint64_t at, enum st_ap_kind kind,
			struct funcs *fs, uint64_t *offset, struct st_event_list *out, char *err,
			size_t errlen)
{
	bool symtab;
	int ret = find_funcs(e, dw, NULL, &at, fs, &symtab);

	if (ret || !fs->nr) {
		free(out->why_none);
		out->why_none = NULL;
		if (!ret && asprintf(&out->why_none,
				     "its symbols name no function that holds 0x%llx (an address "
				     "is probed inside a known function, where its instruction "
				     "boundaries are checked)",
				     (unsigned long long)at) < 0)
			ret = -ENOMEM;
		return ret;
	}
	*offset = at - fs->v[0].addr;
	if (*offset && st_probe_kind(kind)->no_offset) {
		snprintf(err, errlen, "0x%llx is inside %s: %s", (unsigned long long)at,
			 fs->v[0].name, st_probe_kind(kind)->no_offset);
		return -EINVAL;
	}
	return 0;
}

int st_discover_functions(const char *path, const char *pattern, enum st_ap_kind kind,
			  struct st_event_list *out, char *err, size_t errlen)
{
	struct st_inlined_list in = {0};
	struct funcs fs = {0};
	struct st_dwarf *dw = NULL;
	struct st_event *evs;
	struct st_elf e;
	uint64_t offset, at;
	char *glob = NULL;
	size_t i;
	bool go, symtab = true;
	int ret;

	ret = st_function_pattern(pattern, st_probe_kind(kind)->no_offset, &glob, &offset, err,
				  errlen);
	if (ret)
		return ret;
	ret = st_elf_open(path, &e, err, errlen);
	if (ret)
		goto out_glob;
	dw = st_dwarf_open(&e, path);
	if (address_of(glob, &at) && offset) {
		snprintf(err, errlen, "an address takes no +OFFSET: add it to the address");
		ret = -EINVAL;
	} else if (address_of(glob, &at)) {
		ret = find_address(&e, dw, at, kind, &fs, &offset, out, err, errlen);
	} else {
		ret = find_funcs(&e, dw, glob, NULL, &fs, &symtab);
	}
	/* +OFFSET counts from a symbol, which an inlined copy has not. */
	if (!ret && dw && !offset && !address_of(glob, &at))
		ret = st_inlined_find(dw, symbol_matches, glob, ST_MAX_FUNCTIONS - fs.nr, &in);
	if (!ret && !symtab && !fs.nr && !in.nr)
		ret = stripped(&e, out);
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
	for (i = 0; i < fs.nr && !ret; i++) {
		ret = make_event(&e, dw, &fs.v[i], offset, go, path, kind, &out->events[out->nr],
				 err, errlen);
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
	for (i = 0; i < fs.nr; i++)
		free(fs.v[i].name);
	free(fs.v);
	st_elf_close(&e);
out_glob:
	free(glob);
	return ret;
}
