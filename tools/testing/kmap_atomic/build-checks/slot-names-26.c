// SPDX-License-Identifier: GPL-2.0
// expect: compiles
/*
 * Every slot name 2.6 had, 2.6.33-2.6.37's twenty, in <asm-generic/
 * kmap_types.h>'s order, each mapped and unmapped as 2.6 code wrote it.
 */
#include <linux/highmem.h>
#include <linux/module.h>

#define MAP_UNMAP(type)						\
	do {							\
		void *p = kmap_atomic(page, type);		\
								\
		kunmap_atomic(p, type);				\
	} while (0)

void every_slot_name(struct page *page);
void every_slot_name(struct page *page)
{
	MAP_UNMAP(KM_BOUNCE_READ);
	MAP_UNMAP(KM_SKB_SUNRPC_DATA);
	MAP_UNMAP(KM_SKB_DATA_SOFTIRQ);
	MAP_UNMAP(KM_USER0);
	MAP_UNMAP(KM_USER1);
	MAP_UNMAP(KM_BIO_SRC_IRQ);
	MAP_UNMAP(KM_BIO_DST_IRQ);
	MAP_UNMAP(KM_PTE0);
	MAP_UNMAP(KM_PTE1);
	MAP_UNMAP(KM_IRQ0);
	MAP_UNMAP(KM_IRQ1);
	MAP_UNMAP(KM_SOFTIRQ0);
	MAP_UNMAP(KM_SOFTIRQ1);
	MAP_UNMAP(KM_SYNC_ICACHE);
	MAP_UNMAP(KM_SYNC_DCACHE);
	MAP_UNMAP(KM_UML_USERCOPY);
	MAP_UNMAP(KM_IRQ_PTE);
	MAP_UNMAP(KM_NMI);
	MAP_UNMAP(KM_NMI_PTE);
	MAP_UNMAP(KM_KDB);
	BUILD_BUG_ON(KM_TYPE_NR != 20);
	BUILD_BUG_ON(KM_SOFTIRQ1 != 12 || KM_KDB != 19);
}
MODULE_LICENSE("GPL");
