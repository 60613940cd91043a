// SPDX-License-Identifier: MIT
/*
 * Reading stapsdt notes (notes.h): each note names a probe site's
 * address, its semaphore and its SDT argument string.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <side/probe.h>

#include "side/notes.h"

#define NT_STAPSDT 3
#define STAPSDT_NAME "stapsdt"

void st_notes_free(struct st_note_vec *nv)
{
	size_t i;

	for (i = 0; i < nv->nr; i++) {
		free(nv->v[i].provider);
		free(nv->v[i].name);
		free(nv->v[i].site.args);
	}
	free(nv->v);
	memset(nv, 0, sizeof(*nv));
}

/*
 * Decode one note descriptor: pc, base, semaphore (8 bytes each), then
 * provider, name and argument string, each NUL-terminated. Returns 0, 1
 * when the note is malformed (skipped), or -ENOMEM.
 */
static int note_parse(const struct st_elf *e, const unsigned char *desc, size_t size,
		      uint64_t base_addr, struct st_note_vec *nv)
{
	const char *strs[3];
	uint64_t words[3];
	uint8_t site_bytes[SIDE_PROBE_FALLBACK_SCAN];
	struct st_note *n;
	size_t off = sizeof(words);
	int i;

	if (size < sizeof(words))
		return 1;
	memcpy(words, desc, sizeof(words));
	for (i = 0; i < 3; i++) {
		const char *s = (const char *)desc + off, *end;

		if (off >= size)
			return 1;
		end = memchr(s, '\0', size - off);
		if (!end)
			return 1;
		strs[i] = s;
		off += end - s + 1;
	}
	if (nv->nr == nv->cap) {
		size_t ncap = nv->cap ? nv->cap * 2 : 64;
		void *p = realloc(nv->v, ncap * sizeof(*nv->v));

		if (!p)
			return -ENOMEM;
		nv->v = p;
		nv->cap = ncap;
	}
	n = &nv->v[nv->nr];
	memset(n, 0, sizeof(*n));
	/*
	 * Prelinking may move an object after the notes were written: the
	 * .stapsdt.base section moved by as much as everything else, and the
	 * note recorded where it was (systemtap's rule, as libbpf and bcc do).
	 */
	n->site.pc = words[0];
	n->site.sema_addr = words[2];
	if (base_addr && words[1]) {
		n->site.pc += base_addr - words[1];
		if (n->site.sema_addr)
			n->site.sema_addr += base_addr - words[1];
	}
	if (!st_elf_vaddr_to_offset(e, n->site.pc, 1, true, &n->site.file_offset))
		return 1; /* not in code: nothing could attach there */
	if (st_elf_read(e, n->site.pc, site_bytes, sizeof(site_bytes)))
		n->site.fallback_delta = side_probe_fallback_delta(site_bytes);
	/*
	 * The kernel updates the semaphore through the file mapping: its
	 * offset stays 0 when it is not file-backed (finish_event warns).
	 */
	if (n->site.sema_addr)
		st_elf_vaddr_to_offset(e, n->site.sema_addr, 2, false, &n->site.sema_offset);
	n->provider = strdup(strs[0]);
	n->name = strdup(strs[1]);
	n->site.args = strdup(strs[2]);
	nv->nr++;
	/* SIDE's notes pad the string with blanks (include/side/probe.h): not part of it. */
	if (n->site.args) {
		size_t len = strlen(n->site.args);

		while (len && n->site.args[len - 1] == ' ')
			n->site.args[--len] = '\0';
	}
	if (!n->provider || !n->name || !n->site.args)
		return -ENOMEM;
	st_sdt_args_parse(n->site.args, &n->site.sdt);
	return 0;
}

int st_notes_read(struct st_elf *e, struct st_note_vec *nv, size_t *skipped)
{
	uint64_t base_addr = 0;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (st_elf_find_section(e, ".stapsdt.base", &sh))
		base_addr = sh.sh_addr;
	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *sname;
		GElf_Nhdr nh;
		Elf_Data *data;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		sname = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (!sname || strcmp(sname, ".note.stapsdt"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off))) {
			const char *nname = (const char *)data->d_buf + name_off;
			int ret;

			if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof(STAPSDT_NAME) ||
			    memcmp(nname, STAPSDT_NAME, sizeof(STAPSDT_NAME)))
				continue;
			ret = note_parse(e, (const unsigned char *)data->d_buf + desc_off,
					 nh.n_descsz, base_addr, nv);
			if (ret < 0)
				return ret;
			*skipped += ret;
		}
	}
	return 0;
}

int st_note_cmp(const void *a, const void *b)
{
	const struct st_note *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	if (!c)
		c = strcmp(x->name, y->name);
	if (!c && x->site.pc != y->site.pc)
		c = x->site.pc < y->site.pc ? -1 : 1;
	return c;
}
