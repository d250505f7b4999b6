// The gallery pages' Markdown, read into data (never HTML): blocks, inline emphasis, safe links.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseInline, parseMarkdown } from '../../src/renderer/src/lib/markdown'

describe('the page reader', () => {
  it('reads headings, paragraphs over several lines, lists with continuations, tables and code', () => {
    const blocks = parseMarkdown(
      [
        '# Title',
        '',
        'One paragraph',
        'over two lines.',
        '',
        '- first item',
        '  continued',
        '- second',
        '',
        '1. one',
        '2. two',
        '',
        '| test | MB/s |',
        '|---|--:|',
        '| lmdd | 37 |',
        '',
        '```',
        '<script>x</script>',
        '```',
      ].join('\n'),
    )
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'table', 'code'])
    expect(blocks[1]).toEqual({
      kind: 'paragraph',
      inline: [{ kind: 'text', text: 'One paragraph over two lines.' }],
    })
    expect(blocks[2]).toMatchObject({
      ordered: false,
      items: [[{ text: 'first item continued' }], [{ text: 'second' }]],
    })
    expect(blocks[3]).toMatchObject({ ordered: true })
    expect(blocks[4]).toMatchObject({
      head: [[{ text: 'test' }], [{ text: 'MB/s' }]],
      rows: [[[{ text: 'lmdd' }], [{ text: '37' }]]],
    })
    expect(blocks[5]).toEqual({ kind: 'code', text: '<script>x</script>' })
  })

  it('reads code, bold, italic and links inline; leaves snake_case and lone stars as text', () => {
    expect(parseInline('a `b_c` **bold _it_** _em_ x_y 3 * 4 [l](https://e.org/x)')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'b_c' },
      { kind: 'text', text: ' ' },
      {
        kind: 'strong',
        children: [
          { kind: 'text', text: 'bold ' },
          { kind: 'em', children: [{ kind: 'text', text: 'it' }] },
        ],
      },
      { kind: 'text', text: ' ' },
      { kind: 'em', children: [{ kind: 'text', text: 'em' }] },
      { kind: 'text', text: ' x_y 3 * 4 ' },
      { kind: 'link', href: 'https://e.org/x', children: [{ kind: 'text', text: 'l' }] },
    ])
  })

  it('goes on with a paragraph at a line that starts with a number other than 1', () => {
    const blocks = parseMarkdown('cylinders 98, 183, 65,\n67. If the head\n- a list\n\ntext\n1. a list')
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'list', 'paragraph', 'list'])
    expect(blocks[0]).toEqual({
      kind: 'paragraph',
      inline: [{ kind: 'text', text: 'cylinders 98, 183, 65, 67. If the head' }],
    })
  })

  it('keeps a link’s address only when it is http(s)', () => {
    expect(parseInline('[x](javascript:alert(1))')[0]).toMatchObject({ kind: 'link', href: null })
    expect(parseInline('[x](docs/a.md)')[0]).toMatchObject({ kind: 'link', href: null })
  })

  it('reads every gallery page without leaving Markdown marks in headings or tables', () => {
    const dir = join(import.meta.dirname, '../../gallery')
    for (const name of ['row-vs-cfq-emmc-2012', 'textbook-disk-scheduling', 'dd-under-cpu-load-1997']) {
      const blocks = parseMarkdown(readFileSync(join(dir, `${name}.md`), 'utf8'))
      expect(blocks[0].kind, name).toBe('heading')
      const tables = blocks.filter((b) => b.kind === 'table')
      for (const t of tables) if (t.kind === 'table') expect(JSON.stringify(t)).not.toContain('---')
    }
  })
})
