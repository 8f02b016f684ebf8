/*
 * A small PIO disk controller, register compatible enough with the PC/AT
 * disk controller that an hd.c style driver runs on it: ports 0x1f0-0x1f7
 * and 0x3f6, IRQ 14, LBA addressing (the head register's LBA bit is
 * required), one sector per DRQ, an interrupt after each sector.
 *
 * READ  (0x20): busy, then DRQ + IRQ for each sector; insw(256) takes it.
 * WRITE (0x30): DRQ at once; each outsw(256) makes it busy, then IRQ
 *               (with DRQ again while sectors remain).
 * Misuse (data port without DRQ, command while busy, out of range LBA)
 * is a model failure: a real controller would hang or corrupt data.
 */
#include "rqm.h"
#include <stdlib.h>

#define HW_IRQ		14
#define P_DATA		0x1f0
#define P_ERROR		0x1f1
#define P_NSECT		0x1f2
#define P_LBA0		0x1f3
#define P_LBA1		0x1f4
#define P_LBA2		0x1f5
#define P_SELECT	0x1f6
#define P_STATUS	0x1f7
#define P_CTL		0x3f6

int rqm_hw_used;
static u8 *store;
static sector_t cap;
static u8 regs[8];
static u8 status = READY_STAT | SEEK_STAT;
static enum { HW_IDLE, HW_RD_LOAD, HW_RD_DRQ, HW_WR_DRQ, HW_WR_STORE } state;
static unsigned long lba;
static unsigned int left;
static u8 buf[512];

static void hw_event(unsigned int irq)
{
	if (irq != HW_IRQ)
		return;
	switch (state) {
	case HW_RD_LOAD:
		memcpy(buf, store + lba * 512, 512);
		status = READY_STAT | SEEK_STAT | DRQ_STAT;
		state = HW_RD_DRQ;
		break;
	case HW_WR_STORE:
		memcpy(store + lba * 512, buf, 512);
		lba++;
		if (--left) {
			status = READY_STAT | SEEK_STAT | DRQ_STAT;
			state = HW_WR_DRQ;
		} else {
			status = READY_STAT | SEEK_STAT;
			state = HW_IDLE;
		}
		break;
	default:
		break;
	}
}

static unsigned long delay(void)
{
	return 1 + rqm_rand(RNG_HW, 2);
}

void rqm_hw_init(sector_t capacity)
{
	cap = capacity;
	store = calloc(cap, 512);
	rqm_hw_event = hw_event;
}

void rqm_hw_exit(void)
{
	if (rqm_hw_used && state != HW_IDLE)
		rqm_check_fail("the disk controller was left busy (state %d, "
			       "%u sectors left)", state, left);
	free(store);
	store = NULL;
}

static void port_check(unsigned long port, const char *fn)
{
	rqm_hw_used = 1;
	if (!store)
		rqm_fail("model", "%s(0x%lx): no device", fn, port);
	if (!(port >= P_DATA && port <= P_STATUS) && port != P_CTL)
		rqm_fail("BUG", "%s(0x%lx): no such port", fn, port);
}

unsigned char inb(unsigned long port)
{
	port_check(port, "inb");
	rqm_tick_call("inb");
	if (port == P_STATUS)
		return status;
	if (port == P_ERROR)
		return regs[1];
	if (port == P_CTL)
		return status;
	return regs[port - P_DATA];
}

static void command(u8 cmd)
{
	unsigned long start;

	if (state != HW_IDLE || (status & BUSY_STAT))
		rqm_fail("BUG", "command 0x%02x written while the controller "
			 "is busy (state %d)", cmd, state);
	if (!(regs[6] & 0x40))
		rqm_fail("BUG", "command 0x%02x without LBA mode", cmd);
	start = regs[3] | regs[4] << 8 | regs[5] << 16 |
		(unsigned long)(regs[6] & 0x0f) << 24;
	left = regs[2] ? regs[2] : 256;
	if (start + left > cap)
		rqm_fail("BUG", "command 0x%02x: sectors %lu+%u beyond the "
			 "end of the disk (%lu)", cmd, start, left,
			 (unsigned long)cap);
	lba = start;
	regs[1] = 0;
	switch (cmd) {
	case WIN_READ:
		status = BUSY_STAT;
		state = HW_RD_LOAD;
		rqm_raise_irq(HW_IRQ, delay());
		break;
	case WIN_WRITE:
		status = READY_STAT | SEEK_STAT | DRQ_STAT;
		state = HW_WR_DRQ;
		break;
	default:
		rqm_fail("BUG", "unknown controller command 0x%02x", cmd);
	}
}

void outb(unsigned char value, unsigned long port)
{
	port_check(port, "outb");
	if (port == P_STATUS) {
		command(value);
		return;
	}
	if (port == P_CTL)
		return;
	if (state != HW_IDLE)
		rqm_fail("BUG", "outb(0x%lx) to a task file register while the "
			 "controller is busy", port);
	regs[port - P_DATA] = value;
}

void insw(unsigned long port, void *dst, unsigned long count)
{
	port_check(port, "insw");
	if (port != P_DATA || count != 256)
		rqm_fail("BUG", "insw(0x%lx, %lu): only whole sectors from the "
			 "data port", port, count);
	if (state != HW_RD_DRQ)
		rqm_fail("BUG", "insw: no data ready (DRQ clear)");
	memcpy(dst, buf, 512);
	lba++;
	if (--left) {
		status = BUSY_STAT;
		state = HW_RD_LOAD;
		rqm_raise_irq(HW_IRQ, delay());
	} else {
		status = READY_STAT | SEEK_STAT;
		state = HW_IDLE;
	}
}

void outsw(unsigned long port, const void *src, unsigned long count)
{
	port_check(port, "outsw");
	if (port != P_DATA || count != 256)
		rqm_fail("BUG", "outsw(0x%lx, %lu): only whole sectors to the "
			 "data port", port, count);
	if (state != HW_WR_DRQ)
		rqm_fail("BUG", "outsw: the controller expects no data "
			 "(DRQ clear)");
	memcpy(buf, src, 512);
	status = BUSY_STAT;
	state = HW_WR_STORE;
	rqm_raise_irq(HW_IRQ, delay());
}
