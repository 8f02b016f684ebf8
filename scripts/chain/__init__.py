"""The chain: rqconv's semantic patches (cocci/) run over a driver's C
files in a scratch copy, the output of one rule the input of the next.
Modules, in order of use: rules (the rules of the selected evolutions, in
the order files of cocci/), spatch_chain (the chain), rule_groups (consecutive rules in
one spatch process), unused_isos (isomorphisms spatch need not try),
spatch_cache (a rule's result on a file, kept for the next run)."""
