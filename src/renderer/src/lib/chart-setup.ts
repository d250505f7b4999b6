// chart.js, registered once with only the parts the lab draws (its colours per theme: chart-theme.ts).
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Decimation,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js'
import type { ChartConfiguration, Plugin } from 'chart.js'

/** Paint the canvas background, so an exported PNG is not transparent. */
const background: Plugin<'line' | 'bar' | 'scatter'> = {
  id: 'labBackground',
  beforeDraw(chart, _args, opts: { color?: string }) {
    if (!opts.color) return
    const { ctx, width, height } = chart
    ctx.save()
    ctx.globalCompositeOperation = 'destination-over'
    ctx.fillStyle = opts.color
    ctx.fillRect(0, 0, width, height)
    ctx.restore()
  },
}

/**
 * Error bars: a point with yMin and yMax (raw data, `parsing: false`) gets a vertical whisker with
 * caps between them, in its series' colour — a sweep's 95 % interval over its repetitions. Ends
 * outside the axis (a lower end at or below zero on a log axis) are cut at the plot's edge.
 */
const errorBars: Plugin<'line' | 'bar' | 'scatter'> = {
  id: 'labErrorBars',
  afterDatasetsDraw(chart) {
    const { ctx, chartArea } = chart
    const y = chart.scales.y
    if (!y) return
    const at = (v: number): number =>
      v > 0 || y.type !== 'logarithmic'
        ? Math.min(chartArea.bottom, Math.max(chartArea.top, y.getPixelForValue(v)))
        : chartArea.bottom
    ctx.save()
    chart.data.datasets.forEach((d, i) => {
      const meta = chart.getDatasetMeta(i)
      if (meta.hidden || !chart.isDatasetVisible(i)) return
      ctx.strokeStyle = String(d.borderColor ?? '#888')
      ctx.lineWidth = 1.5
      meta.data.forEach((el, k) => {
        const p = d.data[k] as { yMin?: number; yMax?: number } | null
        if (!p || typeof p !== 'object' || !Number.isFinite(p.yMin) || !Number.isFinite(p.yMax)) return
        const x = el.x
        const top = at(p.yMax!)
        const bottom = at(p.yMin!)
        ctx.beginPath()
        ctx.moveTo(x, top)
        ctx.lineTo(x, bottom)
        ctx.moveTo(x - 4, top)
        ctx.lineTo(x + 4, top)
        ctx.moveTo(x - 4, bottom)
        ctx.lineTo(x + 4, bottom)
        ctx.stroke()
      })
    })
    ctx.restore()
  },
}

let registered = false

export function registerCharts(): void {
  if (registered) return
  registered = true
  Chart.register(
    BarController,
    BarElement,
    CategoryScale,
    Decimation,
    Legend,
    LinearScale,
    LineController,
    LineElement,
    LogarithmicScale,
    PointElement,
    ScatterController,
    Tooltip,
    background,
    errorBars,
  )
  Chart.defaults.animation = false
  Chart.defaults.font.family =
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
  Chart.defaults.font.size = 12
}

/**
 * Draw each kind of chart the lab shows once, small and off the page, in idle moments after start:
 * the first charts of the first run then meet chart.js's code compiled. (Cold, they took 100–150
 * ms each to draw on a two-core machine — long tasks while results come in; after this, 55–85 ms.)
 */
export function warmChartCode(): void {
  if (typeof requestIdleCallback !== 'function') return
  registerCharts()
  const points = Array.from({ length: 400 }, (_, i) => ({ x: i / 10 + 0.1, y: (i * 37) % 50 }))
  const line = (x: Record<string, unknown>): ChartConfiguration<'line'> => ({
    type: 'line',
    data: { datasets: [{ data: points }, { data: points, borderDash: [5, 4] }] },
    options: {
      responsive: false,
      parsing: false,
      normalized: true,
      elements: { point: { radius: 0 } },
      scales: { x, y: { beginAtZero: true } },
      plugins: { decimation: { enabled: true, algorithm: 'lttb', samples: 100 } },
    },
  })
  const configs: ChartConfiguration<'line' | 'scatter' | 'bar'>[] = [
    line({ type: 'linear', min: 0 }),
    line({ type: 'logarithmic' }),
    {
      type: 'scatter',
      data: { datasets: [{ data: points, pointStyle: 'rect', pointRadius: 1.5 }, { data: points }] },
      options: { responsive: false, parsing: false, normalized: true },
    },
    {
      type: 'bar',
      data: { labels: ['a', 'b'], datasets: [{ data: [1, 2] }, { data: [2, 1] }] },
      options: { responsive: false },
    },
  ]
  const canvas = document.createElement('canvas')
  canvas.width = 400
  canvas.height = 200
  // one chart per idle moment, so that warming up is no long task either
  const next = (): void => {
    const cfg = configs.shift()
    if (!cfg) return
    try {
      new Chart(canvas, cfg as ChartConfiguration).destroy()
    } catch {
      return // only a warm-up: the real charts will say what is wrong
    }
    requestIdleCallback(next, { timeout: 2000 })
  }
  requestIdleCallback(next, { timeout: 2000 })
}

export { Chart }
