// The one chart composable: a chart.js chart on a canvas, rebuilt in place whenever the reactive
// inputs of `build` change (data streaming in, theme, options), destroyed with the component, and
// exportable as PNG. Theme colours and defaults every chart shares are applied here.
//
// Charts drawn `idle` (the results' cards) wait until the page's data settles and the page is idle,
// then draw one after another in short tasks: while a run's results stream in, the table shows
// each at once and the charts follow once the stream pauses, drawn once instead of once per result
// (a chart is 5–50 ms of main-thread work, which the simulations, at a lower priority, also need).
import { nextTick, onBeforeUnmount, onMounted, ReactiveEffect, shallowRef } from 'vue'
import type { Ref } from 'vue'
import type { ChartConfiguration, ChartType } from 'chart.js'
import { Chart, registerCharts } from '../lib/chart-setup'
import { markLegend } from '../lib/chart-marks'
import { chartColours, legendBox } from '../lib/chart-theme'
import type { ChartColours } from '../lib/chart-theme'
import { num } from '../lib/format'
import { logTick } from '../lib/scales'
import { useUi } from '../stores/ui'

export type ChartBuilder = (c: ChartColours) => ChartConfiguration<ChartType> | null

/** Shortest time between two redraws of one chart drawn `now`. */
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

/**
 * The options of a throughput-over-time line chart: time in seconds, or in per cent of each run
 * (`each`), against MB/s on a linear axis or a logarithmic one from `floor`.
 */
export function timeLineOptions(
  c: ChartColours,
  o: { each: boolean; log: boolean; yTitle: string; floor: number | undefined },
): Record<string, unknown> {
  return {
    parsing: false,
    normalized: true,
    elements: { point: { radius: 0 }, line: { borderWidth: 1.5 } },
    interaction: { mode: 'nearest', intersect: false, axis: 'x' },
    scales: {
      x: o.each
        ? axis(c, 'time (% of each run)', { type: 'linear', min: 0, max: 100 })
        : axis(c, 'time (s)', { type: 'linear', min: 0 }),
      y: o.log
        ? logAxis(c, `${o.yTitle} (log)`, o.floor)
        : axis(c, o.yTitle, { type: 'linear', beginAtZero: true }),
    },
  }
}

/** A linear axis' ticks labelled as people write numbers (num: `312`, `20.1`, `1,000`), level. */
export const peopleTicks = (c: ChartColours): Record<string, unknown> => ({
  color: c.muted,
  maxRotation: 0,
  callback: (v: number | string) => num(Number(v)),
})

/** A logarithmic axis from `min`, its ticks labelled at 1, 2 and 5 of each decade. */
export function logAxis(c: ChartColours, title: string, min: number | undefined): Record<string, unknown> {
  return axis(c, title, {
    type: 'logarithmic',
    min,
    ticks: { color: c.muted, maxRotation: 0, callback: (v: number | string) => logTick(Number(v)) },
  })
}

/**
 * A chart of stepped CDF lines over a log x axis (latency-like, ms) with a 0…1 y axis: the
 * options the latency CDF and the why's stage distributions share.
 */
export function cdfLineOptions(
  c: ChartColours,
  x: Record<string, unknown>,
  yTitle: string,
): Record<string, unknown> {
  return {
    parsing: false,
    elements: { point: { radius: 0 }, line: { borderWidth: 1.6 } },
    interaction: { mode: 'nearest', intersect: false },
    scales: { x, y: axis(c, yTitle, { min: 0, max: 1 }) },
  }
}

/**
 * When a chart draws: `now`, right after the change that asked for it (in the same task, at most
 * every REDRAW_MS); `idle`, once no idle chart has asked for SETTLE_MS (at the latest MAX_WAIT_MS
 * after the first ask) and the page is idle, in tasks of about IDLE_SLICE_MS.
 */
export type DrawWhen = 'now' | 'idle'

/** Idle charts draw once no chart has asked to for this long: results arriving together are drawn once. */
export const SETTLE_MS = 250

/** …or at the latest this long after the first ask, while asks keep coming (a long stream of results). */
export const MAX_WAIT_MS = 1000

/** Then each waits at most this long for an idle moment. */
export const IDLE_TIMEOUT_MS = 300

/** An idle task draws charts until it has taken this long (one chart at least). */
const IDLE_SLICE_MS = 12

/** Idle charts waiting to draw, in the order they asked (a chart waits once). */
const waiting = new Set<() => void>()
let settling: ReturnType<typeof setTimeout> | null = null
let firstAsk = 0
let pumping = false

function askIdle(draw: () => void): void {
  waiting.add(draw)
  const now = performance.now()
  if (!settling) firstAsk = now
  else clearTimeout(settling)
  settling = setTimeout(settled, Math.max(0, Math.min(SETTLE_MS, firstAsk + MAX_WAIT_MS - now)))
}

function settled(): void {
  settling = null
  pump()
}

function pump(): void {
  if (pumping) return
  pumping = true
  if (typeof requestIdleCallback === 'function') requestIdleCallback(drawSome, { timeout: IDLE_TIMEOUT_MS })
  else setTimeout(drawSome, 16)
}

function drawSome(deadline?: IdleDeadline): void {
  pumping = false
  const t0 = performance.now()
  for (const draw of waiting) {
    waiting.delete(draw)
    draw()
    if (performance.now() - t0 >= IDLE_SLICE_MS || (deadline && deadline.timeRemaining() <= 0)) break
  }
  if (waiting.size && !settling) pump()
}

/**
 * What a page can read of a series: its name and colour, its marker and mark when it sets them, and how many
 * of its points carry an error bar (yMin/yMax, drawn by the labErrorBars plugin).
 */
function describeSeries(
  d: ChartConfiguration<ChartType>['data']['datasets'][number],
): Record<string, unknown> {
  const out: Record<string, unknown> = { label: d.label ?? '', colour: d.borderColor ?? null }
  const marker = (d as { pointStyle?: unknown }).pointStyle
  if (typeof marker === 'string') out.marker = marker
  const mark = (d as { mark?: number }).mark
  if (mark) out.mark = mark
  const bars = (d.data as unknown[]).filter(
    (p) => p !== null && typeof p === 'object' && Number.isFinite((p as { yMax?: number }).yMax),
  ).length
  if (bars) out.errorBars = bars
  return out
}

export function useChart(canvas: Ref<HTMLCanvasElement | null>, build: ChartBuilder, when: DrawWhen = 'now') {
  registerCharts()
  const ui = useUi()
  const chart = shallowRef<Chart | null>(null)
  /** Milliseconds the last (re)draw took. */
  const drawMs = shallowRef(0)

  const render = (cfg: ChartConfiguration<ChartType> | null): void => {
    const t0 = performance.now()
    const colours = chartColours(ui.dark)
    if (!cfg || !canvas.value) {
      if (canvas.value) delete canvas.value.dataset.series
      if (canvas.value) delete canvas.value.dataset.scales
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
            ...legendBox(cfg.type),
            ...markLegend(cfg),
            ...(plugins.legend as { labels?: object } | undefined)?.labels,
          },
        },
        labBackground: { color: colours.background },
      } as never,
    }
    // each series' name and colour, readable from the page (the tests check them against the table's)
    canvas.value.dataset.series = JSON.stringify(cfg.data.datasets.map(describeSeries))
    const c = chart.value
    if (c && (c.config as { type?: string }).type === cfg.type) {
      c.data = cfg.data
      c.options = cfg.options as never
      c.update('none')
    } else {
      c?.destroy()
      chart.value = new Chart(canvas.value, cfg)
    }
    // and each axis as drawn: its type ("linear", "logarithmic"), range, tick labels and their turn, which the
    // tests check against the data
    canvas.value.dataset.scales = JSON.stringify(
      Object.fromEntries(
        Object.entries(chart.value?.scales ?? {}).map(([id, s]) => [
          id,
          {
            type: s.type,
            min: s.min,
            max: s.max,
            ticks: s.ticks.map((t) => String(t.label ?? '')),
            // degrees the tick labels are turned (0: level)
            rotation: s.labelRotation,
          },
        ]),
      ),
    )
    drawMs.value = performance.now() - t0
  }

  // `build` runs when the chart draws, not when its inputs change: a change only asks for a draw
  // (so an idle chart costs nothing until then), and what build reads then is what the next
  // change is watched on.
  const effect = new ReactiveEffect(() => build(chartColours(ui.dark)))
  let alive = true
  let drawn = false
  let last = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  let asked = false

  const draw = (): void => {
    asked = false
    // nothing it reads has changed after all (a computed gave the same value again)
    if (!alive || (drawn && !effect.dirty)) return
    drawn = true
    last = performance.now()
    render(effect.run())
  }
  const drawSoon = (): void => {
    if (asked || !alive) return
    asked = true
    void nextTick(draw)
  }
  effect.scheduler =
    when === 'idle'
      ? () => {
          if (alive) askIdle(draw)
        }
      : () => {
          // while data streams in, at most every REDRAW_MS: the first draw at once, the latest
          // data at the end of the window
          if (timer || asked) return
          const wait = chart.value ? last + REDRAW_MS - performance.now() : 0
          if (wait <= 0) return drawSoon()
          timer = setTimeout(() => {
            timer = null
            drawSoon()
          }, wait)
        }

  onMounted(() => (when === 'idle' ? askIdle(draw) : drawSoon()))
  onBeforeUnmount(() => {
    alive = false
    effect.stop()
    waiting.delete(draw)
    if (timer) clearTimeout(timer)
    timer = null
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
