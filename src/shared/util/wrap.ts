/** Text wrapped at word boundaries into lines of at most `width` characters (longer words stay whole). */
export function wrap(text: string, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const w of text.split(/\s+/)) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line)
      line = w
    } else line = line ? `${line} ${w}` : w
  }
  if (line) lines.push(line)
  return lines.join('\n')
}
