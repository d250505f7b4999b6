/**
 * Where each line of a text starts, found in one pass: the line and column of any offset then
 * cost a binary search, not a scan from the start (which, once per document of a long fio
 * `--status-interval` output, made reading it quadratic). Lines end at '\n', as fio-json numbers them.
 */
export class LineIndex {
  /** Offset of the first character of each line; starts[0] is 0. */
  private readonly starts: number[] = [0]

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1)
  }

  /** 1-based line and column of offset `pos` (0 ≤ pos ≤ the text's length). */
  at(pos: number): { line: number; col: number } {
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid] <= pos) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, col: pos - this.starts[lo] + 1 }
  }

  /** 1-based line of offset `pos`. */
  lineOf(pos: number): number {
    return this.at(pos).line
  }
}
