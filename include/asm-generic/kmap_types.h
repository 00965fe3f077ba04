/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_GENERIC_KMAP_TYPES_H
#define _ASM_GENERIC_KMAP_TYPES_H

/*
 * The typed atomic kmap slot names for architectures without per-CPU slots
 * of their own (x86-32 has them: arch/x86/include/asm/kmap_types.h, which
 * also says which context each slot is for). Here the names only let
 * portable code compile: kmap_atomic(page, type) maps through the untyped
 * kmap_atomic() and the type is not used.
 */
enum km_type {
	KM_BOUNCE_READ,
	KM_SKB_SUNRPC_DATA,
	KM_SKB_DATA_SOFTIRQ,
	KM_USER0,
	KM_USER1,
	KM_BIO_SRC_IRQ,
	KM_BIO_DST_IRQ,
	KM_PTE0,
	KM_PTE1,
	KM_IRQ0,
	KM_IRQ1,
	KM_SOFTIRQ0,
	KM_SOFTIRQ1,
	KM_TYPE_NR
};

#endif /* _ASM_GENERIC_KMAP_TYPES_H */
