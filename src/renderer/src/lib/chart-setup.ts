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
import type { Plugin } from 'chart.js'

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

export { Chart }
