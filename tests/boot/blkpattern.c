/*
 * blkpattern: write a known pattern to a block device, read it back and
 * compare checksums.  The guest's test tool of `make boottest`; it is also
 * run on the host to make the read-only (CD) image.
 *
 *   blkpattern gen SEED SIZE                      the pattern, to stdout
 *   blkpattern write  DEV SEED OFFSET SIZE BS [direct]
 *   blkpattern verify DEV SEED OFFSET SIZE BS [direct]
 *   blkpattern check  DEV SEED OFFSET SIZE BS [direct]   write + verify
 *
 * The pattern is a function of SEED and of the absolute byte offset, so
 * data that lands at the wrong place does not compare equal.  A write
 * ends with fsync(); a verify first drops the device's cached pages
 * (BLKFLSBUF), so what it reads comes from the device.  "direct" opens
 * the device O_DIRECT: each BS-byte read or write is one large bio.
 * Each operation prints one line:
 *   write DEV bytes=N sum=CHECKSUM ms=T
 *   verify DEV bytes=N sum=CHECKSUM expected=CHECKSUM ms=T ok|BAD at OFF
 * Exit status: 0 ok, 1 data differs, 2 I/O error, 3 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>

#define ALIGN 4096

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* LEN bytes of pattern SEED starting at absolute offset OFF (both % 8 == 0) */
static void fill(unsigned char *buf, uint64_t seed, uint64_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 8) {
		uint64_t w;

		w = splitmix64(seed * 0x100000001b3ULL + (off + i) / 8);
		memcpy(buf + i, &w, 8);
	}
}

/* FNV-1a, 64 bit */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t len)
{
	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ULL

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
		(t.tv_nsec - t0->tv_nsec) / 1000000;
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	if (*end) {
		fprintf(stderr, "blkpattern: bad number %s\n", s);
		exit(3);
	}
	return v;
}

static void *xalloc(size_t len)
{
	void *p;

	if (posix_memalign(&p, ALIGN, len)) {
		fprintf(stderr, "blkpattern: out of memory (%zu bytes)\n", len);
		exit(2);
	}
	return p;
}

static int do_gen(uint64_t seed, uint64_t size)
{
	size_t bs = 1 << 16;
	unsigned char *buf = xalloc(bs);
	uint64_t off;

	for (off = 0; off < size; off += bs) {
		size_t len = size - off < bs ? size - off : bs;

		fill(buf, seed, off, len);
		if (fwrite(buf, 1, len, stdout) != len)
			return 2;
	}
	return fflush(stdout) ? 2 : 0;
}

static int xfer(int fd, int wr, unsigned char *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = wr ? pwrite(fd, buf + done, len - done, off + done)
			       : pread(fd, buf + done, len - done, off + done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += n;
	}
	return 0;
}

static int do_write(const char *dev, uint64_t seed, uint64_t off,
		    uint64_t size, size_t bs, int direct)
{
	unsigned char *buf = xalloc(bs);
	uint64_t sum = FNV_INIT, pos;
	struct timespec t0;
	int fd, err;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = open(dev, O_WRONLY | (direct ? O_DIRECT : 0));
	if (fd < 0) {
		printf("write %s: open: %s\n", dev, strerror(errno));
		return 2;
	}
	for (pos = off; pos < off + size; pos += bs) {
		size_t len = off + size - pos < bs ? off + size - pos : bs;

		fill(buf, seed, pos, len);
		sum = fnv(sum, buf, len);
		err = xfer(fd, 1, buf, len, pos);
		if (err) {
			printf("write %s: at %llu: %s\n", dev,
			       (unsigned long long)pos, strerror(-err));
			return 2;
		}
	}
	if (fsync(fd) || close(fd)) {
		printf("write %s: fsync: %s\n", dev, strerror(errno));
		return 2;
	}
	printf("write %s bytes=%llu sum=%016llx ms=%ld\n", dev,
	       (unsigned long long)size, (unsigned long long)sum,
	       ms_since(&t0));
	free(buf);
	return 0;
}

static int do_verify(const char *dev, uint64_t seed, uint64_t off,
		     uint64_t size, size_t bs, int direct)
{
	unsigned char *buf = xalloc(bs), *want = xalloc(bs);
	uint64_t sum = FNV_INIT, wsum = FNV_INIT, pos, bad = ~0ULL;
	struct timespec t0;
	int fd, err;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = open(dev, O_RDONLY | (direct ? O_DIRECT : 0));
	if (fd < 0) {
		printf("verify %s: open: %s\n", dev, strerror(errno));
		return 2;
	}
	/* drop the cached pages: read what is on the device */
	ioctl(fd, BLKFLSBUF, 0);
	for (pos = off; pos < off + size; pos += bs) {
		size_t len = off + size - pos < bs ? off + size - pos : bs;
		size_t i;

		err = xfer(fd, 0, buf, len, pos);
		if (err) {
			printf("verify %s: at %llu: %s\n", dev,
			       (unsigned long long)pos, strerror(-err));
			return 2;
		}
		fill(want, seed, pos, len);
		sum = fnv(sum, buf, len);
		wsum = fnv(wsum, want, len);
		if (bad == ~0ULL && memcmp(buf, want, len))
			for (i = 0; i < len; i++)
				if (buf[i] != want[i]) {
					bad = pos + i;
					break;
				}
	}
	close(fd);
	printf("verify %s bytes=%llu sum=%016llx expected=%016llx ms=%ld ",
	       dev, (unsigned long long)size, (unsigned long long)sum,
	       (unsigned long long)wsum, ms_since(&t0));
	if (sum == wsum && bad == ~0ULL) {
		printf("ok\n");
		return 0;
	}
	printf("BAD at %llu\n", (unsigned long long)bad);
	return 1;
}

int main(int argc, char **argv)
{
	uint64_t seed, off, size;
	size_t bs;
	int direct, ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "gen"))
		return do_gen(num(argv[2]), num(argv[3]));
	if (argc < 7 || argc > 8 || (argc == 8 && strcmp(argv[7], "direct"))) {
		fprintf(stderr, "usage: blkpattern gen SEED SIZE\n"
			"       blkpattern write|verify|check"
			" DEV SEED OFFSET SIZE BS [direct]\n");
		return 3;
	}
	seed = num(argv[3]);
	off = num(argv[4]);
	size = num(argv[5]);
	bs = num(argv[6]);
	direct = argc == 8;
	if (!bs || off % 512 || size % 512 || bs % 512) {
		fprintf(stderr, "blkpattern: OFFSET, SIZE and BS must be"
			" multiples of 512\n");
		return 3;
	}
	if (!strcmp(argv[1], "write"))
		return do_write(argv[2], seed, off, size, bs, direct);
	if (!strcmp(argv[1], "verify"))
		return do_verify(argv[2], seed, off, size, bs, direct);
	if (!strcmp(argv[1], "check")) {
		ret = do_write(argv[2], seed, off, size, bs, direct);
		if (ret)
			return ret;
		return do_verify(argv[2], seed, off, size, bs, direct);
	}
	fprintf(stderr, "blkpattern: unknown operation %s\n", argv[1]);
	return 3;
}
