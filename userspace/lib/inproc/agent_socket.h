/* SPDX-License-Identifier: MIT */
/* The agent's socket and clock (agent_socket.c). */
#ifndef SIDE_INPROC_AGENT_SOCKET_H
#define SIDE_INPROC_AGENT_SOCKET_H

#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include "common/inproc_abi.h"

/* CLOCK_MONOTONIC in ms: the deadlines of reads. */
int64_t st_agent_now_ms(void);

/* pid's agent's abstract address into *addr; its length. */
socklen_t st_agent_addr(pid_t pid, struct sockaddr_un *addr);

/* fd moved to a number at or above the application's first ones (or fd itself). */
int st_agent_high_fd(int fd);

/* The listening socket of pid's agent, non-blocking, close-on-exec; or a negative errno. */
int st_agent_listen(pid_t pid);

#endif /* SIDE_INPROC_AGENT_SOCKET_H */
