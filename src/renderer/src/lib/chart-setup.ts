// chart.js, registered once with only the parts the lab draws, and its colours per theme.
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

export interface ChartColours {
  text: string
  muted: string
  grid: string
  background: string
}

export function chartColours(dark: boolean): ChartColours {
  return dark
    ? { text: '#e3e5e8', muted: '#9aa0aa', grid: 'rgba(255,255,255,0.09)', background: '#1f2227' }
    : { text: '#1d1f23', muted: '#60656f', grid: 'rgba(0,0,0,0.08)', background: '#ffffff' }
}

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
