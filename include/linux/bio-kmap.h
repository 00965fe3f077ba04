/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mapping a bio's pages with the typed atomic kmaps: KM_BIO_SRC_IRQ with
 * local interrupts off, or a slot of the caller's choosing. Included by
 * <linux/bio.h>.
 *
 * Each mapping covers one page: the segment at bi_iter as bio_iter_iovec()
 * gives it, or the page of a bvec that holds bv_offset.
 */
#ifndef _LINUX_BIO_KMAP_H
#define _LINUX_BIO_KMAP_H

#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/irqflags.h>

/**
 * bvec_kmap_irq - map a bvec's page with interrupts off
 * @bvec: the bvec; its page holding bv_offset is mapped
 * @flags: where to save the interrupt state, for bvec_kunmap_irq()
 *
 * Saves and disables local interrupts, then maps the page in this CPU's
 * KM_BIO_SRC_IRQ slot. Usable from any context, hard interrupts included.
 *
 * Return: the address of the data at bv_offset.
 */
static __always_inline char *bvec_kmap_irq(struct bio_vec *bvec, unsigned long *flags)
{
	struct page *page = bvec->bv_page + bvec->bv_offset / PAGE_SIZE;

	local_irq_save(*flags);
	return (char *)kmap_atomic(page, KM_BIO_SRC_IRQ) + offset_in_page(bvec->bv_offset);
}

/**
 * bvec_kunmap_irq - undo bvec_kmap_irq()
 * @buffer: the address bvec_kmap_irq() returned, or any inside its page
 * @flags: the interrupt state bvec_kmap_irq() saved
 */
static __always_inline void bvec_kunmap_irq(char *buffer, unsigned long *flags)
{
	kunmap_atomic(buffer, KM_BIO_SRC_IRQ);
	local_irq_restore(*flags);
}

/**
 * bio_kmap_irq - map the current segment of a bio with interrupts off
 * @bio: the bio; its segment at bi_iter is mapped
 * @flags: where to save the interrupt state, for bio_kunmap_irq()
 *
 * The segment is the single-page one bio_iter_iovec() gives: its length is
 * bio_iter_len(bio, bio->bi_iter). See bvec_kmap_irq().
 *
 * Return: the address of the segment's data.
 */
static __always_inline char *bio_kmap_irq(struct bio *bio, unsigned long *flags)
{
	struct bio_vec bv = bio_iter_iovec(bio, bio->bi_iter);

	return bvec_kmap_irq(&bv, flags);
}

/**
 * bio_kunmap_irq - undo bio_kmap_irq()
 * @buffer: the address bio_kmap_irq() returned, or any inside its page
 * @flags: the interrupt state bio_kmap_irq() saved
 */
static __always_inline void bio_kunmap_irq(char *buffer, unsigned long *flags)
{
	bvec_kunmap_irq(buffer, flags);
}

/**
 * __bio_kmap_atomic - map one of a bio's bvecs in a slot of the caller's
 * @bio: the bio
 * @idx: the index in bi_io_vec
 * @type: the slot, for the context the caller is in
 *
 * Maps the page of bi_io_vec[@idx] that holds its bv_offset. Preemption
 * and page faults are off until __bio_kunmap_atomic().
 *
 * Return: the address of the bvec's data at bv_offset.
 */
#define __bio_kmap_atomic(bio, idx, type)				\
({									\
	struct bio_vec *__bv = &(bio)->bi_io_vec[idx];			\
									\
	(char *)kmap_atomic(__bv->bv_page + __bv->bv_offset / PAGE_SIZE,\
			    type) + offset_in_page(__bv->bv_offset);	\
})

/**
 * __bio_kunmap_atomic - undo __bio_kmap_atomic()
 * @addr: the address __bio_kmap_atomic() returned, or any inside its page
 * @type: the slot it was mapped in
 */
#define __bio_kunmap_atomic(addr, type)	kunmap_atomic(addr, type)

#endif /* _LINUX_BIO_KMAP_H */
