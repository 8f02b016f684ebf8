"""Writing the result: the file's own line endings and comment layout back
on what spatch wrote, the faithful conversion of a driver the rules leave,
the COMPAT=1 header, then the tree or driver written all or nothing.
Modules, in order of use: run_guard (one run at a time, a clean stop),
line_endings, trailing_comments, faithful, rq_field_tokens, compat_header,
tree_apply (the core patches and the conversion, as commits)."""
