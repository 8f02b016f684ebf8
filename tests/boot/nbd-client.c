/*
 * nbd-client: a tiny NBD client for `make boottest` (busybox has none).
 *
 *   nbd-client HOST PORT DEV [BLKSIZE]   connect DEV and serve it (blocks)
 *   nbd-client -d DEV                     disconnect DEV
 *
 * Reads the old-style negotiation (see nbd-server.c), hands the socket to
 * the kernel with the 2.6.30 ioctls (NBD_SET_BLKSIZE, NBD_SET_SIZE_BLOCKS,
 * NBD_SET_SOCK) and stays in NBD_DO_IT until the device is disconnected.
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
#include <sys/ioctl.h>
#include <sys/socket.h>

/* the ioctls of include/linux/nbd.h */
#define NBD_SET_SOCK		_IO(0xab, 0)
#define NBD_SET_BLKSIZE		_IO(0xab, 1)
#define NBD_DO_IT		_IO(0xab, 3)
#define NBD_CLEAR_SOCK		_IO(0xab, 4)
#define NBD_CLEAR_QUE		_IO(0xab, 5)
#define NBD_SET_SIZE_BLOCKS	_IO(0xab, 7)
#define NBD_DISCONNECT		_IO(0xab, 8)

static int readall(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int connect_to(const char *host, int port)
{
	struct sockaddr_in sa;
	int s, try, one = 1;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		fprintf(stderr, "nbd-client: %s: not an IPv4 address\n", host);
		return -1;
	}
	for (try = 0; try < 50; try++) {	/* the server may be starting */
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0)
			return -1;
		if (!connect(s, (struct sockaddr *)&sa, sizeof(sa))) {
			setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
			return s;
		}
		close(s);
		usleep(100000);
	}
	perror("nbd-client: connect");
	return -1;
}

static int disconnect(const char *dev)
{
	int fd = open(dev, O_RDWR);

	if (fd < 0 || ioctl(fd, NBD_DISCONNECT)) {
		perror(dev);
		return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char hello[152];
	unsigned long blksize = 1024;
	uint64_t magic, size;
	int s, fd;

	if (argc == 3 && !strcmp(argv[1], "-d"))
		return disconnect(argv[2]);
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: nbd-client HOST PORT DEV [BLKSIZE]\n"
			"       nbd-client -d DEV\n");
		return 2;
	}
	if (argc == 5)
		blksize = strtoul(argv[4], NULL, 0);
	s = connect_to(argv[1], atoi(argv[2]));
	if (s < 0)
		return 1;
	if (readall(s, hello, sizeof(hello))) {
		fprintf(stderr, "nbd-client: no negotiation from the server\n");
		return 1;
	}
	memcpy(&magic, hello + 8, 8);
	memcpy(&size, hello + 16, 8);
	size = be64toh(size);
	if (memcmp(hello, "NBDMAGIC", 8) ||
	    be64toh(magic) != 0x00420281861253ULL) {
		fprintf(stderr, "nbd-client: not an old-style nbd server\n");
		return 1;
	}
	fd = open(argv[3], O_RDWR);
	if (fd < 0) {
		perror(argv[3]);
		return 1;
	}
	if (ioctl(fd, NBD_SET_BLKSIZE, blksize) ||
	    ioctl(fd, NBD_SET_SIZE_BLOCKS, (unsigned long)(size / blksize)) ||
	    ioctl(fd, NBD_CLEAR_SOCK) || ioctl(fd, NBD_SET_SOCK, s)) {
		perror("nbd-client: ioctl");
		return 1;
	}
	printf("nbd-client: %s: %llu bytes, block size %lu\n", argv[3],
	       (unsigned long long)size, blksize);
	fflush(stdout);
	if (ioctl(fd, NBD_DO_IT) && errno != EPIPE && errno != ECONNRESET)
		perror("nbd-client: NBD_DO_IT");
	ioctl(fd, NBD_CLEAR_QUE);
	ioctl(fd, NBD_CLEAR_SOCK);
	printf("nbd-client: %s disconnected\n", argv[3]);
	return 0;
}
