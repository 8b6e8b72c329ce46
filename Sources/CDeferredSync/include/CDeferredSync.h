// The few synchronisation primitives Deferred needs below Swift's `Synchronization` module
// (iOS 18 / macOS 15): a lock that passes priority to its owner where the platform can, and
// atomic words in memory this target owns.
//
// Swift gives no stable address to a stored property without the standard library's
// underscored API, and ThreadSanitizer sees any Swift access to a property as a plain write.
// So the atomic words live here, in pages this file owns, and Swift holds only a word's index:
// every access to a word is a C11 atomic operation on memory Swift never touches.

#ifndef C_DEFERRED_SYNC_H
#define C_DEFERRED_SYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if __has_feature(nullability)
#pragma clang assume_nonnull begin
#endif

// MARK: Locks

/// How many locks the shared pool has (``cds_pool_lock``).
#define CDS_POOL_LOCK_COUNT 64u

#if defined(__APPLE__)

/// A lock: `os_unfair_lock`, so that a waiter lends its priority to the owner. Taking it twice
/// on one thread, or releasing it from another, stops the process.
typedef struct cds_lock cds_lock;

/// A new lock, not held. Stops the process if memory runs out.
cds_lock *cds_lock_create(void);
/// Frees a lock no thread holds.
void cds_lock_destroy(cds_lock *lock);
void cds_lock_lock(cds_lock *lock);
void cds_lock_unlock(cds_lock *lock);

/// Takes lock `index % CDS_POOL_LOCK_COUNT` of a pool shared by every caller: for objects
/// too many to give each a lock of its own, whose locks are held for a few field updates.
void cds_pool_lock(uint32_t index);
void cds_pool_unlock(uint32_t index);

#else

/// A lock: a futex word, as Swift's own `Mutex` is on Linux. 0: free; 1: held; 2: held, and a
/// thread may be asleep waiting for it. Taking and releasing a free lock is one atomic
/// instruction each, inlined into the caller; a waiter spins briefly, then sleeps in the
/// kernel until the owner wakes it. Releasing a lock that is not held stops the process.
typedef struct cds_lock {
  uint32_t word;
} cds_lock;

/// A new lock, not held. Stops the process if memory runs out.
cds_lock *cds_lock_create(void);
/// Frees a lock no thread holds.
void cds_lock_destroy(cds_lock *lock);

/// The contended halves of ``cds_futex_lock`` and ``cds_futex_unlock``, out of line.
void cds_futex_wait(uint32_t *word) __attribute__((availability(swift, unavailable)));
void cds_futex_wake(uint32_t *word, uint32_t previous)
  __attribute__((availability(swift, unavailable)));

static inline void cds_futex_lock(uint32_t *word) __attribute__((availability(swift, unavailable)));
static inline void cds_futex_lock(uint32_t *word) {
  uint32_t expected = 0;
  if (!__atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    cds_futex_wait(word);
  }
}

static inline void cds_futex_unlock(uint32_t *word)
  __attribute__((availability(swift, unavailable)));
static inline void cds_futex_unlock(uint32_t *word) {
  uint32_t previous = __atomic_exchange_n(word, 0, __ATOMIC_RELEASE);
  if (previous != 1) cds_futex_wake(word, previous);
}

static inline void cds_lock_lock(cds_lock *lock) { cds_futex_lock(&lock->word); }
static inline void cds_lock_unlock(cds_lock *lock) { cds_futex_unlock(&lock->word); }

/// A lock of the pool, on a cache line of its own, so that threads taking different locks do
/// not slow each other down.
typedef struct {
  uint32_t word;
} __attribute__((aligned(64))) cds_pool_entry;

/// The pool: all zeros, every lock free, from the start.
extern cds_pool_entry cds_pool[CDS_POOL_LOCK_COUNT]
  __attribute__((availability(swift, unavailable)));

/// Takes lock `index % CDS_POOL_LOCK_COUNT` of a pool shared by every caller: for objects
/// too many to give each a lock of its own, whose locks are held for a few field updates.
static inline void cds_pool_lock(uint32_t index) {
  cds_futex_lock(&cds_pool[index % CDS_POOL_LOCK_COUNT].word);
}

static inline void cds_pool_unlock(uint32_t index) {
  cds_futex_unlock(&cds_pool[index % CDS_POOL_LOCK_COUNT].word);
}

#endif

// MARK: Atomic words

/// An atomic 64-bit word, by its index in the pages this target owns.
typedef uint32_t cds_word;

#define CDS_WORD_PAGE_SHIFT 12u
#define CDS_WORD_PAGE_MASK ((1u << CDS_WORD_PAGE_SHIFT) - 1u)
#define CDS_WORD_PAGE_COUNT 4096u

/// The pages of words; a page's address is stored once, before any of its words is handed out.
extern uint64_t *_Nullable cds_word_pages[CDS_WORD_PAGE_COUNT]
  __attribute__((availability(swift, unavailable)));

/// A word that no one else holds, set to 0. Stops the process if memory runs out.
cds_word cds_word_make(void);
/// Gives a word back; the caller no longer uses it.
void cds_word_free(cds_word word);

static inline uint64_t *cds_word_address(cds_word word)
  __attribute__((availability(swift, unavailable)));
static inline uint64_t *cds_word_address(cds_word word) {
  uint64_t *page = __atomic_load_n(&cds_word_pages[word >> CDS_WORD_PAGE_SHIFT], __ATOMIC_ACQUIRE);
  return page + (word & CDS_WORD_PAGE_MASK);
}

static inline uint64_t cds_word_load_relaxed(cds_word word) {
  return __atomic_load_n(cds_word_address(word), __ATOMIC_RELAXED);
}

static inline uint64_t cds_word_load_acquire(cds_word word) {
  return __atomic_load_n(cds_word_address(word), __ATOMIC_ACQUIRE);
}

static inline void cds_word_store_relaxed(cds_word word, uint64_t value) {
  __atomic_store_n(cds_word_address(word), value, __ATOMIC_RELAXED);
}

static inline void cds_word_store_release(cds_word word, uint64_t value) {
  __atomic_store_n(cds_word_address(word), value, __ATOMIC_RELEASE);
}

/// Adds `value` (wrapping) with relaxed ordering; returns the word's old value.
static inline uint64_t cds_word_add_relaxed(cds_word word, uint64_t value) {
  return __atomic_fetch_add(cds_word_address(word), value, __ATOMIC_RELAXED);
}

/// Sets `bits` with acquire-release ordering; returns the word's old value.
static inline uint64_t cds_word_or(cds_word word, uint64_t bits) {
  return __atomic_fetch_or(cds_word_address(word), bits, __ATOMIC_ACQ_REL);
}

/// Clears `bits` with acquire-release ordering; returns the word's old value.
static inline uint64_t cds_word_and(cds_word word, uint64_t bits) {
  return __atomic_fetch_and(cds_word_address(word), bits, __ATOMIC_ACQ_REL);
}

/// Replaces `*expected` by `desired` if the word holds `*expected`, with acquire-release
/// ordering; otherwise writes the word's value to `*expected`. Returns whether it replaced it.
static inline bool cds_word_compare_exchange(cds_word word, uint64_t *expected, uint64_t desired) {
  return __atomic_compare_exchange_n(
    cds_word_address(word), expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// The word as an address, loaded with acquire ordering (for an object published through it).
static inline const void *_Nullable cds_word_load_pointer(cds_word word) {
  return (const void *)(uintptr_t)__atomic_load_n(cds_word_address(word), __ATOMIC_ACQUIRE);
}

/// Stores an address with release ordering: whoever loads it sees what was written before.
static inline void cds_word_store_pointer(cds_word word, const void *_Nullable pointer) {
  __atomic_store_n(cds_word_address(word), (uint64_t)(uintptr_t)pointer, __ATOMIC_RELEASE);
}

/// Stores an address with acquire-release ordering and returns the one it replaces.
static inline const void *_Nullable cds_word_exchange_pointer(
  cds_word word, const void *_Nullable pointer) {
  return (const void *)(uintptr_t)__atomic_exchange_n(
    cds_word_address(word), (uint64_t)(uintptr_t)pointer, __ATOMIC_ACQ_REL);
}

/// Stores `pointer` with acquire-release ordering if the word holds no address; returns the
/// address it holds otherwise (`NULL`: stored).
static inline const void *_Nullable cds_word_store_pointer_if_null(
  cds_word word, const void *pointer) {
  uint64_t expected = 0;
  if (__atomic_compare_exchange_n(cds_word_address(word), &expected, (uint64_t)(uintptr_t)pointer,
        false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    return NULL;
  }
  return (const void *)(uintptr_t)expected;
}

#if __has_feature(nullability)
#pragma clang assume_nonnull end
#endif

#endif
