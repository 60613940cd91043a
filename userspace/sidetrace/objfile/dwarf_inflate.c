// SPDX-License-Identifier: MIT
/* Compressed DWARF inflated in parallel (dwarf_inflate.h). */
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "objfile/dwarf_inflate.h"
#include "objfile/elf.h"
#include "util/thread.h"

/* Debug sections copied, at most (DWARF 5 has about 20). */
#define ST_INFLATE_MAX_SCNS 32
/* zlib's largest ratio is about 1032:1: a header that claims more is corrupt. */
#define ST_ZLIB_MAX_RATIO 1032
/* Beyond this, libdw reads the file as it is (the DWARF of the largest binaries is a few GiB). */
#define ST_INFLATE_MAX_SIZE (4ULL << 30)

struct scn_job {
	const char *name;
	const unsigned char *src; /* the compressed stream, or the bytes to copy */
	size_t src_len;
	bool compressed;
	size_t off, len; /* in the image */
	uint32_t name_off; /* in its .shstrtab */
};

struct jobs {
	struct scn_job job[ST_INFLATE_MAX_SCNS];
	uint32_t nr;
	uint32_t next; /* the next job to take, atomically */
	unsigned char *image;
	int err; /* the first failure, atomically */
};

static void run_job(struct jobs *js, const struct scn_job *j)
{
	uLongf len = j->len;

	if (!j->compressed) {
		memcpy(js->image + j->off, j->src, j->len);
		return;
	}
	if (uncompress(js->image + j->off, &len, j->src, j->src_len) != Z_OK || len != j->len)
		__atomic_store_n(&js->err, -EINVAL, __ATOMIC_RELAXED);
}

/* Takes jobs until none is left: in both threads. */
static void *work(void *arg)
{
	struct jobs *js = arg;
	uint32_t i;

	while ((i = __atomic_fetch_add(&js->next, 1, __ATOMIC_RELAXED)) < js->nr)
		run_job(js, &js->job[i]);
	return NULL;
}

/* Section scn as a job: its bytes, inflated size and whether zlib has them. */
static int add_job(const struct st_elf *e, const GElf_Shdr *sh, const char *name, struct jobs *js,
		   size_t *compressed)
{
	struct scn_job *j = &js->job[js->nr];
	Elf64_Chdr ch;

	if (sh->sh_offset > e->size || sh->sh_size > e->size - sh->sh_offset)
		return -EINVAL;
	j->name = name;
	j->src = e->image + sh->sh_offset;
	j->src_len = sh->sh_size;
	j->compressed = sh->sh_flags & SHF_COMPRESSED;
	j->len = j->src_len;
	if (j->compressed) {
		if (j->src_len < sizeof(ch))
			return -EINVAL;
		memcpy(&ch, j->src, sizeof(ch));
		if (ch.ch_type != ELFCOMPRESS_ZLIB)
			return -ENOENT;
		j->src += sizeof(ch);
		j->src_len -= sizeof(ch);
		if (ch.ch_size / ST_ZLIB_MAX_RATIO > j->src_len)
			return -EINVAL;
		j->len = ch.ch_size;
		*compressed += j->src_len;
	}
	js->nr++;
	return 0;
}

/* The debug sections of e, as jobs. */
static int find_jobs(const struct st_elf *e, struct jobs *js, size_t *compressed)
{
	Elf_Scn *scn = NULL;
	const char *name;
	size_t shstrndx;
	GElf_Shdr sh;
	int ret;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (!name || strncmp(name, ".debug_", 7))
			continue;
		if (js->nr == ST_INFLATE_MAX_SCNS)
			return -ENOENT;
		ret = add_job(e, &sh, name, js, compressed);
		if (ret)
			return ret;
	}
	return 0;
}

/* Largest first: the two threads then end about together. */
static int by_len_desc(const void *a, const void *b)
{
	const struct scn_job *x = a, *y = b;

	return x->len < y->len ? 1 : x->len > y->len ? -1 : 0;
}

/*
 * Places the header, .shstrtab, the sections and the section headers in
 * the image: its size, or 0 when it would pass ST_INFLATE_MAX_SIZE.
 */
static size_t layout(struct jobs *js, size_t *strtab_len, size_t *shoff)
{
	size_t off = sizeof(Elf64_Ehdr), strs = 1 + sizeof(".shstrtab");
	uint32_t i;

	for (i = 0; i < js->nr; i++) {
		js->job[i].name_off = strs;
		strs += strlen(js->job[i].name) + 1;
	}
	*strtab_len = strs;
	off += strs;
	for (i = 0; i < js->nr; i++) {
		js->job[i].off = off;
		if (js->job[i].len > ST_INFLATE_MAX_SIZE - off)
			return 0;
		off += js->job[i].len;
	}
	*shoff = (off + 7) & ~(size_t)7;
	return *shoff + (js->nr + 2) * sizeof(Elf64_Shdr);
}

/* The ELF header, .shstrtab and the section headers around the sections. */
static void write_headers(const struct st_elf *e, const struct jobs *js, size_t strtab_len,
			  size_t shoff)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)js->image;
	Elf64_Shdr *sh = (Elf64_Shdr *)(js->image + shoff);
	char *strs = (char *)js->image + sizeof(*eh);
	uint32_t i;

	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, e->ehdr.e_ident, EI_NIDENT);
	eh->e_type = e->ehdr.e_type;
	eh->e_machine = e->ehdr.e_machine;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(*eh);
	eh->e_shoff = shoff;
	eh->e_shentsize = sizeof(*sh);
	eh->e_shnum = js->nr + 2;
	eh->e_shstrndx = 1;
	memset(strs, 0, strtab_len);
	memcpy(strs + 1, ".shstrtab", sizeof(".shstrtab"));
	memset(sh, 0, (js->nr + 2) * sizeof(*sh));
	sh[1] = (Elf64_Shdr){.sh_name = 1,
			     .sh_type = SHT_STRTAB,
			     .sh_offset = sizeof(*eh),
			     .sh_size = strtab_len,
			     .sh_addralign = 1};
	for (i = 0; i < js->nr; i++) {
		memcpy(strs + js->job[i].name_off, js->job[i].name, strlen(js->job[i].name) + 1);
		sh[i + 2] = (Elf64_Shdr){.sh_name = js->job[i].name_off,
					 .sh_type = SHT_PROGBITS,
					 .sh_offset = js->job[i].off,
					 .sh_size = js->job[i].len,
					 .sh_addralign = 1};
	}
}

int st_dwarf_inflate(const struct st_elf *e, size_t min, struct st_inflated *out)
{
	size_t compressed = 0, strtab_len, shoff;
	struct jobs *js = calloc(1, sizeof(*js));
	bool helper;
	pthread_t t;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!js)
		return -ENOMEM;
	ret = find_jobs(e, js, &compressed);
	if (!ret && (!compressed || compressed < min))
		ret = -ENOENT;
	if (!ret)
		qsort(js->job, js->nr, sizeof(js->job[0]), by_len_desc);
	if (!ret)
		out->size = layout(js, &strtab_len, &shoff);
	if (!ret && !out->size)
		ret = -ENOENT;
	if (!ret)
		js->image = out->image = malloc(out->size);
	if (!ret && !out->image)
		ret = -ENOMEM;
	if (ret)
		goto cleanup;
	write_headers(e, js, strtab_len, shoff);
	helper = st_thread_start(&t, work, js);
	work(js);
	if (helper)
		pthread_join(t, NULL);
	ret = js->err;
	if (!ret) {
		out->elf = elf_memory((char *)out->image, out->size);
		ret = out->elf ? 0 : -EINVAL;
	}
cleanup:
	if (ret)
		st_dwarf_inflated_free(out);
	free(js);
	return ret;
}

void st_dwarf_inflated_free(struct st_inflated *in)
{
	if (in->elf)
		elf_end(in->elf);
	free(in->image);
	memset(in, 0, sizeof(*in));
}
