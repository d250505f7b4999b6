// What `iosched-lab reproduce` prints: an entry's figures (each in the unit people read it in)
// and its claims.
import type { ReproduceResult } from '../main/services/gallery-entries'
import { describeRef } from '../shared/gallery/claims'
import { inReadingUnit } from '../shared/gallery/figure-unit'
import { num, renderTable } from './table'

/** One entry: simulated beside published figures, a verdict per claim, how many hold. */
export function reproduceReport(r: ReproduceResult): string {
  const figures = renderTable(
    ['figure', 'simulated', 'published', 'unit'],
    r.published.map((p) => {
      const published = inReadingUnit(p.published, p.unit)
      return [
        describeRef(p.ref),
        p.simulated === null ? '-' : num(inReadingUnit(p.simulated, p.unit).value),
        num(published.value),
        published.unit,
      ]
    }),
    ['l', 'r', 'r', 'l'],
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
    `${holding(r)} of ${r.claims.length} claims hold${r.pass ? '' : ' — NOT reproduced'}`,
  ].join('\n')
}

const holding = (r: ReproduceResult): number => r.claims.filter((c) => c.pass).length
