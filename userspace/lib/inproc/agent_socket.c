// SPDX-License-Identifier: MIT
/*
 * The agent's socket: its abstract name from the pid, the listening
 * socket made, and its descriptors kept above the application's first
 * numbers; and the clock its deadlines use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "agent_socket.h"

/* The agent's descriptors are dup'ed at or above this (st_agent_high_fd()). */
#define ST_AGENT_FD_MIN 256
#define ST_AGENT_BACKLOG 4

int64_t st_agent_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The abstract address of pid's agent: a NUL, then the name, no NUL after it. */
socklen_t st_agent_addr(pid_t pid, struct sockaddr_un *addr)
{
	int n;

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	n = snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1, ST_IP_SOCK_FMT, (int)pid);
	return offsetof(struct sockaddr_un, sun_path) + 1 + n;
}

/*
 * Moves fd above the numbers an application hands out first: a program
 * that expects its first open() to give 3 still gets it. The same fd
 * when there is no room up there.
 */
int st_agent_high_fd(int fd)
{
	struct rlimit rl;
	int high;

	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur < 2 * ST_AGENT_FD_MIN)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, ST_AGENT_FD_MIN);
	if (high < 0)
		return fd;
	close(fd);
	return high;
}

int st_agent_listen(pid_t pid)
{
	struct sockaddr_un addr;
	socklen_t len = st_agent_addr(pid, &addr);
	int fd, ret;

	fd = st_agent_high_fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, len) || listen(fd, ST_AGENT_BACKLOG)) {
		ret = -errno;
		goto cleanup;
	}
	return fd;
cleanup:
	close(fd);
	return ret;
}
