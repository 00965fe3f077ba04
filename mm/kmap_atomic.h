/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between mm/kmap_atomic.c, mm/kmap_atomic_debug.c and
 * mm/kmap_atomic_to_page.c: slots by index, and what a lowmem address is.
 */
#ifndef _MM_KMAP_ATOMIC_H
#define _MM_KMAP_ATOMIC_H

#include <linux/mm.h>

/* The kernel's direct map: a lowmem page's address, which uses no slot. */
static inline bool kmap_atomic_is_lowmem(unsigned long vaddr)
{
	return vaddr >= PAGE_OFFSET && vaddr < (unsigned long)high_memory;
}

unsigned long kmap_atomic_map_idx(unsigned int idx, unsigned long pfn, pgprot_t prot);
void kmap_atomic_clear_idx(unsigned int idx);
void kmap_atomic_count_report(void);
void *kmap_atomic_fallback_map(unsigned long pfn, pgprot_t prot, unsigned int type);
int kmap_atomic_fallback_unmap(const void *addr, unsigned int type);

#endif /* _MM_KMAP_ATOMIC_H */
