/*
 * Kernel idioms spatch 1.1.1 cannot parse by itself, for --macro-file.
 *
 * rqconv passes this file to every spatch run (conversion rules, detector,
 * parse check), after Coccinelle's own standard.h (--macro-file-builtins,
 * its default), and before an out-of-tree driver's own macros.  spatch
 * uses a definition here only where a top-level declaration or function
 * does not parse without it, and prints the source as it is: nothing here
 * changes code spatch could already parse.
 *
 * GCC attributes after a declarator: spatch parses
 * "__attribute__((name))" there but not an attribute with arguments, e.g.
 * "u8 buf[512] __attribute__((aligned(16)));" in a device structure or a
 * DMA buffer, "__attribute__((format(printf, 2, 3)))" after a prototype,
 * "__attribute__((section(".data.x")))".  Inside __attribute__((...)) the
 * argument list is dropped, which is all the parse needs.  (A list of
 * attributes, "__attribute__((packed, aligned(4)))", still does not
 * parse; rqconv then reports the region, see
 * scripts/analysis/request_names.py.)
 */
#define aligned(x) aligned
#define __aligned__(x) __aligned__
#define section(x) section
#define __section__(x) __section__
#define format(archetype, string_index, first_to_check) format
#define __format__(archetype, string_index, first_to_check) __format__
#define __mode__(x) __mode__
#define regparm(x) regparm
#define __regparm__(x) __regparm__
#define alias(x) alias
#define __alias__(x) __alias__
