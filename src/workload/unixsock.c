/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unixsock: request/response round trips over UNIX-domain stream sockets.
 * Each worker has its own socketpair, answered either by an echo thread of
 * its own or by the worker itself.  Sockets carry a receive/send timeout so
 * a worker blocked in recv or send still notices stop within milliseconds.
 */
#include <sys/socket.h>
#include <sys/time.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/workload.h"
#include "builtin.h"

enum { P_MSG, P_PEER };
enum { PEER_THREAD, PEER_SELF };

static const char *const unixsock_peers[] = { "thread", "self", NULL };

static const struct wl_param unixsock_params[] = {
	{ "msg", WP_SIZE, "64", 1, 65536, NULL, "bytes in each request and each response" },
	{ "peer", WP_ENUM, "thread", 0, 0, unixsock_peers,
	  "thread: an echo thread per worker answers, so each request is a wake-up; "
	  "self: the worker answers itself, socket path only" },
};

#define SOCK_TIMEOUT_US 5000
/* Self mode moves messages in slices any stream socket buffer holds, so it cannot block. */
#define SOCK_SELF_SLICE 4096

#ifdef MSG_NOSIGNAL
#define SOCK_SEND_FLAGS MSG_NOSIGNAL
#else
#define SOCK_SEND_FLAGS 0
#endif

struct unixsock_peer {
	int fd;
	size_t msg;
	const struct wl_worker *w;
	int error;
};

/*
 * After a send or recv failed: 0 to try again (interrupted, or the socket's
 * timeout with no stop asked), else what the caller returns.
 */
static int
sock_again(const struct wl_worker *w)
{
	if (errno == EINTR)
		return 0;
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		return errno;
	return wl_should_stop(w) ? ECANCELED : 0;
}

/* Sends all of buf: 0, an errno, or ECANCELED when stop came while blocked. */
static int
sock_send(int fd, const unsigned char *buf, size_t len, const struct wl_worker *w)
{
	ssize_t n;
	int e;

	while (len > 0) {
		if ((n = send(fd, buf, len, SOCK_SEND_FLAGS)) == -1) {
			if ((e = sock_again(w)) != 0)
				return e;
			continue;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Receives exactly len bytes: 0, an errno, EPIPE at end of stream, or ECANCELED. */
static int
sock_recv(int fd, unsigned char *buf, size_t len, const struct wl_worker *w)
{
	ssize_t n;
	int e;

	while (len > 0) {
		if ((n = recv(fd, buf, len, 0)) == -1) {
			if ((e = sock_again(w)) != 0)
				return e;
			continue;
		}
		if (n == 0)
			return EPIPE;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
sock_setup(int fd)
{
	struct timeval tv = { 0, SOCK_TIMEOUT_US };
#ifdef SO_NOSIGPIPE
	int on = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof(on)) == -1)
		return errno;
#endif
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == -1)
		return errno;
	return 0;
}

/* The echo peer: reads a whole request, then answers, until end of stream or stop. */
static void *
unixsock_echo(void *arg)
{
	struct unixsock_peer *p = arg;
	unsigned char *buf = malloc(p->msg);
	int rc = buf == NULL ? ENOMEM : 0;

	while (rc == 0 && (rc = sock_recv(p->fd, buf, p->msg, p->w)) == 0)
		rc = sock_send(p->fd, buf, p->msg, p->w);
	if (rc == EPIPE || rc == ECANCELED)
		rc = 0;
	p->error = rc;
	/* Wakes the worker if it is still waiting for an answer. */
	shutdown(p->fd, SHUT_RDWR);
	free(buf);
	return NULL;
}

/* One round trip answered by the worker itself, slice by slice. */
static int
unixsock_self(int fd[2], unsigned char *req, unsigned char *resp, size_t msg,
	      const struct wl_worker *w)
{
	size_t off, n;
	int rc = 0;

	for (off = 0; off < msg && rc == 0; off += n) {
		n = msg - off < SOCK_SELF_SLICE ? msg - off : SOCK_SELF_SLICE;
		if ((rc = sock_send(fd[0], req + off, n, w)) == 0)
			rc = sock_recv(fd[1], resp + off, n, w);
	}
	for (off = 0; off < msg && rc == 0; off += n) {
		n = msg - off < SOCK_SELF_SLICE ? msg - off : SOCK_SELF_SLICE;
		if ((rc = sock_send(fd[1], resp + off, n, w)) == 0)
			rc = sock_recv(fd[0], resp + off, n, w);
	}
	return rc;
}

static int
unixsock_loop(struct wl_worker *w, int fd[2], bool self, size_t msg)
{
	unsigned char *req = malloc(msg), *resp = malloc(msg);
	struct wl_pace pace;
	int rc = 0;

	if (req == NULL || resp == NULL)
		rc = ENOMEM;
	else
		memset(req, 'q', msg);
	wl_pace_init(&pace);
	while (rc == 0) {
		/* A per-request stamp, so a framing mistake shows as an error, not a count. */
		req[0] = (unsigned char)pace.ops;
		if (self)
			rc = unixsock_self(fd, req, resp, msg, w);
		else if ((rc = sock_send(fd[0], req, msg, w)) == 0)
			rc = sock_recv(fd[0], resp, msg, w);
		if (rc == 0 && resp[0] != req[0])
			rc = EBADMSG;
		if (rc == 0 && wl_pace_add(&pace, w, 1))
			break;
	}
	wl_count(w, pace.ops, 0, 0);
	free(req);
	free(resp);
	/*
	 * The echo thread may see stop first, mid-message, and shut the socket:
	 * the worker then reads end of stream or EPIPE.  That is the same stop,
	 * not a fault; a real fault of the echo thread is reported through it.
	 */
	if (rc == EPIPE && wl_should_stop(w))
		rc = ECANCELED;
	return rc == ECANCELED ? 0 : rc;
}

static int
unixsock_work(struct wl_worker *w)
{
	size_t msg = (size_t)w->args->v[P_MSG].i;
	bool self = w->args->v[P_PEER].i == PEER_SELF;
	struct unixsock_peer peer = { .msg = msg, .w = w };
	pthread_t tid;
	int fd[2], rc;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd) == -1)
		return errno;
	if ((rc = sock_setup(fd[0])) != 0 || (rc = sock_setup(fd[1])) != 0)
		goto out;
	peer.fd = fd[1];
	if (!self && (rc = pthread_create(&tid, NULL, unixsock_echo, &peer)) != 0)
		goto out;
	rc = unixsock_loop(w, fd, self, msg);
	if (!self) {
		/* End of stream tells the peer to finish. */
		shutdown(fd[0], SHUT_WR);
		pthread_join(tid, NULL);
		if (peer.error != 0)
			rc = peer.error;
	}
out:
	close(fd[0]);
	close(fd[1]);
	return rc;
}

const struct workload wl_unixsock = {
	.name = "unixsock",
	.unit = "requests",
	.summary = "request/response round trips over UNIX-domain sockets",
	.help = "Each worker sends msg= bytes over its own UNIX-domain socketpair and waits for "
		"an answer of the same size; one request is one round trip. With peer=thread an "
		"echo thread per worker answers, so every request wakes a sleeping thread and "
		"there are 2N threads, at most N of them runnable at once; peer=self has the "
		"worker answer itself, which measures the socket path without wake-ups. Nothing "
		"is shared between workers, so a healthy kernel scales it close to linearly up to "
		"the CPU count (with peer=thread only one thread of a pair runs at a time, so N "
		"pairs need about N CPUs); voluntary context switches track requests. Poor scaling "
		"points at "
		"scheduler wake-up cost or a global lock in the socket or file layer.",
	.params = unixsock_params,
	.nparams = sizeof(unixsock_params) / sizeof(unixsock_params[0]),
	.work = unixsock_work,
};
