// The look (colour and mark) of each row and series on the results page: by its scheduler (from
// the comparison's spec, else the spec being set up, else the runs), the same in the table, the
// progress and every chart.
import { computed } from 'vue'
import type { ComputedRef } from 'vue'
import { stylesOf } from '../lib/colours'
import type { RowStyle } from '../lib/colours'
import { useExperiment } from '../stores/experiment'
import { useRun } from '../stores/run'

export function useResultStyles(): ComputedRef<(shown: string) => RowStyle> {
  const run = useRun()
  const exp = useExperiment()
  return computed(() => stylesOf([...((run.result?.spec ?? exp.resolved)?.schedulers ?? []), ...run.runs]))
}
