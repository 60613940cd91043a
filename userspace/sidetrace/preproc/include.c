// SPDX-License-Identifier: MIT
/*
 * #include: a file's macros and conditionals read from the including
 * file's directory or a -I one, a cycle refused; a system or kernel
 * header's macros from header_macros.c, its types from BTF.
 */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preproc/header_macros.h"
#include "preproc/pp.h"

/* Reads path (at most PP_MAX_FILE bytes, no NUL) into *out: 0 or -errno. */
static int read_file(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return -errno;
	buf = malloc(PP_MAX_FILE + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, PP_MAX_FILE + 1, f);
	if (ferror(f) || n > PP_MAX_FILE || memchr(buf, '\0', n)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (!buf)
		return -EFBIG;
	buf[n] = '\0';
	*out = buf;
	return 0;
}

/* "a -> b -> c": the files from the program to f, then name. */
static void chain(const struct pp_file *f, const char *name, char *buf, size_t len)
{
	size_t at;

	if (!f) {
		snprintf(buf, len, "%s", name);
		return;
	}
	chain(f->up, f->name, buf, len);
	at = strlen(buf);
	snprintf(buf + at, len - at, " -> %s", name);
}

/* Reads the file at path (name in messages) as an included file. */
static int include_path(struct pp *pp, const char *path, const char *text)
{
	struct pp_file f = {.name = path, .path = path, .up = pp->file, .included = 1};
	const struct pp_file *up;
	char msg[400];
	int err;

	f.real = realpath(path, NULL);
	for (up = pp->file; up && f.real; up = up->up) {
		if (up->real && !strcmp(up->real, f.real)) {
			chain(pp->file, path, msg, sizeof(msg));
			free(f.real);
			return pp_error(pp, "#include cycle: %s", msg);
		}
	}
	if (pp->depth == PP_MAX_INCLUDE_DEPTH) {
		free(f.real);
		return pp_error(pp, "#include nested deeper than %d files", PP_MAX_INCLUDE_DEPTH);
	}
	pp->file = &f;
	pp->depth++;
	err = pp_run(pp, text, NULL);
	pp->depth--;
	pp->file = f.up;
	free(f.real);
	return err;
}

/* dir/name read, or -errno (-ENOENT: not there, look further). */
static int try_dir(struct pp *pp, const char *dir, size_t dlen, const char *name)
{
	char *path, *text = NULL;
	int err;

	if (asprintf(&path, "%.*s%s%s", (int)dlen, dir, dlen ? "/" : "", name) < 0)
		return pp_nomem(pp);
	err = read_file(path, &text);
	if (!err) {
		err = include_path(pp, path, text);
		free(text);
	} else if (err == -ENOMEM) {
		err = pp_nomem(pp);
	} else if (err == -ENOENT || err == -ENOTDIR) {
		err = -ENOENT;
	} else {
		err = pp_error(pp, "#include: cannot read %s: %s", path,
			       err == -EFBIG ? "longer than 1 MiB, or not text" : strerror(-err));
	}
	free(path);
	return err;
}

/*
 * name where C looks for it: "FILE" in the including file's directory
 * (the current one for -e and stdin) then each -I, <FILE> in each -I.
 * -ENOENT: in none.
 */
static int find(struct pp *pp, const char *name, int quoted)
{
	const char *dir = pp->file->path, *slash = dir ? strrchr(dir, '/') : NULL;
	int err = -ENOENT;
	uint32_t i;

	if (name[0] == '/')
		return try_dir(pp, "", 0, name);
	if (quoted)
		err = try_dir(pp, dir ? dir : "",
			      slash ? (size_t)(slash - dir) + (slash == dir) : 0, name);
	for (i = 0; err == -ENOENT && i < pp->opts->nr_include_dirs; i++)
		err = try_dir(pp, pp->opts->include_dirs[i], strlen(pp->opts->include_dirs[i]),
			      name);
	return err;
}

/* The directories of the kernel's include/ and its arch's (asm/): their headers' types are BTF's.
 */
static const char *const kernel_dirs[] = {
	"acpi",	  "asm",    "asm-generic", "clocksource", "crypto",   "drm",   "dt-bindings",
	"keys",	  "kunit",  "kvm",	   "linux",	  "math-emu", "media", "misc",
	"net",	  "pcmcia", "ras",	   "rdma",	  "scsi",     "soc",   "sound",
	"target", "trace",  "uapi",	   "ufs",	  "vdso",     "video", "xen",
};

/* Whether a C compiler finds name in the system's directories (a multiarch one too). */
static bool in_system_dirs(const char *name)
{
	static const char *const dirs[] = {"/usr/local/include", "/usr/include"};
	char path[PATH_MAX];
	struct dirent *d;
	bool found = false;
	size_t i;
	DIR *dir;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !found; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		found = !access(path, F_OK);
	}
	dir = found ? NULL : opendir("/usr/include");
	while (dir && !found && (d = readdir(dir))) {
		if (!strstr(d->d_name, "-linux-"))
			continue;
		snprintf(path, sizeof(path), "/usr/include/%s/%s", d->d_name, name);
		found = !access(path, F_OK);
	}
	if (dir)
		closedir(dir);
	return found;
}

/*
 * Whether <name> is a header that exists: the kernel's (read from BTF,
 * no kernel headers needed), or one the system has. A misspelled one is
 * none, and an error as a compiler's.
 */
static bool known_header(const char *name)
{
	const char *slash = strchr(name, '/');
	size_t i;

	for (i = 0; slash && i < sizeof(kernel_dirs) / sizeof(kernel_dirs[0]); i++)
		if (strlen(kernel_dirs[i]) == (size_t)(slash - name) &&
		    !strncmp(name, kernel_dirs[i], slash - name))
			return true;
	return in_system_dirs(name);
}

/* A header no -I directory has: its macros from the table, its types from BTF. */
static int system_header(struct pp *pp, const char *name)
{
	const struct st_header *h = st_header_find(name);
	const struct st_header_macro_group *const *g;
	size_t i;
	int err;

	if (!h && !known_header(name))
		return pp_error(pp,
				"#include <%s>: file not found in any -I directory, the system's "
				"(/usr/include), nor among the kernel's headers (linux/, net/, "
				"asm/, ...)",
				name);
	if (!h && !pp->opts->btf)
		return pp_error(pp,
				"#include <%s>: kernel headers are not read without a compiler: "
				"this kernel has no BTF (/sys/kernel/btf/vmlinux)",
				name);
	for (g = h ? h->groups : NULL; g && *g; g++) {
		for (i = 0; i < (*g)->nr; i++) {
			err = pp_macro_define(pp, (*g)->macros[i].name, (*g)->macros[i].value, NULL,
					      0, 0);
			if (err)
				return err;
		}
	}
	return 0;
}

int pp_include(struct pp *pp, const char *s)
{
	char close = *s == '<' ? '>' : *s == '"' ? '"' : 0;
	const char *end = close ? strchr(s + 1, close) : NULL;
	char *name;
	int err;

	if (!end || end == s + 1)
		return pp_error(pp, "#include expects \"FILE\" or <FILE>");
	name = strndup(s + 1, end - s - 1);
	if (!name)
		return pp_nomem(pp);
	err = find(pp, name, close == '"');
	if (err == -ENOENT && close == '>')
		err = system_header(pp, name);
	else if (err == -ENOENT)
		err = pp_error(pp, "#include \"%s\": no such file in %s nor in any -I directory",
			       name,
			       pp->file->path ? "the including file's directory"
					      : "the current directory");
	free(name);
	return err;
}

int pp_include_file(struct pp *pp, const char *path)
{
	int err = try_dir(pp, "", 0, path);

	if (err == -ENOENT)
		err = find(pp, path, 1);
	/* As bpftrace's, which the compiler takes as #include <FILE>: a system header too. */
	if (err == -ENOENT && st_header_find(path))
		err = system_header(pp, path);
	if (err == -ENOENT)
		err = pp_error(pp,
			       "--include %s: no such file in the current directory, the "
			       "program's, nor any -I directory, nor a system header whose "
			       "constants sidetrace knows",
			       path);
	return err;
}
