#include <linux/blkdev.h>

/* uses no request API at all */
int plain_answer(void)
{
	return 42;
}
