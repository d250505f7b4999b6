// A small, safe reading of the gallery's Markdown pages: headings, paragraphs, lists, tables,
// fenced code, and inline code, bold, italic and links. It produces data, never HTML: the page
// component renders the pieces as elements, so nothing in a page can become markup or script.

/** A run of text with its emphasis; a link keeps its address only when it is http(s). */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string | null; children: Inline[] }

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4; inline: Inline[] }
  | { kind: 'paragraph'; inline: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'table'; head: Inline[][]; rows: Inline[][][] }
  | { kind: 'code'; text: string }

const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/
/** A list that may start inside a paragraph: bullets, or numbers from 1 (a line `67. If …` goes on the paragraph). */
const INTERRUPTS = /^\s*([-*+]|1[.)])\s+/
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/

/** The page's blocks, in order. */
export function parseMarkdown(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const blocks: Block[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (!line.trim()) {
      i++
      continue
    }
    if (/^\s*```/.test(line)) {
      const body: string[] = []
      i++
      while (i < lines.length && !/^\s*```/.test(lines[i])) body.push(lines[i++])
      i++
      blocks.push({ kind: 'code', text: body.join('\n') })
      continue
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)
    if (h) {
      const level = Math.min(4, h[1].length) as 1 | 2 | 3 | 4
      blocks.push({ kind: 'heading', level, inline: parseInline(h[2]) })
      i++
      continue
    }
    if (line.trim().startsWith('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])) {
      const head = cells(line)
      const rows: Inline[][][] = []
      i += 2
      while (i < lines.length && lines[i].trim().startsWith('|')) rows.push(cells(lines[i++]))
      blocks.push({ kind: 'table', head, rows })
      continue
    }
    const item = LIST_ITEM.exec(line)
    if (item) {
      const ordered = /\d/.test(item[1])
      const items: string[] = []
      while (i < lines.length && lines[i].trim()) {
        const m = LIST_ITEM.exec(lines[i])
        if (m) items.push(lines[i].slice(m[0].length).trim())
        // a continuation line belongs to the item above it
        else items[items.length - 1] += ` ${lines[i].trim()}`
        i++
      }
      blocks.push({ kind: 'list', ordered, items: items.map(parseInline) })
      continue
    }
    const para: string[] = []
    while (
      i < lines.length &&
      lines[i].trim() &&
      !/^(#{1,6}\s|\s*```)/.test(lines[i]) &&
      !(para.length > 0 && INTERRUPTS.test(lines[i]))
    )
      para.push(lines[i++].trim())
    blocks.push({ kind: 'paragraph', inline: parseInline(para.join(' ')) })
  }
  return blocks
}

function cells(line: string): Inline[][] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => parseInline(c.trim()))
}

/** Inline code, **bold**, *italic* / _italic_, [links](http…); everything else is text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = []
  let plain = ''
  let i = 0
  while (i < text.length) {
    const hit = inlineAt(text.slice(i), text[i - 1] ?? '')
    if (!hit) {
      plain += text[i++]
      continue
    }
    if (plain) out.push({ kind: 'text', text: plain })
    plain = ''
    out.push(hit.node)
    i += hit.length
  }
  if (plain) out.push({ kind: 'text', text: plain })
  return out
}

/** The inline element that starts `rest` (after the character `prev`), if any. */
function inlineAt(rest: string, prev: string): { node: Inline; length: number } | null {
  let m: RegExpExecArray | null
  if ((m = /^`([^`]+)`/.exec(rest))) return { node: { kind: 'code', text: m[1] }, length: m[0].length }
  if ((m = /^\*\*(.+?)\*\*/.exec(rest)))
    return { node: { kind: 'strong', children: parseInline(m[1]) }, length: m[0].length }
  if ((m = /^\[([^\]]+)\]\(([^)\s]*)\)/.exec(rest))) {
    const href = /^https?:\/\//i.test(m[2]) ? m[2] : null
    return { node: { kind: 'link', href, children: parseInline(m[1]) }, length: m[0].length }
  }
  // `_` emphasis only at a word's start, so snake_case names stay as they are
  if (
    (m = /^\*(?!\s)([^*]+?)\*/.exec(rest)) ||
    (!/[A-Za-z0-9]/.test(prev) && (m = /^_(?!\s)([^_]+?)_(?![A-Za-z0-9])/.exec(rest)))
  )
    return { node: { kind: 'em', children: parseInline(m[1]) }, length: m[0].length }
  return null
}
