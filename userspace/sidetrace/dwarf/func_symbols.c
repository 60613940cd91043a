// SPDX-License-Identifier: MIT
/* Which functions a pattern names, by an object's symbols (func_symbols.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/func_symbols.h"
#include "dwarf/functions.h"
#include "objfile/demangle.h"
#include "objfile/symbols.h"
#include "util/grow.h"

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
bool st_func_symbol_matches(const char *name, const char *glob, char **shown)
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

static int add_func(struct funcs *fs, const char *name, uint64_t addr, uint64_t size, uint16_t rank)
{
	char *dup;
	size_t i;

	for (i = 0; i < fs->nr; i++) {
		if (fs->v[i].addr != addr)
			continue;
		if (rank <= fs->v[i].rank)
			return 0;
		dup = strdup(name);
		if (!dup)
			return -ENOMEM;
		free(fs->v[i].name);
		fs->v[i].name = dup;
		fs->v[i].rank = rank;
		return 0;
	}
	if (fs->nr == ST_MAX_FUNCTIONS)
		return -E2BIG;
	if (st_grow(&fs->v, &fs->cap, fs->nr, sizeof(*fs->v), 16))
		return -ENOMEM;
	fs->v[fs->nr].name = strdup(name);
	if (!fs->v[fs->nr].name)
		return -ENOMEM;
	fs->v[fs->nr].size = size;
	fs->v[fs->nr].rank = rank;
	fs->v[fs->nr++].addr = addr;
	return 0;
}

/*
 * Whether sym is a function a probe can name: code, or an IFUNC, whose
 * resolver runs where bpftrace probes it too (strlen), defined here.
 */
static bool probed_function(const GElf_Sym *sym)
{
	return (GELF_ST_TYPE(sym->st_info) == STT_FUNC ||
		GELF_ST_TYPE(sym->st_info) == STT_GNU_IFUNC) &&
	       sym->st_shndx != SHN_UNDEF && sym->st_value;
}

/*
 * Whether name matches glob without its version ("fopen@@GLIBC_2.2.5" as
 * fopen, then *shown), as bpftrace names it, or as it is.
 */
static bool versioned_matches(const char *name, const char *glob, char **shown)
{
	size_t len = st_sym_name_len(name);
	char *base = name[len] ? strndup(name, len) : NULL;

	if (base && st_func_symbol_matches(base, glob, shown)) {
		if (*shown)
			free(base);
		else
			*shown = base;
		return true;
	}
	free(base);
	return st_func_symbol_matches(name, glob, shown);
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
		if (!gelf_getsym(data, i, &sym) || !probed_function(&sym))
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		shown = NULL;
		if (!name || (glob && !versioned_matches(name, glob, &shown)) ||
		    (!glob && (*at < sym.st_value || *at - sym.st_value >= (sym.st_size ?: 1))))
			continue;
		err = add_func(fs, shown ? shown : name, sym.st_value, sym.st_size,
			       st_sym_rank(GELF_ST_BIND(sym.st_info), name));
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
int st_func_symbols_find(struct st_elf *e, Elf *debug, const char *glob, const uint64_t *at,
			 struct funcs *fs, bool *symtab)
{
	Elf *elf = e->elf;
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
int st_func_symbols_stripped(struct st_elf *e, struct st_event_list *out)
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

/* A pattern that is a number is an address in the object (uprobe:BIN:0x4a2b30), as bpftrace's. */
bool st_func_address(const char *glob, uint64_t *at)
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
int st_func_symbols_at(struct st_elf *e, Elf *debug, uint64_t at, enum st_ap_kind kind,
		       struct funcs *fs, uint64_t *offset, struct st_event_list *out, char *err,
		       size_t errlen)
{
	bool symtab;
	int ret = st_func_symbols_find(e, debug, NULL, &at, fs, &symtab);

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
