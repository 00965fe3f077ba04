/* SPDX-License-Identifier: GPL-2.0 */
/* Between mm/kmap_atomic.c and mm/kmap_atomic_debug.c: slots by index. */
#ifndef _MM_KMAP_ATOMIC_H
#define _MM_KMAP_ATOMIC_H

unsigned long kmap_atomic_map_idx(unsigned int idx, unsigned long pfn, pgprot_t prot);
void kmap_atomic_clear_idx(unsigned int idx);
void kmap_atomic_count_report(void);
void *kmap_atomic_fallback_map(unsigned long pfn, pgprot_t prot, unsigned int type);
int kmap_atomic_fallback_unmap(const void *addr, unsigned int type);

#endif /* _MM_KMAP_ATOMIC_H */
