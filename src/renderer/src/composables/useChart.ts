// The one chart composable: a chart.js chart on a canvas, rebuilt in place whenever the reactive
// inputs of `build` change (data streaming in, theme, options), destroyed with the component, and
// exportable as PNG. Theme colours and defaults every chart shares are applied here.
import { onBeforeUnmount, onMounted, shallowRef, watch } from 'vue'
import type { Ref } from 'vue'
import type { ChartConfiguration, ChartType } from 'chart.js'
import { Chart, chartColours, registerCharts } from '../lib/chart-setup'
import type { ChartColours } from '../lib/chart-setup'
import { useUi } from '../stores/ui'

export type ChartBuilder = (c: ChartColours) => ChartConfiguration<ChartType> | null

/** Shortest time between two redraws of one chart. */
export const REDRAW_MS = 250

/** Axis styling for the theme (grid lines, tick and title colours). */
export function axis(
  c: ChartColours,
  title: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    grid: { color: c.grid },
    ticks: { color: c.muted, maxRotation: 0 },
    title: { display: Boolean(title), text: title, color: c.muted },
    border: { color: c.grid },
    ...extra,
  }
}

export function useChart(canvas: Ref<HTMLCanvasElement | null>, build: ChartBuilder) {
  registerCharts()
  const ui = useUi()
  const chart = shallowRef<Chart | null>(null)
  /** Milliseconds the last (re)draw took. */
  const drawMs = shallowRef(0)

  const render = (cfg: ChartConfiguration<ChartType> | null): void => {
    const t0 = performance.now()
    const colours = chartColours(ui.dark)
    if (!cfg || !canvas.value) {
      chart.value?.destroy()
      chart.value = null
      return
    }
    const plugins = (cfg.options?.plugins ?? {}) as Record<string, unknown>
    cfg.options = {
      responsive: true,
      maintainAspectRatio: false,
      ...cfg.options,
      plugins: {
        ...plugins,
        legend: {
          ...(plugins.legend as object),
          labels: {
            color: colours.text,
            boxWidth: 14,
            boxHeight: 2,
            ...(plugins.legend as { labels?: object } | undefined)?.labels,
          },
        },
        labBackground: { color: colours.background },
      } as never,
    }
    const c = chart.value
    if (c && (c.config as { type?: string }).type === cfg.type) {
      c.data = cfg.data
      c.options = cfg.options as never
      c.update('none')
    } else {
      c?.destroy()
      chart.value = new Chart(canvas.value, cfg)
    }
    drawMs.value = performance.now() - t0
  }

  // While results stream in, redraw at most every REDRAW_MS: the first draw at once, the latest
  // data at the end of the window (redrawing every chart for each arriving result held the page up).
  let last = 0
  let pending: ReturnType<typeof setTimeout> | null = null
  let latest: ChartConfiguration<ChartType> | null = null
  const schedule = (cfg: ChartConfiguration<ChartType> | null): void => {
    latest = cfg
    if (pending) return
    // nothing on the canvas yet: draw at once
    const wait = chart.value ? last + REDRAW_MS - performance.now() : 0
    if (wait <= 0) {
      last = performance.now()
      return render(cfg)
    }
    pending = setTimeout(() => {
      pending = null
      last = performance.now()
      render(latest)
    }, wait)
  }

  onMounted(() => {
    watch(() => build(chartColours(ui.dark)), schedule, { immediate: true })
  })
  onBeforeUnmount(() => {
    if (pending) clearTimeout(pending)
    pending = null
    chart.value?.destroy()
    chart.value = null
  })

  /** Download the chart as a PNG file. */
  function exportPng(name: string): void {
    const c = chart.value
    if (!c) return
    const a = document.createElement('a')
    a.href = c.toBase64Image('image/png', 1)
    a.download = `${name.replace(/[^\w.-]+/g, '-')}.png`
    a.click()
  }

  return { chart, drawMs, exportPng }
}
