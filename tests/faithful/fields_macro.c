#include <linux/blkdev.h>

struct fm_dev {
	struct request *cur;
	struct fm_chunk *chunk;
};

struct fm_chunk {
	sector_t sector;
};

#define CURRENT			elv_next_request(fm_queue)
#define FM_OFFSET(req)		((req)->sector << 9)
#define FM_LEFT(dev)		((dev)->cur->nr_sectors)
#define FM_HEAD			(CURRENT->current_nr_sectors)
#define FM_CHUNK(dev)		((dev)->chunk->sector)
#define FM_ADVANCE(req)		((req)->sector++)
#define FM_BYTES(req)		((req)->data_len)

static void fm_io(struct request *req)
{
	fm_copy(FM_OFFSET(req), FM_HEAD);
}

static sector_t fm_where(struct request *req)
{
	return (req)->sector + FM_LEFT(fm_dev);
}
