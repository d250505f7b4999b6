/**
 * The page cache's LRU order (pagecache.ts: a CLOCK over cached pages in insertion order) kept as
 * runs: an entry is a file and a range of its pages that went on the list one after another, so a
 * 1 MiB write is one entry, not 256. A ring of runs that grows as needed; `count` is the pages in
 * it. The order is exactly that of a list of single pages: a page added right after the last
 * page of the newest run, of the same file, extends that run, and taking pages from the front
 * shortens the oldest.
 */
export class PageRing {
  /** Pages in the ring. */
  count = 0
  /** Runs in the ring. */
  runs = 0
  private file = new Int32Array(16)
  private start = new Int32Array(16)
  private len = new Int32Array(16)
  private head = 0

  /** File of the oldest run (the next page reclaim looks at is its first). */
  get headFile(): number {
    return this.file[this.head]
  }
  get headStart(): number {
    return this.start[this.head]
  }
  get headLen(): number {
    return this.len[this.head]
  }

  /** Run i from the oldest (0 ≤ i < runs). */
  fileAt(i: number): number {
    return this.file[(this.head + i) & (this.file.length - 1)]
  }
  startAt(i: number): number {
    return this.start[(this.head + i) & (this.file.length - 1)]
  }
  lenAt(i: number): number {
    return this.len[(this.head + i) & (this.file.length - 1)]
  }

  /** Pages [page, page + n) of a file go on at the newest end, in that order. */
  pushBack(fileId: number, page: number, n: number): void {
    this.count += n
    if (this.runs > 0) {
      const last = (this.head + this.runs - 1) & (this.file.length - 1)
      if (this.file[last] === fileId && this.start[last] + this.len[last] === page) {
        this.len[last] += n
        return
      }
    }
    if (this.runs === this.file.length) this.grow()
    const j = (this.head + this.runs) & (this.file.length - 1)
    this.file[j] = fileId
    this.start[j] = page
    this.len[j] = n
    this.runs++
  }

  /** A page goes on at the oldest end: the next one taken. */
  pushFront(fileId: number, page: number): void {
    this.count++
    if (this.runs > 0 && this.file[this.head] === fileId && this.start[this.head] === page + 1) {
      this.start[this.head] = page
      this.len[this.head]++
      return
    }
    if (this.runs === this.file.length) this.grow()
    this.head = (this.head - 1) & (this.file.length - 1)
    this.file[this.head] = fileId
    this.start[this.head] = page
    this.len[this.head] = 1
    this.runs++
  }

  /** Take the first `n` pages of the oldest run (n ≤ headLen). */
  popFront(n: number): void {
    this.count -= n
    const h = this.head
    this.len[h] -= n
    this.start[h] += n
    if (this.len[h] === 0) {
      this.head = (h + 1) & (this.file.length - 1)
      this.runs--
    }
  }

  clear(): void {
    this.count = 0
    this.runs = 0
    this.head = 0
  }

  private grow(): void {
    const size = this.file.length
    const file = new Int32Array(size * 2)
    const start = new Int32Array(size * 2)
    const len = new Int32Array(size * 2)
    for (let i = 0; i < this.runs; i++) {
      const j = (this.head + i) & (size - 1)
      file[i] = this.file[j]
      start[i] = this.start[j]
      len[i] = this.len[j]
    }
    this.file = file
    this.start = start
    this.len = len
    this.head = 0
  }
}
