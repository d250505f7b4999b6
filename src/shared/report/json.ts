import { isNoisy, orderedWithMean } from '../metrics/compare-runs'
import { secondsOf } from './csv'
import type { ReportInput } from './input'

/**
 * The results as one JSON document (`iosched-lab/report@1`): name, description, environment, the
 * spec when known, the summary per label with every statistic, the ordered times of repeated
 * runs with their mean and the noisy flag, and every run in full. NaN (not measured) is null.
 */
export function reportJson(input: ReportInput): string {
  const repeated = input.summary.flatMap((s) =>
    s.processes.map((p) => {
      const seconds = secondsOf(input.runs, s.label, p.name)
      const o = orderedWithMean(seconds)
      return {
        label: s.label,
        process: p.name,
        secondsOrdered: o.ordered,
        secondsMean: o.mean,
        noisy: isNoisy(seconds),
      }
    }),
  )
  return JSON.stringify(
    {
      schema: 'iosched-lab/report@1',
      name: input.name,
      description: input.description,
      environment: Object.fromEntries(input.environment),
      spec: input.spec,
      summary: input.summary,
      repeated,
      runs: input.runs,
    },
    null,
    2,
  )
}
