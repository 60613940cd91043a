// SPDX-License-Identifier: MIT
/*
 * String literals keyed by address in a process's engine (st_ip_event's
 * ro_* fields): the kernel keys a literal by its offset from the probe
 * site's address, which the engine's callback does not know. The
 * collector does: it finds the object of each probe's event in the
 * process's mappings, and hands the engine the description's address
 * there (which the callback does get) with the address of one of the
 * object's kernel sites. The engine's keys are then the kernel's, and the
 * collector reads their strings from the file as it does the kernel's.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/proc_maps.h"
#include "inproc/inproc.h"
#include "bpfload/loader.h"

/* A probe whose event's description is looked for in the mappings. */
struct wanted {
	const struct st_ro_obj *obj;
	uint32_t site; /* literal_site()'s */
	struct stat st; /* the object's file, as opened for the session */
	uint64_t desc_off; /* the description's offset in that file */
	uint64_t desc_rt; /* where it is in the process; 0: not found */
};

struct walk {
	struct wanted *w;
	uint32_t nr;
};

static int find_desc(const struct st_mapping *m, void *arg)
{
	struct walk *wk = arg;
	struct wanted *w;
	uint32_t i;

	for (i = 0; i < wk->nr; i++) {
		w = &wk->w[i];
		if (w->desc_rt || !w->obj || m->inode != w->st.st_ino ||
		    m->dev_major != major(w->st.st_dev) || m->dev_minor != minor(w->st.st_dev) ||
		    w->desc_off < m->offset || w->desc_off - m->offset >= m->hi - m->lo)
			continue;
		w->desc_rt = m->lo + (w->desc_off - m->offset);
	}
	return 0;
}

/* The first site of probe i that keys literals by address, and its object; false if none. */
static bool literal_site(const struct st_loader *l, const struct st_compiled *c, uint32_t i,
			 uint32_t *site)
{
	const struct st_event *ev = c->probes[i].event;
	uint32_t j;

	if (!ev || !ev->has_side || !c->probes[i].cfg.ro_loads)
		return false;
	for (j = 0; j < ev->nr_sites; j++) {
		*site = l->site_base[i] + j;
		if (*site < l->ro.nr_sites && l->ro.site_obj[*site] >= 0)
			return true;
	}
	return false;
}

int st_inproc_literals(const struct st_loader *l, const struct st_compiled *c, pid_t pid,
		       const bool *served, struct st_ip_event *events)
{
	struct walk wk = {.nr = c->nr_probes};
	struct st_site_cfg cfg;
	const struct st_ro_obj *o;
	uint32_t i;
	int ret;

	wk.w = calloc(c->nr_probes + 1, sizeof(*wk.w));
	if (!wk.w)
		return -ENOMEM;
	for (i = 0; i < c->nr_probes; i++) {
		if (!served[i] || !literal_site(l, c, i, &wk.w[i].site))
			continue;
		o = &l->ro.objs[l->ro.site_obj[wk.w[i].site]];
		if (o->elf.fd < 0 || fstat(o->elf.fd, &wk.w[i].st) ||
		    !st_elf_vaddr_to_offset(&o->elf, c->probes[i].event->desc_addr, 1, false,
					    &wk.w[i].desc_off))
			continue;
		wk.w[i].obj = o;
	}
	ret = st_maps_walk(pid, find_desc, &wk);
	for (i = 0; !ret && i < c->nr_probes; i++) {
		if (!wk.w[i].desc_rt)
			continue;
		st_ro_strings_site(&l->ro, wk.w[i].site, &cfg);
		events[i].ro_desc = wk.w[i].desc_rt;
		/* The object's load bias, from where its description is. */
		events[i].ro_ip = l->ro.site_pc[wk.w[i].site] + wk.w[i].desc_rt -
				  c->probes[i].event->desc_addr;
		events[i].ro_lo = cfg.ro_lo;
		events[i].ro_len = cfg.ro_len;
		events[i].ro_site = cfg.ro_site;
	}
	free(wk.w);
	return ret;
}
