/* SPDX-License-Identifier: MIT */
/*
 * The collector's side of the in-process control socket
 * (common/inproc_abi.h): connect to a process's agent, attach the
 * program with its shared memory, detach. The session lasts as long as
 * the connection.
 */
#ifndef SIDETRACE_INPROC_INPROC_CLIENT_H
#define SIDETRACE_INPROC_INPROC_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/inproc_abi.h"

/* How long connect() waits when the agent's backlog is full. */
#define ST_IP_CONNECT_TIMEOUT_MS 5000

/*
 * The session's stop flag: once it is set, every wait for an agent
 * (connect, attach, a command's agent) gives up within 50 ms, with
 * -ECANCELED, whatever the process does or does not answer.
 */
void st_ip_stop_on(const volatile sig_atomic_t *stop);

/* The same without a signal: the session ends (its attach threads give up). */
void st_ip_end(void);

/* Whether that flag is set, or st_ip_end() was called. */
bool st_ip_stopping(void);

/*
 * Connects to pid's agent (the socket is close-on-exec) and checks that
 * the process on the other end is pid. 0 with *fd, or a negative errno
 * with a message in err: -ESRCH (no such process), -ECONNREFUSED (no
 * agent, or not yet: the process has not initialized the SIDE runtime),
 * -ETIMEDOUT, -EPERM (the socket is another process's).
 */
int st_ip_connect(pid_t pid, int *fd, char *err, size_t errlen);

/*
 * Sends ST_IP_ATTACH: prog (len bytes: struct st_ip_prog and what
 * follows) and memfd, then waits for the reply, all within timeout_ms (< 0:
 * no limit). Returns reply->status, 0 or the agent's negative errno with
 * reply->err saying why; or a negative errno of the transport, with
 * reply->err filled the same way.
 */
int st_ip_attach(int fd, const void *prog, size_t len, int memfd, struct st_ip_reply *reply,
		 int timeout_ms);

/* Sends ST_IP_GO: a deferred session counts from now on. 0 or a negative errno. */
int st_ip_go(int fd);

/* Sends ST_IP_DETACH and closes fd: the agent ends the session. */
void st_ip_detach(int fd);

#endif /* SIDETRACE_INPROC_INPROC_CLIENT_H */
