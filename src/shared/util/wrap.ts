/**
 * A number and the unit after it (`99 %`, `4,074 ms`, `2.5 MB/s`): one word for wrapping, so that
 * no line ends on a figure whose unit starts the next.
 */
const FIGURE_UNIT = /(\d) (%|×|[nµm]?s|[KMGT]i?B(?:\/s)?|IOPS|MB\/s)(?=$|[\s,.;:)])/g
const KEPT = '\u0000'

/** Text wrapped at word boundaries into lines of at most `width` characters (longer words stay whole). */
export function wrap(text: string, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const w of text.replace(FIGURE_UNIT, `$1${KEPT}$2`).split(/\s+/)) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line)
      line = w
    } else line = line ? `${line} ${w}` : w
  }
  if (line) lines.push(line)
  return lines.join('\n').replaceAll(KEPT, ' ')
}
