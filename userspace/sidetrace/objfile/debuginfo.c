// SPDX-License-Identifier: MIT
/*
 * Separate debug info (debuginfo.h), by libdwfl's own search: the same
 * paths as gdb's, and the check that the file found is this build's.
 */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>

#include "objfile/debuginfo.h"

int st_debuginfo_open(const struct st_elf *e, const char *path)
{
	/* NULL: elfutils' default, ":.debug:/usr/lib/debug". */
	char *search = getenv(ST_DEBUGINFO_PATH_ENV);
	const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
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
	fd = dwfl_standard_find_debuginfo(mod, userdata, path, 0, path, link, crc, &found);
	free(found);
cleanup:
	dwfl_end(dwfl);
	return fd;
}
