import type { Rng } from '../sim/rng'

/**
 * The kernel's scalable bitmap (lib/sbitmap.c), as far as the schedulers' depth limits depend on
 * it: blk-mq scheduler tags and kyber's domain tokens are sbitmaps — a bitmap split into words of
 * 2^shift bits — and a "shallow" allocation (limit_depth) may take only part of each word.
 */

/**
 * sbitmap_calculate_shift: words of 2^shift bits, shift starting at log2(BITS_PER_LONG) = 6 and
 * lowered until the map has at least four words (once depth ≥ 4), to spread allocations.
 */
export function sbitmapShift(depth: number): number {
  let shift = 6
  if (depth >= 4) while (4 << shift > depth) shift--
  return shift
}

/** __map_depth: bits in word `index` of a map of `depth` bits (the last word may be short). */
export function wordDepth(depth: number, shift: number, index: number): number {
  const words = Math.ceil(depth / (1 << shift))
  return index === words - 1 ? depth - index * (1 << shift) : 1 << shift
}

/**
 * How a shallow depth is read:
 *  - 'per-word' (Linux ≤ 6.16): at most `shallow` bits of each word (sbitmap_get_shallow, then
 *    __sbitmap_get_shallow: min(__map_depth, shallow_depth) per word);
 *  - 'whole' (Linux 6.17+, commit 42e6c6ce03fd "lib/sbitmap: convert shallow_depth from one word
 *    to the whole sbitmap"): `shallow` bits of the whole map, shared out over the words in
 *    proportion to their size, the remainder going to the first words (__map_depth_with_shallow).
 */
export type ShallowRule = 'per-word' | 'whole'

/** The bits of word `index` a shallow allocation may take under the 6.17+ rule. */
function wholeShare(depth: number, shift: number, index: number, shallow: number): number {
  const wd = wordDepth(depth, shift, index)
  if (shallow >= depth) return wd
  const scaled = wd * shallow
  let share = Math.floor(scaled / depth)
  if (scaled % depth >= (index + 1) * wd) share++
  return share
}

/** Per word, the bits an allocation limited to `shallow` may take, in a map of words of 2^shift bits. */
export function shallowShares(depth: number, shift: number, shallow: number, rule: ShallowRule): number[] {
  const words = Math.ceil(depth / (1 << shift))
  const out: number[] = []
  for (let i = 0; i < words; i++)
    out.push(
      rule === 'per-word'
        ? Math.min(wordDepth(depth, shift, i), shallow)
        : wholeShare(depth, shift, i, shallow),
    )
  return out
}

/** Tags of a map of `depth` bits (its own shift) that allocations limited to `shallow` can hold at once. */
export function shallowSlots(depth: number, shallow: number, rule: ShallowRule): number {
  return shallowShares(depth, sbitmapShift(depth), shallow, rule).reduce((a, b) => a + b, 0)
}

/** The least significant set bit's index in a non-zero 32-bit word. */
const lowestBit = (x: number): number => 31 - Math.clz32(x & -x)

/** Bits lo…hi−1 of a 32-bit chunk (0 ≤ lo < hi ≤ 32). */
const rangeMask = (lo: number, hi: number): number => (hi === 32 ? -1 : (1 << hi) - 1) & ~((1 << lo) - 1)

/**
 * An sbitmap_queue used as a pool of tokens, as kyber's domain tokens (sbitmap_queue_init_node with
 * the domain's full depth, round_robin off), Linux 5.0+:
 *  - get (__sbitmap_queue_get → sbitmap_get → sbitmap_find_bit): a free bit below the current
 *    depth, searched from the allocation hint to the end of its word, then from the word's start,
 *    then word by word; a word with no free bit first takes back its deferred clears and is searched
 *    again. The hint moves one past the bit only when the hinted bit itself was taken; a hint at or
 *    past the depth is replaced by a random bit below it (update_alloc_hint_before/after_get);
 *  - clear (sbitmap_queue_clear): the bit goes to its word's `cleared` mask — free, but seen as free
 *    only once the word is found full (sbitmap_deferred_clear) — and, if below the depth, becomes
 *    the hint (sbitmap_update_cpu_hint);
 *  - resize (sbitmap_queue_resize → sbitmap_resize): only the depth changes. Tokens held at or past
 *    a lowered depth stay held until their requests finish, and no new token is taken there: after a
 *    cut, new requests enter as soon as a holder of a token below the new depth finishes, not once
 *    the number of holders has fallen below it.
 * The kernel keeps a hint per CPU; the model keeps one (its queue is run from one place).
 */
export class TokenBitmap {
  readonly shift: number
  /**
   * The words as 32-bit chunks (a word of 2^shift ≤ 64 bits is one or two chunks, or part of one):
   * `set` has a bit for each token held or freed-but-not-yet-cleared (the kernel's word), `cleared`
   * for each of the latter (its `cleared` mask). A free token: set 0; held: set 1, cleared 0.
   */
  private readonly set: Int32Array
  private readonly cleared: Int32Array
  private readonly maxDepth: number
  private curDepth: number
  private hint: number
  private nHeld = 0

  constructor(
    maxDepth: number,
    private readonly rng: Rng,
  ) {
    this.shift = sbitmapShift(maxDepth)
    this.maxDepth = maxDepth
    this.set = new Int32Array(Math.ceil(maxDepth / 32))
    this.cleared = new Int32Array(this.set.length)
    this.curDepth = maxDepth
    this.hint = rng.int(maxDepth) // init_alloc_hint: a random bit per CPU
  }

  get depth(): number {
    return this.curDepth
  }

  /** Tokens held now (including any at or past the depth). */
  get held(): number {
    return this.nHeld
  }

  /** Tokens held at or past the current depth: left over from before a cut. */
  heldAbove(): number {
    let n = 0
    for (let i = this.curDepth; i < this.maxDepth; i++) if (this.isHeld(i)) n++
    return n
  }

  private isHeld(i: number): boolean {
    const bit = 1 << (i & 31)
    return (this.set[i >> 5] & bit) !== 0 && (this.cleared[i >> 5] & bit) === 0
  }

  resize(depth: number): void {
    this.curDepth = Math.min(Math.max(depth, 1), this.maxDepth)
  }

  /** A free token, or -1 when every bit below the depth is held. */
  get(): number {
    const depth = this.curDepth
    let hint = this.hint
    if (hint >= depth) hint = this.hint = this.rng.int(depth)
    const perWord = 1 << this.shift
    const words = Math.ceil(depth / perWord)
    let index = hint >> this.shift
    let offset = hint & (perWord - 1)
    let nr = -1
    for (let i = 0; i < words && nr < 0; i++) {
      const base = index * perWord
      const at = this.findInWord(base, index === words - 1 ? depth - base : perWord, offset)
      if (at >= 0) nr = base + at
      offset = 0
      index = index + 1 >= words ? 0 : index + 1
    }
    if (nr < 0) {
      this.hint = 0
      return -1
    }
    if (nr === hint) this.hint = nr + 1 >= depth - 1 ? 0 : nr + 1
    this.set[nr >> 5] |= 1 << (nr & 31)
    this.nHeld++
    return nr
  }

  clear(nr: number): void {
    this.cleared[nr >> 5] |= 1 << (nr & 31)
    this.nHeld--
    if (nr < this.curDepth) this.hint = nr
  }

  /** sbitmap_find_bit_in_word: search; if the word is full, take back its deferred clears and retry. */
  private findInWord(base: number, bitsHere: number, offset: number): number {
    const nr = this.getWord(base, bitsHere, offset)
    if (nr >= 0 || !this.deferredClear(base)) return nr
    return this.getWord(base, bitsHere, offset)
  }

  /** __sbitmap_get_word with wrap: the first free bit at or after `offset`, else from the word's start. */
  private getWord(base: number, bitsHere: number, offset: number): number {
    const at = this.firstFree(base + offset, base + bitsHere)
    if (at >= 0) return at - base
    const wrapped = this.firstFree(base, base + Math.min(offset, bitsHere))
    return wrapped >= 0 ? wrapped - base : -1
  }

  /** The first free bit in [from, to), or −1: a chunk at a time. */
  private firstFree(from: number, to: number): number {
    let i = from
    while (i < to) {
      const c = i >> 5
      const free = ~this.set[c] & rangeMask(i & 31, Math.min(32, to - (c << 5)))
      if (free !== 0) return (c << 5) + lowestBit(free)
      i = (c + 1) << 5
    }
    return -1
  }

  /** sbitmap_deferred_clear: the word's cleared bits become free; false when it had none. */
  private deferredClear(base: number): boolean {
    const end = Math.min(base + (1 << this.shift), this.maxDepth)
    let moved = false
    for (let i = base; i < end;) {
      const c = i >> 5
      const hi = Math.min(32, end - (c << 5))
      const mask = this.cleared[c] & rangeMask(i & 31, hi)
      if (mask !== 0) {
        this.set[c] &= ~mask
        this.cleared[c] &= ~mask
        moved = true
      }
      i = (c << 5) + hi
    }
    return moved
  }
}
