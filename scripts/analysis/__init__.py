"""Reading a driver, never writing it: before the chain, whether the tree
may be touched and which files use the old API; around it, what spatch
cannot parse and what the rules need to see; after it, what is left.
Modules, in order of use: preflight, parse_check, modsrc, registrations,
dead_arms, comment_words, request_names, leftovers.  The rules' own Python
imports comment_words and request_names by their plain names."""
