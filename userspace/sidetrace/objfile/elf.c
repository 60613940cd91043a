/* SPDX-License-Identifier: MIT */
/*
 * Bounded, relocation-aware reads from an ELF object file.
 *
 * The file is mapped once; libelf parses headers and sections, and all reads
 * of initialized data go through the PT_LOAD table so that a virtual address
 * means what it means to the loader. Pointers in position-independent
 * objects are 0 in the file: the dynamic relocation for the word (RELATIVE,
 * or ABS64 on a symbol of this object) holds their link-time value.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "objfile/elf.h"
#include "util/grow.h"

#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64 257
#endif
#ifndef R_AARCH64_RELATIVE
#define R_AARCH64_RELATIVE 1027
#endif

const struct st_elf_seg *st_elf_segment(const struct st_elf *e, uint64_t vaddr, uint64_t len)
{
	size_t i;

	for (i = 0; i < e->nr_segs; i++) {
		const struct st_elf_seg *s = &e->segs[i];

		/* Written so that no sum can wrap around. */
		if (vaddr < s->vaddr || vaddr - s->vaddr > s->memsz)
			continue;
		if (len > s->memsz - (vaddr - s->vaddr))
			continue;
		return s;
	}
	return NULL;
}

static int load_segments(struct st_elf *e, char *err, size_t errlen)
{
	size_t nr, i;

	if (elf_getphdrnum(e->elf, &nr)) {
		snprintf(err, errlen, "cannot read program headers: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	e->segs = calloc(nr ? nr : 1, sizeof(*e->segs));
	if (!e->segs) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		struct st_elf_seg *s;
		GElf_Phdr ph;

		if (!gelf_getphdr(e->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		s = &e->segs[e->nr_segs++];
		s->vaddr = ph.p_vaddr;
		s->memsz = ph.p_memsz;
		s->offset = ph.p_offset;
		s->flags = ph.p_flags;
		/*
		 * Clamp the file-backed part to what the file really holds:
		 * a truncated file then fails reads instead of faulting.
		 */
		s->filesz = ph.p_filesz < ph.p_memsz ? ph.p_filesz : ph.p_memsz;
		if (s->offset > e->size)
			s->filesz = 0;
		else if (s->filesz > e->size - s->offset)
			s->filesz = e->size - s->offset;
	}
	return 0;
}

static int reloc_cmp(const void *a, const void *b)
{
	const struct st_elf_reloc *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

static bool reloc_is_relative(const struct st_elf *e, uint32_t type)
{
	if (e->ehdr.e_machine == EM_X86_64)
		return type == R_X86_64_RELATIVE;
	if (e->ehdr.e_machine == EM_AARCH64)
		return type == R_AARCH64_RELATIVE;
	return false;
}

static bool reloc_is_abs64(const struct st_elf *e, uint32_t type)
{
	if (e->ehdr.e_machine == EM_X86_64)
		return type == R_X86_64_64;
	if (e->ehdr.e_machine == EM_AARCH64)
		return type == R_AARCH64_ABS64;
	return false;
}

/* Append the pointer-sized relocations of one SHT_RELA section. */
static int load_rela_section(const struct st_elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	struct st_elf_relocs *rel = e->relocs;
	Elf_Data *data, *symdata = NULL;
	Elf_Scn *symscn;
	size_t n, i;

	data = elf_getdata(scn, NULL);
	if (!data || !sh->sh_entsize)
		return 0; /* unreadable: pointers will read as in the file */
	symscn = elf_getscn(e->elf, sh->sh_link);
	if (symscn)
		symdata = elf_getdata(symscn, NULL);
	n = data->d_size / sizeof(Elf64_Rela);
	for (i = 0; i < n; i++) {
		struct st_elf_reloc *r;
		uint32_t type;
		GElf_Rela rela;
		GElf_Sym sym;

		if (!gelf_getrela(data, i, &rela))
			break;
		type = GELF_R_TYPE(rela.r_info);
		if (!reloc_is_relative(e, type) && !reloc_is_abs64(e, type))
			continue;
		if (st_grow(&rel->v, &rel->cap, rel->nr, sizeof(*rel->v), 256))
			return -ENOMEM;
		r = &rel->v[rel->nr++];
		r->addr = rela.r_offset;
		r->value = rela.r_addend;
		r->resolved = true;
		if (reloc_is_abs64(e, type)) {
			/* S + A, known only for a symbol defined here. */
			if (symdata && gelf_getsym(symdata, GELF_R_SYM(rela.r_info), &sym) &&
			    sym.st_shndx != SHN_UNDEF)
				r->value += sym.st_value;
			else
				r->resolved = false;
		}
	}
	return 0;
}

/* Reads the relocations once; false when memory ran out (then pointers cannot be read). */
static bool load_relocations(const struct st_elf *e)
{
	struct st_elf_relocs *rel = e->relocs;
	Elf_Scn *scn = NULL;

	if (rel->loaded)
		return true;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;

		/*
		 * Only dynamic relocations (allocated sections) describe what
		 * the loader writes. REL and RELR keep the addend in place, so
		 * the file bytes are already right for them.
		 */
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (load_rela_section(e, scn, &sh)) {
			free(rel->v);
			memset(rel, 0, sizeof(*rel));
			return false;
		}
	}
	if (rel->nr)
		qsort(rel->v, rel->nr, sizeof(*rel->v), reloc_cmp);
	rel->loaded = true;
	return true;
}

/* Why path cannot be opened, said the same way by `list` and by tracing. */
static const char *open_error(int err)
{
	switch (err) {
	case ENOENT:
		return "no such file";
	case EACCES:
		return "permission denied";
	case ELOOP:
		return "too many levels of symbolic links";
	case ENOTDIR:
		return "a component of the path is not a directory";
	default:
		return strerror(err);
	}
}

/*
 * Says that the file open on fd is not ELF; a script ("#!") is named by
 * its interpreter line, since what runs is the program it starts (a
 * pyenv shim in PATH, a wrapper): that program is the target to name.
 */
static int not_elf(int fd, char *err, size_t errlen)
{
	char head[96];
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
	size_t i;

	if (n < 2 || head[0] != '#' || head[1] != '!') {
		snprintf(err, errlen, "not an ELF file");
		return -ENOEXEC;
	}
	head[n] = '\0';
	/* The interpreter line, its bytes made printable: it is the file's, not ours. */
	for (i = 0; head[i] && head[i] != '\n'; i++)
		if (head[i] < ' ' || head[i] > '~')
			head[i] = '?';
	head[i] = '\0';
	snprintf(err, errlen,
		 "not an ELF file: a script (%s), not the program it runs: name that "
		 "program's ELF file",
		 head);
	return -ENOEXEC;
}

/*
 * Opens path and checks that it is a regular file. Non-blocking, so that a
 * FIFO is refused instead of waited on.
 */
static int open_regular(const char *path, struct st_elf *e, struct stat *st, char *err,
			size_t errlen)
{
	e->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e->fd < 0 || fstat(e->fd, st)) {
		int ret = -errno;

		snprintf(err, errlen, "%s", open_error(-ret));
		return ret;
	}
	if (S_ISDIR(st->st_mode)) {
		snprintf(err, errlen, "is a directory, not a program or library");
		return -EISDIR;
	}
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
		snprintf(err, errlen, "is a device file, not a program or library");
		return -ENODEV;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "not a regular file (a FIFO or a socket)");
		return -ENOEXEC;
	}
	if ((uint64_t)st->st_size < sizeof(Elf64_Ehdr))
		return not_elf(e->fd, err, errlen);
	return 0;
}

int st_elf_open(const char *path, struct st_elf *e, char *err, size_t errlen)
{
	static const unsigned char magic[SELFMAG] = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3};
	void *map = MAP_FAILED;
	struct stat st;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = open_regular(path, e, &st, err, errlen);
	if (ret)
		goto cleanup;
	e->size = st.st_size;
	/*
	 * Private and writable only so that libelf may convert data in
	 * place if it ever wants to; the file itself is never written.
	 */
	map = mmap(NULL, e->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, e->fd, 0);
	if (map == MAP_FAILED) {
		ret = -errno;
		snprintf(err, errlen, "cannot map: %s", strerror(errno));
		goto cleanup;
	}
	e->image = map;
	if (memcmp(e->image, magic, SELFMAG)) {
		ret = not_elf(e->fd, err, errlen);
		goto cleanup;
	}
	elf_version(EV_CURRENT);
	e->elf = elf_memory(map, e->size);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &e->ehdr)) {
		ret = -ENOEXEC;
		snprintf(err, errlen, "not an ELF file: %s", elf_errmsg(-1));
		goto cleanup;
	}
	/* The SIDE ABI (side/macros.h) is defined for 64-bit little endian. */
	if (e->ehdr.e_ident[EI_CLASS] != ELFCLASS64 || e->ehdr.e_ident[EI_DATA] != ELFDATA2LSB) {
		ret = -ENOEXEC;
		snprintf(err, errlen, "unsupported ELF class (need 64-bit little endian)");
		goto cleanup;
	}
	if (e->ehdr.e_type != ET_EXEC && e->ehdr.e_type != ET_DYN) {
		ret = -ENOEXEC;
		snprintf(err, errlen, "not an executable or shared object");
		goto cleanup;
	}
	ret = load_segments(e, err, errlen);
	if (!ret && !(e->relocs = calloc(1, sizeof(*e->relocs)))) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
	}
cleanup:
	if (ret)
		st_elf_close(e);
	return ret;
}

void st_elf_close(struct st_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->image)
		munmap((void *)e->image, e->size);
	if (e->fd >= 0)
		close(e->fd);
	free(e->segs);
	if (e->relocs)
		free(e->relocs->v);
	free(e->relocs);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

Elf_Scn *st_elf_find_section(struct st_elf *e, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(e->elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

bool st_elf_vaddr_to_offset(const struct st_elf *e, uint64_t vaddr, uint64_t len, bool need_exec,
			    uint64_t *off)
{
	size_t i;

	for (i = 0; i < e->nr_segs; i++) {
		const struct st_elf_seg *s = &e->segs[i];

		if (need_exec && !(s->flags & PF_X))
			continue;
		if (vaddr < s->vaddr || vaddr - s->vaddr > s->filesz ||
		    len > s->filesz - (vaddr - s->vaddr))
			continue;
		*off = s->offset + (vaddr - s->vaddr);
		return true;
	}
	return false;
}

bool st_elf_read(const struct st_elf *e, uint64_t vaddr, void *buf, size_t len)
{
	const struct st_elf_seg *s = st_elf_segment(e, vaddr, len);
	uint64_t rel, infile;

	if (!s)
		return false;
	rel = vaddr - s->vaddr;
	infile = rel < s->filesz ? s->filesz - rel : 0;
	if (infile > len)
		infile = len;
	if (infile)
		memcpy(buf, e->image + s->offset + rel, infile);
	memset((char *)buf + infile, 0, len - infile);
	return true;
}

bool st_elf_read_ptr(const struct st_elf *e, uint64_t vaddr, uint64_t *val)
{
	size_t lo = 0, hi;

	if (!load_relocations(e))
		return false;
	hi = e->relocs->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct st_elf_reloc *r = &e->relocs->v[mid];

		if (r->addr == vaddr) {
			*val = r->resolved ? r->value : 0;
			return true;
		}
		if (r->addr < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return st_elf_read(e, vaddr, val, sizeof(*val));
}

/* Append code point cp as UTF-8; invalid ones become U+FFFD. */
static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xc0 | (cp >> 6);
		out[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xe0 | (cp >> 12);
		out[1] = 0x80 | ((cp >> 6) & 0x3f);
		out[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | (cp >> 18);
	out[1] = 0x80 | ((cp >> 12) & 0x3f);
	out[2] = 0x80 | ((cp >> 6) & 0x3f);
	out[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/*
 * Length of the well-formed UTF-8 sequence at p (at most n bytes), or 0:
 * names from a hostile file must not carry invalid UTF-8 into JSON.
 */
static size_t utf8_seq_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

char *st_elf_read_str(const struct st_elf *e, uint64_t vaddr, unsigned int unit_size,
		      size_t max_units)
{
	const struct st_elf_seg *s;
	size_t n, avail, i, o = 0;
	char *out;

	if (unit_size != 1 && unit_size != 2 && unit_size != 4)
		return NULL;
	s = st_elf_segment(e, vaddr, unit_size);
	if (!s)
		return NULL;
	avail = (s->memsz - (vaddr - s->vaddr)) / unit_size;
	if (avail > max_units + 1)
		avail = max_units + 1;
	/* Find the terminator first, within the segment and the limit. */
	for (n = 0; n < avail; n++) {
		uint32_t u = 0;

		if (!st_elf_read(e, vaddr + n * unit_size, &u, unit_size))
			return NULL;
		if (!u)
			break;
	}
	if (n == avail)
		return NULL;
	/* Up to 4 UTF-8 bytes per unit, whatever its size. */
	out = malloc(n * 4 + 1);
	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		uint32_t u = 0, lo = 0;

		if (unit_size == 1) {
			unsigned char b[4] = {0};
			size_t k;

			st_elf_read(e, vaddr + i, b, n - i < 4 ? n - i : 4);
			k = utf8_seq_len(b, n - i < 4 ? n - i : 4);
			if (!k) {
				o += put_utf8(out + o, 0xfffd);
				continue;
			}
			memcpy(out + o, b, k);
			o += k;
			i += k - 1;
			continue;
		}
		st_elf_read(e, vaddr + i * unit_size, &u, unit_size);
		/* UTF-16 surrogate pair: combine with the next unit. */
		if (unit_size == 2 && u >= 0xd800 && u < 0xdc00 && i + 1 < n) {
			st_elf_read(e, vaddr + (i + 1) * 2, &lo, 2);
			if (lo >= 0xdc00 && lo < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			}
		}
		o += put_utf8(out + o, u);
	}
	out[o] = '\0';
	return out;
}
