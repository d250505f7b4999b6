// What `iosched-lab reproduce` prints: an entry's figures (each in the unit people read it in,
// and simulated ÷ published)
// and its claims, and after `--all` the total: claims holding of all, per entry.
import type { ReproduceResult } from '../main/services/gallery-entries'
import { inReadingUnit } from '../shared/gallery/figure-unit'
import { describeRunRef } from '../shared/gallery/explain'
import { figureWords } from '../shared/gallery/metric-names'
import { MECHANISM_NAME } from '../shared/report/why-figures'
import { num, renderTable } from './table'
import { times } from '../shared/util/people-numbers'
import { wrap } from '../shared/util/wrap'

/** One entry: simulated beside published figures, a verdict per claim, how many hold. */
export function reproduceReport(r: ReproduceResult): string {
  const figures = renderTable(
    ['figure', 'simulated', 'published', 'unit', 'sim ÷ pub'],
    r.published.map((p) => {
      const published = inReadingUnit(p.published, p.unit)
      return [
        // in words, as the app's figures table: "lmdd-parallel/row: read · throughput"
        `${describeRunRef(p.ref)}: ${figureWords(p.ref)}`,
        p.simulated === null ? '-' : num(inReadingUnit(p.simulated, p.unit).value),
        num(published.value),
        published.unit,
        // as the app's gallery has it: two decimals in every row
        p.simulated === null || p.published === 0 ? '' : times(p.simulated / p.published),
      ]
    }),
    ['l', 'r', 'r', 'l', 'r'],
  )
  const claims = r.claims
    .map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.id}  ${c.text}\n            ${c.detail}`)
    .join('\n')
  return [
    `${r.title}`,
    `${r.source}`,
    '',
    figures,
    '',
    claims,
    '',
    ...explanationLines(r),
    `${holding(r)} of ${r.claims.length} claims hold${r.pass ? '' : ' — NOT reproduced'}`,
  ].join('\n')
}

/** Why, from the runs — and whether it names the mechanism the publication is about. */
function explanationLines(r: ReproduceResult): string[] {
  const e = r.explanation
  if (!e) return []
  // the mechanisms in words, as the app names them ("read-over-write priority", not "read-priority")
  const verdict = e.matches
    ? `names the published mechanism, ${MECHANISM_NAME[e.expected]}`
    : `names ${MECHANISM_NAME[e.mechanism]}, NOT the published mechanism (${MECHANISM_NAME[e.expected]})`
  const indented = (t: string): string => wrap(t, 98).replace(/^/gm, '  ')
  return [`Why (${verdict}):`, indented(e.text), `Published:`, indented(e.about), '']
}

const holding = (r: ReproduceResult): number => r.claims.filter((c) => c.pass).length

/** The totals of `reproduce --all` (also in its JSON document). */
export function reproduceTotals(results: readonly ReproduceResult[]) {
  return {
    entries: results.length,
    reproduced: results.filter((r) => r.pass).length,
    claims: results.reduce((n, r) => n + r.claims.length, 0),
    holding: results.reduce((n, r) => n + holding(r), 0),
  }
}

/** The end of `reproduce --all`: claims holding of all per entry, then the whole gallery's. */
export function reproduceTotalText(results: readonly ReproduceResult[]): string {
  const t = reproduceTotals(results)
  const table = renderTable(
    ['entry', 'claims hold', 'verdict'],
    results.map((r) => [
      r.name,
      `${holding(r)} / ${r.claims.length}`,
      r.pass ? 'reproduced' : 'NOT reproduced',
    ]),
    ['l', 'r', 'l'],
  )
  return [
    table,
    '',
    `total: ${t.holding} of ${t.claims} claims hold; ${t.reproduced} of ${t.entries} entries reproduced`,
  ].join('\n')
}
