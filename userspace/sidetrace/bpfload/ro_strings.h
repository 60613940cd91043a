/* SPDX-License-Identifier: MIT */
/*
 * Strings that the BPF programs key by address (struct st_ro_ref): a
 * string literal lives in a read-only segment of the object that holds
 * the probe site, so its bytes are those of the file, read here when the
 * collector reads a map. The kernel then neither reads nor hashes them
 * per event.
 */
#ifndef SIDETRACE_BPFLOAD_RO_STRINGS_H
#define SIDETRACE_BPFLOAD_RO_STRINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "compile/compile.h"
#include "objfile/elf.h"

/* An object whose sites may key strings by address. */
struct st_ro_obj {
	const char *path; /* st_event.path */
	uint32_t gen; /* the set of files it was attached in (loader.h st_site_gen), 0 first */
	struct st_elf elf; /* open for the session: the bytes of this inode */
	uint64_t vaddr, len; /* the read-only segment of its literals; len 0: none */
};

struct st_ro_strings {
	struct st_ro_obj *objs;
	uint32_t nr_objs;
	uint32_t nr_sites;
	int32_t *site_obj; /* per site (cookie): index in objs, -1: none */
	uint64_t *site_pc; /* per site: its address in the object */
};

/* Room for nr_sites sites (st_sites' entries), none keying strings yet. 0 or -ENOMEM. */
int st_ro_strings_open(struct st_ro_strings *ro, uint32_t nr_sites);

/*
 * Opens the objects of the probes that key strings by address (a
 * st_probe_cfg.ro_loads), for probe i's sites from site_base[i] on: of
 * events[i] (NULL: the compiled events), set gen of files (0: the
 * session's own). An object that cannot be read simply keeps its strings
 * read per event. 0, -ENOMEM or -ENOSPC.
 */
int st_ro_strings_add(struct st_ro_strings *ro, const struct st_compiled *c,
		      const struct st_event *const *events, const uint32_t *site_base,
		      uint32_t gen);
void st_ro_strings_close(struct st_ro_strings *ro);

/* Sets the read-only segment of site, from its address (ro_lo, ro_len, ro_site), in cfg. */
void st_ro_strings_site(const struct st_ro_strings *ro, uint32_t site, struct st_site_cfg *cfg);

/*
 * The bytes of the string ref points to, as the kernel would have read
 * them: at most ST_STR_LEN - 1, NUL-padded into out; *cut when longer.
 * False when ref names no such string (out is then empty).
 */
bool st_ro_strings_read(const struct st_ro_strings *ro, const struct st_ro_ref *ref,
			char out[ST_STR_LEN], bool *cut);

#endif /* SIDETRACE_BPFLOAD_RO_STRINGS_H */
