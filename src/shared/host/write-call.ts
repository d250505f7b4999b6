import { parseQuantileTable } from '../devices/quantile-table'
import type { Rng } from '../sim/rng'
import { US } from '../sim/time'
import type { SimTime } from '../sim/time'
import type { ParamIssue, ParamValues } from '../util/params'

/**
 * A buffered write()'s own work per call (host `writeCallUs`): the same every call, or, with
 * `writeCallQuantilesUs` set, drawn per call from that measured distribution — from a stream of
 * its own, so that the draws move nothing else of the run. Null: the constant applies.
 */
export function writeCallDraw(hv: ParamValues, rng: Rng): (() => SimTime) | null {
  const text = (hv.writeCallQuantilesUs as string | undefined) ?? ''
  if (text.trim() === '') return null
  const table = parseQuantileTable(text, 'writeCallQuantilesUs', [])
  if (table === null) return null
  const stream = rng.fork('write-call')
  return () => Math.round(table.draw(stream.next()) * US)
}

/** The table's problems, if it is set (resolveSpec reports them at `path`). */
export function checkWriteCall(hv: ParamValues, path: string, issues: ParamIssue[]): void {
  const text = (hv.writeCallQuantilesUs as string | undefined) ?? ''
  if (text.trim() !== '') parseQuantileTable(text, path, issues)
}
