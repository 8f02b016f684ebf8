"""What a run tells the reader: the summary (OUT/summary.txt and .json),
the DRAFT=1 patch of what is left (never applied), and what checkpatch says
about the lines a patch adds (make series tidies its white space).
Modules, in order of use: summary, draft_patch, checkpatch_tidy,
tree_checkpatch."""
