// SPDX-License-Identifier: MIT
/*
 * Strings keyed by address: which segment of an object holds its string
 * literals, and their bytes read back from the file (see ro_strings.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfload/ro_strings.h"

/*
 * A text relocation may write into a read-only segment at load time, so
 * its bytes in memory could differ from the file's: no such object.
 */
static bool has_textrel(struct st_elf *e)
{
	GElf_Shdr sh;
	Elf_Scn *scn = st_elf_find_section(e, ".dynamic", &sh);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Dyn dyn;
	size_t i;

	for (i = 0; data && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
		if (!gelf_getdyn(data, i, &dyn))
			break;
		if (dyn.d_tag == DT_TEXTREL ||
		    (dyn.d_tag == DT_FLAGS && dyn.d_un.d_val & DF_TEXTREL))
			return true;
	}
	return false;
}

/* The never writable segment that holds .rodata, its file-backed part; if any. */
static void find_segment(struct st_ro_obj *o)
{
	const struct st_elf_seg *s;
	GElf_Shdr sh;

	if (!st_elf_find_section(&o->elf, ".rodata", &sh) || has_textrel(&o->elf))
		return;
	s = st_elf_segment(&o->elf, sh.sh_addr, 1);
	if (s && !(s->flags & PF_W) && sh.sh_addr - s->vaddr < s->filesz) {
		o->vaddr = s->vaddr;
		o->len = s->filesz;
	}
}

/*
 * The index of path's object in ro->objs, opened on first use; -1: none.
 * A file replaced on disk is another object under the same path: gen
 * tells them apart.
 */
static int obj_index(struct st_ro_strings *ro, const char *path, uint32_t gen)
{
	struct st_ro_obj *objs, *o;
	char err[256];
	uint32_t i;

	for (i = 0; i < ro->nr_objs; i++)
		if (ro->objs[i].gen == gen && !strcmp(ro->objs[i].path, path))
			return ro->objs[i].len ? (int)i : -1;
	objs = realloc(ro->objs, (ro->nr_objs + 1) * sizeof(*objs));
	if (!objs)
		return -ENOMEM;
	ro->objs = objs;
	o = &objs[ro->nr_objs++];
	memset(o, 0, sizeof(*o));
	o->path = path;
	o->gen = gen;
	o->elf.fd = -1;
	if (st_elf_open(path, &o->elf, err, sizeof(err)))
		return -1;
	find_segment(o);
	if (!o->len)
		st_elf_close(&o->elf);
	return o->len ? (int)(o - objs) : -1;
}

int st_ro_strings_open(struct st_ro_strings *ro, uint32_t nr_sites)
{
	uint32_t i;

	memset(ro, 0, sizeof(*ro));
	ro->site_obj = malloc((nr_sites + 1) * sizeof(*ro->site_obj));
	ro->site_pc = calloc(nr_sites + 1, sizeof(*ro->site_pc));
	if (!ro->site_obj || !ro->site_pc)
		return -ENOMEM;
	ro->nr_sites = nr_sites;
	for (i = 0; i < nr_sites; i++)
		ro->site_obj[i] = -1;
	return 0;
}

int st_ro_strings_add(struct st_ro_strings *ro, const struct st_compiled *c,
		      const struct st_event *const *events, const uint32_t *site_base, uint32_t gen)
{
	const struct st_event *ev;
	uint32_t i, j, site;
	int obj;

	for (i = 0; i < c->nr_probes; i++) {
		ev = events ? events[i] : c->probes[i].event;
		if (!ev || !c->probes[i].cfg.ro_loads)
			continue;
		obj = obj_index(ro, ev->path, gen);
		if (obj == -ENOMEM)
			return obj;
		for (j = 0; obj >= 0 && j < ev->nr_sites; j++) {
			site = site_base[i] + j;
			if (site >= ro->nr_sites)
				return -ENOSPC;
			ro->site_obj[site] = obj;
			/* Where the kernel probes it: the probe's IP is what literals are offsets
			 * from. */
			ro->site_pc[site] = ev->sites[j].pc +
					    st_site_probe_delta(c, &c->probes[i], &ev->sites[j]);
		}
	}
	return 0;
}

void st_ro_strings_close(struct st_ro_strings *ro)
{
	uint32_t i;

	for (i = 0; i < ro->nr_objs; i++)
		if (ro->objs[i].elf.fd >= 0)
			st_elf_close(&ro->objs[i].elf);
	free(ro->objs);
	free(ro->site_obj);
	free(ro->site_pc);
	memset(ro, 0, sizeof(*ro));
}

void st_ro_strings_site(const struct st_ro_strings *ro, uint32_t site, struct st_site_cfg *cfg)
{
	const struct st_ro_obj *o;

	cfg->ro_lo = 0;
	cfg->ro_len = 0;
	cfg->ro_site = site;
	if (site >= ro->nr_sites || ro->site_obj[site] < 0)
		return;
	o = &ro->objs[ro->site_obj[site]];
	cfg->ro_lo = (int64_t)(o->vaddr - ro->site_pc[site]);
	cfg->ro_len = o->len;
}

bool st_ro_strings_read(const struct st_ro_strings *ro, const struct st_ro_ref *ref,
			char out[ST_STR_LEN], bool *cut)
{
	const struct st_ro_obj *o;
	uint64_t vaddr, n;
	size_t len;

	memset(out, 0, ST_STR_LEN);
	*cut = false;
	if (ref->site >= ro->nr_sites || ro->site_obj[ref->site] < 0)
		return false;
	o = &ro->objs[ro->site_obj[ref->site]];
	vaddr = ro->site_pc[ref->site] + (uint64_t)ref->off;
	if (vaddr - o->vaddr >= o->len)
		return false;
	n = o->vaddr + o->len - vaddr;
	if (n > ST_STR_LEN)
		n = ST_STR_LEN;
	if (!st_elf_read(&o->elf, vaddr, out, n)) {
		memset(out, 0, ST_STR_LEN);
		return false;
	}
	/* As bpf_probe_read_user_str() into ST_STR_LEN bytes: the last is NUL. */
	len = strnlen(out, n);
	if (len > ST_STR_LEN - 1) {
		*cut = true;
		len = ST_STR_LEN - 1;
	}
	memset(out + len, 0, ST_STR_LEN - len);
	return true;
}
