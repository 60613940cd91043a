// SPDX-License-Identifier: MIT
/*
 * Separate debug info (debuginfo.h), by libdwfl's own search: the same
 * paths as gdb's, and the check that the file found is this build's.
 */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "objfile/debuginfo.h"

/* elfutils' default search path: the object's directory, its .debug/, and /usr/lib/debug. */
#define DEFAULT_SEARCH ":.debug:/usr/lib/debug"

/* The CRC32 of the whole file at fd, as a .gnu_debuglink records it. */
static GElf_Word file_crc(int fd)
{
	unsigned char buf[65536];
	uLong crc = crc32(0, Z_NULL, 0);
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		crc = crc32(crc, buf, n);
		off += n;
	}
	return (GElf_Word)crc;
}

/* Whether the file at fd is e's debug file: the same build id, or without one the link's CRC. */
static bool is_debug_of(const struct st_elf *e, int fd, GElf_Word crc)
{
	const void *want = NULL, *got = NULL;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ssize_t nw = dwelf_elf_gnu_build_id(e->elf, &want);
	ssize_t ng = elf ? dwelf_elf_gnu_build_id(elf, &got) : -1;
	bool ok = nw > 0 && ng > 0 ? nw == ng && !memcmp(want, got, nw) : file_crc(fd) == crc;

	elf_end(elf);
	return ok;
}

/*
 * The file a .gnu_debuglink names, searched as libdwfl searches: each
 * entry of the search path, "" the object's directory, a relative one
 * under it, an absolute one with the directory under it. Searched here,
 * not by dwfl_standard_find_debuginfo(), which, finding none, loads the
 * debuginfod client and its network libraries (megabytes, milliseconds)
 * even where no server is named.
 */
static int find_debuglink(const struct st_elf *e, const char *path, const char *link, GElf_Word crc,
			  const char *search)
{
	const char *slash = strrchr(path, '/'), *entry = search, *end;
	int dir_len = slash ? (int)(slash - path) : 1, fd, len;
	const char *dir = slash ? path : ".";
	char cand[PATH_MAX];

	for (; entry; entry = *end ? end + 1 : NULL) {
		end = entry + strcspn(entry, ":");
		len = (int)(end - entry);
		/* elfutils' "+" and "-" prefixes ask for a CRC check, or none: the build id decides
		 * here. */
		if (len && (*entry == '+' || *entry == '-'))
			entry++, len--;
		if (!len)
			snprintf(cand, sizeof(cand), "%.*s/%s", dir_len, dir, link);
		else if (*entry == '/')
			snprintf(cand, sizeof(cand), "%.*s%.*s/%s", len, entry, dir_len, dir, link);
		else
			snprintf(cand, sizeof(cand), "%.*s/%.*s/%s", dir_len, dir, len, entry,
				 link);
		fd = open(cand, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_debug_of(e, fd, crc))
			return fd;
		close(fd);
	}
	return -1;
}

int st_debuginfo_open(const struct st_elf *e, const char *path)
{
	/* NULL: elfutils' default, ":.debug:/usr/lib/debug". */
	char *search = getenv(ST_DEBUGINFO_PATH_ENV);
	const char *urls = getenv("DEBUGINFOD_URLS");
	const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_build_id_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = search && *search ? &search : NULL,
	};
	const char *link;
	char *found = NULL;
	Dwfl_Module *mod;
	GElf_Word crc = 0;
	void **userdata;
	Dwfl *dwfl;
	char self[32];
	int fd = -1;

	dwfl = dwfl_begin(&cb);
	if (!dwfl)
		return -1;
	/*
	 * libdwfl opens the file already open, not path again (which may
	 * have been replaced since), and closes what it opened.
	 */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", e->fd);
	mod = dwfl_report_offline(dwfl, path, self, -1);
	if (!mod)
		goto cleanup;
	dwfl_report_end(dwfl, NULL, NULL);
	link = dwelf_elf_gnu_debuglink(e->elf, &crc);
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	fd = dwfl_build_id_find_debuginfo(mod, userdata, path, 0, path, link, crc, &found);
	free(found);
	if (fd < 0 && link)
		fd = find_debuglink(e, path, link, crc,
				    search && *search ? search : DEFAULT_SEARCH);
	/* Nowhere on disk: debuginfod's servers, where the user names some, as gdb asks them. */
	if (fd < 0 && urls && *urls) {
		found = NULL;
		fd = dwfl_standard_find_debuginfo(mod, userdata, path, 0, path, link, crc, &found);
		free(found);
	}
cleanup:
	dwfl_end(dwfl);
	return fd;
}
