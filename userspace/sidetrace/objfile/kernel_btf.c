// SPDX-License-Identifier: MIT
/*
 * The running kernel's BTF (kernel_btf.h). libbpf reads the 5-6 MB of
 * /sys/kernel/btf/vmlinux into a buffer, then copies it into the BTF
 * object, two copies at once: a third of what a tool that casts to a
 * kernel struct peaks at. Where the kernel maps the file (since 6.16),
 * only the copy is made.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "objfile/kernel_btf.h"

struct btf *st_kernel_btf_load(void)
{
	struct btf *btf = NULL;
	struct stat st;
	void *data;
	int fd;

	fd = open(ST_KERNEL_BTF_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || st.st_size <= 0)
		goto cleanup;
	data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		goto cleanup;
	btf = btf__new(data, st.st_size);
	munmap(data, st.st_size);
cleanup:
	if (fd >= 0)
		close(fd);
	/* Elsewhere, or not mapped: libbpf's search (/boot, /lib/modules). */
	return btf ? btf : btf__load_vmlinux_btf();
}
