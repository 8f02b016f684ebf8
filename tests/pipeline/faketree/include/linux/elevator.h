/* The parts of 2.6.30's elevator.h that rqconv's preflight looks at. */
extern struct request *elv_next_request(struct request_queue *q);
