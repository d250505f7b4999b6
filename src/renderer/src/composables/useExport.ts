// Export the work in the app — the spec, the results, the imported runs, notes and tags — as an
// HTML report, CSV, JSON or plain text, made by the lab and downloaded here.
import { ref } from 'vue'
import type { ReportFormat } from '../../../shared/api/library-contract'
import { errorText, useLab } from '../api'
import { downloadText } from '../lib/download'
import { useExperiment } from '../stores/experiment'
import { useRun } from '../stores/run'
import { useSessions } from '../stores/sessions'
import { useUi } from '../stores/ui'

export const EXPORTS: { format: ReportFormat; label: string; title: string }[] = [
  {
    format: 'html',
    label: 'HTML report',
    title: 'A self-contained page: charts, tables, environment, the spec',
  },
  { format: 'csv', label: 'CSV', title: 'One row per run and process' },
  { format: 'json', label: 'JSON', title: 'Summary, statistics and every run' },
  {
    format: 'text',
    label: 'Text',
    title: 'Plain-text tables to paste into a mailing-list post, with the workload and tunables',
  },
]

/** Which export is being made (null: none). */
const busy = ref<ReportFormat | null>(null)

export function useExport() {
  async function exportAs(format: ReportFormat): Promise<boolean> {
    const run = useRun()
    const sessions = useSessions()
    const exp = useExperiment()
    const ui = useUi()
    busy.value = format
    try {
      const r = await useLab().exportReport({
        format,
        session: {
          name: sessions.current?.name || exp.doc.name || 'results',
          spec: exp.doc,
          result: run.result,
          sweep: run.sweep,
          runs: sessions.extraRuns,
          notes: sessions.notes,
          tags: sessions.tags,
        },
      })
      downloadText(r.fileName, r.mime, r.text)
      ui.tell(`Exported ${r.fileName}`)
      return true
    } catch (e) {
      ui.tell(`Could not export: ${errorText(e)}`)
      return false
    } finally {
      busy.value = null
    }
  }
  return { exportAs, busy }
}
