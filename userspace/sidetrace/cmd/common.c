// SPDX-License-Identifier: MIT
/* What the commands that trace share (common.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cmd/common.h"
#include "parse/ast.h"
#include "parse/diag.h"
#include "util/escape.h"

const char *st_program_name(const char *path)
{
	return path && !strcmp(path, "-") ? "stdin" : path;
}

/*
 * A script run as a command ("#!/usr/bin/env sidetrace") starts with a
 * line that is not the language's: blanked, so that errors keep their
 * line and column.
 */
static void blank_interpreter_line(char *buf)
{
	if (buf[0] != '#' || buf[1] != '!')
		return;
	for (; *buf && *buf != '\n'; buf++)
		*buf = ' ';
}

/*
 * Reads a program file ("-": stdin) into *out. Stops one byte past the
 * parser's size limit, which then says so. Says itself what is wrong: 0
 * or -errno.
 */
int st_read_program(const char *path, char **out)
{
	bool is_stdin = !strcmp(path, "-");
	size_t len = 0, cap = 0, n;
	char *buf = NULL, *nul;
	int ret = 0;
	FILE *f;

	path = st_program_name(path);
	f = is_stdin ? stdin : fopen(path, "r");
	if (!f) {
		ret = -errno;
		st_errorf("cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				ret = -ENOMEM;
				st_errorf("out of memory");
				goto cleanup;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n && len <= ST_MAX_PROGRAM_BYTES);
	/* A directory opens, then fails to read (EISDIR). */
	if (ferror(f)) {
		ret = -EIO;
		st_errorf("cannot read %s: %s", path, strerror(errno));
		goto cleanup;
	}
	buf[len] = '\0';
	/* The lexer stops at a NUL: what follows would be silently ignored. */
	nul = memchr(buf, '\0', len);
	if (nul) {
		ret = -EINVAL;
		st_errorf("%s: a NUL byte at offset %zu: a program is text", path,
			  (size_t)(nul - buf));
	}
	blank_interpreter_line(buf);
cleanup:
	if (!is_stdin)
		fclose(f);
	if (ret)
		free(buf);
	else
		*out = buf;
	return ret;
}

int st_preprocess_program(char **text, const char *name, const char *path,
			  const struct st_pp_opts *opts)
{
	struct st_pp_error e;
	struct st_diag d = {0};
	char *out;
	int ret;

	ret = st_preprocess(*text, name, path && strcmp(path, "-") ? path : NULL, opts, &out, &e);
	if (ret == -ENOMEM) {
		st_errorf("out of memory");
	} else if (ret) {
		st_diag_set(&d, e.file, (struct st_pos){.line = e.line, .col = e.col}, "%s", e.msg);
		/* An included file's line is not in the program's text. */
		st_diag_print(stderr, &d, e.in_include ? NULL : *text);
	} else {
		free(*text);
		*text = out;
	}
	return ret;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int libbpf_verbose(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

void st_libbpf_messages(bool verbose)
{
	libbpf_set_print(verbose ? libbpf_verbose : libbpf_quiet);
}

/* The kernel marks its own threads in the flags of /proc/PID/stat (PF_KTHREAD). */
#define ST_PF_KTHREAD 0x00200000UL

static bool kernel_thread(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long flags = 0;
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The command name may hold anything: the fields start after its last ')'. */
	p = strrchr(buf, ')');
	for (i = 0; p && i < 7; i++)
		p = strchr(p + 1, ' ');
	return p && sscanf(p + 1, "%lu", &flags) == 1 && (flags & ST_PF_KTHREAD);
}

int st_check_traced_pid(pid_t pid)
{
	if (kill(pid, 0) && errno == ESRCH) {
		fprintf(stderr, "sidetrace: -p %d: no such process\n", pid);
		return -ESRCH;
	}
	if (kernel_thread(pid)) {
		fprintf(stderr,
			"sidetrace: -p %d is a kernel thread: it runs no user-space code to "
			"trace\n",
			pid);
		return -EINVAL;
	}
	return 0;
}

bool st_stdout_closed;

bool st_guard_std_fds(void)
{
	bool out_closed = false;
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		out_closed |= fd == 1;
		/* The lowest free fd is this one. */
		if (open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			abort();
	}
	return out_closed;
}

int st_output_check(FILE *f, const char *name)
{
	int err;

	errno = 0;
	if (fflush(f) != EOF && !ferror(f))
		return 0;
	err = errno;
	/*
	 * stdio keeps no error number: an earlier write's is found by writing
	 * once more (a newline, harmless should it now go through).
	 */
	if (!err) {
		clearerr(f);
		if (fputc('\n', f) == EOF || fflush(f) == EOF)
			err = errno;
	}
	if (err == EPIPE)
		return 0;
	fprintf(stderr, "sidetrace: cannot write to %s: %s\n", name,
		err ? strerror(err) : "write error");
	return -EIO;
}

int st_report_missing(const struct st_program *prog, enum st_missing_probes mode)
{
	const struct st_attach_point *p, *first = NULL;
	bool attached = false;
	uint32_t i, j;

	for (i = 0; i < prog->nr_clauses; i++) {
		for (j = 0; j < prog->clauses[i].nr_points; j++) {
			p = &prog->clauses[i].points[j];
			/* BEGIN, END and interval run whatever was skipped, as bpftrace's. */
			if (st_probe_kind(p->kind)->runs != ST_RUNS_AT_EVENTS) {
				attached = true;
				continue;
			}
			attached |= !p->missing;
			if (p->missing && !first)
				first = p;
			if (p->missing && mode == ST_MISSING_WARN && !p->kind_glob)
				st_warnf("%s: skipped", p->missing);
		}
	}
	/* A program whose every probe was skipped, and no clause of its own, would wait for
	 * nothing. */
	if (first && !attached) {
		st_errorf("nothing to attach: %s", first->missing);
		return -ENOENT;
	}
	return 0;
}
