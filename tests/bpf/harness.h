/* SPDX-License-Identifier: MIT */
/*
 * A harness that runs the embedded BPF object (the skeleton) with a
 * hand-written configuration, without the collector: no parser, no
 * checker, no compile step. A test builds a probe (loads, stack-machine
 * instructions) and its maps with the helpers below, loads it with
 * h_load(), which attaches sidetrace_event at the test program's own
 * probe site, fires its SIDE event with known values and reads the maps
 * back. The site is found in the program's own stapsdt note, read here
 * with libelf, so nothing depends on the collector's discovery code.
 *
 * Like unit.h, header-only and meant for one test program each.
 */
#ifndef SIDETRACE_TEST_BPF_HARNESS_H
#define SIDETRACE_TEST_BPF_HARNESS_H

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "objfile/sdt_args.h"
#include "sidetrace.h"
#include "sidetrace.skel.h"
#include "unit.h"

/* Per-CPU values are read into arrays of this many; more CPUs fail h_load(). */
#define H_MAX_CPUS 512

/* A probe site of this program, as its stapsdt note describes it. */
struct h_site {
	char path[PATH_MAX];
	uint64_t file_off; /* of the probe instruction */
	uint64_t sema_off; /* of the semaphore (the event's enable word) */
	struct st_sdt_args sdt; /* its operands, parsed as discovery parses them */
	unsigned int nr_found; /* sites of this event */
};

/* A probe under test: its configuration and maps, as the compile step would write them. */
struct h_prog {
	struct st_probe_cfg cfg;
	struct st_map_cfg maps[ST_MAX_MAPS];
	unsigned int nr_maps;
	unsigned int nr_flat; /* slots of st_flat the maps use */
	int open_clause; /* index of the open ST_I_CLAUSE, or -1 */
};

/* The loaded object, attached at the site. */
struct h_run {
	struct sidetrace_bpf *skel;
	struct bpf_link *link;
	unsigned int key_size; /* of st_aggr: header, largest parts, bucket */
	int nr_cpus;
};

static struct h_site h_site;

/* Checks got == want; on failure also says both values. */
static inline void h_eq(const char *name, int64_t got, int64_t want)
{
	ok(got == want, name);
	if (got != want)
		printf("     got %" PRId64 " (0x%" PRIx64 "), want %" PRId64 " (0x%" PRIx64 ")\n",
		       got, (uint64_t)got, want, (uint64_t)want);
}

/* File offset of virtual address addr, from the program headers; 0 if none. */
static inline uint64_t h_file_off(Elf *elf, uint64_t addr)
{
	GElf_Phdr ph;
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz)
			return addr - ph.p_vaddr + ph.p_offset;
	}
	return 0;
}

/* Reads note desc (n bytes) into h_site if it is provider:name; base: .stapsdt.base. */
static inline void h_note(Elf *elf, const char *desc, size_t n, uint64_t base, const char *provider,
			  const char *name)
{
	const char *prov = desc + 24, *ev, *args;
	uint64_t pc, note_base, sema;
	if (n < 27 || desc[n - 1] != '\0')
		return;
	memcpy(&pc, desc, 8);
	memcpy(&note_base, desc + 8, 8);
	memcpy(&sema, desc + 16, 8);
	ev = prov + strlen(prov) + 1;
	args = ev + strlen(ev) + 1;
	if (args >= desc + n || strcmp(prov, provider) || strcmp(ev, name))
		return;
	if (h_site.nr_found++)
		return;
	if (base)
		pc += base - note_base;
	h_site.file_off = h_file_off(elf, pc);
	h_site.sema_off = h_file_off(elf, sema);
	st_sdt_args_parse(args, &h_site.sdt);
	if (h_site.sdt.bad || h_site.sdt.nr > ST_MAX_SDT_ARGS) {
		printf("     cannot read the SDT operands '%s'\n", args);
		h_site.file_off = 0;
	}
}

/* Reads the stapsdt notes of section scn. */
static inline void h_notes(Elf *elf, Elf_Scn *scn, uint64_t base, const char *provider,
			   const char *name)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == 3 && nh.n_namesz == 8 &&
		    !memcmp((char *)data->d_buf + name_off, "stapsdt", 8))
			h_note(elf, (char *)data->d_buf + desc_off, nh.n_descsz, base, provider,
			       name);
	}
}

/* Finds the probe site of provider:name in this program; false if absent. */
static inline bool h_find_site(const char *provider, const char *name)
{
	Elf_Scn *scn = NULL, *notes = NULL;
	uint64_t base = 0;
	const char *sname;
	GElf_Shdr sh;
	size_t shstr;
	ssize_t len;
	Elf *elf;
	int fd;

	len = readlink("/proc/self/exe", h_site.path, sizeof(h_site.path) - 1);
	if (len <= 0 || elf_version(EV_CURRENT) == EV_NONE)
		return false;
	h_site.path[len] = '\0';
	fd = open(h_site.path, O_RDONLY);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (elf && !elf_getshdrstrndx(elf, &shstr)) {
		while ((scn = elf_nextscn(elf, scn))) {
			if (!gelf_getshdr(scn, &sh))
				continue;
			sname = elf_strptr(elf, shstr, sh.sh_name);
			if (sname && !strcmp(sname, ".stapsdt.base"))
				base = sh.sh_addr;
			if (sname && !strcmp(sname, ".note.stapsdt"))
				notes = scn;
		}
		if (notes)
			h_notes(elf, notes, base, provider, name);
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return h_site.file_off && h_site.sema_off;
}

/* An empty probe: no loads, no instructions, no maps. */
static inline void h_prog_init(struct h_prog *p)
{
	memset(p, 0, sizeof(*p));
	p->open_clause = -1;
}

/*
 * Adds load i. SDT loads read top-level field sdt_arg; vector loads
 * follow index path steps (label each), like the collector's.
 */
static inline void h_load_sdt(struct h_prog *p, unsigned int i, unsigned int sdt_arg, bool str)
{
	struct st_load *ld = &p->cfg.loads[i];

	ld->src = ST_SRC_SDT;
	ld->want = str ? ST_WANT_STR : ST_WANT_INT;
	ld->sdt_arg = sdt_arg;
	p->cfg.sdt_mask |= 1U << sdt_arg;
	if (str)
		p->cfg.str_loads |= 1U << i;
	if (i >= p->cfg.nr_loads)
		p->cfg.nr_loads = i + 1;
}

static inline void h_load_vec(struct h_prog *p, unsigned int i, unsigned int index,
			      unsigned int label, bool str)
{
	struct st_load *ld = &p->cfg.loads[i];
	unsigned int vec_arg = h_site.sdt.nr - 1; /* side/probe.h: the vector is the last */

	ld->src = ST_SRC_VEC;
	ld->want = str ? ST_WANT_STR : ST_WANT_INT;
	ld->nr_steps = 1;
	ld->steps[0].index = index;
	ld->steps[0].label = label;
	p->cfg.need_vec = 1;
	p->cfg.vec_arg = vec_arg;
	p->cfg.sdt_mask |= 1U << vec_arg;
	if (str)
		p->cfg.str_loads |= 1U << i;
	if (i >= p->cfg.nr_loads)
		p->cfg.nr_loads = i + 1;
}

/* Ends the open clause, if any, at the next instruction. */
static inline void h_end_clause(struct h_prog *p)
{
	if (p->open_clause >= 0)
		p->cfg.insns[p->open_clause].imm = p->cfg.nr_insns;
	p->open_clause = -1;
}

/* Appends an instruction; ST_I_CLAUSE ends the open clause and opens its own. */
static inline void h_emit(struct h_prog *p, uint8_t op, uint8_t a, int64_t imm, uint32_t mask)
{
	struct st_insn *in;

	if (p->cfg.nr_insns >= ST_MAX_INSNS) {
		ok(false, "the test's program fits ST_MAX_INSNS");
		return;
	}
	if (op == ST_I_CLAUSE) {
		h_end_clause(p);
		p->open_clause = p->cfg.nr_insns;
	}
	in = &p->cfg.insns[p->cfg.nr_insns++];
	in->op = op;
	in->a = a;
	in->imm = imm;
	in->mask = mask;
}

/*
 * Adds a map of kind; key_size 0 makes a map without keys (slots of
 * st_flat), otherwise key parts of key_size bytes in st_aggr. lhist takes
 * lmin, lmax, lstep. Returns the map's id.
 */
static inline uint8_t h_map(struct h_prog *p, uint8_t kind, bool is_signed, uint16_t key_size,
			    int64_t lmin, int64_t lmax, int64_t lstep)
{
	struct st_map_cfg *mc = &p->maps[p->nr_maps];

	mc->kind = kind;
	mc->flags = is_signed ? ST_MAPF_SIGNED : 0;
	mc->key_size = key_size;
	mc->lmin = lmin;
	mc->lmax = lmax;
	mc->lstep = lstep;
	if (!key_size) {
		mc->flags |= ST_MAPF_FLAT;
		mc->flat_base = p->nr_flat;
		mc->flat_len = kind == ST_K_HIST    ? ST_HIST_BUCKETS
			       : kind == ST_K_LHIST ? st_lhist_buckets(lmin, lmax, lstep)
						    : 1;
		p->nr_flat += mc->flat_len;
	}
	return p->nr_maps++;
}

/* Sizes the maps and sets the read-only configuration before load. */
static inline int h_configure(struct h_run *r, const struct h_prog *p)
{
	struct sidetrace_bpf *skel = r->skel;
	struct bpf_program *prog;
	unsigned int i, len;
	int err;

	r->key_size = ST_KEY_HDR + 8;
	for (i = 0; i < p->nr_maps; i++) {
		len = st_key_len(p->maps[i].kind, p->maps[i].key_size);
		if (!(p->maps[i].flags & ST_MAPF_FLAT) && len > r->key_size)
			r->key_size = len;
	}
	err = bpf_map__set_max_entries(skel->maps.st_probes, 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.st_fault_armed, 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.st_counters, ST_NR_COUNTERS);
	err = err ?: bpf_map__set_max_entries(skel->maps.st_sites, 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.st_flat, p->nr_flat ?: 1);
	err = err ?: bpf_map__set_key_size(skel->maps.st_aggr, r->key_size);
	err = err ?: bpf_map__set_key_size(skel->maps.st_values, r->key_size);
	prog = NULL;
	while (!err && (prog = bpf_object__next_program(skel->obj, prog)))
		err = bpf_program__set_autoload(prog, prog == skel->progs.sidetrace_event);
	memcpy((void *)skel->rodata->st_maps, p->maps, sizeof(p->maps));
	skel->rodata->st_key_words = (r->key_size - ST_KEY_HDR) / 8;
	/* Every instruction and load: the cases run code the collector would leave dead. */
	skel->rodata->st_ops_used = ~0ULL;
	skel->rodata->st_srcs_used = ~0U;
	skel->rodata->st_parts_used = ~0U;
	skel->rodata->st_plain_parts_max = ST_MAX_PLAIN_PARTS;
	skel->rodata->st_kinds_used = ~0U;
	skel->rodata->st_stacks_used = ~0U;
	return err;
}

/* Writes the probe and its one site into the loaded maps, then attaches. */
static inline int h_attach(struct h_run *r, const struct h_prog *p)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .ref_ctr_offset = h_site.sema_off,
		    .bpf_cookie = ST_COOKIE(0, 0, 0));
	struct st_site_cfg site = {0};
	__u32 zero = 0;
	int err;

	memcpy(site.args, h_site.sdt.spec, sizeof(site.args));
	err = bpf_map_update_elem(bpf_map__fd(r->skel->maps.st_probes), &zero, &p->cfg, 0);
	if (!err)
		err = bpf_map_update_elem(bpf_map__fd(r->skel->maps.st_sites), &zero, &site, 0);
	if (err)
		return -errno;
	/*
	 * In every process (-1), not this one: a uprobe bound to a task
	 * counts toward perf's task events, whose first and last patch a
	 * static branch in and out of __schedule (the last a second later).
	 * A 6.12 guest under qemu TCG (the VM matrix) panicked in __schedule
	 * mid-instruction twice while these tests attached and detached. Only
	 * this program runs its own site.
	 */
	r->link = bpf_program__attach_uprobe_opts(r->skel->progs.sidetrace_event, -1, h_site.path,
						  h_site.file_off, &opts);
	return r->link ? 0 : -errno;
}

/* Detaches and closes everything h_load() opened. */
static inline void h_unload(struct h_run *r)
{
	bpf_link__destroy(r->link);
	sidetrace_bpf__destroy(r->skel);
	memset(r, 0, sizeof(*r));
}

/* Loads sidetrace_event with probe p and attaches it at h_site; named check. */
static inline bool h_load(struct h_run *r, struct h_prog *p, const char *group)
{
	char name[128];
	int err;

	h_end_clause(p);
	memset(r, 0, sizeof(*r));
	r->nr_cpus = libbpf_num_possible_cpus();
	r->skel = sidetrace_bpf__open();
	if (r->nr_cpus <= 0 || r->nr_cpus > H_MAX_CPUS)
		err = -ERANGE;
	else
		err = r->skel ? h_configure(r, p) : -errno;
	if (!err)
		err = sidetrace_bpf__load(r->skel);
	if (!err)
		err = h_attach(r, p);
	snprintf(name, sizeof(name), "%s: load and attach sidetrace_event", group);
	ok(!err, name);
	if (!err)
		return true;
	printf("     %s%s\n", strerror(-err),
	       err == -EPERM ? " (needs root: CAP_BPF, CAP_PERFMON)" : "");
	h_unload(r);
	return false;
}

/* Adds the per-CPU values in v[nr_cpus] into *out; min and max combine by maximum. */
static inline void h_sum_cpus(const struct h_run *r, const struct st_val *v, struct st_val *out)
{
	int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < r->nr_cpus; c++) {
		out->count += v[c].count;
		out->sum += v[c].sum;
		out->min = v[c].min > out->min ? v[c].min : out->min;
		out->max = v[c].max > out->max ? v[c].max : out->max;
	}
}

/* Slot bucket of map id (a map without keys); zero if unreadable. */
static inline struct st_val h_flat(const struct h_run *r, const struct h_prog *p, uint8_t id,
				   uint32_t bucket)
{
	struct st_val v[H_MAX_CPUS], out = {0};
	__u32 slot = p->maps[id].flat_base + bucket;

	if (!bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.st_flat), &slot, v))
		h_sum_cpus(r, v, &out);
	return out;
}

/*
 * The value of map id (with keys) under key parts parts (the map's
 * key_size bytes) and, for hist and lhist, bucket; false if absent.
 */
static inline bool h_keyed(const struct h_run *r, const struct h_prog *p, uint8_t id,
			   const void *parts, uint64_t bucket, struct st_val *out)
{
	const struct st_map_cfg *mc = &p->maps[id];
	struct st_val v[H_MAX_CPUS];
	uint8_t key[ST_KEY_MAX] = {0};
	struct st_key_hdr hdr = {.map_id = id};

	memcpy(key, &hdr, sizeof(hdr));
	memcpy(key + ST_KEY_HDR, parts, mc->key_size);
	if (st_kind_has_bucket(mc->kind))
		memcpy(key + st_key_bucket_off(mc->key_size), &bucket, sizeof(bucket));
	memset(out, 0, sizeof(*out));
	if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.st_aggr), key, v))
		return false;
	h_sum_cpus(r, v, out);
	return true;
}

/* The plain value (st_values) of map id under key parts; false if absent. */
static inline bool h_value(const struct h_run *r, const struct h_prog *p, uint8_t id,
			   const void *parts, struct st_value *out)
{
	uint8_t key[ST_KEY_MAX] = {0};
	struct st_key_hdr hdr = {.map_id = id};

	memcpy(key, &hdr, sizeof(hdr));
	memcpy(key + ST_KEY_HDR, parts, p->maps[id].key_size);
	return !bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.st_values), key, out);
}

/* Entries of st_aggr, all maps together. */
static inline unsigned int h_keyed_entries(const struct h_run *r)
{
	uint8_t key[ST_KEY_MAX], next[ST_KEY_MAX];
	int fd = bpf_map__fd(r->skel->maps.st_aggr);
	unsigned int n = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, next)) {
		n++;
		memcpy(key, next, sizeof(key));
		prev = key;
	}
	return n;
}

/* Per-probe counter c (enum st_counter), all CPUs. */
static inline int64_t h_counter(const struct h_run *r, unsigned int c)
{
	__u64 v[H_MAX_CPUS];
	int64_t sum = 0;
	__u32 idx = c;
	int i;

	if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.st_counters), &idx, v))
		return -1;
	for (i = 0; i < r->nr_cpus; i++)
		sum += v[i];
	return sum;
}

#endif /* SIDETRACE_TEST_BPF_HARNESS_H */
