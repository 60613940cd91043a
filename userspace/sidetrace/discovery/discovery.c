/* SPDX-License-Identifier: MIT */
/*
 * Discovery of SIDE events and USDT probes in object files and processes.
 *
 * An object's probe sites are its stapsdt notes; its SIDE events are the
 * descriptions that the "side_event_description_ptr" section points to.
 * The two meet by name: a note's provider and name are the description's,
 * sanitized to [A-Za-z0-9_].
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <side/abi/event-description.h>
#include <side/probe.h>

#include "discovery/discovery.h"
#include "discovery/elf.h"
#include "discovery/side_desc.h"

#define NT_STAPSDT 3
#define STAPSDT_NAME "stapsdt"

/* One stapsdt note: a probe site and the probe it belongs to. */
struct note {
	char *provider;
	char *name;
	struct st_site site;
};

struct note_vec {
	struct note *v;
	size_t nr, cap;
};

void st_sanitize_name(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			*s = '_';
}

const char *st_loglevel_name(uint32_t loglevel)
{
	static const char *const names[] = {
		[SIDE_LOGLEVEL_EMERG] = "EMERG",     [SIDE_LOGLEVEL_ALERT] = "ALERT",
		[SIDE_LOGLEVEL_CRIT] = "CRIT",	     [SIDE_LOGLEVEL_ERR] = "ERR",
		[SIDE_LOGLEVEL_WARNING] = "WARNING", [SIDE_LOGLEVEL_NOTICE] = "NOTICE",
		[SIDE_LOGLEVEL_INFO] = "INFO",	     [SIDE_LOGLEVEL_DEBUG] = "DEBUG",
	};

	return loglevel < sizeof(names) / sizeof(names[0]) ? names[loglevel] : NULL;
}

static void notes_free(struct note_vec *nv)
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
		      uint64_t base_addr, struct note_vec *nv)
{
	const char *strs[3];
	uint64_t words[3];
	struct note *n;
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
	if (!n->provider || !n->name || !n->site.args)
		return -ENOMEM;
	st_sdt_args_parse(n->site.args, &n->site.sdt);
	return 0;
}

/* Collect every stapsdt note; *skipped counts malformed ones. */
static int notes_read(struct st_elf *e, struct note_vec *nv, size_t *skipped)
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

static int note_cmp(const void *a, const void *b)
{
	const struct note *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	if (!c)
		c = strcmp(x->name, y->name);
	if (!c && x->site.pc != y->site.pc)
		c = x->site.pc < y->site.pc ? -1 : 1;
	return c;
}

static int event_cmp(const void *a, const void *b)
{
	const struct st_event *x = a, *y = b;
	int c;

	/* SIDE events first, then plain USDT probes, each by name. */
	if (x->has_side != y->has_side)
		return x->has_side ? -1 : 1;
	c = strcmp(x->provider, y->provider);
	return c ? c : strcmp(x->name, y->name);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Read every description listed in side_event_description_ptr, each once.
 * One type-node budget for the whole file keeps a hostile file with many
 * large descriptions from costing more than a big legitimate one.
 */
static int descs_read(struct st_elf *e, struct st_event **evs, size_t *nr)
{
	unsigned long budget = ST_MAX_FILE_TYPE_NODES;
	size_t nr_addrs = 0, done = 0, i;
	uint64_t *addrs = NULL, n, addr;
	GElf_Shdr sh;
	int ret = 0;

	*evs = NULL;
	if (!st_elf_find_section(e, "side_event_description_ptr", &sh) || sh.sh_type == SHT_NOBITS)
		goto cleanup;
	n = sh.sh_size / sizeof(uint64_t);
	if (n > ST_MAX_EVENTS)
		n = ST_MAX_EVENTS;
	if (!n)
		goto cleanup;
	addrs = calloc(n, sizeof(*addrs));
	if (!addrs) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < n; i++)
		if (st_elf_read_ptr(e, sh.sh_addr + i * sizeof(uint64_t), &addr) && addr)
			addrs[nr_addrs++] = addr;
	if (!nr_addrs)
		goto cleanup;
	qsort(addrs, nr_addrs, sizeof(*addrs), u64_cmp);
	*evs = calloc(nr_addrs, sizeof(**evs));
	if (!*evs) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < nr_addrs; i++) {
		struct st_event *ev = &(*evs)[done];

		/* The same description listed twice is one event. */
		if (i && addrs[i] == addrs[i - 1])
			continue;
		if (st_read_event_desc(e, addrs[i], ev, &budget)) {
			/* Keep it visible: an unreadable description is news. */
			if (!ev->provider)
				ev->provider = strdup("?");
			if (!ev->name)
				ev->name = strdup("?");
		}
		ev->usdt_provider = ev->provider ? strdup(ev->provider) : NULL;
		ev->usdt_name = ev->name ? strdup(ev->name) : NULL;
		done++;
		if (!ev->provider || !ev->name || !ev->usdt_provider || !ev->usdt_name) {
			ret = -ENOMEM;
			goto cleanup;
		}
		st_sanitize_name(ev->usdt_provider);
		st_sanitize_name(ev->usdt_name);
	}
cleanup:
	free(addrs);
	*nr = done;
	return ret;
}

static int list_grow(struct st_event_list *out, size_t more)
{
	struct st_event *p;

	p = realloc(out->events, (out->nr + more) * sizeof(*p));
	if (!p && out->nr + more)
		return -ENOMEM;
	out->events = p;
	return 0;
}

/* Append the sites of notes[0..nr) to ev; their args strings move over. */
static int attach_sites(struct st_event *ev, struct note *notes, size_t nr)
{
	struct st_site *p;
	size_t i;

	p = realloc(ev->sites, (ev->nr_sites + nr) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	ev->sites = p;
	for (i = 0; i < nr; i++) {
		ev->sites[ev->nr_sites++] = notes[i].site;
		notes[i].site.args = NULL;
	}
	return 0;
}

/* Order of descriptions by sanitized names, to find a note's in log n. */
static int usdt_key_cmp(const void *a, const void *b)
{
	const struct st_event *x = *(struct st_event *const *)a;
	const struct st_event *y = *(struct st_event *const *)b;
	int c = strcmp(x->usdt_provider, y->usdt_provider);

	return c ? c : strcmp(x->usdt_name, y->usdt_name);
}

/*
 * The descriptions whose sanitized names are the note's: *first and how
 * many. Notes are meant to carry sanitized names, but the note's are
 * sanitized too, so that one written with the raw SIDE names still finds
 * its event.
 */
static int find_descs(struct st_event **index, size_t nr, const struct note *n, size_t *first,
		      size_t *count)
{
	struct st_event key = {0}, *kp = &key, **hit;
	int ret = 0;

	*count = 0;
	key.usdt_provider = strdup(n->provider);
	key.usdt_name = strdup(n->name);
	if (!key.usdt_provider || !key.usdt_name) {
		ret = -ENOMEM;
		goto cleanup;
	}
	st_sanitize_name(key.usdt_provider);
	st_sanitize_name(key.usdt_name);
	hit = nr ? bsearch(&kp, index, nr, sizeof(*index), usdt_key_cmp) : NULL;
	if (!hit)
		goto cleanup;
	*first = hit - index;
	while (*first && !usdt_key_cmp(&kp, &index[*first - 1]))
		(*first)--;
	while (*first + *count < nr && !usdt_key_cmp(&kp, &index[*first + *count]))
		(*count)++;
cleanup:
	free(key.usdt_provider);
	free(key.usdt_name);
	return ret;
}

/* The event's USDT names become the note's, as tools must spell them. */
static int take_note_names(struct st_event *ev, const struct note *n)
{
	char *p = strdup(n->provider), *e = strdup(n->name);

	if (!p || !e) {
		free(p);
		free(e);
		return -ENOMEM;
	}
	free(ev->usdt_provider);
	free(ev->usdt_name);
	ev->usdt_provider = p;
	ev->usdt_name = e;
	return 0;
}

static int set_error(struct st_event *ev, const char *msg)
{
	if (ev->error)
		return 0;
	ev->error = strdup(msg);
	return ev->error ? 0 : -ENOMEM;
}

/*
 * A SIDE site passes min(fields, SIDE_SDT_MAX_VALUES*) values, the
 * description and the argument vector (and the dynamic fields). A site
 * built otherwise would feed a tracer garbage: say so.
 */
static int check_site_args(struct st_event *ev)
{
	unsigned int max = ev->variadic ? SIDE_SDT_MAX_VALUES_VARIADIC : SIDE_SDT_MAX_VALUES;
	unsigned int expect, got;
	char msg[128];
	uint32_t i;

	expect = (ev->nr_fields < max ? ev->nr_fields : max) + 2 + ev->variadic;
	for (i = 0; i < ev->nr_sites; i++) {
		got = ev->sites[i].sdt.nr;
		if (got == expect)
			continue;
		snprintf(msg, sizeof(msg),
			 "probe site 0x%" PRIx64 " has %u SDT arguments, the SIDE layout has %u",
			 ev->sites[i].pc, got, expect);
		return set_error(ev, msg);
	}
	return 0;
}

/* A new event for a probe that no description names. */
static int add_plain(struct st_event_list *out, const struct note *n, struct st_event **ev)
{
	*ev = &out->events[out->nr++];
	memset(*ev, 0, sizeof(**ev));
	(*ev)->provider = strdup(n->provider);
	(*ev)->name = strdup(n->name);
	(*ev)->usdt_provider = strdup(n->provider);
	(*ev)->usdt_name = strdup(n->name);
	if (!(*ev)->provider || !(*ev)->name || !(*ev)->usdt_provider || !(*ev)->usdt_name)
		return -ENOMEM;
	return 0;
}

/* Path, and the warnings that only make sense once sites are known. */
static int finish_event(struct st_event *ev, const char *path, size_t skipped)
{
	char msg[128];
	uint32_t i;
	int ret;

	ev->path = strdup(path);
	if (!ev->path)
		return -ENOMEM;
	for (i = 0; i < ev->nr_sites && !ev->error; i++) {
		if (!ev->sites[i].sema_addr || ev->sites[i].sema_offset)
			continue;
		snprintf(msg, sizeof(msg),
			 "semaphore 0x%" PRIx64
			 " is not in file-backed data: the kernel cannot count attached probes",
			 ev->sites[i].sema_addr);
		ret = set_error(ev, msg);
		if (ret)
			return ret;
	}
	if (ev->has_side && !ev->error) {
		ret = check_site_args(ev);
		if (ret)
			return ret;
	}
	if (skipped && !ev->error) {
		snprintf(msg, sizeof(msg), "%zu malformed stapsdt notes in this file were ignored",
			 skipped);
		return set_error(ev, msg);
	}
	return 0;
}

/*
 * Match note groups with descriptions and append the result to out:
 * descriptions (with or without sites), then probes without description.
 */
static int merge(const char *path, struct note_vec *nv, struct st_event *descs, size_t nr_descs,
		 size_t skipped, struct st_event_list *out)
{
	size_t i, j, k, first = out->nr, d_first, d_count;
	struct st_event **index = NULL;
	int ret;

	/* Reserve it all now: index points into out->events. */
	ret = list_grow(out, nr_descs + nv->nr);
	if (ret)
		return ret;
	index = calloc(nr_descs ? nr_descs : 1, sizeof(*index));
	if (!index)
		return -ENOMEM;
	for (i = 0; i < nr_descs; i++) {
		index[i] = &out->events[out->nr];
		out->events[out->nr++] = descs[i];
		memset(&descs[i], 0, sizeof(descs[i]));
	}
	if (nr_descs)
		qsort(index, nr_descs, sizeof(*index), usdt_key_cmp);
	if (nv->nr)
		qsort(nv->v, nv->nr, sizeof(*nv->v), note_cmp);
	for (i = 0; i < nv->nr; i = j) {
		struct st_event *ev;

		for (j = i + 1; j < nv->nr; j++)
			if (strcmp(nv->v[i].provider, nv->v[j].provider) ||
			    strcmp(nv->v[i].name, nv->v[j].name))
				break;
		ret = find_descs(index, nr_descs, &nv->v[i], &d_first, &d_count);
		if (ret)
			goto cleanup;
		if (!d_count) {
			ret = add_plain(out, &nv->v[i], &ev);
			if (ret)
				goto cleanup;
		} else {
			ev = index[d_first];
			/* Notes cannot tell the others apart: say so. */
			for (k = 1; k < d_count; k++) {
				ret = set_error(index[d_first + k],
						"its sanitized USDT name is also another event's; "
						"its sites are listed there");
				if (ret)
					goto cleanup;
			}
			if (!ev->nr_sites) {
				ret = take_note_names(ev, &nv->v[i]);
				if (ret)
					goto cleanup;
			}
		}
		ret = attach_sites(ev, &nv->v[i], j - i);
		if (ret)
			goto cleanup;
	}
	for (i = first; i < out->nr; i++) {
		ret = finish_event(&out->events[i], path, skipped);
		if (ret)
			goto cleanup;
	}
	if (out->nr > first)
		qsort(out->events + first, out->nr - first, sizeof(*out->events), event_cmp);
cleanup:
	free(index);
	return ret;
}

int st_discover_file(const char *path, struct st_event_list *out, char *err, size_t errlen)
{
	struct st_event *descs = NULL;
	struct note_vec nv = {0};
	size_t nr_descs = 0, skipped = 0, i;
	struct st_elf e;
	int ret;

	ret = st_elf_open(path, &e, err, errlen);
	if (ret)
		return ret;
	ret = notes_read(&e, &nv, &skipped);
	if (!ret)
		ret = descs_read(&e, &descs, &nr_descs);
	if (!ret)
		ret = merge(path, &nv, descs, nr_descs, skipped, out);
	if (ret)
		snprintf(err, errlen, "%s", strerror(-ret));
	for (i = 0; i < nr_descs; i++)
		st_event_fini(&descs[i]);
	free(descs);
	notes_free(&nv);
	st_elf_close(&e);
	return ret;
}

void st_event_list_free(struct st_event_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		st_event_fini(&l->events[i]);
	free(l->events);
	l->events = NULL;
	l->nr = 0;
}

/* One mapped object of a process. */
struct mapped {
	char *path;
	unsigned long start, end;
	unsigned long inode;
};

/* True when path names the file with this inode (same mount namespace). */
static bool same_inode(const char *path, unsigned long inode)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_ino == inode;
}

/* Pick a path to the object that is readable from here. */
static int reachable_path(pid_t pid, const struct mapped *m, char *buf, size_t len)
{
	static const char deleted[] = " (deleted)";
	size_t n = strlen(m->path);

	if (n < sizeof(deleted) - 1 || strcmp(m->path + n - (sizeof(deleted) - 1), deleted)) {
		if (same_inode(m->path, m->inode)) {
			snprintf(buf, len, "%s", m->path);
			return 0;
		}
		/* Another mount namespace (a container): go through its root. */
		snprintf(buf, len, "/proc/%d/root%s", (int)pid, m->path);
		if (same_inode(buf, m->inode))
			return 0;
	}
	snprintf(buf, len, "/proc/%d/map_files/%lx-%lx", (int)pid, m->start, m->end);
	return same_inode(buf, m->inode) ? 0 : -ENOENT;
}

/* Distinct file-backed mappings of pid, in address order. */
static int maps_read(pid_t pid, struct mapped **out, size_t *nr)
{
	struct mapped *v = NULL;
	size_t n = 0, cap = 0, linecap = 0, i;
	char fname[64], *line = NULL;
	FILE *f;
	int ret = 0;

	snprintf(fname, sizeof(fname), "/proc/%d/maps", (int)pid);
	f = fopen(fname, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (getline(&line, &linecap, f) > 0) {
		unsigned long start, end, off, inode;
		unsigned int maj, min;
		char perms[8], *p;
		int pos = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu %n", &start, &end, perms, &off, &maj,
			   &min, &inode, &pos) < 7 ||
		    !pos)
			continue;
		p = line + pos;
		p[strcspn(p, "\n")] = '\0';
		if (*p != '/' || !inode)
			continue;
		for (i = 0; i < n; i++)
			if (v[i].inode == inode && !strcmp(v[i].path, p))
				break;
		if (i < n)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			void *q = realloc(v, ncap * sizeof(*v));

			if (!q) {
				ret = -ENOMEM;
				goto cleanup;
			}
			v = q;
			cap = ncap;
		}
		v[n].path = strdup(p);
		if (!v[n].path) {
			ret = -ENOMEM;
			goto cleanup;
		}
		v[n].start = start;
		v[n].end = end;
		v[n].inode = inode;
		n++;
	}
cleanup:
	free(line);
	fclose(f);
	if (ret) {
		for (i = 0; i < n; i++)
			free(v[i].path);
		free(v);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

int st_discover_pid(pid_t pid, struct st_event_list *out, char *err, size_t errlen)
{
	struct mapped *maps = NULL;
	size_t nr = 0, i, read_ok = 0;
	char path[PATH_MAX + 64], ferr[256];
	int ret, first_err = 0;

	ret = maps_read(pid, &maps, &nr);
	if (ret) {
		snprintf(err, errlen, "process %d: %s", (int)pid,
			 ret == -ESRCH ? "no such process" : strerror(-ret));
		return ret;
	}
	for (i = 0; i < nr; i++) {
		if (reachable_path(pid, &maps[i], path, sizeof(path))) {
			if (!first_err) {
				first_err = -ENOENT;
				snprintf(err, errlen, "%s: not reachable from here", maps[i].path);
			}
			continue;
		}
		ret = st_discover_file(path, out, ferr, sizeof(ferr));
		if (ret == -ENOMEM)
			goto cleanup;
		/* Data files (locale archive, caches) are mapped too. */
		if (ret == -ENOEXEC || !ret) {
			read_ok++;
			continue;
		}
		if (!first_err) {
			first_err = ret;
			snprintf(err, errlen, "%s: %s", path, ferr);
		}
	}
	ret = read_ok ? 0 : first_err;
cleanup:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	for (i = 0; i < nr; i++)
		free(maps[i].path);
	free(maps);
	return ret;
}

static bool glob_match(const char *glob, const char *a, const char *b)
{
	if (!glob)
		return true;
	return (a && !fnmatch(glob, a, 0)) || (b && !fnmatch(glob, b, 0));
}

bool st_event_match(const struct st_event *ev, const char *provider_glob, const char *name_glob)
{
	return glob_match(provider_glob, ev->provider, ev->usdt_provider) &&
	       glob_match(name_glob, ev->name, ev->usdt_name);
}

size_t st_events_match(const struct st_event_list *l, const char *provider_glob,
		       const char *name_glob, size_t *idx, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < l->nr; i++) {
		if (!st_event_match(&l->events[i], provider_glob, name_glob))
			continue;
		if (n < max)
			idx[n] = i;
		n++;
	}
	return n;
}

/* Copy a found path out, refusing to truncate it. */
static int put_path(const char *path, char *out, size_t len)
{
	if (strlen(path) >= len)
		return -ENAMETOOLONG;
	strcpy(out, path);
	return 0;
}

static bool is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* A cache or directory entry's name stands for the library target. */
static bool lib_name_matches(const char *entry, const char *target)
{
	size_t n = strlen(target);

	if (strncmp(entry, target, n))
		return false;
	/* "libfoo" matches "libfoo.so*", "libfoo.so" matches "libfoo.so.1". */
	return entry[n] == '\0' ||
	       (entry[n] == '.' && (strstr(target, ".so") || !strncmp(entry + n, ".so", 3)));
}

/* Search a ':'-separated list of directories for the library. */
static int search_dirs(const char *dirs, const char *target, char *out, size_t len)
{
	static const char *const suffixes[] = {"", ".so"};
	char path[PATH_MAX];
	const char *d = dirs;
	size_t i;

	while (d && *d) {
		size_t dl = strcspn(d, ":");

		for (i = 0; dl && i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
			snprintf(path, sizeof(path), "%.*s/%s%s", (int)dl, d, target, suffixes[i]);
			if (is_regular(path))
				return put_path(path, out, len);
		}
		d += dl;
		if (*d == ':')
			d++;
	}
	return -ENOENT;
}

/* ldconfig -p lines: "\tlibfoo.so.1 (libc6,x86-64) => /usr/lib/libfoo.so.1" */
static int search_ld_cache(const char *target, char *out, size_t len)
{
	char *line = NULL, *arrow, *name, *flags;
	size_t linecap = 0;
	int ret = -ENOENT;
	FILE *f;

	f = popen("ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null", "r");
	if (!f)
		return -ENOENT;
	while (ret && getline(&line, &linecap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		arrow = strstr(line, " => ");
		if (!arrow)
			continue;
		*arrow = '\0';
		name = line + strspn(line, " \t");
		flags = strchr(name, ' ');
		if (flags)
			*flags++ = '\0';
		/* Only objects this collector's ABI can read. */
		if (flags && (strstr(flags, "x86-64") || strstr(flags, "AArch64")) &&
		    lib_name_matches(name, target) && is_regular(arrow + 4))
			ret = put_path(arrow + 4, out, len);
	}
	free(line);
	pclose(f);
	return ret;
}

int st_resolve_target(const char *target, char *path_out, size_t len)
{
	static const char std_dirs[] = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
				       "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:"
				       "/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib";
	bool lib;
	int ret;

	if (!*target)
		return -ENOENT;
	if (strchr(target, '/') || is_regular(target))
		return is_regular(target) ? put_path(target, path_out, len) : -ENOENT;
	lib = !strncmp(target, "lib", 3) || strstr(target, ".so");
	if (lib) {
		ret = search_dirs(getenv("LD_LIBRARY_PATH"), target, path_out, len);
		if (ret != -ENOENT)
			return ret;
		ret = search_ld_cache(target, path_out, len);
		if (ret != -ENOENT)
			return ret;
		ret = search_dirs(std_dirs, target, path_out, len);
		if (ret != -ENOENT)
			return ret;
	}
	return search_dirs(getenv("PATH"), target, path_out, len);
}
