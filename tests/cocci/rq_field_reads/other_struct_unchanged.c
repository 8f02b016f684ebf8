struct sbd_cmd {
	unsigned long sector;
	unsigned int nr_sectors;
	unsigned int data_len;
};

static void sbd_cmd_fill(struct sbd_cmd *cmd, struct sbd_cmd *from)
{
	cmd->sector = from->sector;
	cmd->nr_sectors = from->nr_sectors;
	cmd->data_len = from->data_len;
}
