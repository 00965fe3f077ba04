/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_GENERIC_KMAP_TYPES_H
#define _ASM_GENERIC_KMAP_TYPES_H

/*
 * The typed atomic kmap slots. Where an architecture has them (x86-32 with
 * CONFIG_KMAP_ATOMIC_SLOTS), each CPU owns one page of kernel address space
 * per slot; the caller names the slot, so kmap_atomic(page, type) never
 * fails and never waits. Elsewhere the names only let portable code
 * compile, and kmap_atomic(page, type) maps like kmap_atomic(page).
 *
 * Two users of one slot on one CPU at once would overwrite each other's
 * mapping, which is why each slot belongs to one context:
 *
 *   slot                 context it is for
 *   KM_BOUNCE_READ       block bounce buffers, local interrupts disabled
 *   KM_SKB_SUNRPC_DATA   sunrpc socket data, softirq or bottom halves off
 *   KM_SKB_DATA_SOFTIRQ  skb data copies, softirq or bottom halves off
 *   KM_USER0, KM_USER1   process context (system calls): not in interrupts
 *   KM_BIO_SRC_IRQ       bio source pages, local interrupts disabled
 *   KM_BIO_DST_IRQ       bio destination pages, local interrupts disabled
 *   KM_PTE0, KM_PTE1     page-table pages, process context
 *   KM_IRQ0, KM_IRQ1     hard interrupt handlers, local interrupts disabled
 *   KM_SOFTIRQ0/1        softirqs and tasklets, not hard interrupts
 *
 * Driver code uses KM_USER*, KM_IRQ* and KM_SOFTIRQ*; the others are for
 * the subsystems named. See Documentation/mm/kmap-atomic.rst.
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

/*
 * Each CPU also has spare slots, after the KM_TYPE_NR named ones: a map
 * into a slot that is in use already (a collision), or with a type that is
 * no slot, is reported and given a spare, so that nobody's data is lost.
 * The last KM_NMI_SPARES are kept for NMIs. CONFIG_DEBUG_KMAP_ATOMIC has
 * enough for eight nested collisions in one context under others in an
 * interrupt; a release kernel keeps its fixmap small.
 */
#ifdef CONFIG_DEBUG_KMAP_ATOMIC
#define KM_SPARE_SLOTS		16
#else
#define KM_SPARE_SLOTS		3
#endif
#define KM_NMI_SPARES		1

#endif /* _ASM_GENERIC_KMAP_TYPES_H */
