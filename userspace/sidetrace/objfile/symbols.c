// SPDX-License-Identifier: MIT
/* Symbol tables for stacks (symbols.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "objfile/debuginfo.h"
#include "objfile/demangle.h"
#include "objfile/elf.h"
#include "objfile/symbols.h"
#include "util/grow.h"

/* By address, then aliases by rank: st_symtab_find() takes the last at an address. */
static int cmp_sym(const void *a, const void *b)
{
	const struct st_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static int add_sym(struct st_symtab *t, size_t *cap, uint64_t addr, uint64_t size, const char *name,
		   uint16_t rank)
{
	char *bare, *dm;

	if (st_grow(&t->v, cap, t->nr, sizeof(*t->v), 256))
		return -ENOMEM;
	bare = strndup(name, st_sym_name_len(name));
	if (!bare)
		return -ENOMEM;
	dm = st_demangle(bare);
	t->v[t->nr].name = dm ? dm : bare;
	if (dm)
		free(bare);
	t->v[t->nr].addr = addr;
	t->v[t->nr].rank = rank;
	t->v[t->nr++].size = size;
	return 0;
}

/* The defined functions of one symbol table section. */
static int scan(Elf *elf, Elf_Scn *scn, struct st_symtab *t, size_t *cap)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const char *name;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i, n;
	int err = 0;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && !err; i++) {
		if (!gelf_getsym(data, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name && *name)
			err = add_sym(t, cap, sym.st_value, sym.st_size, name,
				      st_sym_rank(GELF_ST_BIND(sym.st_info), name));
	}
	return err;
}

/* The GNU build id of a note section, into t. */
static void build_id(Elf_Scn *scn, struct st_symtab *t)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((char *)data->d_buf + name_off, "GNU", 4))
			continue;
		t->build_id_len =
			nh.n_descsz < sizeof(t->build_id) ? nh.n_descsz : sizeof(t->build_id);
		memcpy(t->build_id, (char *)data->d_buf + desc_off, t->build_id_len);
		return;
	}
}

/* The names of the libraries a .dynamic section needs, into t. */
static int needed(struct st_elf *e, Elf_Scn *scn, struct st_symtab *t)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const char *name;
	GElf_Shdr sh;
	GElf_Dyn dyn;
	size_t i;
	char **v;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	for (i = 0; i < sh.sh_size / sh.sh_entsize && gelf_getdyn(data, i, &dyn); i++) {
		if (dyn.d_tag != DT_NEEDED)
			continue;
		name = elf_strptr(e->elf, sh.sh_link, dyn.d_un.d_val);
		v = name ? realloc(t->needed, (t->nr_needed + 1) * sizeof(*v)) : NULL;
		if (!name)
			continue;
		if (!v)
			return -ENOMEM;
		t->needed = v;
		v[t->nr_needed] = strdup(name);
		if (!v[t->nr_needed++])
			return -ENOMEM;
	}
	return 0;
}

/* Symbol name in one symbol table section: true if found. */
static bool find_named(Elf *elf, Elf_Scn *scn, const char *name, struct st_named_sym *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const char *s;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i, n;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return false;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(data, i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(sym.st_info) != STT_OBJECT &&
		     GELF_ST_TYPE(sym.st_info) != STT_FUNC))
			continue;
		s = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (s && !strcmp(s, name)) {
			out->addr = sym.st_value;
			out->size = sym.st_size;
			return true;
		}
	}
	return false;
}

int st_symbol_named(const char *path, const char *name, struct st_named_sym *out, char *err,
		    size_t errlen)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	struct st_elf e;
	GElf_Shdr sh;
	bool found;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = st_elf_open(path, &e, err, errlen);
	if (ret)
		return ret;
	while ((scn = elf_nextscn(e.elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	found = (symtab && find_named(e.elf, symtab, name, out)) ||
		(dynsym && find_named(e.elf, dynsym, name, out));
	out->pie = e.ehdr.e_type == ET_DYN;
	st_elf_close(&e);
	if (!found)
		snprintf(err, errlen, "%s has no symbol %s%s", path, name,
			 symtab ? "" : " (it is stripped: only its exported symbols are known)");
	return found ? 0 : -ENOENT;
}

/* The functions of the symbol table of e's separate debug file, if it has one. */
static int scan_debug_file(const struct st_elf *e, const char *path, struct st_symtab *t,
			   size_t *cap)
{
	int fd = st_debuginfo_open(e, path), ret = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;

	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			ret = scan(elf, scn, t, cap);
			break;
		}
	elf_end(elf);
	close(fd);
	return ret;
}

int st_symtab_load_file(const char *path, struct st_symtab *t)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	size_t cap = 0, i;
	struct st_elf e;
	char err[256];
	GElf_Shdr sh;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = st_elf_open(path, &e, err, sizeof(err));
	if (ret)
		return ret;
	while ((scn = elf_nextscn(e.elf, scn)) && !ret) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		else if (sh.sh_type == SHT_NOTE)
			build_id(scn, t);
		else if (sh.sh_type == SHT_DYNAMIC)
			ret = needed(&e, scn, t);
	}
	/*
	 * A stripped object's functions are in its separate debug file's
	 * symbol table; without one, it keeps its exported ones in .dynsym.
	 */
	if (!ret && !symtab)
		ret = scan_debug_file(&e, path, t, &cap);
	if (!ret && !t->nr && (symtab || dynsym))
		ret = scan(e.elf, symtab ? symtab : dynsym, t, &cap);
	t->segs = calloc(3 * e.nr_segs + 1, sizeof(*t->segs));
	if (!ret && !t->segs)
		ret = -ENOMEM;
	for (i = 0; !ret && i < e.nr_segs; i++) {
		t->segs[3 * i] = e.segs[i].offset;
		t->segs[3 * i + 1] = e.segs[i].vaddr;
		t->segs[3 * i + 2] = e.segs[i].filesz;
	}
	t->nr_segs = ret ? 0 : e.nr_segs;
	st_elf_close(&e);
	/* No symbol at all (t->v NULL) is no array for qsort(). */
	if (!ret && t->nr)
		qsort(t->v, t->nr, sizeof(*t->v), cmp_sym);
	return ret;
}

int st_symtab_load_kernel(struct st_symtab *t)
{
	char line[512], type, name[256];
	unsigned long long addr;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	memset(t, 0, sizeof(*t));
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr ||
		    (type != 't' && type != 'T'))
			continue;
		ret = add_sym(t, &cap, addr, 0, name, st_sym_rank(type == 'T', name));
	}
	fclose(f);
	if (!ret && t->nr)
		qsort(t->v, t->nr, sizeof(*t->v), cmp_sym);
	return ret;
}

int st_kallsyms_addr(const char *name, uint64_t *addr)
{
	char line[512], sym[256];
	unsigned long long a;
	int ret = -ENOENT;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (ret == -ENOENT && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %*c %255s", &a, sym) == 2 && !strcmp(sym, name)) {
			*addr = a;
			ret = a ? 0 : -EPERM;
		}
	fclose(f);
	return ret;
}

unsigned int st_kallsyms_count(const char *name)
{
	char line[512], type, sym[256];
	unsigned int n = 0;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f))
		n += sscanf(line, "%*s %c %255s", &type, sym) == 2 &&
		     (type == 't' || type == 'T') && !strcmp(sym, name);
	if (f)
		fclose(f);
	return n;
}

int st_kallsyms_size(const char *name, uint64_t *size)
{
	struct st_symtab t;
	size_t i, k;
	int ret;

	/* One read of kallsyms: its text symbols sorted by address (none where it hides them). */
	ret = st_symtab_load_kernel(&t);
	if (ret)
		return ret;
	for (k = 0; k < t.nr && strcmp(t.v[k].name, name); k++)
		;
	ret = -ENOENT;
	for (i = k + 1; i < t.nr && ret; i++)
		if (t.v[i].addr > t.v[k].addr) {
			*size = t.v[i].addr - t.v[k].addr;
			ret = 0;
		}
	st_symtab_free(&t);
	return ret;
}

const struct st_sym *st_symtab_find(const struct st_symtab *t, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = t->nr, mid;
	const struct st_sym *s;

	/* The last symbol at or below addr. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->v[lo - 1];
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	*off = addr - s->addr;
	return s;
}

bool st_symtab_vaddr(const struct st_symtab *t, uint64_t off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < t->nr_segs; i++) {
		if (off - t->segs[3 * i] < t->segs[3 * i + 2]) {
			*vaddr = off - t->segs[3 * i] + t->segs[3 * i + 1];
			return true;
		}
	}
	return false;
}

void st_symtab_free(struct st_symtab *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->v[i].name);
	for (i = 0; i < t->nr_needed; i++)
		free(t->needed[i]);
	free(t->needed);
	free(t->v);
	free(t->segs);
	memset(t, 0, sizeof(*t));
}
