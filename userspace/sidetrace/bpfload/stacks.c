// SPDX-License-Identifier: MIT
/* Stacks named by their symbols (stacks.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/proc_maps.h"
#include "objfile/symbols.h"
#include "targets/targets.h"
#include "util/textbuf.h"
#include "bpfload/loader.h"
#include "bpfload/stacks.h"
#include "sidetrace.skel.h"

/* An executable mapping of a process, as its maps file had it. */
struct mapping {
	uint64_t start, end, off;
	char *path;
};

struct proc {
	uint32_t pid;
	uint64_t comm8; /* st_stack_pids' value when its mappings were read */
	struct mapping *maps;
	size_t nr;
};

/* An object file's symbols, read when a frame first falls in it. */
struct file {
	char *path;
	struct st_symtab tab;
	int err;
};

struct st_stacks {
	struct proc *procs;
	size_t nr_procs;
	struct file *files;
	size_t nr_files;
	/* Files whose build ids are known: those of the first nr_scanned procs and the session's.
	 */
	size_t nr_scanned;
	bool scanned_session;
	struct st_symtab kernel;
	int kernel_err; /* 1: not read yet */
};

struct st_stacks *st_stacks_new(void)
{
	struct st_stacks *s = calloc(1, sizeof(*s));

	if (s)
		s->kernel_err = 1;
	return s;
}

static struct proc *find_proc(struct st_stacks *s, uint32_t pid)
{
	size_t i;

	for (i = 0; i < s->nr_procs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	return NULL;
}

static void free_maps(struct proc *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->maps[i].path);
	free(p->maps);
	p->maps = NULL;
	p->nr = 0;
}

/* Adds m to the process's when it is executable and file-backed. */
static int add_mapping(const struct st_mapping *m, void *arg)
{
	struct proc *p = arg;
	struct mapping *v;

	if (m->perms[2] != 'x' || m->path[0] != '/')
		return 0;
	v = realloc(p->maps, (p->nr + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->maps = v;
	v[p->nr] = (struct mapping){m->lo, m->hi, m->offset, strdup(m->path)};
	return v[p->nr++].path ? 0 : -ENOMEM;
}

/* The executable, file-backed mappings of pid, read now. */
static int read_maps(struct proc *p)
{
	return st_maps_walk(p->pid, add_mapping, p);
}

int st_stacks_poll(struct st_stacks *s, const struct st_loader *l)
{
	int fd = l->skel ? bpf_map__fd(l->skel->maps.st_stack_pids) : -1;
	uint32_t key, next, *cur = NULL;
	uint64_t comm8;
	struct proc *p;

	if (fd < 0 || bpf_map_get_next_key(fd, NULL, &next))
		return 0;
	do {
		key = next;
		cur = &key;
		if (bpf_map_lookup_elem(fd, &key, &comm8))
			continue;
		p = find_proc(s, key);
		if (p && p->comm8 == comm8)
			continue;
		if (!p) {
			p = realloc(s->procs, (s->nr_procs + 1) * sizeof(*p));
			if (!p)
				return -ENOMEM;
			s->procs = p;
			p = &p[s->nr_procs++];
			*p = (struct proc){.pid = key};
		}
		/* After an exec, the new image's mappings. */
		free_maps(p);
		p->comm8 = comm8;
		/* Gone already: its frames are named by build id, or stay addresses. */
		read_maps(p);
		/* New files to look for build ids in. */
		s->nr_scanned = 0;
	} while (!bpf_map_get_next_key(fd, cur, &next));
	return 0;
}

static struct file *file_syms(struct st_stacks *s, const char *path)
{
	struct file *f;
	size_t i;

	for (i = 0; i < s->nr_files; i++)
		if (!strcmp(s->files[i].path, path))
			return s->files[i].err ? NULL : &s->files[i];
	f = realloc(s->files, (s->nr_files + 1) * sizeof(*f));
	if (!f)
		return NULL;
	s->files = f;
	f = &f[s->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	s->nr_files++;
	f->err = st_symtab_load_file(path, &f->tab);
	return f->err ? NULL : f;
}

void st_address_text(uint64_t addr, char buf[ST_ADDRESS_TEXT])
{
	/* C++'s output of a void *, which bpftrace prints such an address with. */
	if (addr)
		snprintf(buf, ST_ADDRESS_TEXT, "0x%" PRIx64, addr);
	else
		snprintf(buf, ST_ADDRESS_TEXT, "0");
}

/* An address no symbol names, appended as bpftrace prints it. */
static void put_address(struct st_textbuf *tb, uint64_t a)
{
	char text[ST_ADDRESS_TEXT];

	st_address_text(a, text);
	st_tb_puts(tb, text);
}

/*
 * One user frame: "function+offset" ("function" without with_off); in a
 * file without a symbol for it, "file+offset" (its offset in the file);
 * else its address.
 */
static void user_frame(struct st_stacks *s, const struct proc *p, uint64_t a, bool with_off,
		       struct st_textbuf *tb)
{
	const struct st_sym *sym;
	const struct mapping *m;
	struct file *f;
	uint64_t vaddr, off;
	size_t i;

	for (i = 0; p && i < p->nr; i++) {
		m = &p->maps[i];
		if (a < m->start || a >= m->end)
			continue;
		f = file_syms(s, m->path);
		if (f && st_symtab_vaddr(&f->tab, a - m->start + m->off, &vaddr) &&
		    (sym = st_symtab_find(&f->tab, vaddr, &off))) {
			if (with_off)
				st_tb_printf(tb, "%s+%" PRIu64, sym->name, off);
			else
				st_tb_printf(tb, "%s", sym->name);
			return;
		}
		st_tb_printf(tb, "%s+0x%" PRIx64,
			     strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path,
			     a - m->start + m->off);
		return;
	}
	put_address(tb, a);
}

/* The kernel symbol holding a, the kernel's table read at the first. */
static const struct st_sym *kernel_sym(struct st_stacks *s, uint64_t a, uint64_t *off)
{
	if (s->kernel_err == 1)
		s->kernel_err = st_symtab_load_kernel(&s->kernel);
	return s->kernel_err ? NULL : st_symtab_find(&s->kernel, a, off);
}

static void kernel_frame(struct st_stacks *s, uint64_t a, struct st_textbuf *tb)
{
	const struct st_sym *sym;
	uint64_t off;

	if ((sym = kernel_sym(s, a, &off)))
		st_tb_printf(tb, "%s+%" PRIu64, sym->name, off);
	else
		put_address(tb, a);
}

char *st_ksym_text(struct st_stacks *s, uint64_t addr)
{
	const struct st_sym *sym = kernel_sym(s, addr, &(uint64_t){0});
	char text[ST_ADDRESS_TEXT];

	if (sym)
		return strdup(sym->name);
	st_address_text(addr, text);
	return strdup(text);
}

char *st_usym_text(struct st_stacks *s, uint32_t pid, uint64_t addr)
{
	struct st_textbuf tb = {0};

	user_frame(s, find_proc(s, pid), addr, false, &tb);
	return st_tb_take(&tb);
}

/* Reads the symbols of path and of the libraries it needs, if not yet read. */
static void add_candidate(struct st_stacks *s, const char *path, int depth)
{
	struct file *f = file_syms(s, path);
	size_t i, idx = f ? (size_t)(f - s->files) : 0;
	char lib[4096];

	/* By index: reading a library grows s->files, which may move. */
	for (i = 0; f && depth < 2 && i < s->files[idx].tab.nr_needed; i++)
		if (!st_resolve_target(s->files[idx].tab.needed[i], lib, sizeof(lib)))
			add_candidate(s, lib, depth + 1);
}

/*
 * The file whose build id is id: among the files already read, else
 * among the processes' mappings, the traced files, the -c command and
 * what they need.
 */
static struct file *file_by_build_id(struct st_stacks *s, const struct st_compiled *c,
				     const unsigned char *id)
{
	size_t i, j;

	for (;;) {
		for (i = 0; i < s->nr_files; i++)
			if (!s->files[i].err && s->files[i].tab.build_id_len &&
			    !memcmp(s->files[i].tab.build_id, id, s->files[i].tab.build_id_len))
				return &s->files[i];
		if (s->scanned_session && s->nr_scanned == s->nr_procs)
			return NULL;
		for (i = 0; !s->scanned_session && i < c->nr_probes; i++)
			if (!st_event_kind(c->probes[i].event)->in_kernel)
				add_candidate(s, c->probes[i].event->path, 0);
		if (!s->scanned_session && c->cmd_path)
			add_candidate(s, c->cmd_path, 0);
		s->scanned_session = true;
		for (; s->nr_scanned < s->nr_procs; s->nr_scanned++)
			for (j = 0; j < s->procs[s->nr_scanned].nr; j++)
				add_candidate(s, s->procs[s->nr_scanned].maps[j].path, 0);
	}
}

/* A frame the kernel gave as a file's build id and an offset in it. */
static void build_id_frame(struct st_stacks *s, const struct st_compiled *c,
			   const struct bpf_stack_build_id *b, struct st_textbuf *tb)
{
	struct file *f = file_by_build_id(s, c, b->build_id);
	const struct st_sym *sym;
	uint64_t vaddr, off;

	if (f && st_symtab_vaddr(&f->tab, b->offset, &vaddr) &&
	    (sym = st_symtab_find(&f->tab, vaddr, &off))) {
		st_tb_printf(tb, "%s+%" PRIu64, sym->name, off);
		return;
	}
	if (f)
		st_tb_printf(tb, "%s+0x%" PRIx64,
			     strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path,
			     (uint64_t)b->offset);
	else
		st_tb_printf(tb, "[build id %02x%02x%02x%02x]+0x%" PRIx64, b->build_id[0],
			     b->build_id[1], b->build_id[2], b->build_id[3], (uint64_t)b->offset);
}

/* The file of a user frame, as perf names it: by its build id, or by p's mappings. */
static const char *frame_module(struct st_stacks *s, const struct st_compiled *c,
				const struct proc *p, const struct bpf_stack_build_id *b)
{
	const struct file *f;
	size_t i;

	if (b->status == BPF_STACK_BUILD_ID_VALID) {
		f = file_by_build_id(s, c, b->build_id);
		return f ? f->path : "[unknown]";
	}
	for (i = 0; p && i < p->nr; i++)
		if (b->ip >= p->maps[i].start && b->ip < p->maps[i].end)
			return p->maps[i].path;
	return "[unknown]";
}

/*
 * The address of a user frame: its ip, or for one the kernel gave by build
 * id where p maps its file, as p has it; else its offset in the file.
 */
static uint64_t frame_address(const struct proc *p, const char *file,
			      const struct bpf_stack_build_id *b)
{
	char want[PATH_MAX], got[PATH_MAX];
	const struct mapping *m;
	size_t i;

	if (b->status != BPF_STACK_BUILD_ID_VALID)
		return b->ip;
	/* By the file itself: /lib and /usr/lib are one directory on a merged /usr. */
	if (!realpath(file, want))
		return b->offset;
	for (i = 0; p && i < p->nr; i++) {
		m = &p->maps[i];
		if (b->offset >= m->off && b->offset - m->off < m->end - m->start &&
		    realpath(m->path, got) && !strcmp(got, want))
			return m->start + (b->offset - m->off);
	}
	return b->offset;
}

/*
 * The frames of user stack v: each by its file's build id, or by the
 * process's mappings; perf: as perf prints them, "ADDR SYM+OFF (FILE)",
 * where a frame the kernel gave by build id, of a process gone or not
 * mapping it, has its offset in the file for its address.
 */
/*
 * The frames of a user or a kernel stack by its id: in the first map, or
 * with ST_STACK_SPILL in its spill map (bpf/sidetrace.h). 0 or -1.
 */
static int stack_lookup(const struct st_loader *l, bool user, uint32_t id, void *frames)
{
	bool spill = id & ST_STACK_SPILL;
	uint32_t key = id & ~ST_STACK_SPILL;
	const struct bpf_map *m;

	if (user)
		m = spill ? l->skel->maps.st_ustacks_spill : l->skel->maps.st_ustacks;
	else
		m = spill ? l->skel->maps.st_stacks_spill : l->skel->maps.st_stacks;
	return bpf_map_lookup_elem(bpf_map__fd(m), &key, frames);
}

static void user_stack(struct st_stacks *s, const struct st_loader *l, const struct st_compiled *c,
		       uint64_t v, bool perf, struct st_textbuf *tb)
{
	struct bpf_stack_build_id frames[ST_STACK_FRAMES];
	uint32_t id = ST_USTACK_ID(v);
	const struct proc *p;
	const char *module;
	size_t i;

	memset(frames, 0, sizeof(frames));
	if (id == ST_STACK_EMPTY)
		return;
	if (id == ST_STACK_FAILED || stack_lookup(l, true, id, frames)) {
		st_tb_puts(tb, "[unknown]");
		return;
	}
	p = find_proc(s, ST_USTACK_PID(v));
	for (i = 0; i < ST_STACK_FRAMES && frames[i].status != BPF_STACK_BUILD_ID_EMPTY; i++) {
		module = perf ? frame_module(s, c, p, &frames[i]) : NULL;
		if (i)
			st_tb_putc(tb, '\n');
		if (perf)
			st_tb_printf(tb, "%" PRIx64 " ", frame_address(p, module, &frames[i]));
		if (frames[i].status == BPF_STACK_BUILD_ID_VALID)
			build_id_frame(s, c, &frames[i], tb);
		else
			user_frame(s, p, frames[i].ip, true, tb);
		if (perf)
			st_tb_printf(tb, " (%s)", module);
	}
}

bool st_stack_prefix(const struct st_loader *l, bool user, uint64_t v, uint32_t n, void *out)
{
	struct bpf_stack_build_id ufr[ST_STACK_FRAMES];
	uint64_t kfr[ST_STACK_FRAMES];
	uint32_t id = user ? ST_USTACK_ID(v) : (uint32_t)v;
	size_t i;

	_Static_assert(sizeof(ufr[0]) == ST_STACK_FRAME_BYTES, "a user frame's bytes");
	n = n < ST_STACK_FRAMES ? n : ST_STACK_FRAMES;
	memset(out, 0, (size_t)n * ST_STACK_FRAME_BYTES);
	if (id == ST_STACK_EMPTY || id == ST_STACK_FAILED)
		return false;
	if (user) {
		memset(ufr, 0, sizeof(ufr));
		if (stack_lookup(l, true, id, ufr))
			return false;
		for (i = 0; i < n && ufr[i].status != BPF_STACK_BUILD_ID_EMPTY; i++)
			memcpy((char *)out + i * ST_STACK_FRAME_BYTES, &ufr[i], sizeof(ufr[i]));
		return true;
	}
	memset(kfr, 0, sizeof(kfr));
	if (stack_lookup(l, false, id, kfr))
		return false;
	for (i = 0; i < n && kfr[i]; i++)
		memcpy((char *)out + i * ST_STACK_FRAME_BYTES, &kfr[i], sizeof(kfr[i]));
	return true;
}

char *st_stack_text(struct st_stacks *s, const struct st_loader *l, const struct st_compiled *c,
		    bool user, bool perf, uint64_t v)
{
	uint64_t frames[ST_STACK_FRAMES] = {0};
	struct st_textbuf tb = {0};
	uint32_t id = (uint32_t)v;
	size_t i;

	if (user) {
		user_stack(s, l, c, v, perf, &tb);
		return st_tb_take(&tb);
	}
	if (id == ST_STACK_EMPTY)
		return strdup("");
	if (id == ST_STACK_FAILED || stack_lookup(l, false, id, frames)) {
		st_tb_puts(&tb, "[unknown]");
		return st_tb_take(&tb);
	}
	for (i = 0; i < ST_STACK_FRAMES && frames[i]; i++) {
		if (i)
			st_tb_putc(&tb, '\n');
		if (perf)
			st_tb_printf(&tb, "%" PRIx64 " ", frames[i]);
		kernel_frame(s, frames[i], &tb);
	}
	return st_tb_take(&tb);
}

void st_stacks_free(struct st_stacks *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_procs; i++)
		free_maps(&s->procs[i]);
	for (i = 0; i < s->nr_files; i++) {
		st_symtab_free(&s->files[i].tab);
		free(s->files[i].path);
	}
	free(s->procs);
	free(s->files);
	if (!s->kernel_err)
		st_symtab_free(&s->kernel);
	free(s);
}
