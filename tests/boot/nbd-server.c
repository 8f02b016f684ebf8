/*
 * nbd-server: a tiny NBD server for `make boottest`, run inside the guest.
 *
 *   nbd-server PORT FILE
 *
 * Serves FILE to one client on 127.0.0.1:PORT with the old-style
 * negotiation that the 2.6.30 kernel's nbd client side (nbd-client) reads:
 * "NBDMAGIC", the magic 0x00420281861253, the size (64 bit), 4 bytes of
 * flags and 124 zero bytes, all big endian.  Then it answers the kernel's
 * requests (struct nbd_request: magic 0x25609513, type, handle, from, len)
 * one at a time until NBD_CMD_DISC or end of connection.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#define NBD_REQUEST_MAGIC	0x25609513
#define NBD_REPLY_MAGIC		0x67446698
#define NBD_CMD_READ		0
#define NBD_CMD_WRITE		1
#define NBD_CMD_DISC		2

struct nbd_request {
	uint32_t magic;
	uint32_t type;
	char handle[8];
	uint64_t from;
	uint32_t len;
} __attribute__((packed));

struct nbd_reply {
	uint32_t magic;
	uint32_t error;
	char handle[8];
};

static int xfer(int fd, void *buf, size_t len, int wr)
{
	char *p = buf;

	while (len) {
		ssize_t n = wr ? write(fd, p, len) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int negotiate(int s, uint64_t size)
{
	unsigned char hello[152];
	uint64_t v;

	memset(hello, 0, sizeof(hello));
	memcpy(hello, "NBDMAGIC", 8);
	v = htobe64(0x00420281861253ULL);
	memcpy(hello + 8, &v, 8);
	v = htobe64(size);
	memcpy(hello + 16, &v, 8);
	return xfer(s, hello, sizeof(hello), 1);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa;
	struct nbd_request rq;
	struct nbd_reply rp;
	unsigned long long nread = 0, nwritten = 0, nreq = 0;
	char *buf = NULL;
	size_t bufsize = 0;
	off_t size;
	int ls, s, fd, one = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: nbd-server PORT FILE\n");
		return 2;
	}
	/* no fstat(): glibc's needs AT_EMPTY_PATH, which 2.6.30 lacks */
	fd = open(argv[2], O_RDWR);
	size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	if (size < 0) {
		perror(argv[2]);
		return 1;
	}
	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(atoi(argv[1]));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(ls, 1)) {
		perror("nbd-server: listen");
		return 1;
	}
	printf("nbd-server: serving %s (%lld bytes) on port %s\n", argv[2],
	       (long long)size, argv[1]);
	fflush(stdout);
	s = accept(ls, NULL, NULL);
	if (s < 0) {
		perror("nbd-server: accept");
		return 1;
	}
	close(ls);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (negotiate(s, size)) {
		perror("nbd-server: negotiation");
		return 1;
	}
	while (!xfer(s, &rq, sizeof(rq), 0)) {
		uint32_t type = ntohl(rq.type), len = ntohl(rq.len);
		uint64_t from = be64toh(rq.from);
		int err = 0;

		if (ntohl(rq.magic) != NBD_REQUEST_MAGIC) {
			fprintf(stderr, "nbd-server: bad request magic\n");
			return 1;
		}
		if (type == NBD_CMD_DISC)
			break;
		nreq++;
		if (len > bufsize) {
			free(buf);
			bufsize = len;
			buf = malloc(bufsize);
			if (!buf)
				return 1;
		}
		if (type == NBD_CMD_WRITE) {
			if (xfer(s, buf, len, 0))
				break;
			if (from + len > (uint64_t)size ||
			    pwrite(fd, buf, len, from) != (ssize_t)len)
				err = EIO;
			else
				nwritten += len;
		} else if (type == NBD_CMD_READ) {
			if (from + len > (uint64_t)size ||
			    pread(fd, buf, len, from) != (ssize_t)len)
				err = EIO;
			else
				nread += len;
		} else {
			err = EINVAL;
		}
		rp.magic = htonl(NBD_REPLY_MAGIC);
		rp.error = htonl(err);
		memcpy(rp.handle, rq.handle, sizeof(rp.handle));
		if (xfer(s, &rp, sizeof(rp), 1))
			break;
		if (type == NBD_CMD_READ && !err && xfer(s, buf, len, 1))
			break;
	}
	printf("nbd-server: %llu requests, %llu bytes read, %llu written\n",
	       nreq, nread, nwritten);
	return 0;
}
