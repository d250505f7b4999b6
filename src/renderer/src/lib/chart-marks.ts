// A series' look in chart.js: its colour, and for a variant past its scheduler's shades its mark
// (src/shared/report/marks.ts) — the mark's dash on a line, its marker every few points and in the
// legend, its shape tiled over a bar — so that every row shown together looks different in every
// chart as in the table.
import type { ChartConfiguration, ChartType, LegendItem, PointStyle, ScriptableContext } from 'chart.js'
import { markOf } from '../../../shared/report/marks'
import { Chart } from './chart-setup'
import type { RowStyle } from './colours'

/** About this many markers along a line. */
const MARKERS_PER_LINE = 12

/** The chart.js settings of a line series' look. */
export interface LineLook {
  borderColor: string
  backgroundColor: string
  /** The mark, for the legend and for the page to read (data-series). */
  mark?: number
  borderDash?: number[]
  pointStyle?: PointStyle
  pointRadius?: (ctx: ScriptableContext<'line'>) => number
  pointBorderWidth?: number
}

/**
 * A line series in `style`: plain for mark 0; else dashed (unless `dash` is false: the chart's
 * dash says something else, as the throughput chart's writes) with markers every few points.
 */
export function lineLook(style: RowStyle, opts: { dash?: boolean } = {}): LineLook {
  const look: LineLook = { borderColor: style.colour, backgroundColor: style.colour }
  if (style.mark === 0) return look
  const m = markOf(style.mark)
  return {
    ...look,
    mark: style.mark,
    ...(opts.dash === false ? {} : { borderDash: [...m.dash] }),
    pointStyle: m.point as PointStyle,
    pointBorderWidth: 1.5,
    pointRadius: (ctx) => {
      const k = Math.max(1, Math.ceil(ctx.dataset.data.length / MARKERS_PER_LINE))
      // shifted by the mark, so that two marked lines' markers do not sit on one another
      return (ctx.dataIndex + style.mark) % k === 0 ? 4 : 0
    },
  }
}

/**
 * A bar's fill in `style`: its colour, and for a mark its marker's shape tiled over it in the
 * chart's background colour (as the table's swatch is cut to that shape).
 */
export function barFill(style: RowStyle, background: string): string | CanvasPattern {
  if (style.mark === 0 || typeof document === 'undefined') return style.colour
  const size = 12
  const tile = document.createElement('canvas')
  tile.width = tile.height = size
  const ctx = tile.getContext('2d')
  if (!ctx) return style.colour
  ctx.fillStyle = style.colour
  ctx.fillRect(0, 0, size, size)
  ctx.fillStyle = ctx.strokeStyle = background
  ctx.lineWidth = 1.5
  const c = size / 2
  ctx.beginPath()
  switch (markOf(style.mark).point) {
    case 'triangle':
      ctx.moveTo(c, c - 3)
      ctx.lineTo(c + 3, c + 2.5)
      ctx.lineTo(c - 3, c + 2.5)
      ctx.fill()
      break
    case 'circle':
      ctx.arc(c, c, 2.5, 0, 2 * Math.PI)
      ctx.fill()
      break
    case 'rectRot':
      ctx.moveTo(c, c - 3.5)
      ctx.lineTo(c + 3.5, c)
      ctx.lineTo(c, c + 3.5)
      ctx.lineTo(c - 3.5, c)
      ctx.fill()
      break
    default:
      ctx.moveTo(c - 3, c - 3)
      ctx.lineTo(c + 3, c + 3)
      ctx.moveTo(c + 3, c - 3)
      ctx.lineTo(c - 3, c + 3)
      ctx.stroke()
  }
  return ctx.createPattern(tile, 'repeat') ?? style.colour
}

/** A bar series in `style`: filled by barFill, outlined in its colour, its mark for the page to read. */
export function barLook(
  style: RowStyle,
  background: string,
): { backgroundColor: string | CanvasPattern; borderColor: string; mark?: number } {
  const look = { backgroundColor: barFill(style, background), borderColor: style.colour }
  return style.mark ? { ...look, mark: style.mark } : look
}

/**
 * The legend of a line chart with marked series: each key its series' marker (a plain series a
 * short line), solid, so that a key shows what its line carries. Nothing for charts without marks.
 */
export function markLegend(cfg: ChartConfiguration<ChartType>): Record<string, unknown> {
  const sets = cfg.data.datasets as { mark?: number }[]
  if (cfg.type !== 'line' || !sets.some((d) => d.mark)) return {}
  return {
    usePointStyle: true,
    // a key about 10 px across (chart.js sizes a point key by the box's height; a width would
    // stretch a circle into an ellipse)
    boxHeight: 7,
    generateLabels: (chart: Chart): LegendItem[] =>
      Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => {
        const mark = (chart.data.datasets[item.datasetIndex ?? 0] as { mark?: number } | undefined)?.mark
        return mark
          ? { ...item, pointStyle: markOf(mark).point as PointStyle, lineDash: [], lineWidth: 1.5 }
          : { ...item, pointStyle: 'line' as PointStyle, lineWidth: 3 }
      }),
  }
}
