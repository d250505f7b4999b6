// The gallery in the app: reproduce an entry (`iosched-lab reproduce NAME`) in the background —
// every variant simulated in the lab's child processes, then each claim judged against the
// published measurement. Progress, the verdict and failures come as reproduce events; cancelRun
// stops it; runStatus replays it for a client that lost its events.
import type { GalleryEntryView } from '../gallery/report'

export type { GalleryEntryView }
export type { FigureRow, ReproduceReport } from '../gallery/report'

export interface ReproduceInput {
  /** The entry's name (gallery/NAME.json), e.g. `row-vs-cfq-emmc-2012`. */
  name: string
}

/** A reproduction under way: its id, and the entry as shown before its verdict. */
export interface ReproduceStarted {
  runId: string
  entry: GalleryEntryView
}

/** The gallery's part of LabApi (contract.ts extends it). */
export interface GalleryLabApi {
  /**
   * Reproduce a gallery entry; reproduce events report on it, cancelRun stops it. `problems`: no
   * such entry (naming the known ones), or the entry does not load.
   */
  startReproduce(input: ReproduceInput): Promise<ReproduceStarted | { problems: string[] }>
}

/** GalleryLabApi's methods as data (methods.ts merges them into the one list). */
export const GALLERY_METHODS = {
  startReproduce: true,
} as const satisfies Record<keyof GalleryLabApi, true>
