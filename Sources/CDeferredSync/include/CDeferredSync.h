// C11 atomic operations on 64-bit words that Swift allocates (`AtomicWord` on Apple platforms).
// Swift's own `Atomic` (the `Synchronization` module) needs iOS 18 / macOS 15, above the
// library's floor, and Swift has no other atomics; elsewhere the library uses `Atomic`.
//
// Each function is one atomic operation on `word`, which must be 8-byte aligned and live for the
// call; the memory order is in the function's name (acquire-release where it has none).

#ifndef C_DEFERRED_SYNC_H
#define C_DEFERRED_SYNC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#if __has_feature(nullability)
#pragma clang assume_nonnull begin
#endif

#define CDS_WORD(word) ((_Atomic(uint64_t) *)(word))

static inline uint64_t cds_load_relaxed(uint64_t *word) {
  return atomic_load_explicit(CDS_WORD(word), memory_order_relaxed);
}

static inline uint64_t cds_load_acquire(uint64_t *word) {
  return atomic_load_explicit(CDS_WORD(word), memory_order_acquire);
}

static inline void cds_store_relaxed(uint64_t *word, uint64_t value) {
  atomic_store_explicit(CDS_WORD(word), value, memory_order_relaxed);
}

static inline void cds_store_release(uint64_t *word, uint64_t value) {
  atomic_store_explicit(CDS_WORD(word), value, memory_order_release);
}

/// Adds `value` (wrapping); returns the old value.
static inline uint64_t cds_fetch_add_relaxed(uint64_t *word, uint64_t value) {
  return atomic_fetch_add_explicit(CDS_WORD(word), value, memory_order_relaxed);
}

/// Sets `bits`; returns the old value.
static inline uint64_t cds_fetch_or(uint64_t *word, uint64_t bits) {
  return atomic_fetch_or_explicit(CDS_WORD(word), bits, memory_order_acq_rel);
}

/// Stores `desired` if the word holds `*expected`; otherwise writes the word's value to
/// `*expected` (acquire order). Returns whether it stored.
static inline bool cds_compare_exchange(uint64_t *word, uint64_t *expected, uint64_t desired) {
  return atomic_compare_exchange_strong_explicit(
    CDS_WORD(word), expected, desired, memory_order_acq_rel, memory_order_acquire);
}

#undef CDS_WORD

#if __has_feature(nullability)
#pragma clang assume_nonnull end
#endif

#endif
